// Parallel semantics (issue 4 items 2-3, checklist L5.1): conflicting effects between points of a
// parallel (write-write, read-write, nested parallels) are run-time errors naming op, points,
// element and locations; disjoint accesses, per-point buffers, atomics and scatter_reduce are not
// conflicts; the point order policy (canonical, reverse, seeded shuffle) leaves conflict-free and
// atomic-combining kernels' results unchanged.
#include <algorithm>

#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

interp::Options order(interp::ParallelOrder o, uint64_t seed = 0) {
  interp::Options opts;
  opts.parallel_order = o;
  opts.policy_seed = seed;
  return opts;
}

const std::vector<interp::Options> kOrders = {order(interp::ParallelOrder::Canonical), order(interp::ParallelOrder::Reverse),
                                              order(interp::ParallelOrder::Shuffle, 1), order(interp::ParallelOrder::Shuffle, 42)};

void expect_conflict(const Module& m, const std::map<std::string, interp::KernelArg>& args, const interp::Options& opts,
                     const std::vector<std::string>& fragments) {
  interp::Interpreter it(m, opts);
  try {
    it.run_kernel("k", args);
    FAIL("expected a parallel-conflict error");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == interp::ErrorKind::ParallelConflict);
    for (const auto& f : fragments) CHECK(std::string(e.what()).find(f) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("[L5.1] two points of a parallel writing one element is an error naming both", "[interp][L5.1]") {
  // Point i writes %y at the coordinate %dst[i].
  auto m = load(R"(
kernel @k(%dst: In<index[N]>, %y: Out<f32[8]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%dst) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %r = relation(%i) : relation<1 -> []>
    %t = view.load(%dst, %r) : index
    %w = relation(%t) : relation<1 -> []>
    %v = cast(%i) : f32
    view.store(%y, %w, %v)
    yield()
  }
}
)");
  auto y = view(DType::F32, {8});
  interp::Interpreter(*m).run_kernel("k", {{"dst", view(DType::Index, {4}, {0, 2, 1, 3})}, {"y", y}});
  CHECK(values(y)[2] == 1);
  auto bad = view(DType::Index, {6}, {0, 4, 2, 1, 6, 2});
  expect_conflict(*m, {{"dst", bad}, {"y", y}}, {},
                  {"op 'view.store'", "points (2) and (5) of the parallel at t.kir:6:3", "both write view %y element (2)",
                   "t.kir:11:5"});
  expect_conflict(*m, {{"dst", bad}, {"y", y}}, order(interp::ParallelOrder::Reverse),
                  {"points (5) and (2)", "both write view %y element (2)"});
}

TEST_CASE("[L5.1] a write and a read of one element by two points is an error", "[interp][L5.1]") {
  // Point i reads %y[%src[i]] and writes %y[i] (an in-place stencil that races).
  auto m = load(R"(
kernel @k(%src: In<index[N]>, %y: InOut<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%src) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %r = relation(%i) : relation<1 -> []>
    %s = view.load(%src, %r) : index
    %sr = relation(%s) : relation<1 -> []>
    %a = view.load(%y, %sr) : f32
    %b = add(%a, %a) : f32
    view.store(%y, %r, %b)
    yield()
  }
}
)");
  auto y = view(DType::F32, {4}, {1, 2, 3, 4});
  interp::Interpreter(*m).run_kernel("k", {{"src", view(DType::Index, {4}, {0, 1, 2, 3})}, {"y", y}});
  CHECK(values(y) == std::vector<double>{2, 4, 6, 8});
  auto bad = view(DType::Index, {4}, {0, 3, 2, 3});
  expect_conflict(*m, {{"src", bad}, {"y", y}}, {},
                  {"op 'view.store'", "point (1) reads and point (3) writes view %y element (3)", "parallel at t.kir:6:3",
                   "op 'view.load' at t.kir:10:5"});
  expect_conflict(*m, {{"src", bad}, {"y", y}}, order(interp::ParallelOrder::Reverse),
                  {"op 'view.load'", "point (3) writes and point (1) reads view %y element (3)", "op 'view.store' at t.kir:12:5"});
}

TEST_CASE("[L5.1] disjoint rows, per-point buffers and nested parallels are no conflict; nested conflicts are found",
          "[interp][L5.1]") {
  // Outer parallel over rows i, inner over columns j: o[i*ci, j*cj] = x[i, j] + y[i] (y[i] passed
  // through a buffer private to the row), then y[i] += 1: every access stays in its own row.
  auto m = load(R"(
kernel @k(%x: In<f32[M, N]>, %y: InOut<f32[M]>, %o: Out<f32[M, N]>, %ci: index, %cj: index) {
  %c0 = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dn = domain(%c0, %n) : domain<N>
  %in = indices(%dn) : index[N]
  %z = const() {value = 0.0} : f32
  parallel(%dm) region(%i: index) {
    %ib = broadcast(%i) {dims = []} : index[N]
    %rr = relation(%ib, %in) : relation<2 -> [N]>
    %row = view.load(%x, %rr) : f32[N]
    %buf = buffer.alloc(%z) : buffer<f32[1]>
    %b0 = relation(%c0) : relation<1 -> []>
    %ri = relation(%i) : relation<1 -> []>
    %yi = view.load(%y, %ri) : f32
    buffer.store(%buf, %b0, %yi)
    parallel(%dn) region(%j: index) {
      %e = relation(%i, %j) : relation<2 -> []>
      %xe = view.load(%x, %e) : f32
      %acc = buffer.load(%buf, %b0) : f32
      %s = add(%xe, %acc) : f32
      %ti = mul(%i, %ci) : index
      %tj = mul(%j, %cj) : index
      %oe = relation(%ti, %tj) : relation<2 -> []>
      view.store(%o, %oe, %s)
      yield()
    }
    %one = const() {value = 1.0} : f32
    %y2 = add(%yi, %one) : f32
    view.store(%y, %ri, %y2)
    yield()
  }
}
)");
  for (const auto& opts : kOrders) {
    auto x = view(DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
    auto y = view(DType::F32, {3}, {10, 20, 30});
    auto o = view(DType::F32, {3, 2});
    interp::Interpreter(*m, opts).run_kernel("k", {{"x", x}, {"y", y}, {"o", o}, {"ci", idx(1)}, {"cj", idx(1)}});
    CHECK(values(o) == std::vector<double>{11, 12, 23, 24, 35, 36});
    CHECK(values(y) == std::vector<double>{11, 21, 31});
  }
  auto x = view(DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  auto y = view(DType::F32, {3}, {10, 20, 30});
  auto o = view(DType::F32, {3, 2});
  // Every column of a row writes o[i, 0]: a conflict of the inner parallel.
  expect_conflict(*m, {{"x", x}, {"y", y}, {"o", o}, {"ci", idx(1)}, {"cj", idx(0)}}, {},
                  {"op 'view.store'", "points (0) and (1) of the parallel at t.kir:19:5", "both write view %o element (0, 0)"});
  // Every row writes o[0, j]: each inner parallel is clean, the outer one conflicts.
  expect_conflict(*m, {{"x", x}, {"y", y}, {"o", o}, {"ci", idx(0)}, {"cj", idx(1)}}, {},
                  {"op 'view.store'", "points (0) and (1) of the parallel at t.kir:10:3", "both write view %o element (0, 0)"});
}

// Every point adds to one counter atomically, records the counter value it saw (its position in
// the execution order) and scatter-adds its value into one bin: no conflict under any order.
static const char* kAtomicKernel = R"(
fn @add_i32(%a: i32, %b: i32) -> i32 {
  %s = add(%a, %b) : i32
  return(%s)
}

kernel @k(%v: In<i32[N]>, %cnt: InOut<i32[2]>, %seen: Out<i32[N]>, %bins: InOut<i32[1]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%v) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %x = view.load(%v, %ri) : i32
    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %tot = atomic.rmw(%cnt, %r1, %x) {kind = add, order = relaxed} : i32
    view.store(%seen, %ri, %old)
    scatter_reduce(%bins, %r0, %x) {combine = @add_i32}
    yield()
  }
}
)";

TEST_CASE("[L5.1] atomics and scatter_reduce combine points without conflict under every order", "[interp][L5.1][L16.1]") {
  auto m = load(kAtomicKernel);
  std::vector<std::vector<double>> seen_by_order;
  for (const auto& opts : kOrders) {
    auto v = view(DType::I32, {8}, {1, -2, 3, 40, 5, 6, -7, 100});
    auto cnt = view(DType::I32, {2}, {0, 0});
    auto seen = view(DType::I32, {8});
    auto bins = view(DType::I32, {1}, {1000});
    interp::Interpreter(*m, opts).run_kernel("k", {{"v", v}, {"cnt", cnt}, {"seen", seen}, {"bins", bins}});
    CHECK(values(cnt) == std::vector<double>{8, 146});
    CHECK(values(bins) == std::vector<double>{1146});
    seen_by_order.push_back(values(seen));
  }
  // The orders really differ: canonical sees 0..7, reverse 7..0, a shuffle something else.
  CHECK(seen_by_order[0] == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(seen_by_order[1] == std::vector<double>{7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(seen_by_order[2] != seen_by_order[0]);
  CHECK(seen_by_order[2] != seen_by_order[1]);
  CHECK(seen_by_order[2] != seen_by_order[3]);
  auto sorted = seen_by_order[2];
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == seen_by_order[0]);
}

TEST_CASE("[L5.1] a conflict-free kernel gives identical results under canonical, reverse and shuffled order",
          "[interp][L5.1]") {
  // Point i: o[i] = x[i] * x[i] + x[n-1-i] (reads shared, writes disjoint), with a for carry inside.
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %last = sub(%n, %c1) : index
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %a = view.load(%x, %ri) : f32
    %j = sub(%last, %i) : index
    %rj = relation(%j) : relation<1 -> []>
    %b = view.load(%x, %rj) : f32
    %sq = mul(%a, %a) : f32
    %s = add(%sq, %b) : f32
    view.store(%o, %ri, %s)
    yield()
  }
}
)");
  std::vector<std::vector<double>> results;
  for (const auto& opts : kOrders) {
    auto x = view(DType::F32, {7}, {0.5, -1.25, 3, 1e-3, 7.75, -2, 0.1});
    auto o = view(DType::F32, {7});
    interp::Interpreter(*m, opts).run_kernel("k", {{"x", x}, {"o", o}});
    results.push_back(values(o));
  }
  for (size_t i = 1; i < results.size(); ++i) CHECK(results[i] == results[0]);
  CHECK(results[0][0] == Approx(0.25 + 0.1));
}
