// Lazy index tensors and affine relations (docs/design.md "Interpreter speed"): `indices` and
// `broadcast` of index values stay affine, a relation built from them is affine, and
// view.load/store through it run as strided loops. Each kernel runs twice on the same inputs:
// as written (affine path) and with every coordinate passed through `add(c, 0)`, which writes
// the coordinates out (the general, materialized path); both must equal a hand-written loop,
// and errors must name the same op, point and coordinate. Also: values released at their last
// use and results written in place over dead operands leave every result unchanged.
#include <sstream>

#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

// Replaces each "COORD(x)" by x (lazy) or by "%x_m" after a line "%x_m = add(%x, %zb)" inserted
// before the marker line "MAT(x, T)" (materialized; T the tensor type of x).
std::string variant(std::string text, bool materialized) {
  for (size_t p; (p = text.find("MAT(")) != std::string::npos;) {
    const size_t e = text.find(')', p);
    const std::string args = text.substr(p + 4, e - p - 4);
    const size_t comma = args.find(',');
    const std::string x = args.substr(0, comma), t = args.substr(comma + 2);
    std::string line;
    if (materialized)
      line = "%" + x + "_zb = broadcast(%c0) {dims = []} : " + t + "\n  %" + x + "_m = add(%" + x + ", %" + x + "_zb) : " + t;
    text.replace(p, e + 1 - p, line);
  }
  for (size_t p; (p = text.find("COORD(")) != std::string::npos;) {
    const size_t e = text.find(')', p);
    const std::string x = text.substr(p + 6, e - p - 6);
    text.replace(p, e + 1 - p, materialized ? "%" + x + "_m" : "%" + x);
  }
  return text;
}

std::vector<double> floats(size_t n, double first) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = first + static_cast<double>(i);
  return v;
}

interp::HostView strided(DType d, const interp::Shape& shape, const interp::Shape& strides, int64_t offset,
                         const std::vector<double>& storage) {
  interp::HostView h = view(d, {static_cast<int64_t>(storage.size())}, storage);
  h.shape = shape;
  h.strides = strides;
  h.offset = offset;
  return h;
}

// y[n, m] = x[m, n]: coordinates from indices + broadcast.
const char* kTranspose = R"(
kernel @k(%x: In<f32[M, N]>, %y: Out<f32[N, M]>) {
  %c0 = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dn = domain(%c0, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bn = broadcast(%in) {dims = [0]} : index[N, M]
  %bm = broadcast(%im) {dims = [1]} : index[N, M]
  MAT(bn, index[N, M])
  MAT(bm, index[N, M])
  %xr = relation(COORD(bm), COORD(bn)) : relation<2 -> [N, M]>
  %v = view.load(%x, %xr) : f32[N, M]
  %yr = relation(COORD(bn), COORD(bm)) : relation<2 -> [N, M]>
  view.store(%y, %yr, %v)
}
)";

}  // namespace

TEST_CASE("[L15.3] affine load/store over strided views equals the materialized path and a hand loop",
          "[interp][affine][L15.3]") {
  for (bool mat : {false, true}) {
    INFO((mat ? "materialized" : "affine"));
    auto m = load(variant(kTranspose, mat));
    // x: 3x4 at storage index 2 + r + 3c (column-major with an offset) in 20 elements 100..119.
    auto xs = floats(20, 100);
    auto x = strided(DType::F32, {3, 4}, {1, 3}, 2, xs);
    auto y = view(DType::F32, {4, 3});
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}});
    std::vector<double> want(12);
    for (int n = 0; n < 4; ++n)
      for (int r = 0; r < 3; ++r) want[static_cast<size_t>(n * 3 + r)] = xs[static_cast<size_t>(2 + r + 3 * n)];
    CHECK(values(y) == want);
  }
}

TEST_CASE("[L15.3] negative strides: affine load walks backwards, a reversed store still writes every element",
          "[interp][affine][L15.3]") {
  for (bool mat : {false, true}) {
    INFO((mat ? "materialized" : "affine"));
    auto m = load(variant(kTranspose, mat));
    // x[r, c] at 11 - 4r - c (both axes reversed); y[n, m] at 11 - 3n - m (a reversed Out view,
    // so the store's storage indices decrease in point order).
    auto xs = floats(12, 0);
    auto x = strided(DType::F32, {3, 4}, {-4, -1}, 11, xs);
    auto y = strided(DType::F32, {4, 3}, {-3, -1}, 11, std::vector<double>(12, 0));
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}});
    std::vector<double> want(12);
    for (int n = 0; n < 4; ++n)
      for (int r = 0; r < 3; ++r) want[static_cast<size_t>(11 - 3 * n - r)] = xs[static_cast<size_t>(11 - 4 * r - n)];
    CHECK(values(y) == want);
  }
}

namespace {

// Points 0..n of a domain one longer than the view: the last point's coordinate is outside.
const char* kOverrun = R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %extra: index) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %e = add(%n, %extra) : index
  %d = domain(%c0, %e) : domain<%extra + N>
  %i = indices(%d) : index[%extra + N]
  MAT(i, index[%extra + N])
  %r = relation(COORD(i)) : relation<1 -> [%extra + N]>
  %v = view.load(%x, %r) : f32[%extra + N]
  view.store(%y, %r, %v)
}
)";

}  // namespace

TEST_CASE("[L15.1] out-of-bounds through an affine relation names the op, the point and the coordinate",
          "[interp][affine][L15.1]") {
  for (bool mat : {false, true}) {
    auto m = load(variant(kOverrun, mat));
    // A 4-element view at the start of an 8-element storage: coordinate 4 is inside the storage
    // but outside the view, and must still be an error.
    auto x = strided(DType::F32, {4}, {1}, 0, {1, 2, 3, 4, 5, 6, 7, 8});
    auto y = view(DType::F32, {4});
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}, {"extra", idx(0)}});
    CHECK(values(y) == std::vector<double>{1, 2, 3, 4});
    expect_error(*m, "k", {{"x", x}, {"y", y}, {"extra", idx(1)}}, interp::ErrorKind::OutOfBounds,
                 {"op 'view.load'", "coordinate 4 on axis 0 is outside view %x of shape [4]", "source coordinate (4)",
                  "relation point (4)"});
  }
}

TEST_CASE("[L15.1] an affine store out of bounds writes the in-bounds points first, as the general loop does",
          "[interp][affine][L15.1]") {
  // Store a scalar through indices 0..4 into a 4-element Out view: points 0..3 are written, then
  // point 4 fails (the general loop's partial writes are kept, whichever path runs).
  for (bool mat : {false, true}) {
    auto m = load(variant(R"(
kernel @k(%y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%y) {axis = 0} : index
  %e = add(%n, %c1) : index
  %d = domain(%c0, %e) : domain<N + 1>
  %i = indices(%d) : index[N + 1]
  MAT(i, index[N + 1])
  %r = relation(COORD(i)) : relation<1 -> [N + 1]>
  %s = const() {value = 7.0} : f32
  %v = broadcast(%s) {dims = []} : f32[N + 1]
  view.store(%y, %r, %v)
}
)", mat));
    auto y = view(DType::F32, {4});
    expect_error(*m, "k", {{"y", y}}, interp::ErrorKind::OutOfBounds, {"op 'view.store'", "coordinate 4 on axis 0", "relation point (4)"});
    CHECK(values(y) == std::vector<double>{7, 7, 7, 7});
  }
}

TEST_CASE("[L15.2] masked affine relations: inactive points read the fill, skip the write, and may lie outside",
          "[interp][affine][L15.2]") {
  // Points 0..5 over a 4-element view, active where i is even: point 4 (coordinate 4) is
  // outside but inactive, so neither the load nor the store touches it.
  for (bool mat : {false, true}) {
    INFO((mat ? "materialized" : "affine"));
    auto m = load(variant(R"(
kernel @k(%x: In<f32[N]>, %y: InOut<f32[N]>, %extra: index) {
  %c0 = const() {value = 0} : index
  %c2 = const() {value = 2} : index
  %n = dim(%x) {axis = 0} : index
  %e = add(%n, %extra) : index
  %d = domain(%c0, %e) : domain<%extra + N>
  %i = indices(%d) : index[%extra + N]
  MAT(i, index[%extra + N])
  %i2 = indices(%d) : index[%extra + N]
  %two = broadcast(%c2) {dims = []} : index[%extra + N]
  %half = div(%i2, %two) : index[%extra + N]
  %back = mul(%half, %two) : index[%extra + N]
  %even = cmp(%back, %i2) {pred = eq} : bool[%extra + N]
  %nb = broadcast(%n) {dims = []} : index[%extra + N]
  %inb = cmp(%i2, %nb) {pred = lt} : bool[%extra + N]
  %ok = and(%even, %inb) : bool[%extra + N]
  %ok2 = or(%ok, %even) : bool[%extra + N]
  %r = relation(COORD(i), %ok2) : relation<1 -> [%extra + N], masked>
  %fill = const() {value = -1.0} : f32
  %v = view.load(%x, %r, %fill) : f32[%extra + N]
  %one = const() {value = 1.0} : f32
  %ob = broadcast(%one) {dims = []} : f32[%extra + N]
  %w = add(%v, %ob) : f32[%extra + N]
  %rm = relation(COORD(i), %ok) : relation<1 -> [%extra + N], masked>
  view.store(%y, %rm, %w)
}
)", mat));
    // extra = 0: points 0..3, active 0 and 2 (in bounds): y[0] = x[0] + 1, y[2] = x[2] + 1.
    auto x = view(DType::F32, {4}, {10, 20, 30, 40});
    auto y = view(DType::F32, {4}, {5, 5, 5, 5});
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}, {"extra", idx(0)}});
    CHECK(values(y) == std::vector<double>{11, 5, 31, 5});
    // extra = 2: points 0..5; the load's mask %ok2 = even keeps point 4 (coordinate 4) active:
    // an out-of-bounds error naming point 4.
    expect_error(*m, "k", {{"x", x}, {"y", y}, {"extra", idx(2)}}, interp::ErrorKind::OutOfBounds,
                 {"op 'view.load'", "coordinate 4 on axis 0", "relation point (4)"});
  }
}

TEST_CASE("[L15.3] a store through a constant affine coordinate collides, naming both points", "[interp][affine][L15.3]") {
  for (bool mat : {false, true}) {
    auto m = load(variant(R"(
kernel @k(%y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%y) {axis = 0} : index
  %b = broadcast(%c1) {dims = []} : index[N]
  MAT(b, index[N])
  %r = relation(COORD(b)) : relation<1 -> [N]>
  %s = const() {value = 2.0} : f32
  %v = broadcast(%s) {dims = []} : f32[N]
  unique_store(%y, %r, %v)
}
)", mat));
    auto y = view(DType::F32, {3});
    expect_error(*m, "k", {{"y", y}}, interp::ErrorKind::UniqueCollision,
                 {"op 'unique_store'", "points (0) and (1) both write element (1)", "relation not injective"});
  }
}

TEST_CASE("[L5.1] parallel conflicts are found through affine relations", "[interp][affine][L5.1]") {
  // Point k stores one element through the lazy broadcast of k / 2: points 0 and 1 both write
  // element (0).
  for (bool mat : {false, true}) {
    auto m = load(variant(R"(
kernel @k(%y: Out<f32[N]>, %p: index) {
  %c0 = const() {value = 0} : index
  %c2 = const() {value = 2} : index
  %dp = domain(%c0, %p) : domain<%p>
  parallel(%dp) region(%k: index) {
    %h = div(%k, %c2) : index
    %i = broadcast(%h) {dims = []} : index[1]
    MAT(i, index[1])
    %r = relation(COORD(i)) : relation<1 -> [1]>
    %s = cast(%k) : f32
    %v = broadcast(%s) {dims = []} : f32[1]
    view.store(%y, %r, %v)
    yield()
  }
}
)", mat));
    auto y = view(DType::F32, {3});
    interp::Interpreter(*m).run_kernel("k", {{"y", y}, {"p", idx(1)}});
    CHECK(values(y) == std::vector<double>{0, 0, 0});  // one point: no conflict
    interp::Interpreter it(*m);
    try {
      it.run_kernel("k", {{"y", y}, {"p", idx(2)}});
      FAIL("expected a parallel conflict");
    } catch (const interp::RuntimeError& e) {
      INFO(e.what());
      CHECK(e.kind() == interp::ErrorKind::ParallelConflict);
      CHECK(std::string(e.what()).find("points (0) and (1)") != std::string::npos);
      CHECK(std::string(e.what()).find("both write view %y element (0)") != std::string::npos);
    }
  }
}

TEST_CASE("[L3.4] lazy indices of a stepped subregion and their broadcast hold the source coordinates",
          "[interp][affine][L3.4]") {
  // domain(2, 20, 3) = 2, 5, 8, 11, 14, 17; subregion [1, 4) = 5, 8, 11. Each coordinate, used as
  // a value (stored, so it is written out), and broadcast to [2, 3] along axis 1.
  auto m = load(R"(
kernel @k(%o: Out<index[2, 3]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %c4 = const() {value = 4} : index
  %c20 = const() {value = 20} : index
  %d = domain(%c2, %c20, %c3) : domain<6>
  %s = subregion(%d, %c1, %c4) : subregion<3>
  %i = indices(%s) : index[3]
  %b = broadcast(%i) {dims = [1]} : index[2, 3]
  %d2 = domain(%c0, %c2) : domain<2>
  %d3 = domain(%c0, %c3) : domain<3>
  %r2 = indices(%d2) : index[2]
  %r3 = indices(%d3) : index[3]
  %o0 = broadcast(%r2) {dims = [0]} : index[2, 3]
  %o1 = broadcast(%r3) {dims = [1]} : index[2, 3]
  %orel = relation(%o0, %o1) : relation<2 -> [2, 3]>
  view.store(%o, %orel, %b)
}
)");
  auto o = view(DType::Index, {2, 3});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}});
  CHECK(values(o) == std::vector<double>{5, 8, 11, 5, 8, 11});
}

TEST_CASE("[L4.14] results written over dead operands leave live operands intact", "[interp][affine][L4.14]") {
  // %a is used again after %s = a + b (not dead: a fresh result); %s dies at %t = s - a and %b
  // at %u = b * b... (used twice in one op: never overwritten in place).
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %y: In<f32[N]>, %o: Out<f32[N]>, %p: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : f32[N]
  %b = view.load(%y, %r) : f32[N]
  %s = add(%a, %b) : f32[N]
  %t = sub(%s, %a) : f32[N]
  %u = mul(%b, %b) : f32[N]
  %w = sub(%u, %t) : f32[N]
  view.store(%o, %r, %w)
  view.store(%p, %r, %a)
}
)");
  auto x = view(DType::F32, {3}, {1, 2, 3}), y = view(DType::F32, {3}, {10, 20, 30});
  auto o = view(DType::F32, {3}), p = view(DType::F32, {3});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}, {"o", o}, {"p", p}});
  // t = (a + b) - a = b exactly for these values; w = b*b - b: 90, 380, 870.
  CHECK(values(o) == std::vector<double>{90, 380, 870});
  CHECK(values(p) == std::vector<double>{1, 2, 3});
}

TEST_CASE("[L4.14] break-on-nan still prints the operands of an op whose operand dies there", "[interp][affine][L4.14]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %r) : f32[N]
  %b = view.load(%x, %r) : f32[N]
  %s = sub(%a, %b) : f32[N]
  view.store(%o, %r, %s)
}
)");
  interp::Options opts;
  opts.break_on_nan = true;
  auto x = view(DType::F32, {2}, {1, std::numeric_limits<double>::infinity()});
  auto o = view(DType::F32, {2});
  interp::Interpreter it(*m, opts);
  try {
    it.run_kernel("k", {{"x", x}, {"o", o}});
    FAIL("expected break-on-nan");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == interp::ErrorKind::BreakOn);
    CHECK(std::string(e.what()).find("%a = inf") != std::string::npos);
    CHECK(std::string(e.what()).find("%b = inf") != std::string::npos);
  }
}
