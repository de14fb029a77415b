// Rule table: language rules L10-L19 (see rule.h): contract and its shorthands, scaled and
// quantized contract, sparse contract, histogram, ragged groups, indexed access and buffers,
// atomics, RNG, and what is not in the language.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    // ---- L10: contract ----
    {.id = "L10.1",
     .family = Family::Language,
     .title = "dot, matvec, vecmat and matmul have fixed shapes; K must match and never broadcasts",
     .text = "The named products are shorthands for `contract`: `dot` takes [K] and [K] (rank 1 only) and\n"
             "gives the rank-0 tensor []; `matvec` takes [..., M, K] and [..., K] and gives [..., M]; `vecmat`\n"
             "[..., K] and [..., K, N] gives [..., N]; `matmul` [..., M, K] and [..., K, N] gives [..., M, N],\n"
             "both sides of rank 2 or more (a vector is never promoted, a result never squeezed). Leading batch\n"
             "axes broadcast right-aligned by the size-one rule and come first in the result. The transpose\n"
             "flags (`transpose_lhs`, `transpose_rhs`, `transpose`) swap the last two axes of their matrix before\n"
             "the shapes are matched. The two K extents must be provably equal: K is never broadcast.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[K, M], %b: f32[K, N]) -> f32[M, N] {\n"
                "  %c = matmul(%a, %b) {acc_dtype = f32} : f32[M, N]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Make the K axes meet: transpose the operand whose K is in the other position (here the lhs\n"
            "is [K, M], so `transpose_lhs = true`), or pass tensors whose K extents are the same.",
     .fixed = "fn @f(%a: f32[K, M], %b: f32[K, N]) -> f32[M, N] {\n"
              "  %c = matmul(%a, %b) {acc_dtype = f32, transpose_lhs = true} : f32[M, N]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L10.2",
     .family = Family::Language,
     .title = "product operands share one numeric dtype and the accumulator dtype is explicit",
     .text = "The lhs and rhs of a product have the same numeric dtype (an integer or f16/bf16/f32/f64;\n"
             "storage formats such as e4m3 are cast first); the author casts operands of different dtypes\n"
             "explicitly. The accumulator dtype, which is the result dtype, is always given (`acc_dtype` on the\n"
             "shorthands, the result type on `contract`) and may differ from the operands'. There is no implicit\n"
             "conjugate, no TF32, no alpha/beta scaling and no mutable initial C: such attributes are rejected.\n"
             "A reduction over an empty K gives zero in the accumulator dtype.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f16[M, K], %b: f16[K, N]) -> f32[M, N] {\n"
                "  %c = matmul(%a, %b) : f32[M, N]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Give the accumulator dtype (`acc_dtype = f32`). Cast operands of different dtypes to one\n"
            "dtype first, and write scaling or accumulation into an existing C as ordinary pointwise ops.",
     .fixed = "fn @f(%a: f16[M, K], %b: f16[K, N]) -> f32[M, N] {\n"
              "  %c = matmul(%a, %b) {acc_dtype = f32} : f32[M, N]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L10.3",
     .family = Family::Language,
     .title = "outer is a broadcast multiply, not a contract",
     .text = "`outer(a, b)` takes two rank-1 tensors [M] and [N] of one numeric dtype and gives [M, N]. It\n"
             "normalizes to two explicit broadcasts and a pointwise `mul`: the result keeps the input dtype and\n"
             "each element is one rounded product. It has no reduction and therefore no accumulator, so it takes\n"
             "no attributes (no `acc_dtype`). For a wider result, cast the operands first.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f16[M], %b: f16[N]) -> f32[M, N] {\n"
                "  %c = outer(%a, %b) {acc_dtype = f32} : f32[M, N]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Drop the attribute; cast the operands to the dtype the product should be computed in.",
     .fixed = "fn @f(%a: f16[M], %b: f16[N]) -> f32[M, N] {\n"
              "  %a32 = cast(%a) : f32[M]\n"
              "  %b32 = cast(%b) : f32[N]\n"
              "  %c = outer(%a32, %b32) : f32[M, N]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L10.4",
     .family = Family::Language,
     .title = "contract pairs axes explicitly and fixes the result axis order",
     .text = "`contract(a, b) {reduce = [[la, ra], ...], batch = [[la, ra], ...]}` is the one canonical\n"
             "product: multiply, then add over the reduce pairs. `reduce` is a non-empty list of unique pairs (a\n"
             "product without reduction is a broadcast multiply); `batch` pairs are unique and do not overlap\n"
             "`reduce`; paired extents must be provably equal (pairs never broadcast). The result axes are the\n"
             "lhs axes not reduced, batch axes included, in lhs order, then the rhs axes neither reduced nor\n"
             "batch members, in rhs order; the result dtype is the accumulator dtype. There are no multiply or\n"
             "combine attributes. A zero-extent reduction gives zero.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32[M, K], %b: f32[K, N]) -> f32[N, M] {\n"
                "  %c = contract(%a, %b) {reduce = [[1, 0]], batch = []} : f32[N, M]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Declare the result in the order the rule gives, or swap the operands (and their pairs) to get\n"
            "the order you want: here contract(%b, %a) with reduce = [[0, 1]] gives [N, M].",
     .fixed = "fn @f(%a: f32[M, K], %b: f32[K, N]) -> f32[N, M] {\n"
              "  %c = contract(%b, %a) {reduce = [[0, 1]], batch = []} : f32[N, M]\n"
              "  return(%c)\n"
              "}\n"},

    // ---- L11: scaled contract and quantized compute ----
    {.id = "L11.1",
     .family = Family::Language,
     .title = "scaled_contract has one closed block-scaled schema",
     .text = "`scaled_contract(l, ls, r, rs)`, what `scaled_matmul` normalizes to, multiplies block-scaled\n"
             "(MX) operands in one fixed layout: l: u8[M, G, C] with scales ls: e8m0[M, G], r: u8[G, C, N]\n"
             "with scales rs: e8m0[N, G], `reduce = [[1, 0], [2, 1]]`, `batch = []`, result [M, N] of\n"
             "f16/bf16/f32/f64. Formats are e2m1 (two elements per byte: C = group/2), e4m3 or e5m2 (C = group);\n"
             "scales are e8m0; the two group sizes are positive and equal (and even for e2m1); M, G and N are\n"
             "shared by the operands. Any other layout, such as scales stored [G, N], is rejected.",
     .lang = Lang::Kir,
     .example = "fn @f(%l: u8[M, G, 16], %ls: e8m0[M, G], %r: u8[G, 32, N], %rs: e8m0[G, N]) -> f32[M, N] {\n"
                "  %c = scaled_contract(%l, %ls, %r, %rs) {batch = [], lhs_format = e2m1, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Lay the operands out as the schema says (here the rhs scales as e8m0[N, G]); transpose or\n"
            "re-pack data stored another way before the call.",
     .fixed = "fn @f(%l: u8[M, G, 16], %ls: e8m0[M, G], %r: u8[G, 32, N], %rs: e8m0[N, G]) -> f32[M, N] {\n"
              "  %c = scaled_contract(%l, %ls, %r, %rs) {batch = [], lhs_format = e2m1, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L11.2",
     .family = Family::Language,
     .title = "packed integer formats are decoded by the author, not scaled-contracted",
     .text = "Packed INT4 or INT2 data is not a scaled format: `scaled_contract` rejects an integer format\n"
             "name (`int4`, `u4`, `i8`, ...). The author decodes the packed values explicitly (split the nibbles\n"
             "with `and` and `shr`, sign-extend, apply any scales with pointwise ops) and calls an ordinary\n"
             "`contract` on the decoded tensors, so every step of the decoding is visible in the program.",
     .lang = Lang::Kir,
     .example = "fn @f(%l: u8[M, G, 16], %ls: e8m0[M, G], %r: u8[G, 32, N], %rs: e8m0[N, G]) -> f32[M, N] {\n"
                "  %c = scaled_contract(%l, %ls, %r, %rs) {batch = [], lhs_format = int4, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]\n"
                "  return(%c)\n"
                "}\n",
     .fix = "Decode the packed values yourself (low and high nibble with and/shr, sign extension as\n"
            "(n ^ 8) - 8) and contract the decoded integers; the fixed form does it for an int4 carrier\n"
            "u8[M, H] against an i32 rhs.",
     .fixed = "fn @f(%p: u8[M, H], %r: i32[2*H, N]) -> i32[M, N] {\n"
              "  %c15 = const() {value = 15} : u8\n"
              "  %c4 = const() {value = 4} : u8\n"
              "  %mask = broadcast(%c15) {dims = []} : u8[M, H]\n"
              "  %four = broadcast(%c4) {dims = []} : u8[M, H]\n"
              "  %lo = and(%p, %mask) : u8[M, H]\n"
              "  %hi = shr(%p, %four) : u8[M, H]\n"
              "  %nib = join(%lo, %hi) : u8[M, H, 2]\n"
              "  %flat = reshape(%nib) : u8[M, 2*H]\n"
              "  %u = cast(%flat) : i32[M, 2*H]\n"
              "  %c8 = const() {value = 8} : i32\n"
              "  %e8 = broadcast(%c8) {dims = []} : i32[M, 2*H]\n"
              "  %x = xor(%u, %e8) : i32[M, 2*H]\n"
              "  %v = sub(%x, %e8) : i32[M, 2*H]\n"
              "  %c = contract(%v, %r) {reduce = [[1, 0]], batch = []} : i32[M, N]\n"
              "  return(%c)\n"
              "}\n"},
    {.id = "L11.3",
     .family = Family::Language,
     .title = "quantize is q8_k and quantized_dot is q4_k by q8_k, with complete record shapes",
     .text = "`quantize(values) {format = q8_k}` turns f32 [..., K] into the q8_K record\n"
             "`record<d: f32[..., K/256], qs: i8[..., K], bsums: i16[..., K/16]>`, and\n"
             "`quantized_dot(lhs, rhs) {lhs_format = q4_k, rhs_format = q8_k}` takes a q4_K record (d and dmin\n"
             "f16, scales and qs u8) and a q8_K record and gives f32. Both are pure structured ops with a fixed\n"
             "shape, record mapping and numeric contract (docs/numerics.md); no other format is accepted. K is a\n"
             "whole number of 256-element super-blocks: checked here when it is a constant, at run time\n"
             "(shape-mismatch) when it is dynamic.",
     .lang = Lang::Kir,
     .example = "fn @f(%x: f32[256]) -> record<d: f32[1], qs: i8[256], bsums: i16[16]> {\n"
                "  %q = quantize(%x) {format = q4_k} : record<d: f32[1], qs: i8[256], bsums: i16[16]>\n"
                "  return(%q)\n"
                "}\n",
     .fix = "Use format = q8_k for quantize (and lhs_format = q4_k, rhs_format = q8_k for quantized_dot);\n"
            "decode other block formats explicitly.",
     .fixed = "fn @f(%x: f32[256]) -> record<d: f32[1], qs: i8[256], bsums: i16[16]> {\n"
              "  %q = quantize(%x) {format = q8_k} : record<d: f32[1], qs: i8[256], bsums: i16[16]>\n"
              "  return(%q)\n"
              "}\n"},

    // ---- L12: sparse contract ----
    {.id = "L12.1",
     .family = Family::Language,
     .title = "sparse_contract has a closed 2:4 or 1:2 format and otherwise follows contract",
     .text = "`sparse_contract(compressed, metadata, rhs) {format, reduce, batch}`, what `sparse_matmul`\n"
             "normalizes to, multiplies a structured-sparse lhs: format `two_of_four` (2 kept of each group of 4)\n"
             "or `one_of_two` (1 of 2). The compression axis is the lhs axis of the first reduce pair, and the\n"
             "compressed extent is half the logical one, so 2 x the compressed extent must equal the paired rhs\n"
             "extent; a constant logical extent is a multiple of the group size. The metadata is an integer\n"
             "tensor of the compressed operand's shape giving each kept element's position in its group\n"
             "(legal, increasing positions, checked at run time: invalid-value). Everything else is as for\n"
             "contract: dtypes, pairs, result order, accumulator.",
     .lang = Lang::Kir,
     .example = "fn @f(%c: f16[M, 32], %m: u8[M, 32], %b: f16[32, N]) -> f32[M, N] {\n"
                "  %r = sparse_contract(%c, %m, %b) {batch = [], format = two_of_four, reduce = [[1, 0]]} : f32[M, N]\n"
                "  return(%r)\n"
                "}\n",
     .fix = "Give the rhs the logical reduction extent, twice the compressed one (here [64, N] for a\n"
            "compressed lhs [M, 32]).",
     .fixed = "fn @f(%c: f16[M, 32], %m: u8[M, 32], %b: f16[64, N]) -> f32[M, N] {\n"
              "  %r = sparse_contract(%c, %m, %b) {batch = [], format = two_of_four, reduce = [[1, 0]]} : f32[M, N]\n"
              "  return(%r)\n"
              "}\n"},

    // ---- L13: histogram ----
    {.id = "L13.1",
     .family = Family::Language,
     .title = "histogram counts integer values in [0, bins) on active lanes",
     .text = "`histogram(values, bins, valid)` counts an integer tensor into a result [B] of an integer count\n"
             "dtype, B being the extent `bins` stands for (`bins` is an index scalar; a constant one must be\n"
             "positive). `valid` is a bool scalar or a bool tensor of the values' shape, and masked lanes are\n"
             "not read. Every active value must satisfy 0 <= v < bins: a value outside is a run-time error\n"
             "(histogram-range), never clamped or dropped. An empty input gives zeros; counts wrap in the count\n"
             "dtype. Float values are rejected: compute integer bin indices first.",
     .lang = Lang::Kir,
     .example = "fn @f(%v: f32[N]) -> u32[16] {\n"
                "  %bins = const() {value = 16} : index\n"
                "  %all = const() {value = true} : bool\n"
                "  %h = histogram(%v, %bins, %all) : u32[16]\n"
                "  return(%h)\n"
                "}\n",
     .fix = "Histogram integer bin indices: cast or compute them first (for float data: scale, floor, cast\n"
            "and mask the values outside the range).",
     .fixed = "fn @f(%v: i32[N]) -> u32[16] {\n"
              "  %bins = const() {value = 16} : index\n"
              "  %all = const() {value = true} : bool\n"
              "  %h = histogram(%v, %bins, %all) : u32[16]\n"
              "  return(%h)\n"
              "}\n"},

    // ---- L14: ragged relations ----
    {.id = "L14.1",
     .family = Family::Language,
     .title = "ragged groups are offsets-derived subregions",
     .text = "A ragged group, the members of group g under CSR-style offsets, is the subregion\n"
             "rows[offsets[g]:offsets[g + 1]] of a source domain, optionally followed by an index mapping\n"
             "(mapping[members]) when the members are not contiguous. KIR has no ragged op: the Python helpers\n"
             "`intent.members(source, offsets, g)` and `intent.ragged(source, offsets, g, mapping=...)` only\n"
             "spell that subregion (and gather). Their source must be a domain or subregion and offsets a\n"
             "rank-1 integer view or tensor. Subregion bounds are checked at run time, never clamped\n"
             "(out-of-bounds).",
     .example = "@I.kernel\n"
                "def group_sums(x: I.In[I.f32, (\"R\",)], offsets: I.In[I.i32, (\"G + 1\",)], y: I.Out[I.f32, (\"G\",)]):\n"
                "    for g in I.domain(0, G):\n"
                "        members = I.members(x, offsets, g)  # error[L14.1]: x is a view, not a domain\n"
                "        y[g] = I.reduce.sum(x[members], axis=0)\n",
     .fix = "Pass the domain the groups partition (`rows = I.domain(0, R)`), not the view, and index the\n"
            "view with the members.",
     .fixed = "@I.kernel\n"
              "def group_sums(x: I.In[I.f32, (\"R\",)], offsets: I.In[I.i32, (\"G + 1\",)], y: I.Out[I.f32, (\"G\",)]):\n"
              "    rows = I.domain(0, R)\n"
              "    for g in I.domain(0, G):\n"
              "        members = I.members(rows, offsets, g)\n"
              "        y[g] = I.reduce.sum(x[members], axis=0)\n"},

    // ---- L15: indexed access, buffers and copy ----
    {.id = "L15.1",
     .family = Family::Language,
     .title = "an index relation has one coordinate per source axis and a typed result shape",
     .text = "Indexing, gather, loads, stores and atomics all address memory through one typed index\n"
             "relation: `relation(c0, ..., c{R-1}[, valid]) : relation<R -> [S]>` gives, for each point of the\n"
             "result shape S, one coordinate per axis of the source, each an integer or index scalar or a tensor\n"
             "of shape exactly S. The source it is applied to must have rank R, and the value loaded or stored\n"
             "has the source's dtype and the shape S. Active coordinates must lie inside the source; the\n"
             "interpreter checks them at run time (out-of-bounds).",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[M, N]>, %y: Out<f32[1]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  %v = view.load(%x, %rel) : f32\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Give one coordinate per source axis (here two for the rank-2 view:\n"
            "relation(%c0, %c0) : relation<2 -> []>).",
     .fixed = "kernel @k(%x: In<f32[M, N]>, %y: Out<f32[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %src = relation(%c0, %c0) : relation<2 -> []>\n"
              "  %v = view.load(%x, %src) : f32\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "L15.2",
     .family = Family::Language,
     .title = "an invalid lane reads the explicit fill and writes nothing",
     .text = "A relation with a trailing bool `valid` operand is masked: relation<R -> [S], masked>. A read\n"
             "through it does not touch the source on an invalid lane and returns the fill, which the load\n"
             "therefore gives explicitly as a scalar of the source dtype (view.load(%x, %rel, %fill)); an\n"
             "unmasked relation takes no fill. A write through a masked relation has no effect on invalid\n"
             "lanes. The coordinates of invalid lanes are not bounds-checked, so a mask is how a read past an\n"
             "edge is written.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>, %c: index, %y: Out<f32[1]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %ok = cmp(%c, %n) {pred = lt} : bool\n"
                "  %src = relation(%c, %ok) : relation<1 -> [], masked>\n"
                "  %v = view.load(%x, %src) : f32\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Give the fill as the load's third operand, a scalar of the source dtype, or drop the mask if\n"
            "every lane is valid.",
     .fixed = "kernel @k(%x: In<f32[N]>, %c: index, %y: Out<f32[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %ok = cmp(%c, %n) {pred = lt} : bool\n"
              "  %src = relation(%c, %ok) : relation<1 -> [], masked>\n"
              "  %fill = const() {value = 0.0} : f32\n"
              "  %v = view.load(%x, %src, %fill) : f32\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "L15.3",
     .family = Family::Language,
     .title = "memory is accessed by gather, loads, stores, unique_store and scatter_reduce",
     .text = "The canonical memory ops are: `gather` (pure, from a tensor value), `view.load` and\n"
             "`view.store` (external views; stores only to Out/InOut), `buffer.load` and `buffer.store` (logical\n"
             "buffers), `unique_store` (an injective indexed store: no two points write one element) and\n"
             "`scatter_reduce` (an indexed store that combines colliding values with a pure combine helper\n"
             "fn(T, T) -> T of the element type). Injectivity is checked by the verifier where it is static and\n"
             "by the interpreter at run time otherwise (write-collision).",
     .lang = Lang::Kir,
     .example = "kernel @k(%y: Out<f32[4]>, %s: f32) {\n"
                "  %v = full(%s) : f32[4]\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> [4]>\n"
                "  unique_store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Store through a relation that gives each point its own element (here the indices of a\n"
            "domain); use scatter_reduce when colliding values should be combined.",
     .fixed = "kernel @k(%y: Out<f32[4]>, %s: f32) {\n"
              "  %v = full(%s) : f32[4]\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c4 = const() {value = 4} : index\n"
              "  %d = domain(%c0, %c4) : domain<4>\n"
              "  %i = indices(%d) : index[4]\n"
              "  %rel = relation(%i) : relation<1 -> [4]>\n"
              "  unique_store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "L15.4",
     .family = Family::Language,
     .title = "a logical buffer is kernel-local state with a shape, a dtype and an initializer",
     .text = "`buffer.alloc([init]) : buffer<T[S]>` creates kernel-local mutable state of a fixed shape and\n"
             "dtype. `init` is a scalar fill of T or a tensor T[S]; without it every element starts undefined.\n"
             "A buffer is read and written only with `buffer.load` and `buffer.store` (not `view.*`), in\n"
             "program order; reading an element before it was initialized or stored is a run-time error\n"
             "(undefined-read). Extents are not negative.",
     .lang = Lang::Kir,
     .example = "kernel @k(%s: f32) {\n"
                "  %v = full(%s) : f32[4]\n"
                "  %b = buffer.alloc(%v) : buffer<f32[8]>\n"
                "}\n",
     .fix = "Initialize with a scalar fill (`buffer.alloc(%s)`) or with a tensor of the buffer's whole shape.",
     .fixed = "kernel @k(%s: f32) {\n"
              "  %b = buffer.alloc(%s) : buffer<f32[8]>\n"
              "}\n"},
    {.id = "L15.5",
     .family = Family::Language,
     .title = "there is no canonical copy",
     .text = "KIR has no `copy` op. Moving data is an indexed read feeding an indexed write: `view.load` (or\n"
             "`gather`, `buffer.load`) through one relation, then `view.store` (or `buffer.store`,\n"
             "`unique_store`) through another. Every copy's addressing, masking and uniqueness stays explicit,\n"
             "and turning such a pair into a block copy is the compiler's job.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  copy(%x, %y)\n"
                "}\n",
     .fix = "Load the source through a relation and store the value through a relation; the fixed form\n"
            "copies x to y over the indices of its domain.",
     .fixed = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : f32[N]\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},

    // ---- L16: atomics ----
    {.id = "L16.1",
     .family = Family::Language,
     .title = "atomics have fixed kinds and memory orders and no scope",
     .text = "`atomic.load` (order relaxed or acquire), `atomic.store` (relaxed or release), `atomic.rmw`\n"
             "(kind exchange, add, max, min, and, or or xor) and `atomic.compare_exchange` (rmw and\n"
             "compare_exchange: relaxed, acquire, release or acq_rel; the failure order of compare_exchange is\n"
             "derived from the success order) address one element of an Out/InOut view or a buffer through an\n"
             "unmasked relation<R -> []>, with value operands of the element dtype. compare_exchange returns\n"
             "record<old_value: T, success: bool>. Bitwise kinds need an integer element type; add, max, min\n"
             "and exchange also take f16/bf16/f32/f64. There is no scope: the provider chooses it.",
     .lang = Lang::Kir,
     .example = "kernel @k(%flag: InOut<i32[1]>, %y: Out<i32[1]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  %v = atomic.load(%flag, %rel) {order = release} : i32\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Use an order the op allows: acquire (or relaxed) for a load, release (or relaxed) for a store.",
     .fixed = "kernel @k(%flag: InOut<i32[1]>, %y: Out<i32[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  %v = atomic.load(%flag, %rel) {order = acquire} : i32\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},

    // ---- L17: RNG ----
    {.id = "L17.1",
     .family = Family::Language,
     .title = "random.bits is counter-based Philox4x32-10",
     .text = "`random.bits(seed, counter)` is Philox4x32-10 keyed by the u64 seed: block = counter // 4\n"
             "selects the 128-bit output block and word = counter % 4 the 32-bit word in it. The counter is a\n"
             "u64 or index scalar or tensor (a negative index counter is a run-time error, invalid-value) and\n"
             "the result is u32 of the counter's shape. The bits depend on nothing but seed and counter: not on\n"
             "thread identity, call order or how many numbers were drawn before, so every schedule draws the\n"
             "same numbers.",
     .lang = Lang::Kir,
     .example = "fn @bits(%seed: i32, %counter: u64) -> u32 {\n"
                "  %b = random.bits(%seed, %counter) : u32\n"
                "  return(%b)\n"
                "}\n",
     .fix = "Pass the seed as a u64 scalar (cast it if it is held in another dtype).",
     .fixed = "fn @bits(%seed: u64, %counter: u64) -> u32 {\n"
              "  %b = random.bits(%seed, %counter) : u32\n"
              "  return(%b)\n"
              "}\n"},
    {.id = "L17.2",
     .family = Family::Language,
     .title = "random.uniform converts bits to a float in one fixed way",
     .text = "`random.uniform(seed, counter)` is `random.bits(seed, counter)` converted to a float in [0, 1) by\n"
             "one fixed conversion (docs/numerics.md, uniform conversion); the result is f16, bf16, f32 or f64\n"
             "of the counter's shape. The conversion is the same on every target, so a uniform value never\n"
             "depends on where it is computed. For random integers use random.bits.",
     .lang = Lang::Kir,
     .example = "fn @uniform(%seed: u64, %counter: index) -> i32 {\n"
                "  %u = random.uniform(%seed, %counter) : i32\n"
                "  return(%u)\n"
                "}\n",
     .fix = "Declare a float result (f16, bf16, f32 or f64); derive integers from random.bits.",
     .fixed = "fn @uniform(%seed: u64, %counter: index) -> f32 {\n"
              "  %u = random.uniform(%seed, %counter) : f32\n"
              "  return(%u)\n"
              "}\n"},

    // ---- L18-L19: what is not in the language ----
    {.id = "L18.1",
     .family = Family::Language,
     .title = "there is no partition: parts are written with domains and subregions",
     .text = "The language has no `partition` and no other way to split a tensor or domain into pieces by a\n"
             "count. Logical parts (tiles, chunks, groups) are written out: a domain of part starts with a step,\n"
             "a subregion of the source domain per part, and index arithmetic for the coordinates. How the parts\n"
             "are mapped to threads or blocks is the compiler's choice.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %p = partition(%x) {count = 4} : f32[N]\n"
                "}\n",
     .fix = "Iterate a domain of part starts and take a subregion of the source domain per part, as the\n"
            "fixed form does for chunks of 4.",
     .fixed = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c4 = const() {value = 4} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %starts = domain(%c0, %n, %c4) : domain<floordiv(N + 3, 4)>\n"
              "  parallel(%starts) region(%s: index) {\n"
              "    %e = add(%s, %c4) : index\n"
              "    %end = min(%e, %n) : index\n"
              "    %part = subregion(%d, %s, %end) : subregion<%end - %s>\n"
              "    %i = indices(%part) : index[%end - %s]\n"
              "    %rel = relation(%i) : relation<1 -> [%end - %s]>\n"
              "    %v = view.load(%x, %rel) : f32[%end - %s]\n"
              "    view.store(%y, %rel, %v)\n"
              "    yield()\n"
              "  }\n"
              "}\n"},
    {.id = "L19.1",
     .family = Family::Language,
     .title = "each shorthand has one canonical form; physical and whole-operator ops do not exist",
     .text = "Canonical KIR holds only canonical ops. Every surface shorthand (`matmul`, `reduce.sum`,\n"
             "`cumsum`, `scaled_matmul`, ...) normalizes to exactly one canonical form (`kir normalize`); in\n"
             "canonical KIR the shorthand itself is rejected. Ops that are not in the language are rejected by\n"
             "name: `auto`, program, thread and lane ids and counts (`program_id`, `num_programs`, `thread_id`,\n"
             "`lane_id`), `barrier`, and whole-operator ops (`softmax`, `attention`, `moe`), which are written\n"
             "from canonical ops; `ordered` and `state_stream` are L6.3 and L6.4. Any other unknown op is an\n"
             "error too.",
     .lang = Lang::Kir,
     .example = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %p = program_id() {axis = 0} : index\n"
                "  %rel = relation(%p) : relation<1 -> []>\n"
                "  %v = view.load(%x, %rel) : f32\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Write the computation over a logical domain (here a parallel over the indices of x) and leave\n"
            "its mapping to programs, threads and lanes to the compiler.",
     .fixed = "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  parallel(%d) region(%p: index) {\n"
              "    %rel = relation(%p) : relation<1 -> []>\n"
              "    %v = view.load(%x, %rel) : f32\n"
              "    view.store(%y, %rel, %v)\n"
              "    yield()\n"
              "  }\n"
              "}\n"},
};

}  // namespace

std::span<const Rule> language_rules_structured() { return kRules; }

}  // namespace kir::rules
