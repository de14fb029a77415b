// Indexed access and memory at run time, beyond test_memory.cpp: index relations with permuted,
// repeated and strided members (L3.5), whole-domain stores without parallel (L5.2),
// offsets-derived ragged subregions with an optional member mapping (L14.1), logical buffers with
// tensor init and read-after-write order (L15.4), and copy as an ordinary load + store (L15.5).
// Expected values are hand-computed.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

TEST_CASE("[L3.5] an index relation with permuted, repeated and strided members", "[interp][L3.5]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %perm: In<index[P]>, %o: Out<f32[P]>, %g: Out<f32[P]>, %s: Out<f32[2]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %p = dim(%perm) {axis = 0} : index
  %dn = domain(%c0, %n) : domain<N>
  %dp = domain(%c0, %p) : domain<P>
  %in = indices(%dn) : index[N]
  %ip = indices(%dp) : index[P]
  %rn = relation(%in) : relation<1 -> [N]>
  %rp = relation(%ip) : relation<1 -> [P]>
  %members = view.load(%perm, %rp) : index[P]
  %mrel = relation(%members) : relation<1 -> [P]>
  %picked = view.load(%x, %mrel) : f32[P]
  view.store(%o, %rp, %picked)
  %all = view.load(%x, %rn) : f32[N]
  %gathered = gather(%all, %mrel) : f32[P]
  view.store(%g, %rp, %gathered)
  %c2 = const() {value = 2} : index
  %d2 = domain(%c0, %c2) : domain<2>
  %i2 = indices(%d2) : index[2]
  %two = broadcast(%c2) {dims = []} : index[2]
  %odd = mul(%i2, %two) : index[2]
  %srel = relation(%odd) : relation<1 -> [2]>
  %strided = view.load(%x, %srel) : f32[2]
  %r2 = relation(%i2) : relation<1 -> [2]>
  view.store(%s, %r2, %strided)
}
)");
  auto x = view(DType::F32, {3}, {10, 20, 30});
  auto perm = view(DType::Index, {4}, {2, 0, 2, 1});
  auto o = view(DType::F32, {4}), g = view(DType::F32, {4}), s = view(DType::F32, {2});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"perm", perm}, {"o", o}, {"g", g}, {"s", s}});
  CHECK(values(o) == std::vector<double>{30, 10, 30, 20});  // x[2], x[0], x[2], x[1]
  CHECK(values(g) == std::vector<double>{30, 10, 30, 20});
  CHECK(values(s) == std::vector<double>{10, 30});  // members 0, 2
}

namespace {
const char* kWhole = R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : f32[N]
  %last = sub(%n, %c1) : index
  %lb = broadcast(%last) {dims = []} : index[N]
  %rev = sub(%lb, %i) : index[N]
  %rr = relation(%rev) : relation<1 -> [N]>
  view.store(%y, %rr, %v)
}
)";
}  // namespace

TEST_CASE("[L5.2] a whole-domain store with unique writes needs no parallel", "[interp][L5.2]") {
  auto m = load(kWhole);
  auto x = view(DType::F32, {4}, {1, 2, 3, 4});
  auto y = view(DType::F32, {4});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"y", y}});
  CHECK(values(y) == std::vector<double>{4, 3, 2, 1});  // y[3 - i] = x[i]
}

TEST_CASE("[L5.2] a whole-domain store whose writes are not unique is an error naming both points", "[interp][L5.2]") {
  auto m = load(kWhole);
  auto x = view(DType::F32, {3}, {1, 2, 3});
  // An Out view whose elements alias (stride 0 on storage of one element): points 0 and 1 of
  // the store land on one element.
  interp::HostView y = view(DType::F32, {3});
  y.storage->bits.resize(1);
  y.strides = {0};
  expect_error(*m, "k", {{"x", x}, {"y", y}}, interp::ErrorKind::UniqueCollision,
               {"op 'view.store'", "t.kir:14:", "points (0) and (1)"});
}

namespace {
// Ragged groups from offsets, with an optional member mapping (seed 000 §14).
const char* kRaggedMapped = R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

kernel @k(%x: In<f32[R]>, %map: In<index[R]>, %offsets: In<i64[H]>, %y: Out<f32[G]>) {
  %zero = const() {value = 0} : index
  %one = const() {value = 1} : index
  %r = dim(%x) {axis = 0} : index
  %g = dim(%y) {axis = 0} : index
  %members = domain(%zero, %r) : domain<R>
  %groups = domain(%zero, %g) : domain<G>
  for(%groups) region(%grp: index) {
    %next = add(%grp, %one) : index
    %brel = relation(%grp) : relation<1 -> []>
    %erel = relation(%next) : relation<1 -> []>
    %b64 = view.load(%offsets, %brel) : i64
    %e64 = view.load(%offsets, %erel) : i64
    %b = cast(%b64) : index
    %e = cast(%e64) : index
    %part = subregion(%members, %b, %e) : subregion<%e - %b>
    %idx = indices(%part) : index[%e - %b]
    %rel = relation(%idx) : relation<1 -> [%e - %b]>
    %mapped = view.load(%map, %rel) : index[%e - %b]
    %mrel = relation(%mapped) : relation<1 -> [%e - %b]>
    %vals = view.load(%x, %mrel) : f32[%e - %b]
    %zf = const() {value = 0.0} : f32
    %sum = reduce(%vals, %zf) {axes = [0], combine = @add} : f32
    view.store(%y, %brel, %sum)
    yield()
  }
}
)";
}  // namespace

TEST_CASE("[L14.1] ragged groups: offsets-derived subregions (tests/kir/valid/ragged_groups.kir)", "[interp][L14.1]") {
  std::ifstream in(std::filesystem::path(KIR_SOURCE_DIR) / "tests" / "kir" / "valid" / "ragged_groups.kir");
  std::stringstream ss;
  ss << in.rdbuf();
  auto m = load(ss.str());
  auto x = view(DType::F32, {5}, {1, 2, 3, 4, 5});
  auto offsets = view(DType::I64, {4}, {0, 2, 2, 5});
  auto y = view(DType::F32, {3});
  interp::Interpreter(*m).run_kernel("ragged_row_sums", {{"x", x}, {"offsets", offsets}, {"y", y}});
  CHECK(values(y) == std::vector<double>{3, 0, 12});  // 1+2, empty group, 3+4+5
}

TEST_CASE("[L14.1] ragged groups with a member mapping; bad offsets are located errors", "[interp][L14.1]") {
  auto m = load(kRaggedMapped);
  auto x = view(DType::F32, {5}, {1, 2, 3, 4, 5});
  auto map = view(DType::Index, {5}, {4, 3, 2, 1, 0});
  auto y = view(DType::F32, {3});
  auto offsets = view(DType::I64, {4}, {0, 2, 2, 5});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"map", map}, {"offsets", offsets}, {"y", y}});
  CHECK(values(y) == std::vector<double>{9, 0, 6});  // x[4]+x[3], empty, x[2]+x[1]+x[0]
  // Offsets past the member domain: no implicit clamp.
  auto beyond = view(DType::I64, {4}, {0, 2, 2, 6});
  expect_error(*m, "k", {{"x", x}, {"map", map}, {"offsets", beyond}, {"y", y}}, interp::ErrorKind::OutOfBounds,
               {"op 'subregion'", "t.kir:22:", "[2, 6)"});
}

TEST_CASE("[L15.4] buffers: tensor init, loads see the latest store in program order", "[interp][L15.4]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : f32[N]
  %buf = buffer.alloc(%v) : buffer<f32[N]>
  %tail = domain(%c1, %n) : domain<N - 1>
  for(%tail) region(%j: index) {
    %jm = sub(%j, %c1) : index
    %rp = relation(%jm) : relation<1 -> []>
    %rj = relation(%j) : relation<1 -> []>
    %a = buffer.load(%buf, %rp) : f32
    %b = buffer.load(%buf, %rj) : f32
    %s = add(%a, %b) : f32
    buffer.store(%buf, %rj, %s)
    yield()
  }
  %w = buffer.load(%buf, %r) : f32[N]
  view.store(%o, %r, %w)
}
)");
  auto x = view(DType::F32, {4}, {1, 2, 3, 4});
  auto o = view(DType::F32, {4});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}});
  // In-place prefix sum: each step reads the element stored by the previous one.
  CHECK(values(o) == std::vector<double>{1, 3, 6, 10});
  CHECK(values(x) == std::vector<double>{1, 2, 3, 4});  // the init was copied, not aliased
}

TEST_CASE("[L15.5] no canonical copy: a load is a value, later stores to the source do not change it",
          "[interp][L15.5]") {
  auto m = load(R"(
kernel @k(%io: InOut<f32[N]>, %o: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%io) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%io, %r) : f32[N]
  %z = const() {value = 0.0} : f32
  %zs = full(%z) : f32[N]
  view.store(%io, %r, %zs)
  view.store(%o, %r, %v)
}
)");
  auto io = view(DType::F32, {2}, {1, 2});
  auto o = view(DType::F32, {2});
  interp::Interpreter(*m).run_kernel("k", {{"io", io}, {"o", o}});
  CHECK(values(o) == std::vector<double>{1, 2});
  CHECK(values(io) == std::vector<double>{0, 0});
  // The op itself does not exist: `copy` is rejected before anything runs.
  Diagnostics d;
  auto bad = parse_module("kernel @k(%x: In<f32[2]>, %y: Out<f32[2]>) {\n  copy(%x, %y)\n}\n", "t.kir", d);
  CHECK((!bad || !verify_module(*bad, d)));
}
