// Value ops: pointwise arithmetic through numerics (exact rounding), integer errors, compare and
// select, casts, shape ops (broadcast, reshape, transpose, join, full, dim), tuples/records.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

const char* kPointwise = R"(
kernel @k(%x: In<f32[N]>, %y: In<f32[N]>, %o: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : f32[N]
  %b = view.load(%y, %r) : f32[N]
  %s = add(%a, %b) : f32[N]
  %p = mul(%s, %b) : f32[N]
  view.store(%o, %r, %p)
}
)";

}  // namespace

TEST_CASE("[L4.14] f32 add/mul round once per op", "[interp][L4.14]") {
  auto m = load(kPointwise);
  auto x = view(DType::F32, {3}, {1.0, 16777216.0, 0.1});
  auto y = view(DType::F32, {3}, {2.0, 1.0, 3.0});
  auto o = view(DType::F32, {3});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}, {"o", o}});
  auto v = values(o);
  CHECK(v[0] == 6.0);
  // 2^24 + 1 rounds to even 2^24, times 1.
  CHECK(v[1] == 16777216.0);
  // (0.1f + 3) rounded to f32 then * 3 rounded to f32 (hand-computed with exact binary values).
  const float s = 0.1f + 3.0f;
  CHECK(v[2] == static_cast<double>(s * 3.0f));
}

TEST_CASE("[L4.14] integer division by zero names op, location and coordinates", "[interp][L4.14]") {
  auto m = load(R"(
kernel @k(%x: In<i32[N]>, %y: In<i32[N]>, %o: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : i32[N]
  %b = view.load(%y, %r) : i32[N]
  %q = div(%a, %b) : i32[N]
  view.store(%o, %r, %q)
}
)");
  auto x = view(DType::I32, {3}, {7, -7, 5});
  auto o = view(DType::I32, {3});
  SECTION("ok: truncation toward zero") {
    auto y = view(DType::I32, {3}, {2, 2, -5});
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}, {"o", o}});
    CHECK(values(o) == std::vector<double>{3, -3, -1});
  }
  SECTION("zero divisor") {
    auto y = view(DType::I32, {3}, {1, 0, 1});
    expect_error(*m, "k", {{"x", x}, {"y", y}, {"o", o}}, interp::ErrorKind::DivisionByZero, {"op 'div'", "t.kir:10:", "(1)"});
  }
}

TEST_CASE("[L4.3] exp is correctly rounded; [L4.14] cmp/select; cast", "[interp][L4.3][L4.14]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>, %c: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : f32[N]
  %e = exp(%a) : f32[N]
  %z = const() {value = 0.0} : f32
  %zb = broadcast(%z) {dims = []} : f32[N]
  %neg = cmp(%a, %zb) {pred = lt} : bool[N]
  %s = select(%neg, %zb, %e) : f32[N]
  view.store(%o, %r, %s)
  %t = cast(%a) : i32[N]
  view.store(%c, %r, %t)
}
)");
  auto x = view(DType::F32, {3}, {0.0, 1.0, -2.5});
  auto o = view(DType::F32, {3});
  auto c = view(DType::I32, {3});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"c", c}});
  auto v = values(o);
  CHECK(v[0] == 1.0);
  CHECK(v[1] == static_cast<double>(2.71828182845904523536f));  // e rounded to nearest f32: 0x402DF854
  CHECK(o.storage->bits[1] == 0x402DF854u);
  CHECK(v[2] == 0.0);
  CHECK(values(c) == std::vector<double>{0, 1, -2});  // truncation toward zero
}

TEST_CASE("[L4.14] cast of NaN to an integer is an error naming the element", "[interp][L4.14]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %c: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : f32[N]
  %t = cast(%a) : i32[N]
  view.store(%c, %r, %t)
}
)");
  auto x = view(DType::F32, {2}, {1.0, std::nan("")});
  auto c = view(DType::I32, {2});
  expect_error(*m, "k", {{"x", x}, {"c", c}}, interp::ErrorKind::InvalidCast, {"op 'cast'", "(1)"});
}

TEST_CASE("[L4.6] [L4.7] [L4.10] reshape keeps row-major order, transpose, join", "[interp][L4.6][L4.7][L4.10]") {
  auto m = load(R"(
kernel @k(%x: In<i32[2, 3]>, %t: Out<i32[3, 2]>, %r: Out<i32[6]>, %j: Out<i32[6, 2]>) {
  %c0 = const() {value = 0} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %c6 = const() {value = 6} : index
  %d2 = domain(%c0, %c2) : domain<2>
  %d3 = domain(%c0, %c3) : domain<3>
  %d6 = domain(%c0, %c6) : domain<6>
  %i2 = indices(%d2) : index[2]
  %i3 = indices(%d3) : index[3]
  %i6 = indices(%d6) : index[6]
  %a = broadcast(%i2) {dims = [0]} : index[2, 3]
  %b = broadcast(%i3) {dims = [1]} : index[2, 3]
  %rel = relation(%a, %b) : relation<2 -> [2, 3]>
  %v = view.load(%x, %rel) : i32[2, 3]
  %tv = transpose(%v) : i32[3, 2]
  %ta = broadcast(%i3) {dims = [0]} : index[3, 2]
  %tb = broadcast(%i2) {dims = [1]} : index[3, 2]
  %trel = relation(%ta, %tb) : relation<2 -> [3, 2]>
  view.store(%t, %trel, %tv)
  %rv = reshape(%v) : i32[6]
  %rrel = relation(%i6) : relation<1 -> [6]>
  view.store(%r, %rrel, %rv)
  %jv = join(%rv, %rv) : i32[6, 2]
  %c1 = const() {value = 1} : index
  %ja = broadcast(%i6) {dims = [0]} : index[6, 2]
  %jb = broadcast(%i2) {dims = [1]} : index[6, 2]
  %jrel = relation(%ja, %jb) : relation<2 -> [6, 2]>
  view.store(%j, %jrel, %jv)
}
)");
  auto x = view(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto t = view(DType::I32, {3, 2}), r = view(DType::I32, {6}), j = view(DType::I32, {6, 2});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"t", t}, {"r", r}, {"j", j}});
  CHECK(values(t) == std::vector<double>{1, 4, 2, 5, 3, 6});
  CHECK(values(r) == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(values(j) == std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6});
}

TEST_CASE("[L4.11] [L4.12] tuples and records through a helper", "[interp][L4.11][L4.12]") {
  auto m = load(R"(
fn @swap(%t: tuple<f32, i32>) -> record<a: i32, b: f32> {
  %x = tuple.get(%t) {index = 0} : f32
  %y = tuple.get(%t) {index = 1} : i32
  %r = record(%y, %x) : record<a: i32, b: f32>
  return(%r)
}
)");
  interp::Interpreter it(*m);
  interp::TupleV t;
  t.elems = {interp::Value(f32(1.5)), interp::Value(interp::Scalar{DType::I32, 7})};
  auto r = it.call_helper("swap", {interp::Value(t)});
  REQUIRE(r.size() == 1);
  CHECK(r[0].record().names == std::vector<std::string>{"a", "b"});
  CHECK(r[0].record().elems[0].scalar().bits == 7);
  CHECK(r[0].record().elems[1].scalar() == f32(1.5));
}

TEST_CASE("[L4.2] dynamic extent mismatch at a helper call is found at run time", "[interp][L4.2]") {
  auto m = load(R"(
fn @addk(%a: f32[K], %b: f32[K]) -> f32[K] {
  %s = add(%a, %b) : f32[K]
  return(%s)
}
)");
  interp::Interpreter it(*m);
  interp::Tensor a, b;
  a.dtype = b.dtype = DType::F32;
  a.shape = {2};
  a.bits = {f32(1).bits, f32(2).bits};
  b.shape = {3};
  b.bits = {0, 0, 0};
  auto ok = it.call_helper("addk", {interp::Value(a), interp::Value(a)});
  CHECK(ok[0].tensor().bits[1] == f32(4).bits);
  try {
    it.call_helper("addk", {interp::Value(a), interp::Value(b)});
    FAIL("expected a shape mismatch");
  } catch (const interp::RuntimeError& e) {
    CHECK(e.kind() == interp::ErrorKind::ShapeMismatch);
    CHECK(std::string(e.what()).find("extent K is 2") != std::string::npos);
  }
}

TEST_CASE("[L4.2] kernel extent symbols must agree across views; the error names both", "[interp][L4.2]") {
  auto m = load(kPointwise);
  auto x = view(DType::F32, {3}), y = view(DType::F32, {4}), o = view(DType::F32, {3});
  expect_error(*m, "k", {{"x", x}, {"y", y}, {"o", o}}, interp::ErrorKind::Binding, {"extent N is 3 from %x", "4 from %y"});
}
