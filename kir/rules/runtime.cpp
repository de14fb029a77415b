// Rule table: run-time error kinds of the interpreter (interp/error.h; see rule.h). Each example
// is a kernel that verifies and faults with that kind under `kir run FILE ARGS`; its fixed form
// runs with the same arguments.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "undefined-read",
     .family = Family::Runtime,
     .title = "a read of an Out view or buffer element that was never written",
     .text = "An Out view has no contents on entry, and a logical buffer none until it is initialized or\n"
             "stored: reading such an element is an error, checked element by element at run time (L2.2 for\n"
             "views, L15.4 for buffers). The verifier already rejects a read of an Out view that comes before\n"
             "every store to it; this catches the rest, like here element 1 read after only element 0 was\n"
             "stored. A read of an omitted optional input is reported the same way.",
     .lang = Lang::Run,
     .example = "kernel @k(%y: Out<f32[2]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c1 = const() {value = 1} : index\n"
                "  %v = const() {value = 1.0} : f32\n"
                "  %r0 = relation(%c0) : relation<1 -> []>\n"
                "  %r1 = relation(%c1) : relation<1 -> []>\n"
                "  view.store(%y, %r0, %v)\n"
                "  %w = view.load(%y, %r1) : f32\n"
                "  view.store(%y, %r1, %w)\n"
                "}\n",
     .fix = "Read only elements the kernel has stored (or initialize the buffer), or declare the view InOut\n"
            "if the kernel updates existing contents.",
     .fixed = "kernel @k(%y: Out<f32[2]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c1 = const() {value = 1} : index\n"
              "  %v = const() {value = 1.0} : f32\n"
              "  %r0 = relation(%c0) : relation<1 -> []>\n"
              "  %r1 = relation(%c1) : relation<1 -> []>\n"
              "  view.store(%y, %r0, %v)\n"
              "  %w = view.load(%y, %r0) : f32\n"
              "  view.store(%y, %r1, %w)\n"
              "}\n"},
    {.id = "out-of-bounds",
     .family = Family::Runtime,
     .title = "an active coordinate outside the view, buffer, tensor or domain it addresses",
     .text = "Every active lane of a relation must address an element inside its source (L15.1), and a\n"
             "subregion's bounds must lie inside its source domain, which is never clamped (L3.3; ragged groups\n"
             "from offsets, L14.1, are subregions too). The message names the coordinate, the axis, the\n"
             "source's shape and the relation point. Lanes that may fall outside are masked: an invalid lane\n"
             "reads the explicit fill and writes nothing (L15.2).",
     .lang = Lang::Run,
     .example = "kernel @shift(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c1 = const() {value = 1} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %one = broadcast(%c1) {dims = []} : index[N]\n"
                "  %next = add(%i, %one) : index[N]\n"
                "  %src = relation(%next) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %src) : f32[N]\n"
                "  %dst = relation(%i) : relation<1 -> [N]>\n"
                "  view.store(%y, %dst, %v)\n"
                "}\n",
     .args = "--dim N=4",
     .fix = "Mask the lanes that can fall outside (a relation with a valid operand, and a fill for the\n"
            "read), or shrink the domain so that every coordinate is inside.",
     .fixed = "kernel @shift(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c1 = const() {value = 1} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %one = broadcast(%c1) {dims = []} : index[N]\n"
              "  %next = add(%i, %one) : index[N]\n"
              "  %nb = broadcast(%n) {dims = []} : index[N]\n"
              "  %ok = cmp(%next, %nb) {pred = lt} : bool[N]\n"
              "  %src = relation(%next, %ok) : relation<1 -> [N], masked>\n"
              "  %fill = const() {value = 0.0} : f32\n"
              "  %v = view.load(%x, %src, %fill) : f32[N]\n"
              "  %dst = relation(%i) : relation<1 -> [N]>\n"
              "  view.store(%y, %dst, %v)\n"
              "}\n"},
    {.id = "write-collision",
     .family = Family::Runtime,
     .title = "two points of one store write the same element",
     .text = "A `unique_store`, and a whole-domain `view.store` or `buffer.store`, writes each element at most\n"
             "once: its relation must be injective over the active points (L15.3, L5.2). The verifier rejects a\n"
             "relation that is constant over several points; computed or data-dependent coordinates (here\n"
             "i // 2) are checked at run time, and the message names both points and the element.",
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
                "  unique_store(%y, %dst, %v)\n"
                "}\n",
     .args = "--dim N=4",
     .fix = "Store through coordinates that are distinct for every point; combine colliding values with\n"
            "scatter_reduce (or a reduce) instead.",
     .fixed = "kernel @pairs(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %src = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %src) : f32[N]\n"
              "  unique_store(%y, %src, %v)\n"
              "}\n"},
    {.id = "parallel-conflict",
     .family = Family::Runtime,
     .title = "two points of a parallel touch one element and at least one writes it",
     .text = "The points of a `parallel` run in no order, so their effects must not conflict (L5.1): two\n"
             "points may not write the same element, and one may not write an element another reads, except\n"
             "through atomics or scatter_reduce. The verifier rejects a store whose address does not depend on\n"
             "the point; addresses computed from it (here i // 2) are checked at run time over all points, and\n"
             "the message names both points and the element.",
     .lang = Lang::Run,
     .example = "kernel @halve(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c2 = const() {value = 2} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  parallel(%d) region(%i: index) {\n"
                "    %ri = relation(%i) : relation<1 -> []>\n"
                "    %v = view.load(%x, %ri) : f32\n"
                "    %h = div(%i, %c2) : index\n"
                "    %rh = relation(%h) : relation<1 -> []>\n"
                "    view.store(%y, %rh, %v)\n"
                "    yield()\n"
                "  }\n"
                "}\n",
     .args = "--dim N=4",
     .fix = "Give each point its own elements (here store to i, not i // 2), combine with scatter_reduce\n"
            "or an atomic, or use a `for` loop if the writes are meant to happen in order.",
     .fixed = "kernel @halve(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  parallel(%d) region(%i: index) {\n"
              "    %ri = relation(%i) : relation<1 -> []>\n"
              "    %v = view.load(%x, %ri) : f32\n"
              "    view.store(%y, %ri, %v)\n"
              "    yield()\n"
              "  }\n"
              "}\n"},
    {.id = "division-by-zero",
     .family = Family::Runtime,
     .title = "integer division or remainder by zero",
     .text = "Integer `div` and `rem` by zero have no value, so they are errors at the element that divides\n"
             "(L4.14; docs/numerics.md, integer rules), never a silent 0 or a trap left to the target. Float\n"
             "division by zero follows IEEE (inf or NaN) and is not an error.",
     .lang = Lang::Run,
     .example = "kernel @quotient(%x: In<i32[N]>, %d: i32, %y: Out<i32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %dom = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%dom) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : i32[N]\n"
                "  %db = broadcast(%d) {dims = []} : i32[N]\n"
                "  %q = div(%v, %db) : i32[N]\n"
                "  view.store(%y, %rel, %q)\n"
                "}\n",
     .args = "--dim N=4 --input d=0",
     .fix = "Guard the divisor (select a safe one where it is zero, as the fixed form does) or make sure\n"
            "the data never divides by zero.",
     .fixed = "kernel @quotient(%x: In<i32[N]>, %d: i32, %y: Out<i32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %dom = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%dom) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : i32[N]\n"
              "  %zero = const() {value = 0} : i32\n"
              "  %one = const() {value = 1} : i32\n"
              "  %is0 = cmp(%d, %zero) {pred = eq} : bool\n"
              "  %safe = select(%is0, %one, %d) : i32\n"
              "  %db = broadcast(%safe) {dims = []} : i32[N]\n"
              "  %q = div(%v, %db) : i32[N]\n"
              "  view.store(%y, %rel, %q)\n"
              "}\n"},
    {.id = "integer-overflow",
     .family = Family::Runtime,
     .title = "an integer division that overflows or a shift by an amount out of range",
     .text = "Integer add, sub and mul wrap, but signed INT_MIN / -1 and INT_MIN % -1 have no representable\n"
             "result, and a shift (`shl`, `shr`) by a negative amount or by the bit width or more has no\n"
             "defined one: all are errors (L4.14; docs/numerics.md, integer rules). The message gives the\n"
             "dtype, the amount and the element.",
     .lang = Lang::Run,
     .example = "kernel @shift(%x: In<i32[N]>, %s: i32, %y: Out<i32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : i32[N]\n"
                "  %sb = broadcast(%s) {dims = []} : i32[N]\n"
                "  %r = shl(%v, %sb) : i32[N]\n"
                "  view.store(%y, %rel, %r)\n"
                "}\n",
     .args = "--dim N=4 --input s=32",
     .fix = "Keep the shift amount in [0, width) or compute in a wider dtype (the fixed form shifts in\n"
            "i64); never divide INT_MIN by -1.",
     .fixed = "kernel @shift(%x: In<i32[N]>, %s: i32, %y: Out<i64[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : i32[N]\n"
              "  %w = cast(%v) : i64[N]\n"
              "  %s64 = cast(%s) : i64\n"
              "  %sb = broadcast(%s64) {dims = []} : i64[N]\n"
              "  %r = shl(%w, %sb) : i64[N]\n"
              "  view.store(%y, %rel, %r)\n"
              "}\n"},
    {.id = "histogram-range",
     .family = Family::Runtime,
     .title = "a histogram value outside [0, bins) on an active lane",
     .text = "Every active value of a `histogram` must satisfy 0 <= v < bins (L13.1): a value outside is an\n"
             "error, never clamped into an edge bin or dropped. Masked lanes (valid false) are not read, so\n"
             "values that may fall outside are masked. The message names the value, the bin count and the\n"
             "element.",
     .lang = Lang::Run,
     .example = "kernel @hist(%ids: In<i32[T]>, %counts: Out<u32[V]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %t = dim(%ids) {axis = 0} : index\n"
                "  %dt = domain(%c0, %t) : domain<T>\n"
                "  %it = indices(%dt) : index[T]\n"
                "  %rel = relation(%it) : relation<1 -> [T]>\n"
                "  %iv = view.load(%ids, %rel) : i32[T]\n"
                "  %all = const() {value = true} : bool\n"
                "  %v = dim(%counts) {axis = 0} : index\n"
                "  %h = histogram(%iv, %v, %all) : u32[V]\n"
                "  %dv = domain(%c0, %v) : domain<V>\n"
                "  %ib = indices(%dv) : index[V]\n"
                "  %crel = relation(%ib) : relation<1 -> [V]>\n"
                "  view.store(%counts, %crel, %h)\n"
                "}\n",
     .args = "--dim T=8 --dim V=4",
     .fix = "Mask the values outside [0, bins) with the valid operand, as the fixed form does, or clamp\n"
            "them explicitly if they belong in the edge bins.",
     .fixed = "kernel @hist(%ids: In<i32[T]>, %counts: Out<u32[V]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %t = dim(%ids) {axis = 0} : index\n"
              "  %dt = domain(%c0, %t) : domain<T>\n"
              "  %it = indices(%dt) : index[T]\n"
              "  %rel = relation(%it) : relation<1 -> [T]>\n"
              "  %iv = view.load(%ids, %rel) : i32[T]\n"
              "  %v = dim(%counts) {axis = 0} : index\n"
              "  %vi = cast(%v) : i32\n"
              "  %vb = broadcast(%vi) {dims = []} : i32[T]\n"
              "  %zero = const() {value = 0} : i32\n"
              "  %zb = broadcast(%zero) {dims = []} : i32[T]\n"
              "  %lo = cmp(%iv, %zb) {pred = ge} : bool[T]\n"
              "  %hi = cmp(%iv, %vb) {pred = lt} : bool[T]\n"
              "  %ok = and(%lo, %hi) : bool[T]\n"
              "  %h = histogram(%iv, %v, %ok) : u32[V]\n"
              "  %dv = domain(%c0, %v) : domain<V>\n"
              "  %ib = indices(%dv) : index[V]\n"
              "  %crel = relation(%ib) : relation<1 -> [V]>\n"
              "  view.store(%counts, %crel, %h)\n"
              "}\n"},
    {.id = "shape-mismatch",
     .family = Family::Runtime,
     .title = "a dynamic extent that an op cannot accept",
     .text = "Some shape facts can only be checked once the extents have values: a dynamic K that must be a\n"
             "whole number of 256-element super-blocks (quantize, quantized_dot; L11.3), the block counts of\n"
             "quantized_dot's operands, a compressed extent that must be a whole number of sparse groups\n"
             "(L12.1). Everywhere else the verifier already requires provably equal extents (L4.2); these are\n"
             "the checks left to run time, made when the op runs.",
     .lang = Lang::Run,
     .example = "kernel @q8(%x: In<f32[N]>, %qs: Out<i8[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : f32[N]\n"
                "  %q = quantize(%v) {format = q8_k} : record<d: f32[floordiv(N, 256)], qs: i8[N], bsums: i16[floordiv(N, 16)]>\n"
                "  %s = record.get(%q) {field = qs} : i8[N]\n"
                "  view.store(%qs, %rel, %s)\n"
                "}\n",
     .args = "--dim N=3",
     .fix = "Give the op extents it accepts: declare the length as 256*N (N whole super-blocks, bound by\n"
            "the N scales the kernel writes), so every size is a multiple of 256, or pad the input.",
     .fixed = "kernel @q8(%x: In<f32[256*N]>, %scales: Out<f32[N]>, %qs: Out<i8[256*N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %k = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %k) : domain<256*N>\n"
              "  %i = indices(%d) : index[256*N]\n"
              "  %rel = relation(%i) : relation<1 -> [256*N]>\n"
              "  %v = view.load(%x, %rel) : f32[256*N]\n"
              "  %q = quantize(%v) {format = q8_k} : record<d: f32[N], qs: i8[256*N], bsums: i16[16*N]>\n"
              "  %s = record.get(%q) {field = qs} : i8[256*N]\n"
              "  view.store(%qs, %rel, %s)\n"
              "  %dq = record.get(%q) {field = d} : f32[N]\n"
              "  %nb = dim(%scales) {axis = 0} : index\n"
              "  %db = domain(%c0, %nb) : domain<N>\n"
              "  %ib = indices(%db) : index[N]\n"
              "  %rb = relation(%ib) : relation<1 -> [N]>\n"
              "  view.store(%scales, %rb, %dq)\n"
              "}\n"},
    {.id = "invalid-cast",
     .family = Family::Runtime,
     .title = "a float to integer cast of NaN, inf or an out-of-range value",
     .text = "A float cast to an integer truncates toward zero; NaN, inf or a truncated value outside the\n"
             "target's range has no integer value and is an error rather than a silent saturation (L4.14;\n"
             "docs/numerics.md, casts). So is NaN cast to e2m1, which has no NaN. Casts to the other float\n"
             "formats never fail: they round and overflow by the target's rule.",
     .lang = Lang::Run,
     .example = "kernel @to_int(%x: f32, %y: Out<i32[1]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %v = cast(%x) : i32\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .args = "--input x=nan",
     .fix = "Clean the value before the cast: replace NaN (x != x) as the fixed form does, clamp to the\n"
            "target range with min and max, or cast to a float dtype instead.",
     .fixed = "kernel @to_int(%x: f32, %y: Out<i32[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %zero = const() {value = 0.0} : f32\n"
              "  %ok = cmp(%x, %x) {pred = eq} : bool\n"
              "  %safe = select(%ok, %x, %zero) : f32\n"
              "  %v = cast(%safe) : i32\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "invalid-value",
     .family = Family::Runtime,
     .title = "an operand value computed at run time that the op cannot use",
     .text = "Some operand values are only known at run time, and an op rejects an illegal one: a domain step\n"
             "that is not positive (L3.1), sparse metadata that is not a legal, increasing position within its\n"
             "group (L12.1), a negative index counter of random.bits or random.uniform (L17.1). Constant\n"
             "operands of these kinds are rejected by the verifier already.",
     .lang = Lang::Run,
     .example = "kernel @every(%x: InOut<f32[N]>, %step: index) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n, %step) : domain<floordiv(N + %step - 1, %step)>\n"
                "  %zero = const() {value = 0.0} : f32\n"
                "  parallel(%d) region(%i: index) {\n"
                "    %ri = relation(%i) : relation<1 -> []>\n"
                "    view.store(%x, %ri, %zero)\n"
                "    yield()\n"
                "  }\n"
                "}\n",
     .args = "--dim N=8 --input step=0",
     .fix = "Make the value legal before the op: here clamp the step to at least 1 (or pass a positive\n"
            "one); for sparse metadata pass positions that increase within each group.",
     .fixed = "kernel @every(%x: InOut<f32[N]>, %step: index) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c1 = const() {value = 1} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %s = max(%step, %c1) : index\n"
              "  %d = domain(%c0, %n, %s) : domain<floordiv(N + %s - 1, %s)>\n"
              "  %zero = const() {value = 0.0} : f32\n"
              "  parallel(%d) region(%i: index) {\n"
              "    %ri = relation(%i) : relation<1 -> []>\n"
              "    view.store(%x, %ri, %zero)\n"
              "    yield()\n"
              "  }\n"
              "}\n"},
    {.id = "binding",
     .family = Family::Runtime,
     .title = "a kernel argument that does not fit its parameter",
     .text = "When a kernel is invoked, each parameter is bound to its argument: a view of the declared dtype\n"
             "and rank, whose extents agree with every other view naming the same extent symbol, whose strides\n"
             "and offset match those the type declares, and which lies inside its storage; a scalar of the\n"
             "declared dtype; a member of the declared enum (L2.4, L2.5, L2.6). kir run passes contiguous\n"
             "views, so a kernel that declares other strides is a binding error there.",
     .lang = Lang::Run,
     .example = "kernel @copy(%x: In<f32[N], strides = [2]>, %y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : f32[N]\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .args = "--dim N=4",
     .fix = "Declare only the layout the kernel needs: a stride symbol (`strides = [S]`) accepts any stride,\n"
            "and no strides at all accept the caller's; from kir run, pass enum members by name\n"
            "(--input mode=keep).",
     .fixed = "kernel @copy(%x: In<f32[N], strides = [S]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : f32[N]\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
    {.id = "limit",
     .family = Family::Runtime,
     .title = "a step, time, depth or size limit of the interpreter was exceeded",
     .text = "The interpreter bounds every run: a step budget (`--max-steps N`, default 2,000,000,000; a step\n"
             "is one executed op or one element of work), a wall-clock limit (`--time-limit S`), a nesting\n"
             "depth (`--max-depth N`, default 1000) and 2^28 elements per tensor, view or buffer. A runaway\n"
             "`while` is stopped with the loop and its iteration count named. No language rule is broken: the\n"
             "kernel may be correct and only too big for the limit (docs/design.md, interpreter limits).",
     .lang = Lang::Run,
     .example = "kernel @count(%n: index, %y: Out<index[1]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %c1 = const() {value = 1} : index\n"
                "  %r = while(%c0) : index region(%i: index) {\n"
                "    %more = cmp(%i, %n) {pred = lt} : bool\n"
                "    condition(%more, %i)\n"
                "  } region(%j: index) {\n"
                "    %next = add(%j, %c0) : index\n"
                "    yield(%next)\n"
                "  }\n"
                "  %rel = relation(%c0) : relation<1 -> []>\n"
                "  view.store(%y, %rel, %r)\n"
                "}\n",
     .args = "--input n=5 --max-steps 10000",
     .fix = "Fix a loop that does not terminate (here the counter never advanced); for a kernel that is\n"
            "only big, raise the limit (--max-steps, --time-limit, --max-depth) or use smaller extents (--dim).",
     .fixed = "kernel @count(%n: index, %y: Out<index[1]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %c1 = const() {value = 1} : index\n"
              "  %r = while(%c0) : index region(%i: index) {\n"
              "    %more = cmp(%i, %n) {pred = lt} : bool\n"
              "    condition(%more, %i)\n"
              "  } region(%j: index) {\n"
              "    %next = add(%j, %c1) : index\n"
              "    yield(%next)\n"
              "  }\n"
              "  %rel = relation(%c0) : relation<1 -> []>\n"
              "  view.store(%y, %rel, %r)\n"
              "}\n"},
    {.id = "not-implemented",
     .family = Family::Runtime,
     .title = "a valid case the interpreter does not evaluate yet",
     .text = "The kernel is valid but the interpreter has no evaluation for this case; nothing is approximated\n"
             "instead. Currently that is a contract or sparse_contract with float operands and an integer\n"
             "accumulator dtype. An op that is not canonical KIR (a surface shorthand in a module that skipped\n"
             "normalization, through the library interface) is reported the same way.",
     .lang = Lang::Run,
     .example = "kernel @matvec(%a: In<f32[M, K]>, %x: In<f32[K]>, %y: Out<i32[M]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %m = dim(%a) {axis = 0} : index\n"
                "  %k = dim(%a) {axis = 1} : index\n"
                "  %dm = domain(%c0, %m) : domain<M>\n"
                "  %i = indices(%dm) : index[M]\n"
                "  %dk = domain(%c0, %k) : domain<K>\n"
                "  %ik = indices(%dk) : index[K]\n"
                "  %ii = broadcast(%i) {dims = [0]} : index[M, K]\n"
                "  %kk = broadcast(%ik) {dims = [1]} : index[M, K]\n"
                "  %ra = relation(%ii, %kk) : relation<2 -> [M, K]>\n"
                "  %av = view.load(%a, %ra) : f32[M, K]\n"
                "  %rx = relation(%ik) : relation<1 -> [K]>\n"
                "  %xv = view.load(%x, %rx) : f32[K]\n"
                "  %s = contract(%av, %xv) {reduce = [[1, 0]], batch = []} : i32[M]\n"
                "  %ry = relation(%i) : relation<1 -> [M]>\n"
                "  view.store(%y, %ry, %s)\n"
                "}\n",
     .args = "--dim M=2 --dim K=4",
     .fix = "Accumulate in a float dtype (and cast the result if integers are wanted), or cast the operands\n"
            "to an integer dtype first.",
     .fixed = "kernel @matvec(%a: In<f32[M, K]>, %x: In<f32[K]>, %y: Out<f32[M]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %m = dim(%a) {axis = 0} : index\n"
              "  %k = dim(%a) {axis = 1} : index\n"
              "  %dm = domain(%c0, %m) : domain<M>\n"
              "  %i = indices(%dm) : index[M]\n"
              "  %dk = domain(%c0, %k) : domain<K>\n"
              "  %ik = indices(%dk) : index[K]\n"
              "  %ii = broadcast(%i) {dims = [0]} : index[M, K]\n"
              "  %kk = broadcast(%ik) {dims = [1]} : index[M, K]\n"
              "  %ra = relation(%ii, %kk) : relation<2 -> [M, K]>\n"
              "  %av = view.load(%a, %ra) : f32[M, K]\n"
              "  %rx = relation(%ik) : relation<1 -> [K]>\n"
              "  %xv = view.load(%x, %rx) : f32[K]\n"
              "  %s = contract(%av, %xv) {reduce = [[1, 0]], batch = []} : f32[M]\n"
              "  %ry = relation(%i) : relation<1 -> [M]>\n"
              "  view.store(%y, %ry, %s)\n"
              "}\n"},
    {.id = "break-on",
     .family = Family::Runtime,
     .title = "--break-on stopped the run where NaN or inf was first produced",
     .text = "`kir run --break-on nan` (or `inf`) stops at the first op that produces the value and prints the\n"
             "op, its operands and the element. Values put there on purpose are passed over: constants (an\n"
             "identity of -inf), their `full` and broadcasts, the fill of a masked read, ops that only move a\n"
             "value, and ops whose operand already holds one. It is a debugging stop, not a language error:\n"
             "without the flag the kernel runs and its output holds the NaN (with a hint to use the flag).",
     .lang = Lang::Run,
     .example = "kernel @root(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                "  %c0 = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%c0, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : f32[N]\n"
                "  %r = sqrt(%v) : f32[N]\n"
                "  view.store(%y, %rel, %r)\n"
                "}\n",
     .args = "--dim N=8 --break-on nan",
     .fix = "Fix the computation that produces the value (here sqrt of negative inputs: take the square\n"
            "root of abs(x), or mask those lanes), or run without --break-on if the value is intended.",
     .fixed = "kernel @root(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
              "  %c0 = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%c0, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : f32[N]\n"
              "  %a = abs(%v) : f32[N]\n"
              "  %r = sqrt(%a) : f32[N]\n"
              "  view.store(%y, %rel, %r)\n"
              "}\n"},
};

}  // namespace

std::span<const Rule> runtime_rules() { return kRules; }

}  // namespace kir::rules
