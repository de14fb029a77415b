// Domains, subregions, relations and every indexed access: masked reads return the fill,
// out-of-bounds and undefined reads are errors with coordinates, unique_store collisions,
// scatter_reduce, logical buffers, atomics in sequential order.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

TEST_CASE("[L3.1] domain step; [L3.3] [L3.4] subregion indices are source coordinates", "[interp][L3.1][L3.3][L3.4]") {
  auto m = load(R"(
kernel @k(%o: Out<index[3]>, %p: Out<index[2]>, %b: index, %e: index) {
  %c1 = const() {value = 1} : index
  %c3 = const() {value = 3} : index
  %c10 = const() {value = 10} : index
  %d = domain(%c1, %c10, %c3) : domain<3>
  %i = indices(%d) : index[3]
  %c0 = const() {value = 0} : index
  %od = domain(%c0, %c3) : domain<3>
  %oi = indices(%od) : index[3]
  %r = relation(%oi) : relation<1 -> [3]>
  view.store(%o, %r, %i)
  %s = subregion(%d, %b, %e) : subregion<%e - %b>
  %si = indices(%s) : index[%e - %b]
  %c2 = const() {value = 2} : index
  %pd = domain(%c0, %c2) : domain<2>
  %pi = indices(%pd) : index[2]
  %pr = relation(%pi) : relation<1 -> [2]>
  %sr = relation(%si) : relation<1 -> [%e - %b]>
  %sv = gather(%si, %sr) : index[%e - %b]
  %rs = reshape(%si) : index[%e - %b]
  for(%s) region(%j: index) {
    yield()
  }
}
)");
  (void)m;
  auto m2 = load(R"(
kernel @k(%o: Out<index[N]>, %b: index) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c3 = const() {value = 3} : index
  %c10 = const() {value = 10} : index
  %d = domain(%c1, %c10, %c3) : domain<3>
  %n = dim(%o) {axis = 0} : index
  %e = add(%b, %n) : index
  %s = subregion(%d, %b, %e) : subregion<N>
  %si = indices(%s) : index[N]
  %od = domain(%c0, %n) : domain<N>
  %oi = indices(%od) : index[N]
  %r = relation(%oi) : relation<1 -> [N]>
  view.store(%o, %r, %si)
}
)");
  auto o = view(DType::Index, {2});
  interp::Interpreter(*m2).run_kernel("k", {{"o", o}, {"b", idx(1)}});
  CHECK(values(o) == std::vector<double>{4, 7});  // members of domain(1, 10, 3) = 1, 4, 7
  auto o3 = view(DType::Index, {3});
  expect_error(*m2, "k", {{"o", o3}, {"b", idx(1)}}, interp::ErrorKind::OutOfBounds, {"op 'subregion'", "[1, 4)", "no implicit clamp"});
}

TEST_CASE("[L3.1] a dynamic non-positive step is a run-time error", "[interp][L3.1]") {
  auto m = load(R"(
kernel @k(%o: Out<i32[1]>, %s: index) {
  %c0 = const() {value = 0} : index
  %c8 = const() {value = 8} : index
  %d = domain(%c0, %c8, %s) : domain<floordiv(%s + 7, %s)>
}
)");
  auto o = view(DType::I32, {1});
  expect_error(*m, "k", {{"o", o}, {"s", idx(0)}}, interp::ErrorKind::InvalidValue, {"op 'domain'", "step must be positive"});
}

namespace {
const char* kShifted = R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>, %sh: index) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %shb = broadcast(%sh) {dims = []} : index[N]
  %j = add(%i, %shb) : index[N]
  %nb = broadcast(%n) {dims = []} : index[N]
  %ok = cmp(%j, %nb) {pred = lt} : bool[N]
  %mrel = relation(%j, %ok) : relation<1 -> [N], masked>
  %fill = const() {value = -1.0} : f32
  %v = view.load(%x, %mrel, %fill) : f32[N]
  %r = relation(%i) : relation<1 -> [N]>
  view.store(%o, %r, %v)
  %urel = relation(%j) : relation<1 -> [N]>
  %u = view.load(%x, %urel) : f32[N]
}
)";
}

TEST_CASE("[L15.2] invalid read returns the fill; [L15.1] active out-of-bounds is an error", "[interp][L15.1][L15.2]") {
  auto m = load(kShifted);
  auto x = view(DType::F32, {4}, {10, 20, 30, 40});
  auto o = view(DType::F32, {4});
  // The masked load succeeds (fill for j >= 4), then the unmasked load goes out of bounds at point 2.
  expect_error(*m, "k", {{"x", x}, {"o", o}, {"sh", idx(2)}}, interp::ErrorKind::OutOfBounds,
               {"op 'view.load'", "t.kir:17:", "coordinate 4 on axis 0", "relation point (2)"});
  CHECK(values(o) == std::vector<double>{30, 40, -1, -1});
}

TEST_CASE("[L2.2] read of an Out element never written names the element", "[interp][L2.2]") {
  auto m = load(R"(
kernel @k(%o: Out<f32[4]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %z = const() {value = 2.0} : f32
  view.store(%o, %r0, %z)
  %a = view.load(%o, %r0) : f32
  %b = view.load(%o, %r1) : f32
}
)");
  auto o = view(DType::F32, {4});
  expect_error(*m, "k", {{"o", o}}, interp::ErrorKind::UndefinedRead, {"op 'view.load'", "t.kir:10:", "never written", "(1)"});
}

TEST_CASE("[L15.4] buffers: init, store/load, undefined read", "[interp][L15.4]") {
  auto m = load(R"(
kernel @k(%o: Out<i32[4]>, %bad: bool) {
  %c0 = const() {value = 0} : index
  %c4 = const() {value = 4} : index
  %d = domain(%c0, %c4) : domain<4>
  %i = indices(%d) : index[4]
  %r = relation(%i) : relation<1 -> [4]>
  %seven = const() {value = 7} : i32
  %b = buffer.alloc(%seven) : buffer<i32[4]>
  %c2 = const() {value = 2} : index
  %r2 = relation(%c2) : relation<1 -> []>
  %one = const() {value = 1} : i32
  buffer.store(%b, %r2, %one)
  %v = buffer.load(%b, %r) : i32[4]
  view.store(%o, %r, %v)
  %u = buffer.alloc() : buffer<i32[4]>
  if(%bad) region() {
    %x = buffer.load(%u, %r2) : i32
    yield()
  } region() {
    yield()
  }
}
)");
  auto o = view(DType::I32, {4});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"bad", num::make_bool(false)}});
  CHECK(values(o) == std::vector<double>{7, 7, 1, 7});
  expect_error(*m, "k", {{"o", o}, {"bad", num::make_bool(true)}}, interp::ErrorKind::UndefinedRead, {"op 'buffer.load'", "buffer %u", "(2)"});
}

TEST_CASE("[L15.3] unique_store collision names both points", "[interp][L15.3]") {
  auto m = load(R"(
kernel @k(%idx: In<index[N]>, %v: In<f32[N]>, %o: Out<f32[8]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%idx) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %t = view.load(%idx, %r) : index[N]
  %vals = view.load(%v, %r) : f32[N]
  %dst = relation(%t) : relation<1 -> [N]>
  unique_store(%o, %dst, %vals)
}
)");
  auto v = view(DType::F32, {3}, {1, 2, 3});
  auto o = view(DType::F32, {8});
  auto ok = view(DType::Index, {3}, {5, 0, 7});
  interp::Interpreter(*m).run_kernel("k", {{"idx", ok}, {"v", v}, {"o", o}});
  CHECK(values(o)[5] == 1);
  CHECK(values(o)[7] == 3);
  auto bad = view(DType::Index, {3}, {5, 0, 5});
  expect_error(*m, "k", {{"idx", bad}, {"v", v}, {"o", o}}, interp::ErrorKind::UniqueCollision,
               {"op 'unique_store'", "points (0) and (2)", "element (5)", "not injective"});
}

TEST_CASE("[L15.3] scatter_reduce applies the combine per point; [L16.1] atomics in sequence", "[interp][L15.3][L16.1]") {
  auto m = load(R"(
fn @add_f32(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

kernel @k(%bins: In<index[N]>, %v: In<f32[N]>, %h: InOut<f32[4]>, %cnt: Out<i32[2]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%v) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %b = view.load(%bins, %r) : index[N]
  %x = view.load(%v, %r) : f32[N]
  %br = relation(%b) : relation<1 -> [N]>
  scatter_reduce(%h, %br, %x) {combine = @add_f32}
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %i0 = const() {value = 10} : i32
  atomic.store(%cnt, %r0, %i0) {order = release}
  %one = const() {value = 1} : i32
  %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
  %ld = atomic.load(%cnt, %r0) {order = acquire} : i32
  %cas = atomic.compare_exchange(%cnt, %r0, %ld, %old) {order = acq_rel} : record<old_value: i32, success: bool>
  %okf = record.get(%cas) {field = success} : bool
  %okv = cast(%okf) : i32
  atomic.store(%cnt, %r1, %okv) {order = relaxed}
}
)");
  auto bins = view(DType::Index, {5}, {0, 3, 0, 3, 1});
  auto v = view(DType::F32, {5}, {1, 2, 4, 8, 16});
  auto h = view(DType::F32, {4}, {100, 0, 0, 0});
  auto cnt = view(DType::I32, {2});
  interp::Interpreter(*m).run_kernel("k", {{"bins", bins}, {"v", v}, {"h", h}, {"cnt", cnt}});
  CHECK(values(h) == std::vector<double>{105, 16, 0, 10});
  // store 10; add 1 -> 11 (old 10); load 11; CAS(expected 11, desired 10) succeeds -> 10.
  CHECK(values(cnt) == std::vector<double>{10, 1});
}
