// Rule table: manifest rules M1-M19 (see rule.h), the features of op-spec manifests. Each example
// is one family file that `kir spec validate` rejects with a check enforcing the rule ([C37, M7]
// names M7); M2 and M12 are checked under their own IDs.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "M1",
     .family = Family::Manifest,
     .title = "optional inputs and nullable outputs are decided by finite discriminants",
     .text = "An input or construction-time tensor may be optional: `optional: true` gives it a presence of\n"
             "its own, tested as `present(t)`; `optional: \"<expr>\"` makes it present exactly where the\n"
             "expression holds, so several tensors come and go together. An output that may be None declares\n"
             "`nullable: \"<expr>\"` and is present exactly where that holds. These conditions (like\n"
             "`mutated: <expr>`) read only finite discriminants: Bool and enum params, ADT constructors and\n"
             "their finite fields, Maybe presence and `present(...)` — never a size or a tensor's contents —\n"
             "so every combination can be enumerated and checked before any size is known.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "      grad_bias: {dtype: float32, shape: \"[N]\", nullable: \"N > 0\"}\n"
                "  workloads:\n"
                "  - {N: 4, some: [bias], label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Write the condition over discriminants only (here the presence of the input the output depends\n"
            "on); conditions on sizes belong in shape_rules.",
     .fixed = "BiasFwdOp:\n"
              "  family: bias\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "      grad_bias: {dtype: float32, shape: \"[N]\", nullable: \"present(bias)\"}\n"
              "  workloads:\n"
              "  - {N: 4, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M2",
     .family = Family::Manifest,
     .title = "optional inputs come after the required ones",
     .text = "forward() receives the inputs in declaration order, so every optional input is declared after\n"
             "all required ones. An optional input defaults to None, and omitting it is the same as passing\n"
             "None. The validator rejects a required input that follows an optional one; the paired Intent\n"
             "kernel's parameters follow the same order (parity checks P1, P2).",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "      scale: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, some: [bias], label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Move the required input before the first optional one (and pass it in that position).",
     .fixed = "BiasFwdOp:\n"
              "  family: bias\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      scale: {dtype: float32, shape: \"[N]\"}\n"
              "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M3",
     .family = Family::Manifest,
     .title = "an X | None parameter is a Maybe: read v.value only where present(v) holds",
     .text = "A parameter typed `int | None` (any `X | None`) has the kind Maybe[X]. `present(v)` tells\n"
             "whether it was given, and its payload `v.value` may be read only where `present(v)` is known to\n"
             "hold: after `present(v) and`, after `not present(v) or`, or in the true arm of\n"
             "`... if present(v) else ...`. Comparing with None is not part of the language. A Maybe dtype\n"
             "parameter becomes a tensor dtype only through `coalesce_dtype(v, fallback)`, and a default of\n"
             "None is written `null`.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      dim: {type: \"int | None\", default: null}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "    shape_rules:\n"
                "    - \"valid_axes(dim.value, 1)\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Guard the read with the presence test, so the rule holds trivially when dim is None.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      dim: {type: \"int | None\", default: null}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "    shape_rules:\n"
              "    - \"not present(dim) or valid_axes(dim.value, 1)\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M4",
     .family = Family::Manifest,
     .title = "an index is needed only on the branches that use it",
     .text = "An index that only some discriminant points read — a size used only by an optional input, say —\n"
             "is needed only there. At every accepted point, each index a call reads (in shapes, dtypes, rules\n"
             "or an inline roofline) must be solvable from the inputs, the params or the generators; and a\n"
             "workload row gives exactly the indices its own branch reads, neither missing one nor giving one\n"
             "the branch does not use.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, K: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[K]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, K: 1, some: [bias], label: biased}\n"
                "  - {N: 4, K: 1, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Leave the index out of rows that omit the tensor that reads it.",
     .fixed = "BiasFwdOp:\n"
              "  family: bias\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, K: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      bias: {dtype: float32, shape: \"[K]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, K: 1, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M5",
     .family = Family::Manifest,
     .title = "workload rows name the optional inputs they pass in some",
     .text = "Each workload row is one concrete call: params by value (those without a default are required),\n"
             "the indices its branch reads, `dtype_cases` for the DType indices, and a `label` (a non-empty\n"
             "[A-Za-z0-9._-] string). The optional inputs the row passes are listed in `some:`, which names\n"
             "only tensors declared `optional: true`; a tensor whose `optional` is an expression follows it\n"
             "and is never listed. Every row key is an index or a param, values fit their kinds, and case ids\n"
             "(the label plus the row's dtypes) are unique.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, some: [x, bias], label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "List only the optional: true tensors the row passes; required inputs are always passed.",
     .fixed = "BiasFwdOp:\n"
              "  family: bias\n"
              "  status: spec-only\n"
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
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M6",
     .family = Family::Manifest,
     .title = "an implemented op passes and omits every optional tensor in some row",
     .text = "For an op with `status: implemented`, every tensor whose `optional` is not false (true or an\n"
             "expression) must be passed by at least one workload row and omitted by at least one, so both\n"
             "branches are instantiated and run. Spec-only ops are exempt.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
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
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Add a row without the tensor in `some` (or one with it, for a tensor never passed).",
     .fixed = "BiasFwdOp:\n"
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
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M7",
     .family = Family::Manifest,
     .title = "type families match a finite discriminant with exactly one case per accepted point",
     .text = "A type family (`signature.types`) gives a shape that depends on discriminants. Its `params` are\n"
             "the formals, bound in order by an application `Fam[arg, ...]`; `match` is a finite discriminant\n"
             "of the formals (Bool, enum, ADT, or `present(...)` passed as a Bool) or a list of them; each\n"
             "case is `{when: pattern, is: shape}`. At every combination of discriminant values the op\n"
             "accepts, exactly one case matches — no gaps, no overlaps; combinations a domain restriction\n"
             "excludes need no case. Tensors applying one family take the same branch, families do not\n"
             "reference each other in a cycle, and a family no shape applies is an error.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Out[present(bias), N]\"}\n"
                "    types:\n"
                "      Out:\n"
                "        params: {b: Bool, N: Dim}\n"
                "        match: b\n"
                "        cases:\n"
                "        - {when: true, is: \"[N]\"}\n"
                "        - {when: _, is: \"[N, 1]\"}\n"
                "  workloads:\n"
                "  - {N: 4, some: [bias], label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Make the cases disjoint: here the wildcard also matches true, so write false.",
     .fixed = "BiasFwdOp:\n"
              "  family: bias\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "      bias: {dtype: float32, shape: \"[N]\", optional: true}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Out[present(bias), N]\"}\n"
              "    types:\n"
              "      Out:\n"
              "        params: {b: Bool, N: Dim}\n"
              "        match: b\n"
              "        cases:\n"
              "        - {when: true, is: \"[N]\"}\n"
              "        - {when: false, is: \"[N, 1]\"}\n"
              "  workloads:\n"
              "  - {N: 4, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M8",
     .family = Family::Manifest,
     .title = "domain restrictions are checked before a family branch is chosen",
     .text = "A `shape_rules` entry is a Bool refinement, checked once the indices are known. An entry that\n"
             "reads only discriminants (Bool and enum params, ADT tags and finite fields, `present(...)`) is a\n"
             "domain restriction: it decides which discriminant combinations the op accepts at all. It is\n"
             "checked before any type family branch is selected, the combinations it excludes need no family\n"
             "case, and a workload row that violates it is rejected.",
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
                "  - {N: 4, some: [lo], label: lower}\n"
                "  - {N: 4, label: none}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Give the row a combination the op accepts (here pass at least one bound).",
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
              "  - {N: 4, some: [lo], label: lower}\n"
              "  - {N: 4, some: [hi], label: upper}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M9",
     .family = Family::Manifest,
     .title = "ADTs are sealed sums in types.yaml; fields are read only under their constructor",
     .text = "A parameter with a few forms, each with fields of its own, has an ADT type from types.yaml\n"
             "(`adts: {Name: {sum: {ctor: {python, fields, invariant}}}}`). Each constructor names its Python\n"
             "class, its fields (Dim, Int, Bool or an enum of quoted literals) and an optional Bool invariant\n"
             "over them; a value is written `{ctor: {field: value, ...}}` with every field. Families match\n"
             "constructors (`{masked: _}`, `{contiguous: {packing: tight}}` — only finite fields in patterns),\n"
             "and a constructor's own field is read only in a case or under a `.kind` guard that fixes a\n"
             "constructor having it. ADTs are sealed: specs cannot add constructors.",
     .lang = Lang::Yaml,
     .example = "PermuteFwdOp:\n"
                "  family: moe\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {T: Dim}\n"
                "    params:\n"
                "      layout: {type: MGroupedLayout}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[T]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Rows[layout, T]\"}\n"
                "    types:\n"
                "      Rows:\n"
                "        params: {g: MGroupedLayout, T: Dim}\n"
                "        match: g\n"
                "        cases:\n"
                "        - {when: {masked: _}, is: \"[g.max_m]\"}\n"
                "        - {when: {contiguous: _}, is: \"[g.max_m]\"}\n"
                "  workloads:\n"
                "  - {T: 4, layout: {masked: {max_m: 3}}, label: masked}\n"
                "  roofline:\n"
                "    flops: \"T\"\n",
     .fix = "Read max_m only in the masked case; give the contiguous case a shape from its own fields or\n"
            "indices.",
     .fixed = "PermuteFwdOp:\n"
              "  family: moe\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {T: Dim}\n"
              "    params:\n"
              "      layout: {type: MGroupedLayout}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[T]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Rows[layout, T]\"}\n"
              "    types:\n"
              "      Rows:\n"
              "        params: {g: MGroupedLayout, T: Dim}\n"
              "        match: g\n"
              "        cases:\n"
              "        - {when: {masked: _}, is: \"[g.max_m]\"}\n"
              "        - {when: {contiguous: _}, is: \"[T]\"}\n"
              "  workloads:\n"
              "  - {T: 4, layout: {masked: {max_m: 3}}, label: masked}\n"
              "  roofline:\n"
              "    flops: \"T\"\n"},
    {.id = "M10",
     .family = Family::Manifest,
     .title = "lets are computed quantities without cycles, never given by a row",
     .text = "`let: {name: \"<expr>\"}` names a quantity computed from the signature — at construction where\n"
             "possible, else per call — such as a padding or an output length. A let may read indices, params\n"
             "and other lets, but the dependencies must not form a cycle, and a let does not hold an ADT\n"
             "value. Workload rows never give a let.",
     .lang = Lang::Yaml,
     .example = "Conv1dFwdOp:\n"
                "  family: conv\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {L: Dim}\n"
                "    let:\n"
                "      pad: \"K // 2\"\n"
                "      K: \"2 * pad + 1\"\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[L]\"}\n"
                "      w: {dtype: float32, shape: \"[K]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[L + 2 * pad - K + 1]\"}\n"
                "  workloads:\n"
                "  - {L: 16, label: small}\n"
                "  roofline:\n"
                "    flops: \"L * K\"\n",
     .fix = "Make one end of the cycle an index solved from an input (here K, the filter length).",
     .fixed = "Conv1dFwdOp:\n"
              "  family: conv\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {L: Dim, K: Dim}\n"
              "    let:\n"
              "      pad: \"K // 2\"\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[L]\"}\n"
              "      w: {dtype: float32, shape: \"[K]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[L + 2 * pad - K + 1]\"}\n"
              "  workloads:\n"
              "  - {L: 16, K: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"L * K\"\n"},
    {.id = "M11",
     .family = Family::Manifest,
     .title = "expressions are a closed language over declared names and built-in primitives",
     .text = "Shapes, lets, rules, conditions and roofline formulas are written in one closed expression\n"
             "language: a restricted Python over the names the signature declares (each an identifier,\n"
             "declared once). Calls are limited to the built-in primitives (broadcast, reduced, per_axis,\n"
             "ceil_div, len, prod, sum, max, min, all, ...); those of one family carry its prefix (pool.out,\n"
             "conv.out, moe.capacity, mhc.expansion). A primitive called outside its domain is an error that\n"
             "points at the declaration calling it. Every primitive taking an axis uses one rule: at rank\n"
             "`r > 0` an axis lies in `[-r, r)`; at rank 0 only 0 and -1 (the scalar axis) are valid.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    let:\n"
                "      H: \"pool_out(N, 3, 1, 0, 1, False)\"\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[H]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Call the primitive by its family-prefixed name, pool.out.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    let:\n"
              "      H: \"pool.out(N, 3, 1, 0, 1, False)\"\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[H]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M12",
     .family = Family::Manifest,
     .title = "construction-time tensors, layouts and devices are declared in the signature",
     .text = "A tensor passed to the constructor is declared in `params` with `dtype` and `shape` (it may be\n"
             "`optional: true`); every other param has a `type`. `contiguous: true` requires a dense layout\n"
             "(without it any strides are allowed), and `device: cpu` keeps a tensor, such as host-side\n"
             "lengths, on the CPU. An op with no call-time tensor inputs cannot take its device from them, so\n"
             "it declares a `device` parameter.",
     .lang = Lang::Yaml,
     .example = "ArangeFwdOp:\n"
                "  family: arange\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    params:\n"
                "      n: {type: int}\n"
                "    outputs:\n"
                "      y: {dtype: int64, shape: \"[n]\"}\n"
                "  workloads:\n"
                "  - {n: 8, label: small}\n"
                "  roofline:\n"
                "    flops: \"n\"\n",
     .fix = "Declare a device parameter (the call device when no tensor is passed).",
     .fixed = "ArangeFwdOp:\n"
              "  family: arange\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    params:\n"
              "      n: {type: int}\n"
              "      device: {type: \"torch.device | str | None\", default: null}\n"
              "    outputs:\n"
              "      y: {dtype: int64, shape: \"[n]\"}\n"
              "  workloads:\n"
              "  - {n: 8, label: small}\n"
              "  roofline:\n"
              "    flops: \"n\"\n"},
    {.id = "M13",
     .family = Family::Manifest,
     .title = "effects declare which inputs an op writes and which outputs alias them",
     .text = "Without effects an op only reads its inputs and allocates its outputs. `buffer: out` on an\n"
             "output adds an `out=` argument (at most one output has it; `out` is reserved for it).\n"
             "`mutated: true` on an input lets the op write it; with `write_only: true` as well it is a\n"
             "required result buffer whose old contents are not read; `mutated: \"<expr>\"` writes only where\n"
             "the discriminant expression holds. `alias: <input>` on an output makes it that very input when\n"
             "the input is written, so the input must be mutable and the output declares no buffer. Effects\n"
             "decide the roofline's read and write counts.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      inplace: {type: bool, default: false, kw_only: true}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\", alias: x}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Declare the write on the input (mutated: inplace), so the alias holds when the op runs in place.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      inplace: {type: bool, default: false, kw_only: true}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\", mutated: inplace}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\", alias: x}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M14",
     .family = Family::Manifest,
     .title = "generators fill metadata tensors from Seq[Int] arguments",
     .text = "A metadata tensor (offsets, indices, block tables) gets its contents from a generator in\n"
             "`values:` (prefix_sum, chunk_indices, as_tensor, topk_ids, ...). Its arguments are expressions\n"
             "over the row; a `Seq[Int]` index exists only as a generator argument, given as a list or a\n"
             "list-valued primitive (`repeat(512, 64)`). The result is unified with the declared shape, which\n"
             "solves the remaining indices. Random generators are seeded per op and tensor, so a row always\n"
             "yields the same values. A generated tensor has a fixed rank and an integer dtype (int32 or\n"
             "int64), and its values must fit it.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, seq_lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: float32, shape: \"[NS + 1]\", values: \"prefix_sum(seq_lens)\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, seq_lens: [3, 7], label: two}\n"
                "  roofline:\n"
                "    flops: \"S\"\n",
     .fix = "Declare generated metadata as int32 or int64.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, seq_lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(seq_lens)\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, seq_lens: [3, 7], label: two}\n"
              "  roofline:\n"
              "    flops: \"S\"\n"},
    {.id = "M15",
     .family = Family::Manifest,
     .title = "requires predicates constrain generated metadata on every branch",
     .text = "`requires: [\"prefix_offsets(S)\", ...]` lists built-in predicates (prefix_offsets, max_segment,\n"
             "in_range, sums_to, exclusive_prefix_of, chunk_offsets_of, indices_within, ...) over a metadata\n"
             "tensor's contents, their implied first argument. Each predicate reads a fixed rank; an argument\n"
             "may name another metadata tensor, which must then be present wherever the constrained one is.\n"
             "The validator checks the predicates on the generated values; at a real call they are the\n"
             "caller's obligation. A tensor with `requires` also declares `values`.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", requires: [\"prefix_offsets(S)\"]}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "  workloads:\n"
                "  - {S: 10, NS: 2, label: two}\n"
                "  roofline:\n"
                "    flops: \"S\"\n",
     .fix = "Give the constrained tensor a generator in values, so there are contents to check.",
     .fixed = "SegmentSumFwdOp:\n"
              "  family: segment\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Dim, NS: Dim, seq_lens: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[S]\"}\n"
              "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(seq_lens)\", requires: [\"prefix_offsets(S)\"]}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[NS]\"}\n"
              "  workloads:\n"
              "  - {S: 10, seq_lens: [3, 7], label: two}\n"
              "  roofline:\n"
              "    flops: \"S\"\n"},
    {.id = "M16",
     .family = Family::Manifest,
     .title = "dtype_combos list the allowed dtype combinations; a call matches one row",
     .text = "When several DType indices (or dtype params) allow only certain combinations, `dtype_combos`\n"
             "lists them: every row has the same keys, each key a DType index or a dtype parameter, each value\n"
             "in its key's set, and no row repeats. A call's dtype assignment must equal one row, and each\n"
             "column must be relevant on every accepted branch. A tensor dtype is a DType index, a dtype\n"
             "parameter, a registered dtype or a dtype primitive call.",
     .lang = Lang::Yaml,
     .example = "MulFwdOp:\n"
                "  family: mul\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\", U: \"DType[float16 | bfloat16]\"}\n"
                "    inputs:\n"
                "      x: {dtype: T, shape: \"[N]\"}\n"
                "      w: {dtype: U, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: T, shape: \"[N]\"}\n"
                "    dtype_combos:\n"
                "    - {T: float16, U: float16}\n"
                "    - {T: bfloat16, U: bfloat16}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float16, U: bfloat16}]}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use a combination that is a row of dtype_combos, or add the row if the op supports it.",
     .fixed = "MulFwdOp:\n"
              "  family: mul\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\", U: \"DType[float16 | bfloat16]\"}\n"
              "    inputs:\n"
              "      x: {dtype: T, shape: \"[N]\"}\n"
              "      w: {dtype: U, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: T, shape: \"[N]\"}\n"
              "    dtype_combos:\n"
              "    - {T: float16, U: float16}\n"
              "    - {T: bfloat16, U: bfloat16}\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float16, U: float16}]}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M17",
     .family = Family::Manifest,
     .title = "packed dtypes are written by their carrier",
     .text = "Packed formats (int4, fp4) are declared by their carrier: the tensor's dtype is the carrier\n"
             "dtype (uint8) and its shape the carrier shape PyTorch sees (`[N, K // 2]`); the logical dtype\n"
             "comes from a parameter or is fixed by the op. The roofline counts carrier bytes: `bytes(t)`\n"
             "takes one tensor name and measures the carrier, as does the default byte count (every tensor\n"
             "read or written once).",
     .lang = Lang::Yaml,
     .example = "GemvW4FwdOp:\n"
                "  family: gemv\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, K: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float16, shape: \"[K]\"}\n"
                "      w: {dtype: uint8, shape: \"[N, K // 2]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float16, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, K: 8, label: small}\n"
                "  roofline:\n"
                "    flops: \"2 * N * K\"\n"
                "    bytes: \"bytes(x) + bytes(w, 'int4') + bytes(y)\"\n",
     .fix = "Count the packed tensor as its carrier: bytes(w).",
     .fixed = "GemvW4FwdOp:\n"
              "  family: gemv\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, K: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float16, shape: \"[K]\"}\n"
              "      w: {dtype: uint8, shape: \"[N, K // 2]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float16, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, K: 8, label: small}\n"
              "  roofline:\n"
              "    flops: \"2 * N * K\"\n"
              "    bytes: \"bytes(x) + bytes(w) + bytes(y)\"\n"},
    {.id = "M18",
     .family = Family::Manifest,
     .title = "dtype-dependent scalar ranges are refinements with category() and representable()",
     .text = "A scalar parameter whose legal values depend on the call's dtype (Add's alpha, a fill value) is\n"
             "typed `int | float` or `Number`: a Value, which takes no part in shapes, dtypes, lets or\n"
             "conditions. Its range is stated as shape_rules refinements with category() and representable(),\n"
             "for example `category(alpha) == 'int' or category(alpha) == category(T)` and\n"
             "`representable(value, T)`.",
     .lang = Lang::Yaml,
     .example = "FillFwdOp:\n"
                "  family: fill\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[int8 | float16]\"}\n"
                "    params:\n"
                "      value: {type: Number, default: 0}\n"
                "    let:\n"
                "      v: \"value if representable(value, T) else 0\"\n"
                "    inputs:\n"
                "      x: {dtype: T, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: T, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: int8}]}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Require the value to fit the dtype with a refinement instead of computing with it.",
     .fixed = "FillFwdOp:\n"
              "  family: fill\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[int8 | float16]\"}\n"
              "    params:\n"
              "      value: {type: Number, default: 0}\n"
              "    inputs:\n"
              "      x: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: T, shape: \"[N]\"}\n"
              "    shape_rules:\n"
              "    - \"representable(value, T)\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: int8}]}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "M19",
     .family = Family::Manifest,
     .title = "composition lists an op's stages: sub-ops or its own kernels",
     .text = "`composition: {kind: composite, stages: [...]}` records the sub-ops a composite op may hold and\n"
             "where its own kernels run. Each stage has a non-empty `name`, unique in the op, exactly one of\n"
             "`op` (another manifest entry) or `kernel` (a key of the class's kernel types), and an optional\n"
             "boolean `optional` for a stage not held on every call. For implemented ops the op stages follow\n"
             "the class's delegates and the kernel stages its kernels, in order; kir checks the stages' form\n"
             "and that each op stage names a manifest entry.",
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
                "  composition:\n"
                "    kind: composite\n"
                "    stages:\n"
                "    - {name: main, kernel: copy_kernel}\n"
                "    - {name: main, kernel: cast_kernel, optional: true}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Give every stage its own name.",
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
              "  composition:\n"
              "    kind: composite\n"
              "    stages:\n"
              "    - {name: main, kernel: copy_kernel}\n"
              "    - {name: cast, kernel: cast_kernel, optional: true}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
};

}  // namespace

std::span<const Rule> manifest_rules() { return kRules; }

}  // namespace kir::rules
