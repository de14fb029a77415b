// Rule table: language rules L1-L9 (see rule.h): kernels and helpers, parameters, domains and
// subregions, values, parallel, control flow, reduce, scan and the region folds.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    // ---- L1: kernels and helpers ----
    {.id = "L1.1",
     .family = Family::Language,
     .title = "a kernel is a logical kernel with no host-visible return",
     .text = "A `kernel` is a logical computation over its parameters; which target runs it is chosen by\n"
             "the external compile call (`kir run`, `kir compile`, a backend), never inside the program.\n"
             "A kernel therefore declares no results and its `return` carries no values: results leave a\n"
             "kernel only through its Out and InOut views. Every kernel, helper and enum of a module has a\n"
             "unique symbol name.",
     .lang = Lang::Kir,
     .example = "kernel @k(%s: f32) {\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Declare an Out view parameter and store the result into it; end the kernel with `return()`\n"
            "or with no return at all.",
     .fixed = "kernel @k(%s: f32, %y: Out<f32[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%y, %rel, %s)\n"
              "}\n"},
    {.id = "L1.2",
     .family = Family::Language,
     .title = "a helper returns scalars, tensors, tuples or records and ends with return",
     .text = "A `fn` helper is a typed function: its results are scalars, tensors, tuples or records (not\n"
             "domains, relations, views, buffers or enums), and its body ends with `return(...)` giving\n"
             "exactly values of those types. A helper may carry the effects its call site allows (a view\n"
             "passed in may be stored to where the caller may store), but it hides no kernel launch and no\n"
             "host dispatch. Regions inside a helper end with `yield`; only the body ends with `return`.",
     .lang = Lang::Kir,
     .example = "fn @twice(%a: f32) -> f32 {\n"
                "  %b = add(%a, %a) : f32\n"
                "}\n",
     .fix = "End the helper body with `return(...)` of values of the declared result types.",
     .fixed = "fn @twice(%a: f32) -> f32 {\n"
              "  %b = add(%a, %a) : f32\n"
              "  return(%b)\n"
              "}\n"},
    {.id = "L1.3",
     .family = Family::Language,
     .title = "helpers capture nothing at run time and are not recursive",
     .text = "A helper sees only its own parameters: a runtime value it needs is passed as an explicit\n"
             "parameter (an operand must be a value of the same function); only immutable constexpr\n"
             "values are captured lexically (by the Python front end, which bakes them into the helper's\n"
             "specialization). Recursion, direct or through other helpers or `@symbol` attributes such as\n"
             "`combine = @f`, is rejected and the cycle is named; so are target queries and kernel\n"
             "launches (`call` of a kernel) inside a kernel or helper.",
     .lang = Lang::Kir,
     .example = "fn @halve(%a: f32) -> f32 {\n"
                "  %h = const() {value = 0.5} : f32\n"
                "  %b = mul(%a, %h) : f32\n"
                "  %c = call(%b) {callee = @halve} : f32\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Write the repetition as a loop over an explicit domain (carrying the value), not as a\n"
            "recursive call.",
     .fixed = "fn @halve(%a: f32, %n: index) -> f32 {\n"
              "  %h = const() {value = 0.5} : f32\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<%n>\n"
              "  %r = for(%d, %a) : f32 region(%i: index, %c: f32) {\n"
              "    %b = mul(%c, %h) : f32\n"
              "    yield(%b)\n"
              "  }\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L1.4",
     .family = Family::Language,
     .title = "a helper call binds each parameter exactly once",
     .text = "A call binds positional, keyword and keyword-only arguments to the helper's parameters (in\n"
             "KIR all arguments are positional, in parameter order); each argument expression is\n"
             "evaluated once, in source order. The callee must be a defined helper, the argument count\n"
             "must match, each argument's type must unify with its parameter, binding the helper's extent\n"
             "symbols consistently (`K` cannot be bound to both `M` and `N`), and the call's result types\n"
             "are the helper's with those extents substituted.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @g(%a: f32) -> f32 {\n"
                "  %r = call(%a) {callee = @f} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Pass one argument per helper parameter, of the parameter's type.",
     .fixed = "fn @f(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @g(%a: f32) -> f32 {\n"
              "  %r = call(%a, %a) {callee = @f} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L1.5",
     .family = Family::Language,
     .title = "a helper used where purity is required is checked through its actual body",
     .text = "Where a helper must be pure (a `scatter_reduce` combine, checked under this rule; reduce,\n"
             "scan and region helpers under L7.2, L8.1 and L9.2), purity is a property of what the helper\n"
             "actually does, not of how it is declared or called: the check follows every `call` and\n"
             "`@symbol` attribute transitively and names the first op that reads or writes memory,\n"
             "allocates a buffer, or uses an atomic or RNG, together with the helper it is in.",
     .lang = Lang::Kir,
     .example = "fn @log(%a: f32) -> f32 {\n"
                "  %buf = buffer.alloc(%a) : buffer<f32[1]>\n"
                "  return(%a)\n"
                "}\n"
                "\n"
                "fn @c(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  %t = call(%s) {callee = @log} : f32\n"
                "  return(%t)\n"
                "}\n"
                "\n"
                "kernel @k(%h: InOut<f32[4]>, %v: f32) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  scatter_reduce(%h, %rel, %v) {combine = @c}\n"
                "}\n",
     .fix = "Remove the effect from the combine and from every helper it calls; a combine only computes\n"
            "its result from its arguments.",
     .fixed = "fn @c(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "kernel @k(%h: InOut<f32[4]>, %v: f32) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  scatter_reduce(%h, %rel, %v) {combine = @c}\n"
              "}\n"},
    {.id = "L1.6",
     .family = Family::Language,
     .title = "helper boundaries keep coordinate provenance and extent identity",
     .text = "Values derived from `indices`, subregions or index relations keep their coordinate facts\n"
             "(source identity, axis mapping, coordinate expression) when they pass into or out of a\n"
             "helper, and inlining a helper changes none of them. Dynamic extents keep their identity\n"
             "across the boundary too: a helper's extent symbols are bound at each call, equal extents to\n"
             "one symbol, so a helper cannot merge two different dynamic extents (that call is rejected\n"
             "under L1.4). Within a function the provenance is the SSA def-use chain; kir does not yet\n"
             "carry the coordinate expression in a helper's types.",
     .example = "fn @f(%a: f32[K], %b: f32[K]) -> f32[K] {\n"
                "  %s = add(%a, %b) : f32[K]\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @g(%a: f32[M], %b: f32[N]) -> f32[M] {\n"
                "  %r = call(%a, %b) {callee = @f} : f32[M]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Pass values whose extents are the same symbol where the helper requires one extent, or give\n"
            "the helper one extent symbol per independent extent.",
     .fixed = "fn @f(%a: f32[K], %b: f32[K]) -> f32[K] {\n"
              "  %s = add(%a, %b) : f32[K]\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @g(%a: f32[M], %b: f32[M]) -> f32[M] {\n"
              "  %r = call(%a, %b) {callee = @f} : f32[M]\n"
              "  return(%r)\n"
              "}\n"},

    // ---- L2: parameters ----
    {.id = "L2.1",
     .family = Family::Language,
     .title = "an In view is read-only",
     .text = "An `In` view is input only: no op may write to it — `view.store`, `unique_store`,\n"
             "`scatter_reduce`, `atomic.store`, `atomic.rmw` and `atomic.compare_exchange` are all\n"
             "rejected on an In view. A kernel that updates its input in place takes it as `InOut`.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>, %v: f32) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  view.store(%x, %rel, %v)\n"
                "}\n",
     .fix = "Write to an Out view (fresh results) or declare the parameter InOut (in-place update).",
     .fixed = "kernel @k(%x: InOut<f32[N]>, %v: f32) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%x, %rel, %v)\n"
              "}\n"},
    {.id = "L2.2",
     .family = Family::Language,
     .title = "an Out view is unreadable until the program has written the element",
     .text = "An `Out` view has no defined contents on entry. Reading an element before the program stored\n"
             "it is an error: the verifier rejects a `view.load`, `atomic.load`, `atomic.rmw`,\n"
             "`atomic.compare_exchange` or `scatter_reduce` (which combines with the old contents) of an\n"
             "Out view that comes before any store to that view in program order; the interpreter checks\n"
             "every element at run time (undefined-read), also when some other element was stored first.",
     .lang = Lang::Kir,
     .example = "kernel @k(%y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  %v = view.load(%y, %rel) : f32\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Store the element before reading it, or declare the view InOut if the kernel updates\n"
            "existing contents.",
     .fixed = "kernel @k(%y: InOut<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  %v = view.load(%y, %rel) : f32\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "L2.3",
     .family = Family::Language,
     .title = "an InOut view keeps its input contents and may be written back",
     .text = "An `InOut` view holds the caller's data on entry: it may be read before any store, and it may\n"
             "be written; elements the kernel does not write keep their input values. It is the kind for\n"
             "in-place updates, accumulation into existing results and atomics on existing data."},
    {.id = "L2.4",
     .family = Family::Language,
     .title = "a kernel takes tensors as views and scalars as runtime dtype scalars",
     .text = "A kernel parameter annotated with a dtype (`%eps: f32`) is a runtime scalar, passed by the\n"
             "host at each call. Tensors enter a kernel only as `In`, `Out` or `InOut` views; a tensor\n"
             "value parameter (`%x: f32[N]`) is rejected. (Helpers, which are called, not launched, may\n"
             "take tensor values.)",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: f32[N]) {\n"
                "}\n",
     .fix = "Pass the tensor as a view: `In<f32[N]>` to read it, `Out`/`InOut` to write it.",
     .fixed = "kernel @k(%x: In<f32[N]>) {\n"
              "}\n"},
    {.id = "L2.5",
     .family = Family::Language,
     .title = "constexpr values specialize a kernel and must be known before it runs",
     .text = "A `constexpr` parameter is a bool, integer or enum value fixed when the kernel is\n"
             "specialized; it selects hardware-independent branches, never a target. A constexpr\n"
             "parameter may have a default of its type (runtime parameters have none); a helper's\n"
             "constexpr parameter must be bound to a constexpr value, never to a runtime one. A kernel's\n"
             "`fixes {...}` clause specializes like a constexpr: only kernels have it, each name once, no\n"
             "name that is also a parameter, and values are param values (numbers, bools, strings, none,\n"
             "extent symbols of view parameters, lists of them).",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32, constexpr %flag: bool) -> f32 {\n"
                "  return(%a)\n"
                "}\n"
                "\n"
                "kernel @k(%a: f32, %b: bool) {\n"
                "  %r = call(%a, %b) {callee = @f} : f32\n"
                "}\n",
     .fix = "Make the value constexpr where it comes from (here the kernel parameter), or make the\n"
            "helper parameter a runtime one and branch on it with `if`.",
     .fixed = "fn @f(%a: f32, constexpr %flag: bool) -> f32 {\n"
              "  return(%a)\n"
              "}\n"
              "\n"
              "kernel @k(%a: f32, constexpr %b: bool) {\n"
              "  %r = call(%a, %b) {callee = @f} : f32\n"
              "}\n"},
    {.id = "L2.6",
     .family = Family::Language,
     .title = "enums are closed, named and constexpr only",
     .text = "An `enum` is a finite, non-empty, closed set of named members with unique names and unique\n"
             "integer values. Enum values exist only at specialization time: as `constexpr enum<@E>`\n"
             "parameters (with a member as default), `const` members, `eq`/`ne` comparisons between two\n"
             "values of the same enum (giving a bool branch condition) and constexpr helper arguments.\n"
             "They are never runtime values, never in the kernel ABI, never results or loop carries;\n"
             "there is no comparison or conversion across enum types, no ordering and no integer\n"
             "arithmetic on them.",
     .lang = Lang::Kir,
     .example = "enum @Mode { fast = 0, exact = 1 }\n"
                "\n"
                "kernel @k(%mode: enum<@Mode>) {\n"
                "}\n",
     .fix = "Declare the enum parameter constexpr (`constexpr %mode: enum<@Mode>`); branch on it with\n"
            "`cmp {pred = eq}` and `if`.",
     .fixed = "enum @Mode { fast = 0, exact = 1 }\n"
              "\n"
              "kernel @k(constexpr %mode: enum<@Mode>) {\n"
              "}\n"},

    // ---- L3: domains and subregions ----
    {.id = "L3.1",
     .family = Family::Language,
     .title = "a domain is a half-open integer range with a positive step",
     .text = "`domain(begin, end, step = 1)` is the sequence begin, begin + step, ... below end, of index\n"
             "values. The step must be positive: a constant step <= 0 is rejected by the verifier and a\n"
             "dynamic one at run time. The declared extent `domain<E>` must provably equal end - begin\n"
             "(step 1) or ceil((end - begin) / step); a dynamic extent is spelled with the symbol it came\n"
             "from (`domain<N>` for the `dim` of an `N` axis, `domain<%n>` for a scalar `%n`).",
     .lang = Lang::Kir,
     .example = "kernel @k(%n: index) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %m1 = const() {value = -1} : index\n"
                "  %d = domain(%c0, %n, %m1) : domain<%n>\n"
                "}\n",
     .fix = "Use a positive step; to visit positions in reverse, iterate forward and compute\n"
            "`last - i` (L3.2).",
     .fixed = "kernel @k(%n: index) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<%n>\n"
              "}\n"},
    {.id = "L3.2",
     .family = Family::Language,
     .title = "reverse order is written with an explicit forward counter",
     .text = "There is no reversed domain and no negative step (L3.1). A loop that must visit positions\n"
             "from last to first iterates a forward domain and computes the position from the counter,\n"
             "`%i = sub(%last, %ordinal)` with `%last = n - 1`, so the order of execution is always the\n"
             "domain's logical order and the coordinate arithmetic is visible in the program."},
    {.id = "L3.3",
     .family = Family::Language,
     .title = "a subregion is a contiguous part of its source with no implicit clamp",
     .text = "`subregion(src, begin, end)` (in the surface language `axis[begin:end]`) selects positions\n"
             "begin .. end - 1 of a domain or subregion. It keeps the source's axis, bounds, empty and\n"
             "tail cases and provenance, and its extent `subregion<E>` must provably equal end - begin.\n"
             "Bounds are never clamped: constant bounds outside 0 <= begin <= end <= extent(src) are\n"
             "rejected, dynamic ones are checked at run time. A tail tile is written with an explicit\n"
             "`min(begin + tile, n)`.",
     .lang = Lang::Kir,
     .example = "kernel @k(%s: f32) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c4 = const() {value = 4} : index\n"
                "  %c8 = const() {value = 8} : index\n"
                "  %c10 = const() {value = 10} : index\n"
                "  %d = domain(%c0, %c8) : domain<8>\n"
                "  %w = subregion(%d, %c4, %c10) : subregion<6>\n"
                "}\n",
     .fix = "Keep the bounds inside the source: end at the source extent (here the tail 4..8).",
     .fixed = "kernel @k(%s: f32) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c4 = const() {value = 4} : index\n"
              "  %c8 = const() {value = 8} : index\n"
              "  %d = domain(%c0, %c8) : domain<8>\n"
              "  %w = subregion(%d, %c4, %c8) : subregion<4>\n"
              "}\n"},
    {.id = "L3.4",
     .family = Family::Language,
     .title = "iterating a subregion and indices of it yield source coordinates",
     .text = "Iterating a subregion and `indices(subregion)` give the source's coordinates, not positions\n"
             "relative to the subregion: for `subregion(d, 4, 8)` they are 4, 5, 6, 7. The relation to\n"
             "the source (its identity, axis and member mapping) is kept. `indices(d)` of a domain or\n"
             "subregion with extent `E` has type `index[E]`.",
     .lang = Lang::Kir,
     .example = "kernel @k(%n: index) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<%n>\n"
                "  %i = indices(%d) : i32[%n]\n"
                "}\n",
     .fix = "Declare the result `index[E]` with the domain's extent; cast it afterwards if another dtype\n"
            "is needed.",
     .fixed = "kernel @k(%n: index) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<%n>\n"
              "  %i = indices(%d) : index[%n]\n"
              "}\n"},
    {.id = "L3.5",
     .family = Family::Language,
     .title = "non-contiguous, repeated or permuted members use an index relation",
     .text = "A subregion is always contiguous (source, begin, end). Strided, repeated, permuted or\n"
             "otherwise computed members are expressed as an index tensor (for example\n"
             "`indices(d) * 2`) turned into a `relation`, which addresses exactly those source\n"
             "coordinates; there is no step on a subregion.",
     .lang = Lang::Kir,
     .example = "kernel @evens(%x: In<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c2 = const() {value = 2} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %w = subregion(%d, %c0, %n, %c2) : subregion<N>\n"
                "}\n",
     .fix = "Compute the member coordinates as an index tensor and address them with a relation.",
     .fixed = "kernel @evens(%x: In<f32[N]>, %h: index) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c2 = const() {value = 2} : index\n"
              "  %d = domain(%c0, %h) : domain<%h>\n"
              "  %i = indices(%d) : index[%h]\n"
              "  %two = broadcast(%c2) {dims = []} : index[%h]\n"
              "  %members = mul(%i, %two) : index[%h]\n"
              "  %rel = relation(%members) : relation<1 -> [%h]>\n"
              "  %v = view.load(%x, %rel) : f32[%h]\n"
              "}\n"},

    // ---- L4: values ----
    {.id = "L4.1",
     .family = Family::Language,
     .title = "pointwise operands broadcast only from extent one, made explicit",
     .text = "Pointwise ops (arithmetic, `cmp`, `select`) combine scalars and tensors of different shapes\n"
             "only by size-one broadcast: shapes align from the right, a scalar is rank 0, and an extent\n"
             "broadcasts only when it is the constant 1. Such a surface form is normalized into explicit\n"
             "`broadcast(x) {dims}` ops; canonical pointwise ops take identical types. In `broadcast`,\n"
             "`dims` gives, strictly increasing, the result axis of each input axis, and each input\n"
             "extent equals the result's extent on that axis or is 1. Two different constant extents (3\n"
             "and 4) never broadcast; the declared result has the broadcast shape.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[3], %b: f32[4]) -> f32[4] {\n"
                "  %c = mul(%a, %b) : f32[4]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Give the operands equal extents, or extent 1 on the axis to be broadcast.",
     .fixed = "fn @f(%a: f32[1], %b: f32[4]) -> f32[4] {\n"
              "  %c = mul(%a, %b) : f32[4]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L4.2",
     .family = Family::Language,
     .title = "dynamic extents are compatible only when provably equal",
     .text = "A dynamic extent keeps its identity (the symbol or scalar it came from) and the equalities\n"
             "the program establishes. Two dynamic extents are not compatible merely because both are\n"
             "dynamic: `M` and `N` may differ at run time, so pointwise ops, broadcasts, joins, contracts\n"
             "and loop carries that pair them are rejected unless they are provably equal (the same\n"
             "symbol or the same expression). A dynamic extent is also never assumed to be 1.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[M], %b: f32[N]) -> f32[M] {\n"
                "  %r = add(%a, %b) : f32[M]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Use one extent symbol for extents that are equal (here `%b: f32[M]`); a kernel states the\n"
            "equality by giving both views the same symbol.",
     .fixed = "fn @f(%a: f32[M], %b: f32[M]) -> f32[M] {\n"
              "  %r = add(%a, %b) : f32[M]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.3",
     .family = Family::Language,
     .title = "unary math ops take floating operands and keep dtype and shape",
     .text = "`exp`, `log`, `log1p`, `lgamma`, `sin`, `asin`, `cos`, `floor`, `erf`, `erfc`, `i0`,\n"
             "`rsqrt`, `sqrt`, `sigmoid` and `abs` take a floating scalar or tensor (f16, bf16, f32, f64;\n"
             "the 8-bit and smaller formats are storage formats without arithmetic) and return the\n"
             "operand's type, dtype and shape unchanged. They take no attributes (only `exp2` and `tanh`\n"
             "have options, L4.5).",
     .lang = Lang::Kir,
     .example = "fn @f(%a: i32[N]) -> i32[N] {\n"
                "  %r = exp(%a) : i32[N]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Cast the operand to a floating dtype first.",
     .fixed = "fn @f(%a: i32[N]) -> f32[N] {\n"
              "  %b = cast(%a) : f32[N]\n"
              "  %r = exp(%b) : f32[N]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.4",
     .family = Family::Language,
     .title = "fdiv options: approximate and flush_to_zero",
     .text = "Floating division `div(a, b) {approximate = false, flush_to_zero = false}` (`fdiv` in the\n"
             "surface language) with the defaults is exactly `/`. The options are constexpr bools and\n"
             "the only attributes allowed; a non-default mode exists only for f32, and\n"
             "`flush_to_zero = true` requires `approximate = true`. They are attributes of the one\n"
             "canonical op, not separate ops.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32, %b: f32) -> f32 {\n"
                "  %r = div(%a, %b) {flush_to_zero = true} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Set `approximate = true` together with `flush_to_zero = true`, or drop both for exact\n"
            "division.",
     .fixed = "fn @f(%a: f32, %b: f32) -> f32 {\n"
              "  %r = div(%a, %b) {approximate = true, flush_to_zero = true} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.5",
     .family = Family::Language,
     .title = "exp2 and tanh options are constexpr bools, non-default only for f32",
     .text = "`exp2(v) {approximate, flush_to_zero}` and `tanh(v) {approximate}` take constexpr bool\n"
             "options (`true`/`false`, default false). A non-default mode is only available for f32;\n"
             "flush-to-zero exists only for exp2 and only together with `approximate = true`. The options\n"
             "are attributes of the one canonical op; no other unary op has them.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f64) -> f64 {\n"
                "  %r = exp2(%a) {approximate = true} : f64\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Use the approximate mode on f32 values only, or keep the exact default for f64.",
     .fixed = "fn @f(%a: f64) -> f64 {\n"
              "  %r = exp2(%a) : f64\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.6",
     .family = Family::Language,
     .title = "reshape keeps the element count and row-major order",
     .text = "`reshape(x) : T[shape]` keeps the dtype and the row-major order of the elements; the element\n"
             "counts of source and result must be provably equal (`M*N` equals `N*M`). It never pads,\n"
             "drops or reorders elements (that is `transpose`, L4.7).",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[4, 6]) -> f32[20] {\n"
                "  %r = reshape(%a) : f32[20]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Give the result a shape with the same number of elements (here 24).",
     .fixed = "fn @f(%a: f32[4, 6]) -> f32[3, 8] {\n"
              "  %r = reshape(%a) : f32[3, 8]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.7",
     .family = Family::Language,
     .title = "transpose takes a permutation of the axes",
     .text = "`transpose(x) {perm}` (transpose/permute) gives `result[i] = x[perm[i]]`; `perm` must be a\n"
             "permutation of 0..rank-1 (every axis exactly once). Without `perm` all axes are reversed,\n"
             "and the declared result type must match that.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[A, B, C]) -> f32[A, A, C] {\n"
                "  %r = transpose(%a) {perm = [0, 0, 2]} : f32[A, A, C]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Name every axis once in `perm` and declare the permuted shape.",
     .fixed = "fn @f(%a: f32[A, B, C]) -> f32[B, A, C] {\n"
              "  %r = transpose(%a) {perm = [1, 0, 2]} : f32[B, A, C]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.8",
     .family = Family::Language,
     .title = ".shape exists for ranked tensors, views and buffers only",
     .text = "`.shape` (`dim(x) {axis}` in KIR, 0 <= axis < rank) returns a logical extent of a ranked\n"
             "tensor, view or buffer as an `index`, keeping the extent's dynamic identity. Scalars,\n"
             "tuples, records, domains, subregions and relations have no shape.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: tuple<f32[N], f32>) -> index {\n"
                "  %r = dim(%a) {axis = 0} : index\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Take the component first (`tuple.get`, `record.get`) and ask its shape.",
     .fixed = "fn @f(%a: tuple<f32[N], f32>) -> index {\n"
              "  %t = tuple.get(%a) {index = 0} : f32[N]\n"
              "  %r = dim(%t) {axis = 0} : index\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.9",
     .family = Family::Language,
     .title = "full and zeros make a new tensor from a scalar fill",
     .text = "`full(fill) : T[shape]` (and the surface `zeros(shape, dtype)`) makes a new tensor: it has\n"
             "no effect and aliases nothing. The fill is a scalar of the result dtype (no implicit\n"
             "conversion), the result is a ranked tensor, `f32[]` for the empty shape `()`, and constant\n"
             "extents are >= 0.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f16) -> f32[4] {\n"
                "  %r = full(%a) : f32[4]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Cast the fill to the result dtype first.",
     .fixed = "fn @f(%a: f16) -> f32[4] {\n"
              "  %b = cast(%a) : f32\n"
              "  %r = full(%b) : f32[4]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.10",
     .family = Family::Language,
     .title = "join stacks two values of one type on a new trailing axis",
     .text = "`join(lhs, rhs)` takes two scalars or tensors of the same dtype and (provably) the same\n"
             "shape and stacks them on a new trailing axis of extent 2: `f32[N]`, `f32[N]` give\n"
             "`f32[N, 2]`. It is not defined for tuples or records.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[4], %b: f32[8]) -> f32[4, 2] {\n"
                "  %r = join(%a, %b) : f32[4, 2]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Join values of the same shape and dtype; the result adds an axis of extent 2.",
     .fixed = "fn @f(%a: f32[4], %b: f32[4]) -> f32[4, 2] {\n"
              "  %r = join(%a, %b) : f32[4, 2]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.11",
     .family = Family::Language,
     .title = "tuples are fixed-length and typed, indexed statically",
     .text = "A tuple has a fixed length and a type per position; its components are scalars, tensors,\n"
             "tuples or records. A component is read with a static index in range\n"
             "(`tuple.get(t) {index = 1}`) or by destructuring; there is no dynamic indexing.",
     .lang = Lang::Kir,
     .example = "fn @f(%t: tuple<f32, i32>) -> f32 {\n"
                "  %r = tuple.get(%t) {index = 2} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Use an index below the tuple's length and the component's type.",
     .fixed = "fn @f(%t: tuple<f32, i32>) -> f32 {\n"
              "  %r = tuple.get(%t) {index = 0} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L4.12",
     .family = Family::Language,
     .title = "records have unique ordered fields read by static name",
     .text = "A record has at least one field; field names are unique and ordered, and each field has a\n"
             "type. `record(v...)` takes one operand per field, in order, of the field's type; a field is\n"
             "read by its static name, `record.get(r) {field = name}`, which must exist.",
     .lang = Lang::Kir,
     .example = "fn @f(%r: record<a: f32, b: i32>) -> f32 {\n"
                "  %c = record.get(%r) {field = c} : f32\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Read a field the record type declares.",
     .fixed = "fn @f(%r: record<a: f32, b: i32>) -> f32 {\n"
              "  %c = record.get(%r) {field = a} : f32\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L4.13",
     .family = Family::Language,
     .title = "tuples and records are helper values, not kernel parameters",
     .text = "Tuple and record types are identified by their components (and field names). They may be\n"
             "helper parameters and results, loop carries and reduce accumulators and identities, but\n"
             "never kernel parameters (a kernel takes views, runtime scalars and constexpr values),\n"
             "elements of a view, or host returns, and they have no `.shape` or `.dtype`. Their\n"
             "components are scalars, tensors, tuples or records.",
     .lang = Lang::Kir,
     .example = "kernel @k(%t: tuple<f32, f32>) {\n"
                "}\n",
     .fix = "Pass each component as its own kernel parameter and build the tuple inside.",
     .fixed = "kernel @k(%a: f32, %b: f32) {\n"
              "  %t = tuple(%a, %b) : tuple<f32, f32>\n"
              "}\n"},
    {.id = "L4.14",
     .family = Family::Language,
     .title = "arithmetic, compare, select, cast and bitcast follow the dtype table",
     .text = "Binary arithmetic, bitwise ops, `cmp` and `select` take operands of identical type; the dtype\n"
             "must support the op (no arithmetic on bool, bitwise ops on integers or bool, no arithmetic\n"
             "on 8-bit and smaller float storage formats). `select` takes a bool condition of the\n"
             "operands' shape. `cast` converts value by value, keeping scalar or shape; `bitcast`\n"
             "reinterprets bits between dtypes of the same width, never from or to bool. A `const`\n"
             "literal must be exactly representable in its dtype.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32, %b: f16) -> f32 {\n"
                "  %r = mul(%a, %b) : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Convert one operand with `cast` so both have the same dtype.",
     .fixed = "fn @f(%a: f32, %b: f16) -> f32 {\n"
              "  %c = cast(%b) : f32\n"
              "  %r = mul(%a, %c) : f32\n"
              "  return(%r)\n"
              "}\n"},

    // ---- L5: parallel ----
    {.id = "L5.1",
     .family = Family::Language,
     .title = "parallel runs each point once, unordered, without conflicts",
     .text = "`parallel(domain) region(%i: index) {... yield()}` runs its body once per point, in no\n"
             "order: it has no loop-carried values and no results. Two points must not conflict: a plain\n"
             "(non-atomic, non-reduction) write of an element that another point also writes or reads is\n"
             "illegal, and so is a plain access of an element that another point updates atomically.\n"
             "The verifier rejects the conflicts it can prove (a store every point makes to the same\n"
             "place); the interpreter checks the rest at run time, under every point order.",
     .lang = Lang::Kir,
     .example = "kernel @k(%y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%y) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %v = const() {value = 1.0} : f32\n"
                "  %r0 = relation(%c0) : relation<1 -> []>\n"
                "  parallel(%d) region(%i: index) {\n"
                "    view.store(%y, %r0, %v)\n"
                "    yield()\n"
                "  }\n"
                "}\n",
     .fix = "Let each point write its own elements (a relation of the point coordinate); accumulate into\n"
            "one element with `atomic.rmw` or `scatter_reduce`, or with a reduce outside the parallel.",
     .fixed = "kernel @k(%y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%y) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %v = const() {value = 1.0} : f32\n"
              "  parallel(%d) region(%i: index) {\n"
              "    %ri = relation(%i) : relation<1 -> []>\n"
              "    view.store(%y, %ri, %v)\n"
              "    yield()\n"
              "  }\n"
              "}\n"},
    {.id = "L5.2",
     .family = Family::Language,
     .title = "a whole-domain store with unique writes needs no parallel",
     .text = "A tensor assignment over a whole domain (a `view.store` or `unique_store` through a relation\n"
             "of `indices(d)`) is already one unordered write per point, so it needs no `parallel`\n"
             "loop. Its writes must be unique: two points that land on one element are an error, which\n"
             "the interpreter reports at run time (write-collision) naming both points.",
     .lang = Lang::Run,
     .example = "kernel @pairs(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c2 = const() {value = 2} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %src = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %src) : f32[N]\n"
                "  %two = broadcast(%c2) {dims = []} : index[N]\n"
                "  %h = div(%i, %two) : index[N]\n"
                "  %dst = relation(%h) : relation<1 -> [N]>\n"
                "  view.store(%y, %dst, %v)\n"
                "}\n",
     .args = "--dim N=4 --input x=random:1",
     .fix = "Store through coordinates that are distinct for every point; combine colliding values with\n"
            "`scatter_reduce` or a reduce instead.",
     .fixed = "kernel @pairs(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %src = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %src) : f32[N]\n"
              "  view.store(%y, %src, %v)\n"
              "}\n"},

    // ---- L6: control flow ----
    {.id = "L6.1",
     .family = Family::Language,
     .title = "if, for and while are structured and iterate domains in logical order",
     .text = "`if`, `for` and `while` are structured ops with regions. `if` takes a scalar bool and two\n"
             "argument-less regions ending in `yield` of the result types; `for` iterates a domain or\n"
             "subregion in its logical order, its body taking the index and the carries; `while` has a\n"
             "before-region ending in `condition(bool, values...)` and an after-region ending in\n"
             "`yield`. Values updated in a loop are its carries (SSA). Regions end with `yield`, a\n"
             "function body with `return`.",
     .lang = Lang::Kir,
     .example = "fn @f(%n: index, %a: f32) -> f32 {\n"
                "  %r = for(%n, %a) : f32 region(%i: index, %c: f32) {\n"
                "    %d = add(%c, %c) : f32\n"
                "    yield(%d)\n"
                "  }\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Build a domain and iterate it: `%d = domain(%c0, %n) : domain<%n>`, then `for(%d, ...)`.",
     .fixed = "fn @f(%n: index, %a: f32) -> f32 {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %dom = domain(%c0, %n) : domain<%n>\n"
              "  %r = for(%dom, %a) : f32 region(%i: index, %c: f32) {\n"
              "    %d = add(%c, %c) : f32\n"
              "    yield(%d)\n"
              "  }\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L6.2",
     .family = Family::Language,
     .title = "a loop carry keeps one type: initial, argument and update agree",
     .text = "A loop carry has one schema: its initial value, the body argument, every update (`yield`,\n"
             "`continue`, `break`, a while's `condition`) and the loop result agree in dtype, rank and\n"
             "provably equal logical shape, per component for tuples and records. Broadcasting inside\n"
             "the body does not widen a carry: a carry that should be a tensor starts as one.",
     .lang = Lang::Kir,
     .example = "fn @f(%n: index, %a: f32) -> f32 {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<%n>\n"
                "  %r = for(%d, %a) : f32 region(%i: index, %c: f32) {\n"
                "    %y = broadcast(%c) {dims = []} : f32[4]\n"
                "    yield(%y)\n"
                "  }\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Give the carry its final type from the start: broadcast the initial value before the loop.",
     .fixed = "fn @f(%n: index, %a: f32) -> f32[4] {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<%n>\n"
              "  %init = broadcast(%a) {dims = []} : f32[4]\n"
              "  %r = for(%d, %init) : f32[4] region(%i: index, %c: f32[4]) {\n"
              "    %y = add(%c, %c) : f32[4]\n"
              "    yield(%y)\n"
              "  }\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L6.3",
     .family = Family::Language,
     .title = "no public ordered; structured break and continue; tensor predicates use select",
     .text = "There is no public `ordered` construct: ordered iteration is an ordinary domain loop.\n"
             "`break` and `continue` are structured: they appear only in a `for` body or a while's\n"
             "after-region (possibly inside `if`s, never inside `parallel`), are the last op of their\n"
             "region and carry the loop's carries. An `if` branches on one scalar bool; choosing\n"
             "elementwise with a tensor predicate is `select`.",
     .lang = Lang::Kir,
     .example = "fn @f(%c: bool[N], %a: f32[N], %b: f32[N]) -> f32[N] {\n"
                "  %r = if(%c) : f32[N] region() {\n"
                "    yield(%a)\n"
                "  } region() {\n"
                "    yield(%b)\n"
                "  }\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Choose elementwise with `select(%c, %a, %b)`; reduce the predicate to a scalar bool\n"
            "(`reduce.any`/`reduce.all`) if one branch is meant.",
     .fixed = "fn @f(%c: bool[N], %a: f32[N], %b: f32[N]) -> f32[N] {\n"
              "  %r = select(%c, %a, %b) : f32[N]\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L6.4",
     .family = Family::Language,
     .title = "there is no state_stream",
     .text = "The language has no `state_stream` construct. State carried along a sequence is an ordinary\n"
             "loop carry over an explicit domain (L6.1, L6.2), a `scan` (L8) or a `region_scan` (L9.5),\n"
             "whose order and legal reassociations are stated in the program.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>) {\n"
                "  %p = state_stream(%x) : f32[N]\n"
                "}\n",
     .fix = "Carry the state in a `for` loop over the domain (or use scan / region_scan).",
     .fixed = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = for(%d, %z) : f32 region(%i: index, %acc: f32) {\n"
              "    %ri = relation(%i) : relation<1 -> []>\n"
              "    %v = view.load(%x, %ri) : f32\n"
              "    %next = add(%acc, %v) : f32\n"
              "    view.store(%y, %ri, %next)\n"
              "    yield(%next)\n"
              "  }\n"
              "}\n"},

    // ---- L7: reduce ----
    {.id = "L7.1",
     .family = Family::Language,
     .title = "generic reduce: axes of a ranked source, accumulator is the source less those axes",
     .text = "`reduce(src, identity, captures...) {axes, combine}` folds the listed axes of its source.\n"
             "The source is a tensor or a tuple/record of tensors; `axes` is non-empty, canonical\n"
             "(non-negative, in range, unique) and every component shares the reduced extents. The\n"
             "accumulator, and the result, is each component's shape less the reduced axes; a component\n"
             "that loses all its axes becomes a scalar (not `T[]`).",
     .lang = Lang::Kir,
     .example = "fn @add(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z) {axes = [1], combine = @add} : f32\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Name axes the source has (here axis 0 of `f32[N]`).",
     .fixed = "fn @add(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @add} : f32\n"
              "  return(%s)\n"
              "}\n"},
    {.id = "L7.2",
     .family = Family::Language,
     .title = "a combine is a typed pure helper from two accumulators to one",
     .text = "A reduce or scan `combine = @f` names a defined helper `fn(acc, acc, captures...) -> acc`:\n"
             "both arguments and the result have the accumulator's schema, and captures are explicit\n"
             "extra operands whose types unify with the trailing parameters. The combine is pure,\n"
             "checked transitively through the helpers it calls: no view or buffer read or write, no\n"
             "buffer allocation, atomic, RNG or mutation.",
     .lang = Lang::Kir,
     .example = "fn @noisy(%a: f32, %b: f32, %seed: u64) -> f32 {\n"
                "  %ctr = const() {value = 0} : u64\n"
                "  %u = random.uniform(%seed, %ctr) : f32\n"
                "  %s = add(%a, %b) : f32\n"
                "  %t = add(%s, %u) : f32\n"
                "  return(%t)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N], %seed: u64) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z, %seed) {axes = [0], combine = @noisy} : f32\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Keep the combine a pure function of its arguments; do the effect (here the random draw)\n"
            "outside the reduce.",
     .fixed = "fn @add(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N], %seed: u64) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @add} : f32\n"
              "  %ctr = const() {value = 0} : u64\n"
              "  %u = random.uniform(%seed, %ctr) : f32\n"
              "  %t = add(%s, %u) : f32\n"
              "  return(%t)\n"
              "}\n"},
    {.id = "L7.3",
     .family = Family::Language,
     .title = "a reduction may be reassociated and reordered",
     .text = "An implementation may evaluate a reduce in any association and order of its elements (tree,\n"
             "lanes, blocks, any split). Integer and exact results do not change; floating results may\n"
             "differ within the numerics contract. The interpreter reports the uniqueness kind and\n"
             "reassociation envelope of each reduce (`kir run --envelope`) and can run other orders\n"
             "(`--policy accumulation=...`, `lanes=...`) to show the spread."},
    {.id = "L7.4",
     .family = Family::Language,
     .title = "the identity has the accumulator's schema and is the result of an empty reduction",
     .text = "The identity is given per component and has exactly the accumulator's type: a scalar for a\n"
             "reduction over all axes (not `T[]`), the source shape less the reduced axes otherwise, one\n"
             "entry per tuple component or record field. Reducing an empty axis returns the identity.",
     .lang = Lang::Kir,
     .example = "fn @adds(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %id = full(%z) : f32[]\n"
                "  %s = reduce(%x, %id) {axes = [0], combine = @adds} : f32\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Give the identity the accumulator's type (here the scalar `%z` itself).",
     .fixed = "fn @adds(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @adds} : f32\n"
              "  return(%s)\n"
              "}\n"},
    {.id = "L7.5",
     .family = Family::Language,
     .title = "no hidden accumulator dtype",
     .text = "A reduce accumulates in the source's dtype: the identity, the combine and the result may not\n"
             "differ from the accumulator only in element dtype (a wider accumulator hidden in the\n"
             "combine). To accumulate in another dtype, convert the source first; the builtins take\n"
             "`acc_dtype`, which does exactly that (an arithmetic dtype: not bool, not a storage format).",
     .lang = Lang::Kir,
     .example = "fn @add64(%a: f64, %b: f64) -> f64 {\n"
                "  %s = add(%a, %b) : f64\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z) {axes = [0], combine = @add64} : f32\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Cast the source to the accumulator dtype before the reduce and use an identity and result of\n"
            "that dtype.",
     .fixed = "fn @add64(%a: f64, %b: f64) -> f64 {\n"
              "  %s = add(%a, %b) : f64\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f64 {\n"
              "  %x64 = cast(%x) : f64[N]\n"
              "  %z = const() {value = 0.0} : f64\n"
              "  %s = reduce(%x64, %z) {axes = [0], combine = @add64} : f64\n"
              "  return(%s)\n"
              "}\n"},
    {.id = "L7.6",
     .family = Family::Language,
     .title = "reduce.sum, max, any and all: builtin reductions of a ranked tensor",
     .text = "`reduce.sum/max/any/all(x) {axis, acc_dtype?}` reduce a ranked tensor over `axis`, an integer\n"
             "or a non-empty list (negative axes count from the end; no axis twice). sum has identity 0\n"
             "and widens by default (f16, bf16 and storage formats to f32, i8/i16 to i32, u8/u16 to u32;\n"
             "bool and e8m0 have no default and need `acc_dtype`); max keeps the dtype, has the lowest\n"
             "value (-inf for floats) as identity and propagates NaN; any/all take bool. The declared\n"
             "result is the accumulator dtype less the reduced axes; the normalizer rewrites each into a\n"
             "generic reduce, casting the source first when `acc_dtype` differs (L7.5).",
     .lang = Lang::Kir,
     .example = "fn @f(%x: bool[N]) -> bool {\n"
                "  %s = reduce.sum(%x) {axis = 0} : bool\n"
                "  return(%s)\n"
                "}\n",
     .fix = "Count true values with an explicit `acc_dtype` (or test them with `reduce.any`).",
     .fixed = "fn @f(%x: bool[N]) -> i32 {\n"
              "  %s = reduce.sum(%x) {acc_dtype = i32, axis = 0} : i32\n"
              "  return(%s)\n"
              "}\n"},
    {.id = "L7.7",
     .family = Family::Language,
     .title = "arg_reduce.max returns the maximum and its index",
     .text = "`%v, %i = arg_reduce.max(x) {axis}` reduces exactly one axis (negative allowed) and returns\n"
             "the maximum and its position: ties go to the lowest logical index, NaN wins over every\n"
             "number, and the position is relative to the reduced axis (0-based) with dtype `index`. Both\n"
             "results have the source shape less that axis; an empty axis gives (-inf or the minimum, 0).",
     .lang = Lang::Kir,
     .example = "fn @f(%x: f32[M, N]) -> (f32[M], i32[M]) {\n"
                "  %v, %i = arg_reduce.max(%x) {axis = 1} : (f32[M], i32[M])\n"
                "  return(%v, %i)\n"
                "}\n",
     .fix = "Declare the index result as `index[...]`; cast it afterwards if another dtype is needed.",
     .fixed = "fn @f(%x: f32[M, N]) -> (f32[M], index[M]) {\n"
              "  %v, %i = arg_reduce.max(%x) {axis = 1} : (f32[M], index[M])\n"
              "  return(%v, %i)\n"
              "}\n"},

    // ---- L8: scan ----
    {.id = "L8.1",
     .family = Family::Language,
     .title = "generic scan: one axis, result of the source's shape, associative combine",
     .text = "`scan(src, identity, captures...) {axis, combine, inclusive = true, reverse = false}` computes\n"
             "prefix combinations along one canonical axis. The accumulator is the source less that axis,\n"
             "the identity has the accumulator's type, the result has the source's type, `inclusive` and\n"
             "`reverse` are bools, and the combine is a pure helper as for reduce. The combine must be\n"
             "associative but need not be commutative: only order-preserving reassociation is allowed.",
     .lang = Lang::Kir,
     .example = "fn @add(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %p = scan(%x, %z) {axis = 0, combine = @add} : f32\n"
                "  return(%p)\n"
                "}\n",
     .fix = "Declare the scan's result with the source's type (one prefix per element).",
     .fixed = "fn @add(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32[N] {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %p = scan(%x, %z) {axis = 0, combine = @add} : f32[N]\n"
              "  return(%p)\n"
              "}\n"},
    {.id = "L8.2",
     .family = Family::Language,
     .title = "cumsum and cummax: builtin scans over one axis",
     .text = "`cumsum(x)` and `cummax(x)` `{axis, inclusive = true, reverse = false, acc_dtype?}` scan one\n"
             "axis (negative allowed) of a ranked tensor and keep its shape; cumsum widens like\n"
             "`reduce.sum` by default, cummax keeps the dtype, and `acc_dtype` converts the source first.\n"
             "Scale formats such as e8m0 have no default sum accumulator. An empty input gives an empty\n"
             "result. The normalizer rewrites both into a generic scan.",
     .lang = Lang::Kir,
     .example = "fn @f(%x: e8m0[N]) -> e8m0[N] {\n"
                "  %p = cumsum(%x) {axis = 0} : e8m0[N]\n"
                "  return(%p)\n"
                "}\n",
     .fix = "Give an arithmetic `acc_dtype` and declare the result in it.",
     .fixed = "fn @f(%x: e8m0[N]) -> f32[N] {\n"
              "  %p = cumsum(%x) {acc_dtype = f32, axis = 0} : f32[N]\n"
              "  return(%p)\n"
              "}\n"},

    // ---- L9: region_fold and region_scan ----
    {.id = "L9.1",
     .family = Family::Language,
     .title = "region_fold summarizes any contiguous segmentation of one axis",
     .text = "`region_fold(sources..., identity, operands...) {axis, summarize, combine, segments}` splits\n"
             "the source axis into any contiguous, ordered, covering segments, summarizes each slice and\n"
             "combines the summaries in order. `segments = [n_sources, 1, n_operands]`; every source\n"
             "component is a tensor with the axis, all with provably the same extent on it; summarize\n"
             "takes one slice per source (sharing one slice extent symbol on the axis) and then the\n"
             "operands, which are passed whole, never sliced.",
     .lang = Lang::Kir,
     .example = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @sum2(%x: f32[S], %y: f32[S]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N], %y: f32[M]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %r = region_fold(%x, %y, %z) {axis = 0, combine = @add_f32, segments = [2, 1, 0], summarize = @sum2} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Fold sources that share the axis extent (one symbol); pass data of another extent as an\n"
            "operand.",
     .fixed = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @sum2(%x: f32[S], %y: f32[S]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N], %y: f32[N]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %r = region_fold(%x, %y, %z) {axis = 0, combine = @add_f32, segments = [2, 1, 0], summarize = @sum2} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L9.2",
     .family = Family::Language,
     .title = "summarize is pure and does not observe the segmentation",
     .text = "A summarize helper may use any pure op (pointwise, reduce, scan, contract, ...) on its slices\n"
             "and operands, but it may not write, scatter, use atomics or RNG, and it may not observe\n"
             "the segmentation: not the segment's ordinal, count or extent (`dim` of a slice axis, a\n"
             "domain of the slice extent, a fixed or computed slice extent such as `4` or `2*S`, a\n"
             "summary type that mentions the slice extent) and no chunk-relative coordinates. The\n"
             "combine is pure as well.",
     .lang = Lang::Kir,
     .example = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @count(%x: f32[S]) -> f32 {\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %c = cast(%n) : f32\n"
                "  return(%c)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %r = region_fold(%x, %z) {axis = 0, combine = @add_f32, segments = [1, 1, 0], summarize = @count} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Compute the summary from the slice's values only; a count is a sum of ones over the slice,\n"
            "and a length known up front is an operand.",
     .fixed = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @count(%x: f32[S]) -> f32 {\n"
              "  %one = const() {value = 1.0} : f32\n"
              "  %ones = full(%one) : f32[S]\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %c = reduce(%ones, %z) {axes = [0], combine = @add_f32} : f32\n"
              "  return(%c)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %r = region_fold(%x, %z) {axis = 0, combine = @add_f32, segments = [1, 1, 0], summarize = @count} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L9.3",
     .family = Family::Language,
     .title = "region_fold laws: summaries combine, the identity is neutral",
     .text = "For every split of a slice A ++ B, summarize(A ++ B) == combine(summarize(A), summarize(B)),\n"
             "the identity is neutral for combine, and an empty source gives the identity; that is what\n"
             "makes every segmentation give the same result. The verifier checks the types the laws\n"
             "need (identity, result and combine `fn(S, S) -> S` all of the summary type S); the laws\n"
             "themselves are checked at run time by `kir run --check-laws` under several segmentations.",
     .lang = Lang::Kir,
     .example = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @sum(%x: f32[S]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f64\n"
                "  %r = region_fold(%x, %z) {axis = 0, combine = @add_f32, segments = [1, 1, 0], summarize = @sum} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Give the identity the summary type that summarize returns (here f32).",
     .fixed = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @sum(%x: f32[S]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %r = region_fold(%x, %z) {axis = 0, combine = @add_f32, segments = [1, 1, 0], summarize = @sum} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L9.4",
     .family = Family::Language,
     .title = "source-axis indices passed as a component stay absolute coordinates",
     .text = "A summarize that needs the positions of its elements receives `indices` of the source axis\n"
             "as one more source component. Sliced with the other components, these values remain the\n"
             "absolute source coordinates (for a slice 4..8 they are 4, 5, 6, 7), so a causal mask or a\n"
             "position encoding inside summarize is the same under every segmentation; it never sees\n"
             "chunk-relative positions (L9.2)."},
    {.id = "L9.5",
     .family = Family::Language,
     .title = "region_scan: summaries, an action on the state and emitted outputs",
     .text = "`region_scan(sources..., identity, initial_state, operands...) {axis, summarize, combine,\n"
             "apply, emit, segments}` with `segments = [n_sources, 1, 1, n_operands]`: summarize gives a\n"
             "transition T per slice, combine `fn(T, T) -> T` composes them, apply `fn(T, State) -> State`\n"
             "advances the state, and emit `fn(slices..., State, operands...)` produces the slice's\n"
             "outputs from the state before it. Action laws and the emit concatenation law make every\n"
             "segmentation agree. The results are the outputs in source order, then the final state; all\n"
             "four helpers are pure and summarize and emit do not observe the segmentation.",
     .lang = Lang::Kir,
     .example = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
                "  %s = add(%a, %b) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @sum_slice(%x: f32[S]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @apply_sum(%t: f32, %state: f32) -> f32 {\n"
                "  %s = add(%state, %t) : f32\n"
                "  return(%s)\n"
                "}\n"
                "\n"
                "fn @emit_prefix(%x: f32[S], %state: f32) -> f32[S] {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %p = scan(%x, %z) {axis = 0, combine = @add_f32} : f32[S]\n"
                "  %sb = broadcast(%state) {dims = []} : f32[S]\n"
                "  %o = add(%p, %sb) : f32[S]\n"
                "  return(%o)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N], %init: f32) -> f32[N] {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %out = region_scan(%x, %z, %init) {apply = @apply_sum, axis = 0, combine = @add_f32, emit = @emit_prefix, segments = [1, 1, 1, 0], summarize = @sum_slice} : f32[N]\n"
                "  return(%out)\n"
                "}\n",
     .fix = "Declare the emitted outputs and then the final state as the results.",
     .fixed = "fn @add_f32(%a: f32, %b: f32) -> f32 {\n"
              "  %s = add(%a, %b) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @sum_slice(%x: f32[S]) -> f32 {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @apply_sum(%t: f32, %state: f32) -> f32 {\n"
              "  %s = add(%state, %t) : f32\n"
              "  return(%s)\n"
              "}\n"
              "\n"
              "fn @emit_prefix(%x: f32[S], %state: f32) -> f32[S] {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %p = scan(%x, %z) {axis = 0, combine = @add_f32} : f32[S]\n"
              "  %sb = broadcast(%state) {dims = []} : f32[S]\n"
              "  %o = add(%p, %sb) : f32[S]\n"
              "  return(%o)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N], %init: f32) -> (f32[N], f32) {\n"
              "  %z = const() {value = 0.0} : f32\n"
              "  %out, %fin = region_scan(%x, %z, %init) {apply = @apply_sum, axis = 0, combine = @add_f32, emit = @emit_prefix, segments = [1, 1, 1, 0], summarize = @sum_slice} : (f32[N], f32)\n"
              "  return(%out, %fin)\n"
              "}\n"},
    {.id = "L9.6",
     .family = Family::Language,
     .title = "degenerate region forms become an ordinary reduce or scan",
     .text = "A `region_fold` or `region_scan` written without `segments` (one source, no operands) is a\n"
             "surface form. The normalizer (`kir normalize`, and every command that loads a file) writes\n"
             "the implied segments, and when the form is degenerate (summarize is a reduce/scan with the\n"
             "combine's own op and identity, apply and emit trivial) turns it into the ordinary `reduce`\n"
             "or `scan` it means. `kir verify` of canonical KIR rejects the surface form under L9.1 or\n"
             "L9.5 and points to the normalizer. A region op with explicit segments is never rewritten.",
     .example = "fn @add(%a: f32, %b: f32) -> f32 {\n"
                "  %r = add(%a, %b) : f32\n"
                "  return(%r)\n"
                "}\n"
                "\n"
                "fn @sum(%s: f32[L]) -> f32 {\n"
                "  %z = const() {value = 0.0} : f32\n"
                "  %r = reduce(%s, %z) {axes = [0], combine = @add} : f32\n"
                "  return(%r)\n"
                "}\n"
                "\n"
                "fn @f(%x: f32[N]) -> f32 {\n"
                "  %id = const() {value = 0.0} : f32\n"
                "  %r = region_fold(%x, %id) {axis = 0, combine = @add, summarize = @sum} : f32\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Run `kir normalize` on the file (or load it with `kir run`); write the ordinary reduce\n"
            "directly if no segmentation is meant.",
     .fixed = "fn @add(%a: f32, %b: f32) -> f32 {\n"
              "  %r = add(%a, %b) : f32\n"
              "  return(%r)\n"
              "}\n"
              "\n"
              "fn @f(%x: f32[N]) -> f32 {\n"
              "  %id = const() {value = 0.0} : f32\n"
              "  %r = reduce(%x, %id) {axes = [0], combine = @add} : f32\n"
              "  return(%r)\n"
              "}\n"},
    {.id = "L9.7",
     .family = Family::Language,
     .title = "the three reference programs",
     .text = "Three programs show the region forms and their alternative: flash attention as a\n"
             "`region_fold` over the key axis (examples/flash_attention.kir), causal linear attention as a\n"
             "`region_scan` (examples/causal_linear_attention.kir), and Mamba's chunk state passing as an\n"
             "ordinary ordered carry over an explicit chunk domain (examples/mamba_chunk_scan.kir). The\n"
             "interpreter runs all three under several segmentations and point orders."},
};

}  // namespace

std::span<const Rule> language_rules_core() { return kRules; }

}  // namespace kir::rules
