// Rule table: the manifest validator's checks S<n> (schema), W<n> (workload rows), E<n> (effects),
// P<n> (parity with the paired Intent kernel) and the loader's L<n> (see rule.h). Examples are one
// family file each (tests/rules/test_manifest_examples.cpp: `# NAME.yaml` on the first line names
// the file, `# types.yaml` makes it the ADT file; a parity example's `args` is its paired kernel).
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "L1",
     .family = Family::ManifestCheck,
     .title = "a family file is a mapping of op name to spec",
     .text = "A family file (`<family>.yaml`) must parse as YAML and hold one mapping: each key an op name, each\n"
             "value that op's spec. A file that does not parse, or whose top level is a list, a scalar or nothing\n"
             "(a file of comments only), is rejected before anything in it is read. The same ID reports a\n"
             "types.yaml that does not parse and a path that does not exist or cannot be read.",
     .lang = Lang::Yaml,
     .example = "- CopyFwdOp:\n"
                "    family: copy\n"
                "    status: spec-only\n"
                "    signature:\n"
                "      forall: {N: Dim}\n"
                "      inputs:\n"
                "        x: {dtype: float32, shape: \"[N]\"}\n"
                "      outputs:\n"
                "        y: {dtype: float32, shape: \"[N]\"}\n"
                "    workloads:\n"
                "    - {N: 4, label: small}\n"
                "    roofline: {flops: \"N\"}\n",
     .fix = "Write the ops as the keys of one top-level mapping (`CopyFwdOp:` at column 0), not as list items.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L2",
     .family = Family::ManifestCheck,
     .title = "a family file is not empty",
     .text = "A family file holds at least one op. An empty mapping (`{}`) is rejected: it is usually a file left\n"
             "behind after its ops moved, and it would silently contribute nothing. (A file of comments only is\n"
             "no mapping at all and gets L1.)",
     .lang = Lang::Yaml,
     .example = "# copy.yaml\n"
                "{}\n",
     .fix = "Put the family's ops in the file, or delete the file.",
     .fixed = "# copy.yaml\n"
              "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L3",
     .family = Family::ManifestCheck,
     .title = "every entry names its family",
     .text = "Every entry of a family file has a string field `family`, the family the op belongs to, which also\n"
             "names the file it lives in (`family: gemm` in gemm.yaml or a shard gemm_<part>.yaml). An entry\n"
             "without one cannot be placed; the schema check reports the missing field as well (S10).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Add `family: <name>` to the entry, the family whose file it is in.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L4",
     .family = Family::ManifestCheck,
     .title = "an op's family matches its file name",
     .text = "Ops of family `f` live in `f.yaml` or in a shard `f_<part>.yaml`: the file's stem equals the\n"
             "family, or starts with it followed by `_`. Tools find an op's family file by this name, so an entry\n"
             "whose `family` differs from its file is an error at the `family` field.",
     .lang = Lang::Yaml,
     .example = "# elementwise.yaml\n"
                "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Rename the file after the family (`copy.yaml` or `copy_<part>.yaml`), or correct the entry's\n"
            "`family`.",
     .fixed = "# copy.yaml\n"
              "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L5",
     .family = Family::ManifestCheck,
     .title = "a file holds the ops of one family",
     .text = "All ops of a family file belong to one family. A shard may hold any family its name allows —\n"
             "`copy_fast.yaml` fits both `copy` and `copy_fast` — but only one of them: a family is split into\n"
             "shards by file, never a file into families.",
     .lang = Lang::Yaml,
     .example = "# copy_fast.yaml\n"
                "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n"
                "CopyFastFwdOp:\n"
                "  family: copy_fast\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Give every op of the file the same family, or move the other family's ops to a file of their own\n"
            "(here `copy.yaml`).",
     .fixed = "# copy_fast.yaml\n"
              "CopyFwdOp:\n"
              "  family: copy_fast\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"
              "CopyFastFwdOp:\n"
              "  family: copy_fast\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L6",
     .family = Family::ManifestCheck,
     .title = "op names are unique",
     .text = "An op name (the key of its entry) names exactly one spec among all the files loaded, whether the\n"
             "two definitions are in one file (the same YAML key twice) or in two. The second definition is\n"
             "reported with the location of the first and is not read.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n"
                "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: implemented\n",
     .fix = "Delete or rename one of the two entries; to cover more sizes or dtypes of one op, add workload rows\n"
            "to the single entry.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "L7",
     .family = Family::ManifestCheck,
     .title = "types.yaml is exactly {adts: ...}",
     .text = "types.yaml, the file of ADTs shared by all specs, has exactly one top-level key, `adts`, mapping\n"
             "each ADT name to its constructors (`{sum: {ctor: {python, fields, invariant}}}`). ADTs written at\n"
             "the top level without the `adts:` wrapper, or any other top-level key, are rejected, and no ADT of\n"
             "the file is loaded.",
     .lang = Lang::Yaml,
     .example = "# types.yaml\n"
                "Layout:\n"
                "  sum:\n"
                "    dense: {python: mylib.layouts.Dense}\n"
                "    strided: {python: mylib.layouts.Strided, fields: {stride: Dim}}\n",
     .fix = "Put every ADT under one top-level `adts:` key and remove any other top-level key.",
     .fixed = "# types.yaml\n"
              "adts:\n"
              "  Layout:\n"
              "    sum:\n"
              "      dense: {python: mylib.layouts.Dense}\n"
              "      strided: {python: mylib.layouts.Strided, fields: {stride: Dim}}\n",
     .parent = "M9"},
    {.id = "S1",
     .family = Family::ManifestCheck,
     .title = "an op key is a class name ending in FwdOp or BwdOp",
     .text = "The key of an op spec is the name of the op's class: a capital letter, then letters and digits,\n"
             "ending in `FwdOp` or `BwdOp` (`GemmFwdOp`, `SoftmaxBwdOp`). The name also pairs the op with its\n"
             "Intent kernel (`kernels/GemmFwdOp.kir` holding `kernel @GemmFwdOp`). Snake case, a missing\n"
             "direction suffix, or a key that is no string (a number, a list) is rejected.",
     .lang = Lang::Yaml,
     .example = "copy_op:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Write the key as the class name, in CamelCase with the direction suffix: `CopyFwdOp`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S2",
     .family = Family::ManifestCheck,
     .title = "variant words come before the direction suffix",
     .text = "A variant of an op keeps the direction suffix last: `GemmPagedFwdOp`, not `GemmFwdOpPaged`, so\n"
             "every op name ends in `FwdOp` or `BwdOp` and variants sort next to their base op. A key with words\n"
             "after the suffix is rejected, and the message suggests the reordered name.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOpStrided:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Move the variant word before the suffix, as the message suggests: `CopyStridedFwdOp`.",
     .fixed = "CopyStridedFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S3",
     .family = Family::ManifestCheck,
     .title = "the family is an identifier",
     .text = "`family` names a group of ops, their file (`<family>.yaml`) and the module of their\n"
             "implementations, so it must be an identifier: letters, digits and `_`, not starting with a digit.\n"
             "Hyphens, dots and spaces are rejected.",
     .lang = Lang::Yaml,
     .example = "# my-copy.yaml\n"
                "CopyFwdOp:\n"
                "  family: my-copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Use `_` where the name has `-`, and name the file the same way: `family: my_copy` in\n"
            "`my_copy.yaml`.",
     .fixed = "# my_copy.yaml\n"
              "CopyFwdOp:\n"
              "  family: my_copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S5",
     .family = Family::ManifestCheck,
     .title = "a signature section is a mapping",
     .text = "The sections of a signature that declare names — `forall`, `params`, `inputs`, `outputs`, `types`\n"
             "and `let` — are mappings from each name to its declaration, in declaration order (the order that\n"
             "kernel parameters and calls follow). A list of `{name: ...}` items or a scalar is rejected, and the\n"
             "section's declarations are not read. (`shape_rules` and `dtype_combos` are lists.)",
     .lang = Lang::Yaml,
     .example = "ScaleFwdOp:\n"
                "  family: scale\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "    - {name: factor, type: int, default: 2}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Write the section as a mapping keyed by the declared names: `factor: {type: int, default: 2}`.",
     .fixed = "ScaleFwdOp:\n"
              "  family: scale\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      factor: {type: int, default: 2}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S6",
     .family = Family::ManifestCheck,
     .title = "no unknown keys in a signature, a param, a tensor or a type family",
     .text = "Each part of a signature admits a fixed set of keys, and a key outside it is an error, not ignored:\n"
             "the signature's sections; a param's `type`, `default` and `kw_only`; a type family's `params`,\n"
             "`match` and `cases`; and a tensor's keys by role — every tensor `dtype`, `shape`, `contiguous`;\n"
             "inputs and construction-time tensors also `optional`, `device`, `values`, `requires`; inputs also\n"
             "`mutated`, `write_only`; outputs also `nullable`, `buffer`, `alias`. So an output is never\n"
             "`optional` (it is `nullable: <expr>`). The message suggests the closest allowed key.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Remove the key or use the one the role allows (an output that may be None takes `nullable:\n"
            "\"<condition>\"`).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S7",
     .family = Family::ManifestCheck,
     .title = "tensor fields have the right value types",
     .text = "A tensor's fields take values of fixed types: `contiguous` and `write_only` a bool; `optional` and\n"
             "`mutated` a bool or a condition string; `nullable` a condition string; `device` the string `cpu`;\n"
             "`values` a generator call string; `requires` a list of predicate call strings; `buffer` the string\n"
             "`out`; `alias` an input name. A value of another type (`contiguous: 1`) is rejected, not converted.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\", contiguous: 1}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Write the value in the field's type: `contiguous: true`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\", contiguous: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S8",
     .family = Family::ManifestCheck,
     .title = "a composition has well-formed stages",
     .text = "`composition` records the sub-ops and kernels a composite op's implementation may hold: a mapping\n"
             "with `kind: composite` and a non-empty list of `stages`. Each stage is a mapping with a unique\n"
             "non-empty `name` and exactly one of `op` (a manifest entry) or `kernel` (a non-empty kernel name),\n"
             "plus an optional bool `optional` for stages not every call holds. Unknown keys anywhere in it are\n"
             "rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n"
                "  composition:\n"
                "    kind: composite\n"
                "    stages:\n"
                "    - {name: main}\n",
     .fix = "Give each stage exactly one of `op: <OpName>` and `kernel: <name>`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"
              "  composition:\n"
              "    kind: composite\n"
              "    stages:\n"
              "    - {name: main, kernel: copy_kernel}\n",
     .parent = "M19"},
    {.id = "S9",
     .family = Family::ManifestCheck,
     .title = "ref_api is a qualified name",
     .text = "`ref_api` (optional) names the reference implementation an op is compared with, as a dotted Python\n"
             "name with at least one dot (`torch.clone`, `torch.nn.functional.softmax`). A bare name or a value\n"
             "that is no string is rejected. kir checks the form only; it does not import the name.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  ref_api: clone\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Write the qualified name, module included: `ref_api: torch.clone`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  ref_api: torch.clone\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S10",
     .family = Family::ManifestCheck,
     .title = "an op spec has all required fields",
     .text = "Every op spec has `family`, `status`, `signature`, `workloads` and `roofline`. Each missing field\n"
             "is reported at the op's key, and the checks that need it are skipped (a spec without `workloads` is\n"
             "never instantiated, one without `roofline` has no cost model).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n",
     .fix = "Add the missing field; here `roofline: {flops: \"N\"}`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S11",
     .family = Family::ManifestCheck,
     .title = "no unknown or legacy top-level fields",
     .text = "An op spec's top-level keys are `family`, `status`, `signature`, `workloads`, `roofline`, `ref_api`\n"
             "and `composition`. Any other key is an error (with a suggestion when it is close to one of them).\n"
             "`source` is a legacy key of older manifests and is rejected with its own message: an op is paired\n"
             "with its implementation by name (`kernels/<Op>.kir`), not by a field.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  source: {kernel: tileops.kernels.copy}\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Delete the key (here `source`); the kernel is found by the op's name.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S12",
     .family = Family::ManifestCheck,
     .title = "fields have their YAML types",
     .text = "A field that holds an expression (a dtype, a rule, a let, a roofline formula, a condition) is a\n"
             "string; an op spec is a mapping; `family` is a string. A list or a mapping where a string is\n"
             "expected is rejected with the type found, and the checks that read the field are skipped. An entry\n"
             "that cannot be read at all is reported as malformed. Quote expressions that YAML would read as a\n"
             "list or a mapping.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: [N]}\n",
     .fix = "Write the formula as a string: `flops: \"N\"`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S13",
     .family = Family::ManifestCheck,
     .title = "status is implemented or spec-only",
     .text = "`status` is `implemented` — the op has an implementation, and its optional tensors must each be\n"
             "passed and omitted by some workload row (W23) — or `spec-only`, a spec written ahead of its\n"
             "implementation. Any other value is rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: done\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Use one of the two values: `status: spec-only` (or `implemented` once the op has an\n"
            "implementation).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "S14",
     .family = Family::ManifestCheck,
     .title = "the roofline is well-formed",
     .text = "`roofline` is a mapping with exactly one of `flops` (then optionally `bytes`) — inline formulas\n"
             "over the op's indices, params and lets — or `func: tileops.perf.formulas.<name>`, which cannot be\n"
             "combined with `bytes`. A formula must parse, stay in the expression language and be a number;\n"
             "`bytes(t)` and `present(t)` take a single tensor name. A formula that raises for a workload row is\n"
             "reported for that row.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\", func: tileops.perf.formulas.copy}\n",
     .fix = "Keep one cost model: the inline `flops` (and `bytes`) formulas, or the `func`, not both.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M17"},
    {.id = "S15",
     .family = Family::ManifestCheck,
     .title = "ADTs in types.yaml are well-formed",
     .text = "In types.yaml, `adts` maps each ADT name (an identifier) to exactly `{sum: {...}}`, a non-empty\n"
             "mapping of constructors. A constructor (an identifier) has only `python` (a `module.Class` name,\n"
             "required), `fields` and `invariant`. A field is an identifier whose kind is `Dim`, `Int`, `Bool` or\n"
             "an enum of quoted literals (`\"'tight' | 'aligned'\"`), written directly or as `{type, python}`; an\n"
             "invariant is a Bool expression over the constructor's fields.",
     .lang = Lang::Yaml,
     .example = "# types.yaml\n"
                "adts:\n"
                "  Layout:\n"
                "    sum:\n"
                "      dense: {python: mylib.layouts.Dense}\n"
                "      strided: {python: mylib.layouts.Strided, fields: {strides: Shape}}\n",
     .fix = "Give the field a finite or integer kind (`stride: Dim`); a shape-valued property belongs in a\n"
            "tensor's shape, not in an ADT field.",
     .fixed = "# types.yaml\n"
              "adts:\n"
              "  Layout:\n"
              "    sum:\n"
              "      dense: {python: mylib.layouts.Dense}\n"
              "      strided: {python: mylib.layouts.Strided, fields: {stride: Dim}}\n",
     .parent = "M9"},
    {.id = "W1",
     .family = Family::ManifestCheck,
     .title = "the entry plan can be built",
     .text = "The signature-level checks and the workload rows work on the op's read signature: its names, kinds\n"
             "and declarations. When the signature could not be read at all (it is missing or not a mapping), or\n"
             "a param's type is malformed, the op's plan cannot be built and those checks are skipped; this\n"
             "message marks the op as unchecked, next to the error that caused it.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature: \"(x: float32[N]) -> float32[N]\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Fix the error reported with it; here write `signature` as a mapping of sections (`forall`,\n"
            "`inputs`, `outputs`, ...).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n"},
    {.id = "W2",
     .family = Family::ManifestCheck,
     .title = "a tensor with requires has values",
     .text = "`requires` lists predicates on the contents of a metadata tensor (offsets, indices, lengths). They\n"
             "are checked on the contents the tensor's generator (`values`) produces for each workload row, so a\n"
             "tensor that declares `requires` must declare `values` too.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Add a generator that produces contents satisfying the predicates (here `values: \"prefix_sum(lens)\"`\n"
            "for `prefix_offsets(S)`), or drop the `requires`.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M15"},
    {.id = "W3",
     .family = Family::ManifestCheck,
     .title = "values and requires are keyword-free calls of built-ins",
     .text = "A tensor's `values` is one call of a built-in generator (`prefix_sum(lens)`, `chunk_indices(lens,\n"
             "c)`, `sample_indices(n, hi)`, ...) and each `requires` entry one call of a built-in predicate\n"
             "(`prefix_offsets(S)`, `in_range(lo, hi)`, ...), with positional arguments only. Unknown functions,\n"
             "keyword arguments and other expressions are rejected. The sets are fixed: specs/src/generators.cpp\n"
             "and specs/src/predicates.cpp list them with their domains.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sums(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Call a built-in generator by its exact name (`prefix_sum`), with positional arguments.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M14"},
    {.id = "W4",
     .family = Family::ManifestCheck,
     .title = "generator and predicate arguments use declared names",
     .text = "The arguments of a generator or a predicate are expressions over declared names: forall indices,\n"
             "params and lets — and, in `requires`, the names of other generated tensors, whose contents the\n"
             "predicate reads. An undeclared name, or an expression outside the expression language, is rejected.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(T)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Use a declared name (here `S`, the length the offsets must end at), or declare the index in\n"
            "`forall`.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M14"},
    {.id = "W5",
     .family = Family::ManifestCheck,
     .title = "generator and predicate arguments have the right number and kinds",
     .text = "Each generator and predicate takes a fixed number of positional arguments of fixed kinds: a\n"
             "sequence of integers (a `Seq[Int]` index, a list, or another generated tensor's contents), an\n"
             "integer, a string, or an ADT value. A call with too few or too many arguments, or with an argument\n"
             "of another kind (a `Dim` where a `Seq[Int]` is expected), is rejected.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(S)\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Pass what the generator takes: `prefix_sum` takes one `Seq[Int]`, the lengths `lens`, not the total\n"
            "`S`.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M14"},
    {.id = "W6",
     .family = Family::ManifestCheck,
     .title = "a cross-tensor requires reads a tensor that is present",
     .text = "A predicate may read another generated tensor (`exclusive_prefix_of(sizes)`) and so constrain the\n"
             "two together. Wherever the constrained tensor is present, the tensor it reads must be present too,\n"
             "at every discriminant point (each combination of optional-input presence and Bool, enum and ADT\n"
             "params); otherwise the predicate has nothing to read in those calls.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      starts: {dtype: int32, shape: \"[NS]\", values: \"exclusive_prefix_sum(lens)\", requires: [\"exclusive_prefix_of(sizes)\"]}\n"
                "      sizes: {dtype: int32, shape: \"[NS]\", values: \"as_tensor(lens)\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], some: [sizes], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Make the read tensor present wherever the constrained one is: required, or optional under the same\n"
            "condition (`optional: \"present(starts)\"`); here `sizes` becomes required.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      starts: {dtype: int32, shape: \"[NS]\", values: \"exclusive_prefix_sum(lens)\", requires: [\"exclusive_prefix_of(sizes)\"]}\n"
              "      sizes: {dtype: int32, shape: \"[NS]\", values: \"as_tensor(lens)\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M15"},
    {.id = "W7",
     .family = Family::ManifestCheck,
     .title = "a predicate reads a tensor of its rank",
     .text = "Most predicates read the constrained tensor at a fixed rank (`prefix_offsets`, `sums_to`,\n"
             "`exclusive_prefix_of` rank 1; `indices_within` rank 2); element-wise ones (`in_range`) accept any\n"
             "rank. The tensor's declared shape must have that rank, and a fixed one: a shape with a splice\n"
             "(`[*S]`) has no fixed rank for a fixed-rank predicate.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"indices_within(lens)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Use a predicate of the tensor's rank (here `prefix_offsets(S)` on the rank-1 offsets), or declare\n"
            "the shape the predicate reads.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M15"},
    {.id = "W8",
     .family = Family::ManifestCheck,
     .title = "workloads is a non-empty list",
     .text = "`workloads` is a list of rows, each a concrete call of the op that instantiation, tests and\n"
             "benchmarks use. An op has at least one row; an empty list, a mapping or a scalar is rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads: []\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Add at least one row: `- {N: 4, label: small}`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W9",
     .family = Family::ManifestCheck,
     .title = "a workload row has a label and well-formed some and dtype_cases",
     .text = "A row is a mapping with a `label` of letters, digits, `.`, `_` and `-` (at most 28 characters):\n"
             "labels name the generated cases and their files. `some` is a list naming, once each, the `optional:\n"
             "true` inputs the row passes (inputs whose `optional` is a condition follow it and are not listed);\n"
             "`dtype_cases`, when given, is a non-empty list of non-empty mappings from DType index to dtype.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: first row}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Use `-` or `_` instead of spaces in the label: `label: first-row`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: first-row}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W10",
     .family = Family::ManifestCheck,
     .title = "row keys are indices or params",
     .text = "Besides `label`, `some` and `dtype_cases`, a row's keys are forall indices and params. A key that\n"
             "is neither (a misspelling, an undeclared index, a let, which is always computed) is rejected rather\n"
             "than ignored; a DType index is given in `dtype_cases`, not as a row key.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, M: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Remove the key, or declare it in `forall` if the op really has that dimension.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W11",
     .family = Family::ManifestCheck,
     .title = "row values are values of their kinds",
     .text = "Each value in a row must be a value of its index's kind or its param's type: a `Dim` a non-negative\n"
             "integer, a `Shape` a list of them, a `Seq[Int]` a list of integers (or a call of a list-valued\n"
             "primitive), a param a value of its type (`int | tuple[int, int]`: an int or a pair), an ADT value\n"
             "`{constructor: {field: value}}` with exactly that constructor's fields and its invariant true.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: -4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Give a value of the kind: `N: 4`, a non-negative integer.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W12",
     .family = Family::ManifestCheck,
     .title = "params without a default are given in every row",
     .text = "A param with no `default` has no value unless the row gives one, so every row must give it;\n"
             "otherwise the row is no complete call of the op.",
     .lang = Lang::Yaml,
     .example = "ScaleFwdOp:\n"
                "  family: scale\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      factor: {type: int}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Give the param in the row (`factor: 2`), or declare a `default`.",
     .fixed = "ScaleFwdOp:\n"
              "  family: scale\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      factor: {type: int}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, factor: 2, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W13",
     .family = Family::ManifestCheck,
     .title = "a row lies inside the op's domain",
     .text = "A domain restriction is a `shape_rules` entry that reads only discriminants: presence of optional\n"
             "tensors, Bool and enum params, ADT constructors. It is checked for each row before a type-family\n"
             "branch is chosen, and a row outside it — a combination the op does not accept, such as a clamp with\n"
             "neither bound — is rejected.",
     .lang = Lang::Yaml,
     .example = "ClampFwdOp:\n"
                "  family: clamp\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      lo: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "      hi: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "    shape_rules:\n"
                "    - \"present(lo) or present(hi)\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Make the row a call the op accepts: here pass one bound (`some: [lo]`).",
     .fixed = "ClampFwdOp:\n"
              "  family: clamp\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      lo: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "      hi: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "    shape_rules:\n"
              "    - \"present(lo) or present(hi)\"\n"
              "  workloads:\n"
              "  - {N: 4, some: [lo], label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M8"},
    {.id = "W14",
     .family = Family::ManifestCheck,
     .title = "a row gives exactly the indices its branch needs",
     .text = "A row gives every index the call reads on the row's branch — in the shapes and dtypes of the\n"
             "tensors present, the rules, the roofline, and the arguments of generators and predicates — and no\n"
             "other: an index used only on another branch (by a tensor the row omits) is left out, and so is an\n"
             "index a generator's result determines (it is solved from the generated tensor's shape).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Add the missing index (`N: 4`), or remove the one the branch does not use.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M4"},
    {.id = "W15",
     .family = Family::ManifestCheck,
     .title = "a dtype case matches the DType indices and dtype_combos",
     .text = "`dtype_cases` assigns exactly the DType indices relevant on the row's branch, each a dtype of its\n"
             "index's set (`T: \"DType[float16 | bfloat16]\"` allows only those two); with `dtype_combos`, each\n"
             "assignment must be one of its rows. A key that is no DType index, a missing or irrelevant index, or\n"
             "a dtype outside the set is rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\"}\n"
                "    inputs:\n"
                "      x: {dtype: T, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: T, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float32}]}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Use a dtype the index allows (`T: float16`), or add the dtype to the index's set if the op supports\n"
            "it.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\"}\n"
              "    inputs:\n"
              "      x: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: T, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float16}]}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M16"},
    {.id = "W16",
     .family = Family::ManifestCheck,
     .title = "generator arguments become known",
     .text = "Instantiation evaluates lets and generators to a fixpoint: each generator runs once its arguments\n"
             "are known (given by the row, computed, or solved from another generated tensor). A generator whose\n"
             "arguments never become known cannot produce its tensor. Every index a generator reads is relevant,\n"
             "so the row must give it (W14); this check catches what is left, such as a name that is declared\n"
             "nowhere (reported with W4).",
     .lang = Lang::Yaml,
     .example = "LengthsFwdOp:\n"
                "  family: lengths\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {B: Dim}\n"
                "    inputs:\n"
                "      lengths: {dtype: int32, shape: \"[B]\", values: \"as_tensor(lens)\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[B]\"}\n"
                "  workloads:\n"
                "  - {B: 2, label: two}\n"
                "  roofline: {flops: \"B\"}\n",
     .fix = "Make every generator argument a declared name the row gives: declare `lens: \"Seq[Int]\"` and give\n"
            "`lens` in the row.",
     .fixed = "LengthsFwdOp:\n"
              "  family: lengths\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {B: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      lengths: {dtype: int32, shape: \"[B]\", values: \"as_tensor(lens)\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[B]\"}\n"
              "  workloads:\n"
              "  - {lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"B\"}\n",
     .parent = "M14"},
    {.id = "W17",
     .family = Family::ManifestCheck,
     .title = "generators produce valid integer tensors of the declared rank",
     .text = "A generated tensor has dtype `int32` or `int64`; its generator's arguments lie in the generator's\n"
             "domain; every generated value fits the dtype; and the result has the rank of the declared shape.\n"
             "Each row's generated contents are checked for all of this.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: float32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Declare generated metadata with an integer dtype (`int32`), and keep row values within its range.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M14"},
    {.id = "W18",
     .family = Family::ManifestCheck,
     .title = "refinements hold and shapes resolve for each row",
     .text = "For each row, after lets and generators: every refinement (`shape_rules` entry that reads more than\n"
             "discriminants) is true; every shape axis evaluates to a non-negative integer and every dtype to a\n"
             "registered dtype; exactly one case of each type family matches; and each generated tensor's shape\n"
             "unifies with its declaration (`[B + 10]` needs a result of length at least 10).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "    shape_rules:\n"
                "    - \"N % 8 == 0\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Choose row values that satisfy the rule (`N: 16` for `N % 8 == 0`), or correct the rule.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "    shape_rules:\n"
              "    - \"N % 8 == 0\"\n"
              "  workloads:\n"
              "  - {N: 16, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M14"},
    {.id = "W19",
     .family = Family::ManifestCheck,
     .title = "requires predicates hold on the generated values",
     .text = "Each `requires` predicate is evaluated on the contents the generator produced for the row (the\n"
             "constrained tensor is its implied first argument). A predicate that is false, or that raises, means\n"
             "the generator and the predicate disagree for this row: the calls would violate the op's own\n"
             "contract.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 11, lens: [3, 7], label: two}\n"
                "  roofline: {flops: \"S\"}\n",
     .fix = "Make the row consistent: here `S` is the total of `lens` (3 + 7 = 10), which `prefix_offsets(S)`\n"
            "requires.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, lens: [3, 7], label: two}\n"
              "  roofline: {flops: \"S\"}\n",
     .parent = "M15"},
    {.id = "W20",
     .family = Family::ManifestCheck,
     .title = "re-inference from the inputs agrees with the row",
     .text = "After a row is instantiated, its indices are inferred again from the instantiated input shapes\n"
             "alone, as a real call would, and must equal the row's values. The shapes are computed from the row,\n"
             "so this is a consistency check of instantiation itself (generators, unification, lets): no manifest\n"
             "that passes the other row checks is known to fail it, and there is no minimal invalid manifest to\n"
             "show.",
     .lang = Lang::None,
     .example = "tile.yaml:11:5: [signature] TileFwdOp: row 'small': re-inference gives M=4, the row has 8 [W20, M14]",
     .fix = "Check the shapes that read the index named in the message; if they are consistent with the row,\n"
            "report the manifest as a kir bug.",
     .parent = "M14"},
    {.id = "W22",
     .family = Family::ManifestCheck,
     .title = "case ids are unique",
     .text = "Each instantiated call has a case id: the row's label, then its dtype case values\n"
             "(`small-float16`). Case ids name generated inputs and results, so they are unique within an op: two\n"
             "rows may share a label only if their dtype cases differ.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  - {N: 1024, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Give the second row its own label (`large`).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  - {N: 1024, label: large}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M5"},
    {.id = "W23",
     .family = Family::ManifestCheck,
     .title = "an implemented op's optional tensors are passed and omitted",
     .text = "For an op with `status: implemented`, every tensor whose `optional` is not false (true or a\n"
             "condition) is passed by at least one workload row and omitted by at least one, so both paths of the\n"
             "implementation are exercised.",
     .lang = Lang::Yaml,
     .example = "BiasAddFwdOp:\n"
                "  family: bias\n"
                "  status: implemented\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, some: [bias], label: biased}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Add a row that omits the tensor (and one that passes it, if none does).",
     .fixed = "BiasAddFwdOp:\n"
              "  family: bias\n"
              "  status: implemented\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M6"},
    {.id = "E1",
     .family = Family::ManifestCheck,
     .title = "write_only needs mutated: true",
     .text = "`write_only: true` marks an input that is a result buffer the op overwrites without reading. It is\n"
             "only meaningful on an input the op writes, so it requires `mutated: true` on the same input.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\", write_only: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Add `mutated: true` to the input, or drop `write_only`.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\", mutated: true, write_only: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M13"},
    {.id = "E2",
     .family = Family::ManifestCheck,
     .title = "alias names an input that may be written",
     .text = "`alias: <input>` on an output says that when the op writes that input in place, the output is the\n"
             "input object itself. The named input must exist and may be written: `mutated: true` or a `mutated`\n"
             "condition (not absent or false).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\", alias: x}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Declare the input as written (`mutated: true`, or `mutated: \"inplace\"` for an in-place flag), or\n"
            "remove the alias.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\", mutated: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\", alias: x}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M13"},
    {.id = "E3",
     .family = Family::ManifestCheck,
     .title = "an aliased output declares no buffer",
     .text = "An output that aliases an input is that input's storage; `buffer: out` would give it a second,\n"
             "caller-supplied buffer. The two contradict each other, so an output has at most one of them.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\", mutated: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\", alias: x, buffer: out}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Remove `buffer: out` from the aliased output.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\", mutated: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\", alias: x}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M13"},
    {.id = "E4",
     .family = Family::ManifestCheck,
     .title = "at most one output has buffer: out",
     .text = "`buffer: out` adds one `out` parameter after all inputs, the buffer the caller may pass for that\n"
             "output. A call has one such parameter, so at most one output of an op declares it.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\", buffer: out}\n"
                "      z: {dtype: float32, shape: \"[N]\", buffer: out}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .fix = "Keep `buffer: out` on one output and remove it from the others.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\", buffer: out}\n"
              "      z: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M13"},
    {.id = "P1",
     .family = Family::ManifestCheck,
     .title = "the paired kernel file loads and holds a kernel of the op",
     .text = "An op with a paired kernel file (`kernels/<Op>.kir` beside its manifest file, or in the folder\n"
             "above) is checked against it. The file must parse, normalize and pass `kir verify`, and hold\n"
             "`kernel @<Op>` or dtype-case kernels `@<Op>__<d1>[__<d2>...]` whose suffix names one KIR dtype\n"
             "(`f16`, `bf16`, `f32`, ...) per DType index of the forall, in order, optionally followed by\n"
             "lowercase variant tags.",
     .lang = Lang::Yaml,
     .example = "AddFwdOp:\n"
                "  family: add\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | float32]\", U: \"DType[float16 | float32]\"}\n"
                "    inputs:\n"
                "      a: {dtype: T, shape: \"[N]\"}\n"
                "      b: {dtype: U, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      c: {dtype: T, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float32, U: float32}]}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @AddFwdOp__f32(%a: In<f32[N]>, %b: In<f32[N]>, %c: Out<f32[N]>) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Name one dtype per DType index in the kernel's suffix (`@AddFwdOp__f32__f32`), or, when the op has\n"
            "one dtype for all tensors, give the manifest one DType index.",
     .fixed = "AddFwdOp:\n"
              "  family: add\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | float32]\"}\n"
              "    inputs:\n"
              "      a: {dtype: T, shape: \"[N]\"}\n"
              "      b: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      c: {dtype: T, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float32}]}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M2"},
    {.id = "P2",
     .family = Family::ManifestCheck,
     .title = "kernel parameters are the manifest's entries in order",
     .text = "A paired kernel has one parameter per manifest entry, named like it, in the manifest's order: the\n"
             "inputs (optional ones included), the outputs, then the params a kernel can take (int, bool, float,\n"
             "`int | float`, quoted-literal enums) and construction-time tensors, in declaration order, plus\n"
             "optional presence flags `constexpr %present_<t>: bool`. A missing, extra or misplaced parameter is\n"
             "rejected.",
     .lang = Lang::Yaml,
     .example = "ScaleFwdOp:\n"
                "  family: scale\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @ScaleFwdOp(%x: In<f32[N]>, %y: Out<f32[N]>, %alpha: f32) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Declare the kernel's scalar in the manifest (`alpha: {type: float, default: 1.0}`), or remove it\n"
            "from the kernel.",
     .fixed = "ScaleFwdOp:\n"
              "  family: scale\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      alpha: {type: float, default: 1.0}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M2"},
    {.id = "P3",
     .family = Family::ManifestCheck,
     .title = "kernel parameter access matches the manifest's effects",
     .text = "A kernel parameter's access follows the manifest: an input is `In`; a `mutated: true` input `InOut`\n"
             "(or `Out` if also `write_only`); an input with a `mutated` condition `In` or `InOut`; an output\n"
             "`Out`; a construction-time tensor `In`. A parameter that is no view at all (a scalar where a tensor\n"
             "is declared) is rejected too.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\", mutated: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @CopyFwdOp(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Make the access agree: drop `mutated: true` if the kernel only reads the input, or make the\n"
            "parameter `InOut` if it writes it.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M13"},
    {.id = "P4",
     .family = Family::ManifestCheck,
     .title = "kernel dtypes are allowed by the manifest",
     .text = "A kernel parameter's dtype must be one the manifest allows: for a DType index `T`, one of its set,\n"
             "the same for every tensor typed `T` (and the one the kernel's suffix names); for a literal dtype,\n"
             "exactly it; for a dtype expression, one it can give. With `dtype_combos`, the dtypes a kernel binds\n"
             "must form one of its rows.",
     .lang = Lang::Yaml,
     .example = "AddFwdOp:\n"
                "  family: add\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\"}\n"
                "    inputs:\n"
                "      a: {dtype: T, shape: \"[N]\"}\n"
                "      b: {dtype: T, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      c: {dtype: T, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float16}]}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @AddFwdOp(%a: In<f32[N]>, %b: In<f32[N]>, %c: Out<f32[N]>) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Allow the kernel's dtype in the index's set (`DType[float16 | float32]`), or write the kernel for\n"
            "an allowed dtype.",
     .fixed = "AddFwdOp:\n"
              "  family: add\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | float32]\"}\n"
              "    inputs:\n"
              "      a: {dtype: T, shape: \"[N]\"}\n"
              "      b: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      c: {dtype: T, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float16}]}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M16"},
    {.id = "P5",
     .family = Family::ManifestCheck,
     .title = "kernel ranks and extents match the manifest's shapes",
     .text = "A kernel parameter has the rank of the manifest shape (at least the fixed axes with a splice); an\n"
             "integer axis is that constant; a computed axis (`B + 1`, `N // 2`) is the same polynomial of the\n"
             "kernel's extent symbols. A type-family shape must fit one case, and all family-shaped parameters\n"
             "must fit cases of one discriminant point together (a kernel implements one branch).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @CopyFwdOp(%x: In<f32[N, 2]>, %y: Out<f32[N, 2]>) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Declare the shape the kernel implements (`[N, 2]`), or give the kernel the manifest's rank.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N, 2]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N, 2]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M7"},
    {.id = "P6",
     .family = Family::ManifestCheck,
     .title = "one kernel extent symbol per manifest dimension",
     .text = "Each manifest dimension maps to one kernel extent symbol and back: the same symbol wherever the\n"
             "dimension appears, different symbols for different dimensions; a Shape index splices the same\n"
             "extent list everywhere. A kernel that uses `N` for two manifest dimensions (or two symbols for one)\n"
             "constrains calls differently from its manifest.",
     .lang = Lang::Yaml,
     .example = "MulFwdOp:\n"
                "  family: mul\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, K: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      w: {dtype: float32, shape: \"[K]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, K: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @MulFwdOp(%x: In<f32[N]>, %w: In<f32[N]>, %y: Out<f32[N]>) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Use one manifest dimension where the kernel requires equal extents (`w: \"[N]\"`), or give the kernel\n"
            "a second extent symbol.",
     .fixed = "MulFwdOp:\n"
              "  family: mul\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      w: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M7"},
    {.id = "P7",
     .family = Family::ManifestCheck,
     .title = "kernel scalar params have the manifest param's form",
     .text = "A manifest param the kernel takes must have a matching parameter: `int` an integer runtime scalar\n"
             "or a constexpr integer; `bool` a bool scalar or constexpr bool; `float` a float runtime scalar;\n"
             "`int | float` an integer or float scalar; a quoted-literal enum a constexpr enum with exactly the\n"
             "same members, or a constexpr integer. Other params are fixed by the kernel (`fixes {...}`).",
     .lang = Lang::Yaml,
     .example = "ScaleFwdOp:\n"
                "  family: scale\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      alpha: {type: float, default: 1.0}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @ScaleFwdOp(%x: In<f32[N]>, %y: Out<f32[N]>, %alpha: i32) {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Make the types agree: declare the param `int` if the kernel takes an integer, or make the kernel's\n"
            "parameter `f32`.",
     .fixed = "ScaleFwdOp:\n"
              "  family: scale\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      alpha: {type: int, default: 1}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M12"},
    {.id = "P8",
     .family = Family::ManifestCheck,
     .title = "fixed params name params of the op with values of their kind",
     .text = "A kernel may fix params it does not take, `fixes {tile = [8, 8], layout = \"contiguous\"}`. Each name\n"
             "is a param of the op (`p.f` a field of ADT param `p`) and each value one of its kind: an integer or\n"
             "extent symbol for `int`, a list of the right length for a tuple, a number for `float`, a bool, a\n"
             "member of a literal or dtype union, a constructor name for an ADT, `none` for an optional param.",
     .lang = Lang::Yaml,
     .example = "TileCopyFwdOp:\n"
                "  family: tile_copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      tile: {type: \"tuple[int, int]\", default: [8, 8]}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline: {flops: \"N\"}\n",
     .args = "kernel @TileCopyFwdOp(%x: In<f32[N]>, %y: Out<f32[N]>) fixes {tile = 8} {\n"
             "  %zero = const() {value = 0} : index\n"
             "}\n",
     .fix = "Fix a value of the param's type (`tile = [8, 8]`), or widen the param's type to the value the\n"
            "kernel fixes (`int | tuple[int, int]`).",
     .fixed = "TileCopyFwdOp:\n"
              "  family: tile_copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      tile: {type: \"int | tuple[int, int]\", default: 8}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline: {flops: \"N\"}\n",
     .parent = "M12"},
};

}  // namespace

std::span<const Rule> manifest_checks_workload() { return kRules; }

}  // namespace kir::rules
