// Rule table: the manifest validator's construction checks C1-C42 (see rule.h): reading the
// signature, declarations, expressions and kinds, type families, and the per-discriminant-point
// checks. Each example is one family file the validator rejects naming the check; `parent` is the
// manifest rule the check enforces, as specs/src/checklist.cpp maps it. Not in that map: C2 and C10
// (names the expression language reads: M11, chosen here) and C1 and C3, general checks of the
// file's form that enforce no manifest rule (like the loader's and most schema checks).
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "C1",
     .family = Family::ManifestCheck,
     .title = "the signature is a mapping of sections",
     .text = "An op's `signature` is one mapping whose keys are its sections: forall, params, inputs, outputs,\n"
             "types, let, shape_rules and dtype_combos. A list of sections or a plain value leaves the op\n"
             "without a signature, so nothing else about it can be checked (W1 follows).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "  - inputs: {x: {dtype: float32, shape: \"[4]\"}}\n"
                "  - outputs: {y: {dtype: float32, shape: \"[4]\"}}\n"
                "  workloads:\n"
                "  - {label: small}\n"
                "  roofline:\n"
                "    flops: \"4\"\n",
     .fix = "Write the sections as keys of one mapping, not as list items.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    inputs: {x: {dtype: float32, shape: \"[4]\"}}\n"
              "    outputs: {y: {dtype: float32, shape: \"[4]\"}}\n"
              "  workloads:\n"
              "  - {label: small}\n"
              "  roofline:\n"
              "    flops: \"4\"\n"},
    {.id = "C2",
     .family = Family::ManifestCheck,
     .title = "declared names are identifiers",
     .text = "The keys of forall, params, let, inputs, outputs and types are names that expressions read, and\n"
             "params and inputs are also Python argument names, so each must be an identifier: a letter or\n"
             "underscore followed by letters, digits and underscores. A name with a dash, a dot or a leading\n"
             "digit is rejected and not declared.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      trans-a: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Spell the name as an identifier (trans_a).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      trans_a: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C3",
     .family = Family::ManifestCheck,
     .title = "shape_rules and dtype_combos are lists",
     .text = "`shape_rules` is a list of Bool expression strings and `dtype_combos` a list of mappings. A\n"
             "single rule or combination written directly under the key, without the list, is rejected.",
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
                "    shape_rules: \"N > 0\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Write each rule (each combination) as a list item.",
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
              "    - \"N > 0\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n"},
    {.id = "C4",
     .family = Family::ManifestCheck,
     .title = "a forall index has a known kind",
     .text = "A forall index is a `Dim` (an axis length), a `Shape` (a tuple of Dims, spliced as `*S`), a\n"
             "`Seq[Int]` (a list of ints that exists only as a generator argument) or a `DType[a | b | ...]`\n"
             "over registered dtype names. Python type names (`int`, `list[int]`) and unregistered dtypes are\n"
             "not kinds.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, sizes: \"list[int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use one of the four kinds; a list of lengths for a generator is Seq[Int].",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, sizes: \"Seq[Int]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M14"},
    {.id = "C5",
     .family = Family::ManifestCheck,
     .title = "a parameter has a type, or a dtype and shape",
     .text = "An ordinary construction parameter is `{type, default, kw_only}`. A construction-time tensor,\n"
             "also declared in `params`, is recognized by its `dtype` (with `shape`, and optionally\n"
             "contiguous, optional, device, values, requires). An entry with neither `type` nor `dtype` is\n"
             "neither.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      weight: {shape: \"[N]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Give the tensor its dtype next to its shape (or give a scalar parameter its type).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      weight: {dtype: float32, shape: \"[N]\"}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M12"},
    {.id = "C6",
     .family = Family::ManifestCheck,
     .title = "a tensor declares a dtype and a shape",
     .text = "Every input, output and construction-time tensor is a mapping with a `dtype` (a dtype\n"
             "expression) and a `shape` (a list of axes in a string, or a type family application). A tensor\n"
             "missing either, or not written as a mapping, has no type.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Add the missing dtype (or shape).",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M12"},
    {.id = "C7",
     .family = Family::ManifestCheck,
     .title = "dtype_combos rows map DType indices to dtypes of their sets",
     .text = "Each `dtype_combos` row maps names to dtype names: every key is a DType index or a dtype\n"
             "parameter, every value lies in that key's set, all rows have the same keys, and no row repeats.",
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
                "    - {T: bfloat16, U: float32}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float16, U: float16}]}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use dtypes from the index's DType[...] set, or widen the set if the op takes the dtype.",
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
              "    flops: \"N\"\n",
     .parent = "M16"},
    {.id = "C8",
     .family = Family::ManifestCheck,
     .title = "a parameter type is well-formed",
     .text = "A param `type` is Python type text that maps to a kind: `int`, `bool`, quoted literals\n"
             "(`'a' | 'b'`, an enum), `list[int]`, `tuple[int, ...]`, `tuple[int, int]` (sequences hold only\n"
             "`int` or `int | None`), `X | None` (a Maybe), unions, an ADT of types.yaml, dtype names or\n"
             "`torch.dtype` (a dtype parameter), and `float`, `Number`, `str` or dotted names (an opaque\n"
             "Value). Text that does not parse, or a sequence of anything but ints, is rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      dims: {type: \"list[float]\", default: [0]}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Declare a sequence of axes or sizes as list[int].",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      dims: {type: \"list[int]\", default: [0]}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C9",
     .family = Family::ManifestCheck,
     .title = "a parameter's default is a value of its type",
     .text = "`default:` is a YAML value read by the parameter's type: `null` for None, `true`/`false` for\n"
             "bool, lists for tuples, dtype names for dtype params, `{ctor: {field: value}}` for an ADT;\n"
             "`kw_only` is a bool. YAML spells None as null: `None` is the string 'None'.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      dim: {type: \"int | None\", default: None}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Write null for an absent default.",
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
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M3"},
    {.id = "C10",
     .family = Family::ManifestCheck,
     .title = "every name is declared once",
     .text = "Indices, params, construction-time tensors, lets, inputs, outputs and type families share one\n"
             "namespace, since expressions read them all by name. A name declared twice, in one section or in\n"
             "two, is rejected at its second declaration.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Rename one of them; an output that is the input's storage is declared with alias, not with the\n"
            "input's name.",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C11",
     .family = Family::ManifestCheck,
     .title = "the name out is reserved for the output buffer",
     .text = "`out` names the output buffer: an output with `buffer: out` adds an `out=` argument to\n"
             "forward(), and `present(out)` tells whether the caller passed it. No index, param, tensor, let\n"
             "or family may be called `out`.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      out: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Give the output its own name, with buffer: out if the caller may pass the buffer.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\", buffer: out}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M13"},
    {.id = "C12",
     .family = Family::ManifestCheck,
     .title = "an expression parses",
     .text = "Every expression (shape, dtype, let, rule, condition, generator, predicate, roofline formula) is\n"
             "parsed with Python's expression grammar; text that does not parse is rejected with the offset\n"
             "where parsing stopped.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Correct the syntax at the reported offset (here close the bracket).",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C13",
     .family = Family::ManifestCheck,
     .title = "an expression stays inside the expression language",
     .text = "The expression language is a restricted Python: integer arithmetic with `+ - * // %` (no `/`, no\n"
             "`**`), comparisons, and/or/not, conditionals, tuples, subscripts and slices, attribute reads,\n"
             "calls of built-ins and the one comprehension form. Everything else is rejected: `/`, `**`,\n"
             "lambda, `is`, list literals (write tuples), set or list comprehensions, f-strings, and `*`\n"
             "splices outside shape lists.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N / 2]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Rewrite with the allowed forms: floor division is //.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N // 2]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C14",
     .family = Family::ManifestCheck,
     .title = "only built-in primitives are called",
     .text = "Expressions call only the built-in primitives and present(); bytes() is allowed only in roofline\n"
             "formulas, a generator only in a tensor's `values` and a predicate only in its `requires`. Any\n"
             "other name is not a function. The closed sets are listed in docs/manifests.md.",
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
                "    - \"is_even(N)\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Write the condition with a primitive or with arithmetic (N % 2 == 0).",
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
              "    - \"N % 2 == 0\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C15",
     .family = Family::ManifestCheck,
     .title = "a comprehension is only the argument of all, sum, max or min",
     .text = "The one comprehension form is `f(x) for x in s` (one target, no `if`, no nesting), written as\n"
             "the only argument of all, sum, max or min: `all(d > 0 for d in S)`. A comprehension anywhere\n"
             "else is rejected.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Shape}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[*S]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[*S]\"}\n"
                "    shape_rules:\n"
                "    - \"prod(d for d in S) > 0\"\n"
                "  workloads:\n"
                "  - {S: [2, 3], label: small}\n"
                "  roofline:\n"
                "    flops: \"prod(S)\"\n",
     .fix = "Use all, sum, max or min around the comprehension, or a primitive on the sequence itself.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {S: Shape}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[*S]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[*S]\"}\n"
              "    shape_rules:\n"
              "    - \"all(d > 0 for d in S)\"\n"
              "  workloads:\n"
              "  - {S: [2, 3], label: small}\n"
              "  roofline:\n"
              "    flops: \"prod(S)\"\n",
     .parent = "M11"},
    {.id = "C16",
     .family = Family::ManifestCheck,
     .title = "a dtype name is a DType index, a dtype parameter or a registered dtype",
     .text = "A tensor dtype written as a name must be a forall DType index, a dtype parameter or a registered\n"
             "dtype (bool, int8 ... int64, uint8 ... uint64, float16, bfloat16, float32, float64, the float8\n"
             "formats, complex64, complex128, ...). Python spellings such as `float` are not dtypes.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use the registered name (float32).",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M16"},
    {.id = "C17",
     .family = Family::ManifestCheck,
     .title = "a tensor's dtype is a dtype expression",
     .text = "A dtype is a DType index, a dtype parameter, a registered dtype or a dtype primitive call\n"
             "(`promote_int_to_float(T)`, `coalesce_dtype(p, T)`); an expression of another kind (a size, an\n"
             "enum of strings) is not. Note that quoted literals in a param type make an enum of strings,\n"
             "while unquoted dtype names make a dtype parameter.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    params:\n"
                "      acc: {type: \"'float32' | 'float64'\", default: float32}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: acc, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Declare the parameter with unquoted dtype names, so it is a dtype parameter.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      acc: {type: \"float32 | float64\", default: float32}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: acc, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M16"},
    {.id = "C18",
     .family = Family::ManifestCheck,
     .title = "a Maybe dtype parameter is coalesced before it is a dtype",
     .text = "A dtype parameter typed `X | None` may be absent, so it is not a tensor dtype by itself.\n"
             "`coalesce_dtype(p, fallback)` is its payload when given and the fallback (a DType index or\n"
             "another dtype expression) when it is None.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | float32]\"}\n"
                "    params:\n"
                "      out_dtype: {type: \"float16 | float32 | None\", default: null}\n"
                "    inputs:\n"
                "      x: {dtype: T, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: out_dtype, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float16}]}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Write coalesce_dtype(out_dtype, T): the output has the input's dtype unless out_dtype is given.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | float32]\"}\n"
              "    params:\n"
              "      out_dtype: {type: \"float16 | float32 | None\", default: null}\n"
              "    inputs:\n"
              "      x: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: \"coalesce_dtype(out_dtype, T)\", shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float16}]}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M3"},
    {.id = "C19",
     .family = Family::ManifestCheck,
     .title = "a type family has a match and at least one case",
     .text = "A type family is a mapping `{params: {...}, match: ..., cases: [...]}` with `params` a mapping\n"
             "of formals, `match` given and `cases` a non-empty list. A family missing one of them cannot be\n"
             "expanded.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Add the match subject (here the Bool formal t).",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C20",
     .family = Family::ManifestCheck,
     .title = "a family formal is an identifier with a valid kind",
     .text = "Each formal in a family's `params` is an identifier with a kind: Bool, Int, Dim, Shape, an enum\n"
             "of quoted literals, an ADT of types.yaml, or a Maybe of one (`X | None`). Other kind names are\n"
             "rejected.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Boolean, R: Dim, C: Dim}\n"
                "        match: t\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Use one of those kinds (Bool).",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C21",
     .family = Family::ManifestCheck,
     .title = "a family matches a finite discriminant of its formals",
     .text = "`match` is an expression, or a list of them for a tuple match, over the family's formals only,\n"
             "of kind Bool, enum, ADT or Maybe ADT, so that the cases can enumerate its values. Matching a\n"
             "size (a Dim or Int) or reading a name outside the formals is rejected.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        match: R\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Match the Bool, enum or ADT formal; sizes go into the cases' shapes.",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C22",
     .family = Family::ManifestCheck,
     .title = "a family case is exactly when and is",
     .text = "Each case has exactly two keys: `when`, a pattern (a list of patterns, as long as the list, when\n"
             "`match` is a list), and `is`, the shape. Other keys, a missing key, or a `when` whose list-ness\n"
             "differs from `match` are rejected.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        match: t\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, shape: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Write the case's shape under is.",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C23",
     .family = Family::ManifestCheck,
     .title = "a case pattern fits the match subject",
     .text = "A pattern is `_`, a Bool literal for a Bool subject, a member of the enum for an enum subject,\n"
             "or for an ADT `{ctor: _}` or `{ctor: {field: literal}}`, naming a constructor of the ADT and\n"
             "constraining only finite fields (enum or Bool). An Int or Dim field cannot be matched, since its\n"
             "values cannot be enumerated; a pattern that can never match leaves its points without a case\n"
             "(C37).",
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
                "        - {when: {masked: {max_m: 3}}, is: \"[g.max_m]\"}\n"
                "        - {when: {contiguous: _}, is: \"[T]\"}\n"
                "  workloads:\n"
                "  - {T: 4, layout: {masked: {max_m: 3}}, label: masked}\n"
                "  roofline:\n"
                "    flops: \"T\"\n",
     .fix = "Match the constructor with _ and read the field inside the case.",
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
              "    flops: \"T\"\n",
     .parent = "M9"},
    {.id = "C24",
     .family = Family::ManifestCheck,
     .title = "a let does not hold an ADT value",
     .text = "A let computes a size or a value; its kind is inferred in dependency order and may not be an ADT\n"
             "(a let is not an alias of a parameter). Kind errors inside a let's expression are reported with\n"
             "their own checks.",
     .lang = Lang::Yaml,
     .example = "PermuteFwdOp:\n"
                "  family: moe\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {T: Dim}\n"
                "    params:\n"
                "      layout: {type: MGroupedLayout}\n"
                "    let:\n"
                "      g: \"layout\"\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[T]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Rows[g, T]\"}\n"
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
                "    flops: \"T\"\n",
     .fix = "Use the ADT parameter itself where an ADT is expected.",
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
              "    flops: \"T\"\n",
     .parent = "M10"},
    {.id = "C25",
     .family = Family::ManifestCheck,
     .title = "a tensor is not a value",
     .text = "A tensor name has no value in an expression: its contents are not known statically and its shape\n"
             "is given by indices. Only present(t), and bytes(t) in roofline formulas, take a tensor.\n"
             "Constraints on sizes are written over the indices of its shape; constraints on contents are\n"
             "requires predicates.",
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
                "    - \"x > 0\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Constrain the index that is the tensor's size.",
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
              "    - \"N > 0\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C26",
     .family = Family::ManifestCheck,
     .title = "a Value-kind parameter takes no part in types",
     .text = "Parameters typed `float`, `Number`, `str`, `int | float` or an opaque object are Values: they\n"
             "have no integer or dtype kind, so they appear only in shape_rules and roofline formulas, never\n"
             "in shapes, dtypes, lets, conditions or family arguments.",
     .lang = Lang::Yaml,
     .example = "AddFwdOp:\n"
                "  family: add\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[int32 | float32]\"}\n"
                "    params:\n"
                "      alpha: {type: \"int | float\", default: 1, kw_only: true}\n"
                "    inputs:\n"
                "      a: {dtype: T, shape: \"[N]\"}\n"
                "      b: {dtype: T, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: \"float32 if category(alpha) == 'float' else T\", shape: \"[N]\"}\n"
                "    shape_rules:\n"
                "    - \"category(alpha) == 'int' or category(alpha) == category(T)\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small, dtype_cases: [{T: float32}]}\n"
                "  roofline:\n"
                "    flops: \"2 * N\"\n",
     .fix = "Keep the dtype independent of the scalar; state the scalar's range as a refinement in\n"
            "shape_rules.",
     .fixed = "AddFwdOp:\n"
              "  family: add\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[int32 | float32]\"}\n"
              "    params:\n"
              "      alpha: {type: \"int | float\", default: 1, kw_only: true}\n"
              "    inputs:\n"
              "      a: {dtype: T, shape: \"[N]\"}\n"
              "      b: {dtype: T, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: T, shape: \"[N]\"}\n"
              "    shape_rules:\n"
              "    - \"category(alpha) == 'int' or category(alpha) == category(T)\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small, dtype_cases: [{T: float32}]}\n"
              "  roofline:\n"
              "    flops: \"2 * N\"\n",
     .parent = "M18"},
    {.id = "C27",
     .family = Family::ManifestCheck,
     .title = "every name read is declared in the field's scope",
     .text = "Each name an expression reads must be declared: an index, param or let of the op, a tensor\n"
             "(inside present() or bytes()), a comprehension variable, or `inf`. Scopes are per field: a\n"
             "family's match and cases see only the family's formals, and `out` is read only as present(out).",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[n]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use the declared name (names are case-sensitive), or declare it.",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C28",
     .family = Family::ManifestCheck,
     .title = "a Seq[Int] index appears only in values",
     .text = "A forall index of kind Seq[Int] (a list of lengths, say) exists only at instantiation, as an\n"
             "argument of a generator in a tensor's `values` (or of a requires predicate). Shapes, rules, lets\n"
             "and roofline formulas cannot read it; constrain the tensor it generates instead.",
     .lang = Lang::Yaml,
     .example = "SegmentSumFwdOp:\n"
                "  family: segment\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {S: Dim, NS: Dim, seq_lens: \"Seq[Int]\"}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[S]\"}\n"
                "      offsets: {dtype: int32, shape: \"[NS + 1]\", values: \"prefix_sum(seq_lens)\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[NS]\"}\n"
                "    shape_rules:\n"
                "    - \"sum(seq_lens) == S\"\n"
                "  workloads:\n"
                "  - {S: 10, seq_lens: [3, 7], label: two}\n"
                "  roofline:\n"
                "    flops: \"S\"\n",
     .fix = "State the constraint on the generated tensor: requires prefix_offsets(S) says the offsets end at\n"
            "S.",
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
              "    flops: \"S\"\n",
     .parent = "M14"},
    {.id = "C29",
     .family = Family::ManifestCheck,
     .title = "refinements and presence conditions are Bool",
     .text = "Each shape_rules entry, and each `optional:`, `nullable:` and `mutated:` expression, must have\n"
             "kind Bool. A size (`N % 4`) is not a condition.",
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
                "    - \"N % 4\"\n"
                "  workloads:\n"
                "  - {N: 8, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Compare it (N % 4 == 0).",
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
              "    - \"N % 4 == 0\"\n"
              "  workloads:\n"
              "  - {N: 8, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M8"},
    {.id = "C30",
     .family = Family::ManifestCheck,
     .title = "a shape is a list of integer axes or a family application",
     .text = "A `shape` is `[axis, ...]` with axes of integer kind and splices `*E` of a Seq[Int] (a Shape\n"
             "index, a list param, broadcast(...)), or an application `Fam[arg, ...]` of a family of this spec\n"
             "with one argument per formal, each of the formal's kind.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        match: t\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Give the family one argument per formal, in the order of its params.",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C31",
     .family = Family::ManifestCheck,
     .title = "a family case reads only fields of the constructor it matched",
     .text = "In a case whose pattern fixes an ADT constructor (`{masked: _}`), the shape may read that\n"
             "constructor's own fields (`g.max_m`). A field the matched constructor lacks has no value there\n"
             "and is rejected; each case is checked with the constructor its pattern matched. (Outside family\n"
             "cases the same read is C38.)",
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
     .fix = "Read the field only in the case of a constructor that has it.",
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
              "    flops: \"T\"\n",
     .parent = "M9"},
    {.id = "C32",
     .family = Family::ManifestCheck,
     .title = "operands and arguments have the kinds their operators need",
     .text = "Kinds are checked throughout: arithmetic takes integers, not/and/or take Bools, ordering\n"
             "compares Ints or sequences, nothing is compared with None (use present()), a string compared\n"
             "with an enum or DType must be one of its members, conditional arms need a common kind,\n"
             "subscripts need a sequence and an integer index, `.value` needs a Maybe, attributes need\n"
             "declared ADT fields, and each primitive takes its arity and argument kinds.",
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
                "    - \"dim == None or dim.value == 0\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Test presence with present(dim) instead of comparing with None.",
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
              "    - \"not present(dim) or dim.value == 0\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C33",
     .family = Family::ManifestCheck,
     .title = "lets do not depend on each other in a cycle",
     .text = "Lets are evaluated in dependency order; a let that reads itself, directly or through other lets,\n"
             "has no value. The message gives the cycle.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    let:\n"
                "      H: \"W // 2\"\n"
                "      W: \"H * 2\"\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Compute one of them from indices or params (here H from N).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    let:\n"
              "      H: \"N // 2\"\n"
              "      W: \"H * 2\"\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M10"},
    {.id = "C34",
     .family = Family::ManifestCheck,
     .title = "type families do not reference each other in a cycle",
     .text = "A case's `is` may apply another family, but following those applications must end: a family that\n"
             "reaches itself again never yields a shape.",
     .lang = Lang::Yaml,
     .example = "FlipFwdOp:\n"
                "  family: flip\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {M: Dim, N: Dim}\n"
                "    params:\n"
                "      trans: {type: bool, default: false}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[M, N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        match: t\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"Mat[false, C, R]\"}\n"
                "  workloads:\n"
                "  - {M: 2, N: 3, label: small}\n"
                "  roofline:\n"
                "    flops: \"M * N\"\n",
     .fix = "Write the case's shape out.",
     .fixed = "FlipFwdOp:\n"
              "  family: flip\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {M: Dim, N: Dim}\n"
              "    params:\n"
              "      trans: {type: bool, default: false}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[M, N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"Mat[trans, M, N]\"}\n"
              "    types:\n"
              "      Mat:\n"
              "        params: {t: Bool, R: Dim, C: Dim}\n"
              "        match: t\n"
              "        cases:\n"
              "        - {when: false, is: \"[R, C]\"}\n"
              "        - {when: true, is: \"[C, R]\"}\n"
              "  workloads:\n"
              "  - {M: 2, N: 3, label: small}\n"
              "  roofline:\n"
              "    flops: \"M * N\"\n",
     .parent = "M7"},
    {.id = "C35",
     .family = Family::ManifestCheck,
     .title = "every type family is applied by some shape",
     .text = "A family that no tensor shape (and no other family) applies is dead, most often a misspelt or\n"
             "forgotten application, and is rejected.",
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
                "    types:\n"
                "      Mat:\n"
                "        params: {t: Bool, R: Dim, C: Dim}\n"
                "        match: t\n"
                "        cases:\n"
                "        - {when: false, is: \"[R, C]\"}\n"
                "        - {when: true, is: \"[C, R]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Apply the family in a shape, or delete it.",
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
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M7"},
    {.id = "C36",
     .family = Family::ManifestCheck,
     .title = "presence and mutation conditions read only discriminants",
     .text = "`optional:`, `nullable:` and `mutated:` expressions read only discriminants: Bool and enum\n"
             "params, ADT constructors and finite fields, Maybe presence and present(t). Presence and effects\n"
             "must be decided per discriminant point, before any size is known.",
     .lang = Lang::Yaml,
     .example = "BiasFwdOp:\n"
                "  family: bias\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "      bias: {dtype: float32, shape: \"[N]\", optional: \"N > 1\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Use optional: true for an independent input, or a present(...) expression to tie it to another;\n"
            "size conditions belong in shape_rules.",
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
              "    flops: \"N\"\n",
     .parent = "M1"},
    {.id = "C37",
     .family = Family::ManifestCheck,
     .title = "exactly one family case matches at each accepted point",
     .text = "The validator enumerates every combination of discriminant values the op accepts (domain\n"
             "restrictions and ADT invariants remove combinations) and expands each family there: exactly one\n"
             "case must match. No match leaves the tensor without a shape, two make it ambiguous. The message\n"
             "names the point.",
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
                "  workloads:\n"
                "  - {N: 4, some: [bias], label: biased}\n"
                "  - {N: 4, label: plain}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Add a case for the point (or exclude the point with a domain restriction); make overlapping\n"
            "cases disjoint.",
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
              "        - {when: false, is: \"[N]\"}\n"
              "  workloads:\n"
              "  - {N: 4, some: [bias], label: biased}\n"
              "  - {N: 4, label: plain}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M7"},
    {.id = "C38",
     .family = Family::ManifestCheck,
     .title = "a Maybe payload or a constructor field is read only where it exists",
     .text = "`v.value` of a Maybe parameter is read only where present(v) holds, and an ADT field (outside a\n"
             "family case) only where `.kind` guards leave constructors that all have it, as in\n"
             "`layout.kind == 'masked' and layout.max_m > 0`. Guards narrow left to right through and, or, not\n"
             "and conditional arms.",
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
                "    - \"dim.value == 0\"\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Guard the read with present(dim).",
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
              "    - \"not present(dim) or dim.value == 0\"\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M3"},
    {.id = "C39",
     .family = Family::ManifestCheck,
     .title = "a constant argument stays inside the primitive's domain",
     .text = "Domain errors visible in the text are rejected statically: // or % by a non-positive literal,\n"
             "and ceil_div by a non-positive literal. They would fail on every call.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[ceil_div(N, 0)]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Divide by a positive number.",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[ceil_div(N, 2)]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C40",
     .family = Family::ManifestCheck,
     .title = "a shape does not raise once the discriminants are folded",
     .text = "At each discriminant point the validator folds the shapes (names fixed by the point become\n"
             "constants) and evaluates their constant parts; one that raises, such as a broadcast of\n"
             "incompatible constants or per_axis of a tuple of the wrong length, is an error at that point\n"
             "naming the declaration.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N, per_axis((3, 3, 3), 1, 2)]\"}\n"
                "  workloads:\n"
                "  - {N: 4, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Give per_axis one entry per axis (here two).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N, per_axis((3, 3), 1, 2)]\"}\n"
              "  workloads:\n"
              "  - {N: 4, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M11"},
    {.id = "C41",
     .family = Family::ManifestCheck,
     .title = "every index a call reads is solvable from its inputs",
     .text = "At each accepted point, every forall index a call reads (in shapes, dtypes, rules or an inline\n"
             "roofline) must be determined by the call: from an input axis (`M`, or `a * M + e` with M the\n"
             "only unknown), a spliced Shape, an input's dtype, a generator's result, or a let of those. An\n"
             "index that only outputs read cannot be inferred: it must be a param, or a let of solvable names.",
     .lang = Lang::Yaml,
     .example = "CopyFwdOp:\n"
                "  family: copy\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, K: Dim}\n"
                "    inputs:\n"
                "      x: {dtype: float32, shape: \"[N]\"}\n"
                "    outputs:\n"
                "      y: {dtype: float32, shape: \"[N, K]\"}\n"
                "  workloads:\n"
                "  - {N: 4, K: 2, label: small}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Make the size a parameter of the op (or read it from an input's shape).",
     .fixed = "CopyFwdOp:\n"
              "  family: copy\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim}\n"
              "    params:\n"
              "      K: {type: int}\n"
              "    inputs:\n"
              "      x: {dtype: float32, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: float32, shape: \"[N, K]\"}\n"
              "  workloads:\n"
              "  - {N: 4, K: 2, label: small}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M4"},
    {.id = "C42",
     .family = Family::ManifestCheck,
     .title = "every dtype_combos column is relevant on every accepted branch",
     .text = "A dtype_combos column constrains a DType index. Where no tensor or rule of the branch reads that\n"
             "index (an optional tensor is absent, say), the column constrains nothing and the list of\n"
             "combinations no longer describes the calls, so each column must be relevant at every accepted\n"
             "point.",
     .lang = Lang::Yaml,
     .example = "ScaleFwdOp:\n"
                "  family: scale\n"
                "  status: spec-only\n"
                "  signature:\n"
                "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\", S: \"DType[float16 | float32]\"}\n"
                "    inputs:\n"
                "      x: {dtype: T, shape: \"[N]\"}\n"
                "      scale: {dtype: S, shape: \"[N]\", optional: true}\n"
                "    outputs:\n"
                "      y: {dtype: T, shape: \"[N]\"}\n"
                "    dtype_combos:\n"
                "    - {T: float16, S: float16}\n"
                "    - {T: bfloat16, S: float32}\n"
                "  workloads:\n"
                "  - {N: 4, some: [scale], label: scaled, dtype_cases: [{T: float16, S: float16}]}\n"
                "  roofline:\n"
                "    flops: \"N\"\n",
     .fix = "Combine only indices every branch reads: here make scale required (or drop the combos).",
     .fixed = "ScaleFwdOp:\n"
              "  family: scale\n"
              "  status: spec-only\n"
              "  signature:\n"
              "    forall: {N: Dim, T: \"DType[float16 | bfloat16]\", S: \"DType[float16 | float32]\"}\n"
              "    inputs:\n"
              "      x: {dtype: T, shape: \"[N]\"}\n"
              "      scale: {dtype: S, shape: \"[N]\"}\n"
              "    outputs:\n"
              "      y: {dtype: T, shape: \"[N]\"}\n"
              "    dtype_combos:\n"
              "    - {T: float16, S: float16}\n"
              "    - {T: bfloat16, S: float32}\n"
              "  workloads:\n"
              "  - {N: 4, label: scaled, dtype_cases: [{T: float16, S: float16}]}\n"
              "  roofline:\n"
              "    flops: \"N\"\n",
     .parent = "M16"},
};

}  // namespace

std::span<const Rule> manifest_checks_construction() { return kRules; }

}  // namespace kir::rules
