// Structured ops in their canonical evaluation: reduce (left fold, empty -> identity), scan
// (inclusive/exclusive, reverse), contract (exact products, one rounding), histogram (range
// errors on active lanes only), region_fold / region_scan (segmentation whole), Philox bits.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {
const char* kReduceScan = R"(
fn @add_f32(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

fn @sub_f32(%a: f32, %b: f32) -> f32 {
  %s = sub(%a, %b) : f32
  return(%s)
}

kernel @k(%x: In<f32[N]>, %s: Out<f32[1]>, %inc: Out<f32[N]>, %exc: Out<f32[N]>, %rev: Out<f32[N]>, %nc: Out<f32[1]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : f32[N]
  %z = const() {value = 0.0} : f32
  %sum = reduce(%v, %z) {axes = [0], combine = @add_f32} : f32
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%s, %r0, %sum)
  %p = scan(%v, %z) {axis = 0, combine = @add_f32} : f32[N]
  view.store(%inc, %r, %p)
  %q = scan(%v, %z) {axis = 0, combine = @add_f32, inclusive = false} : f32[N]
  view.store(%exc, %r, %q)
  %w = scan(%v, %z) {axis = 0, combine = @sub_f32, reverse = true} : f32[N]
  view.store(%rev, %r, %w)
  %h = const() {value = 100.0} : f32
  %lf = reduce(%v, %h) {axes = [0], combine = @sub_f32} : f32
  view.store(%nc, %r0, %lf)
}
)";
}

TEST_CASE("[L7.1] reduce is a left fold in logical order; [L8.1] scan variants", "[interp][L7.1][L8.1]") {
  auto m = load(kReduceScan);
  auto x = view(DType::F32, {4}, {1, 2, 3, 4});
  auto s = view(DType::F32, {1}), inc = view(DType::F32, {4}), exc = view(DType::F32, {4}), rev = view(DType::F32, {4}),
       nc = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"s", s}, {"inc", inc}, {"exc", exc}, {"rev", rev}, {"nc", nc}});
  CHECK(values(s)[0] == 10);
  CHECK(values(inc) == std::vector<double>{1, 3, 6, 10});
  CHECK(values(exc) == std::vector<double>{0, 1, 3, 6});
  // reverse with a non-commutative combine keeps the operand order: acc = x_p - acc.
  // p=3: 4-0=4; p=2: 3-4=-1; p=1: 2-(-1)=3; p=0: 1-3=-2.
  CHECK(values(rev) == std::vector<double>{-2, 3, -1, 4});
  // canonical left fold of a non-associative combine: ((((100-1)-2)-3)-4) = 90.
  CHECK(values(nc)[0] == 90);
}

TEST_CASE("[L7.4] empty reduce returns the identity; empty scan is empty", "[interp][L7.4][L8.1]") {
  auto m = load(kReduceScan);
  auto x = view(DType::F32, {0});
  auto s = view(DType::F32, {1}), e = view(DType::F32, {0}), nc = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"s", s}, {"inc", e}, {"exc", e}, {"rev", e}, {"nc", nc}});
  CHECK(values(s)[0] == 0);
  CHECK(values(nc)[0] == 100);
}

TEST_CASE("[L7.1] reduce over axis 1 with a row accumulator and a tuple source", "[interp][L7.1]") {
  auto m = load(R"(
fn @argmax(%a: tuple<f32, index>, %b: tuple<f32, index>) -> tuple<f32, index> {
  %av = tuple.get(%a) {index = 0} : f32
  %ai = tuple.get(%a) {index = 1} : index
  %bv = tuple.get(%b) {index = 0} : f32
  %bi = tuple.get(%b) {index = 1} : index
  %gt = cmp(%bv, %av) {pred = gt} : bool
  %v = select(%gt, %bv, %av) : f32
  %i = select(%gt, %bi, %ai) : index
  %r = tuple(%v, %i) : tuple<f32, index>
  return(%r)
}

fn @f(%x: f32[N], %pos: index[N]) -> index {
  %src = tuple(%x, %pos) : tuple<f32[N], index[N]>
  %ninf = const() {value = -inf} : f32
  %z = const() {value = 0} : index
  %id = tuple(%ninf, %z) : tuple<f32, index>
  %r = reduce(%src, %id) {axes = [0], combine = @argmax} : tuple<f32, index>
  %i = tuple.get(%r) {index = 1} : index
  return(%i)
}
)");
  interp::Tensor x, p;
  x.dtype = DType::F32;
  x.shape = p.shape = {4};
  x.bits = {f32(1).bits, f32(7).bits, f32(3).bits, f32(7).bits};
  p.dtype = DType::Index;
  p.bits = {10, 11, 12, 13};
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(x), interp::Value(p)});
  CHECK(r[0].scalar().bits == 11);  // first maximum in logical order
}

TEST_CASE("[L10.4] contract: exact products, one rounding to the accumulator", "[interp][L10.4]") {
  auto m = load(R"(
kernel @k(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %c: Out<f32[M, N]>) {
  %c0 = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dk = domain(%c0, %k) : domain<K>
  %dn = domain(%c0, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)");
  SECTION("2x2 hand-computed") {
    auto a = view(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
    auto b = view(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
    auto c = view(DType::F32, {2, 2});
    interp::Interpreter(*m).run_kernel("k", {{"a", a}, {"b", b}, {"c", c}});
    CHECK(values(c) == std::vector<double>{58, 64, 139, 154});
  }
  SECTION("cancellation: 2^30 + 1 - 2^30 is exactly 1 (a left-to-right f32 sum gives 0)") {
    auto a = view(DType::F32, {1, 3}, {1073741824.0, 1, -1073741824.0});
    auto b = view(DType::F32, {3, 1}, {1, 1, 1});
    auto c = view(DType::F32, {1, 1});
    interp::Interpreter(*m).run_kernel("k", {{"a", a}, {"b", b}, {"c", c}});
    CHECK(values(c)[0] == 1.0);
  }
  SECTION("empty K gives +0") {
    auto a = view(DType::F32, {2, 0}), b = view(DType::F32, {0, 1});
    auto c = view(DType::F32, {2, 1});
    interp::Interpreter(*m).run_kernel("k", {{"a", a}, {"b", b}, {"c", c}});
    CHECK(c.storage->bits == std::vector<uint64_t>{0, 0});
  }
}

TEST_CASE("[L13.1] histogram counts active values; out of range on an active lane is an error", "[interp][L13.1]") {
  auto m = load(R"(
kernel @k(%ids: In<i32[T]>, %mask: In<bool[T]>, %counts: Out<u32[V]>) {
  %c0 = const() {value = 0} : index
  %t = dim(%ids) {axis = 0} : index
  %dt = domain(%c0, %t) : domain<T>
  %it = indices(%dt) : index[T]
  %rel = relation(%it) : relation<1 -> [T]>
  %iv = view.load(%ids, %rel) : i32[T]
  %mv = view.load(%mask, %rel) : bool[T]
  %v = dim(%counts) {axis = 0} : index
  %h = histogram(%iv, %v, %mv) : u32[V]
  %dv = domain(%c0, %v) : domain<V>
  %ib = indices(%dv) : index[V]
  %crel = relation(%ib) : relation<1 -> [V]>
  view.store(%counts, %crel, %h)
}
)");
  auto ids = view(DType::I32, {5}, {1, 3, 1, 9, -2});
  auto counts = view(DType::U32, {4});
  auto mask = view(DType::Bool, {5}, {1, 1, 1, 0, 0});
  interp::Interpreter(*m).run_kernel("k", {{"ids", ids}, {"mask", mask}, {"counts", counts}});
  CHECK(values(counts) == std::vector<double>{0, 2, 0, 1});
  auto all = view(DType::Bool, {5}, {1, 1, 1, 1, 1});
  expect_error(*m, "k", {{"ids", ids}, {"mask", all}, {"counts", counts}}, interp::ErrorKind::HistogramRange,
               {"op 'histogram'", "active value 9", "[0, 4)", "(3)"});
}

TEST_CASE("[L9.1] [L9.4] region_fold whole segmentation: argmax with absolute coordinates", "[interp][L9.1][L9.4]") {
  auto m = load(R"(
fn @argmax_combine(%a: tuple<f32, index>, %b: tuple<f32, index>) -> tuple<f32, index> {
  %av = tuple.get(%a) {index = 0} : f32
  %ai = tuple.get(%a) {index = 1} : index
  %bv = tuple.get(%b) {index = 0} : f32
  %bi = tuple.get(%b) {index = 1} : index
  %gt = cmp(%bv, %av) {pred = gt} : bool
  %v = select(%gt, %bv, %av) : f32
  %i = select(%gt, %bi, %ai) : index
  %r = tuple(%v, %i) : tuple<f32, index>
  return(%r)
}

fn @summarize(%x: f32[S], %pos: index[S], %scale: f32) -> tuple<f32, index> {
  %sb = broadcast(%scale) {dims = []} : f32[S]
  %xs = mul(%x, %sb) : f32[S]
  %src = tuple(%xs, %pos) : tuple<f32[S], index[S]>
  %ninf = const() {value = -inf} : f32
  %zero = const() {value = 0} : index
  %id = tuple(%ninf, %zero) : tuple<f32, index>
  %r = reduce(%src, %id) {axes = [0], combine = @argmax_combine} : tuple<f32, index>
  return(%r)
}

fn @f(%x: f32[N], %pos: index[N], %scale: f32) -> tuple<f32, index> {
  %ninf = const() {value = -inf} : f32
  %zero = const() {value = 0} : index
  %id = tuple(%ninf, %zero) : tuple<f32, index>
  %r = region_fold(%x, %pos, %id, %scale) {axis = 0, combine = @argmax_combine, segments = [2, 1, 1], summarize = @summarize} : tuple<f32, index>
  return(%r)
}
)");
  interp::Tensor x, p;
  x.dtype = DType::F32;
  x.shape = p.shape = {3};
  x.bits = {f32(1).bits, f32(-5).bits, f32(2).bits};
  p.dtype = DType::Index;
  p.bits = {4, 5, 6};
  interp::Interpreter it(*m);
  auto r = it.call_helper("f", {interp::Value(x), interp::Value(p), interp::Value(f32(-1))});
  CHECK(r[0].tuple().elems[0].scalar() == f32(5));
  CHECK(r[0].tuple().elems[1].scalar().bits == 5);
  interp::Tensor e = x, ep = p;
  e.shape = ep.shape = {0};
  e.bits.clear();
  ep.bits.clear();
  auto r0 = it.call_helper("f", {interp::Value(e), interp::Value(ep), interp::Value(f32(1))});
  CHECK(r0[0].tuple().elems[0].scalar().bits == num::inf_bits(DType::F32, true));  // identity
}

TEST_CASE("[L9.5] region_scan whole segmentation: weighted running sum and final state", "[interp][L9.5]") {
  auto m = load(R"(
fn @add_f32(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

fn @sum_slice(%x: f32[S], %w: f32) -> f32 {
  %z = const() {value = 0.0} : f32
  %s = reduce(%x, %z) {axes = [0], combine = @add_f32} : f32
  %t = mul(%s, %w) : f32
  return(%t)
}

fn @apply_sum(%t: f32, %state: f32) -> f32 {
  %s = add(%state, %t) : f32
  return(%s)
}

fn @emit_prefix(%x: f32[S], %state: f32, %w: f32) -> f32[S] {
  %wb = broadcast(%w) {dims = []} : f32[S]
  %xw = mul(%x, %wb) : f32[S]
  %z = const() {value = 0.0} : f32
  %p = scan(%xw, %z) {axis = 0, combine = @add_f32} : f32[S]
  %sb = broadcast(%state) {dims = []} : f32[S]
  %o = add(%p, %sb) : f32[S]
  return(%o)
}

fn @f(%x: f32[N], %w: f32, %init: f32) -> tuple<f32[N], f32> {
  %z = const() {value = 0.0} : f32
  %out, %final = region_scan(%x, %z, %init, %w) {apply = @apply_sum, axis = 0, combine = @add_f32, emit = @emit_prefix, segments = [1, 1, 1, 1], summarize = @sum_slice} : (f32[N], f32)
  %r = tuple(%out, %final) : tuple<f32[N], f32>
  return(%r)
}
)");
  interp::Tensor x;
  x.dtype = DType::F32;
  x.shape = {3};
  x.bits = {f32(1).bits, f32(2).bits, f32(3).bits};
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(x), interp::Value(f32(2)), interp::Value(f32(10))});
  const auto& out = r[0].tuple().elems[0].tensor();
  CHECK(out.bits == std::vector<uint64_t>{f32(12).bits, f32(16).bits, f32(22).bits});
  CHECK(r[0].tuple().elems[1].scalar() == f32(22));
}

TEST_CASE("[L17.1] random.bits matches the Philox4x32-10 known answer; [L17.2] uniform", "[interp][L17.1][L17.2]") {
  auto m = load(R"(
kernel @k(%o: Out<u32[4]>, %u: Out<f32[4]>, %seed: u64) {
  %c0 = const() {value = 0} : index
  %c4 = const() {value = 4} : index
  %d = domain(%c0, %c4) : domain<4>
  %i = indices(%d) : index[4]
  %r = relation(%i) : relation<1 -> [4]>
  %b = random.bits(%seed, %i) : u32[4]
  view.store(%o, %r, %b)
  %f = random.uniform(%seed, %i) : f32[4]
  view.store(%u, %r, %f)
}
)");
  auto o = view(DType::U32, {4});
  auto u = view(DType::F32, {4});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"u", u}, {"seed", interp::Scalar{DType::U64, 0}}});
  // Random123 known-answer vector: philox4x32_10(ctr = 0, key = 0).
  CHECK(o.storage->bits == std::vector<uint64_t>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
  // uniform f32 = top 24 bits * 2^-24.
  CHECK(values(u)[0] == static_cast<double>(0x6627e8d5u >> 8) / 16777216.0);
}
