// Atomics interleaved at atomic-op granularity under a seeded scheduler (issue 4 item 3,
// checklist L16.1, L5.1): results that depend on the interleaving are permutations of the
// sequential ones (checked by sorting), differ between seeds, repeat for one seed; a point can be
// interrupted between two of its own atomics; a compare-exchange retry loop terminates and counts
// right; conflict tracking follows the running point; an error in one point is reported as in
// sequential order.
#include <algorithm>
#include <numeric>

#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

interp::Options interleaved(uint64_t seed, int window = 8) {
  interp::Options o;
  o.atomic_schedule = interp::AtomicSchedule::Interleaved;
  o.atomic_seed = seed;
  o.atomic_window = window;
  return o;
}

std::vector<double> iota(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Point i: first = atomic add 1 on cnt[0] (the old value), then second = another atomic add 1;
// both old values stored to first[i], second[i]. A plain write of out[i] before the atomics and a
// read of it after them checks that the point's own accesses stay its own across switches.
const char* kTicketKernel = R"(
kernel @k(%cnt: InOut<i32[1]>, %first: Out<i32[N]>, %second: Out<i32[N]>, %scratch: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%first) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ii = cast(%i) : i32
    view.store(%scratch, %ri, %ii)
    %a = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %b = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %back = view.load(%scratch, %ri) : i32
    view.store(%first, %ri, %a)
    view.store(%second, %ri, %b)
    yield()
  }
}
)";

struct Tickets {
  std::vector<double> first, second, cnt;
};

Tickets run_tickets(const Module& m, int64_t n, const interp::Options& opts) {
  auto cnt = view(DType::I32, {1}, {0});
  auto first = view(DType::I32, {n}), second = view(DType::I32, {n}), scratch = view(DType::I32, {n});
  interp::Interpreter(m, opts).run_kernel("k", {{"cnt", cnt}, {"first", first}, {"second", second}, {"scratch", scratch}});
  return {values(first), values(second), values(cnt)};
}

}  // namespace

TEST_CASE("[L16.1] sequential schedule: every point's two atomics run back to back in canonical order", "[interp][L16.1][L5.1]") {
  auto m = load(kTicketKernel);
  auto t = run_tickets(*m, 6, {});
  // Point i runs alone: its adds see 2i and 2i + 1.
  CHECK(t.first == std::vector<double>{0, 2, 4, 6, 8, 10});
  CHECK(t.second == std::vector<double>{1, 3, 5, 7, 9, 11});
  CHECK(t.cnt == std::vector<double>{12});
}

TEST_CASE("[L16.1] interleaved schedule: every seed gives a permutation of the tickets and the full count",
          "[interp][L16.1][L5.1]") {
  auto m = load(kTicketKernel);
  const int64_t n = 12;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    auto t = run_tickets(*m, n, interleaved(seed));
    INFO("seed " << seed);
    // 2n adds on one counter: the old values seen are exactly 0 .. 2n-1, in some order.
    std::vector<double> all = t.first;
    all.insert(all.end(), t.second.begin(), t.second.end());
    CHECK(sorted(all) == iota(2 * n));
    CHECK(t.cnt == std::vector<double>{static_cast<double>(2 * n)});
    // Each point's second add comes after its first.
    for (int64_t i = 0; i < n; ++i) CHECK(t.second[static_cast<size_t>(i)] > t.first[static_cast<size_t>(i)]);
  }
}

TEST_CASE("[L16.1] interleaved schedule: seeds differ, one seed repeats, points are interrupted between their atomics",
          "[interp][L16.1][L5.1]") {
  auto m = load(kTicketKernel);
  const int64_t n = 12;
  const auto canonical = run_tickets(*m, n, {});
  const auto a = run_tickets(*m, n, interleaved(5));
  const auto again = run_tickets(*m, n, interleaved(5));
  CHECK(a.first == again.first);
  CHECK(a.second == again.second);
  int differing_seeds = 0, interrupted = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto t = run_tickets(*m, n, interleaved(seed));
    differing_seeds += t.first != canonical.first;
    for (int64_t i = 0; i < n; ++i) interrupted += t.second[static_cast<size_t>(i)] != t.first[static_cast<size_t>(i)] + 1;
  }
  CHECK(differing_seeds == 4);
  // A point switched out between its two atomics sees someone else's add in between: no order
  // of whole points (canonical, reverse, shuffle) can produce that.
  CHECK(interrupted > 0);
  // Two seeds give different interleavings.
  CHECK(run_tickets(*m, n, interleaved(1)).first != run_tickets(*m, n, interleaved(2)).first);
}

TEST_CASE("[L16.1] interleaved schedule: a window of 8 live points runs a parallel of 2000 points", "[interp][L16.1][L5.1]") {
  auto m = load(kTicketKernel);
  const int64_t n = 2000;
  auto t = run_tickets(*m, n, interleaved(11));
  std::vector<double> all = t.first;
  all.insert(all.end(), t.second.begin(), t.second.end());
  CHECK(sorted(all) == iota(2 * n));
  // A window of one is the seeded point order without interleaving inside a point.
  auto w1 = run_tickets(*m, 50, interleaved(3, 1));
  for (size_t i = 0; i < 50; ++i) CHECK(w1.second[i] == w1.first[i] + 1);
  CHECK(w1.first != run_tickets(*m, 50, {}).first);
}

TEST_CASE("[L16.1] interleaved schedule: a compare-exchange retry loop terminates and counts every point once",
          "[interp][L16.1][L5.1]") {
  // Lock-free increment: load c, CAS(c, c + 1), retry on failure; tries[0] counts every CAS.
  auto m = load(R"(
kernel @k(%cnt: InOut<i32[1]>, %tries: InOut<i32[1]>, %n: index) {
  %c0 = const() {value = 0} : index
  %d = domain(%c0, %n) : domain<%n>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  %no = const() {value = false} : bool
  parallel(%d) region(%i: index) {
    %done = while(%no) : bool region(%ok: bool) {
      %more = not(%ok) : bool
      condition(%more, %ok)
    } region(%prev: bool) {
      %cur = atomic.load(%cnt, %r0) {order = acquire} : i32
      %nx = add(%cur, %one) : i32
      %res = atomic.compare_exchange(%cnt, %r0, %cur, %nx) {order = acq_rel} : record<old_value: i32, success: bool>
      %t = atomic.rmw(%tries, %r0, %one) {kind = add, order = relaxed} : i32
      %s = record.get(%res) {field = success} : bool
      yield(%s)
    }
    yield()
  }
}
)");
  int64_t retried = 0;
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{3}}) {
    auto cnt = view(DType::I32, {1}, {0});
    auto tries = view(DType::I32, {1}, {0});
    interp::Interpreter(*m, interleaved(seed)).run_kernel("k", {{"cnt", cnt}, {"tries", tries}, {"n", idx(16)}});
    INFO("seed " << seed);
    CHECK(values(cnt) == std::vector<double>{16});
    CHECK(values(tries)[0] >= 16);
    retried += static_cast<int64_t>(values(tries)[0]) - 16;
  }
  CHECK(retried > 0);  // the interleaving made some CAS fail and retry
  // Sequentially no CAS ever fails.
  auto cnt = view(DType::I32, {1}, {0});
  auto tries = view(DType::I32, {1}, {0});
  interp::Interpreter(*m).run_kernel("k", {{"cnt", cnt}, {"tries", tries}, {"n", idx(16)}});
  CHECK(values(tries) == std::vector<double>{16});
}

TEST_CASE("[L16.1] interleaved schedule: an error in one point names op, location and coordinates as sequentially",
          "[interp][L16.1][L5.1]") {
  // Point i adds to cnt[dst[i]]; dst[5] = 9 is outside cnt.
  auto m = load(R"(
kernel @k(%dst: In<index[N]>, %cnt: InOut<i32[4]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%dst) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %t = view.load(%dst, %ri) : index
    %rt = relation(%t) : relation<1 -> []>
    %a = atomic.rmw(%cnt, %rt, %one) {kind = add, order = relaxed} : i32
    %b = atomic.rmw(%cnt, %rt, %one) {kind = add, order = relaxed} : i32
    yield()
  }
}
)");
  auto dst = view(DType::Index, {8}, {0, 1, 2, 3, 0, 9, 1, 2});
  std::string sequential;
  try {
    interp::Interpreter(*m).run_kernel("k", {{"dst", dst}, {"cnt", view(DType::I32, {4})}});
  } catch (const interp::RuntimeError& e) {
    sequential = e.what();
  }
  REQUIRE(!sequential.empty());
  for (uint64_t seed : {uint64_t{0}, uint64_t{7}}) {
    auto cnt = view(DType::I32, {4});
    try {
      interp::Interpreter(*m, interleaved(seed)).run_kernel("k", {{"dst", dst}, {"cnt", cnt}});
      FAIL("expected an out-of-bounds error");
    } catch (const interp::RuntimeError& e) {
      CHECK(e.kind() == interp::ErrorKind::OutOfBounds);
      CHECK(std::string(e.what()) == sequential);
      CHECK(e.op() == "atomic.rmw");
      CHECK(e.location() == "t.kir:11:5");
      CHECK(std::string(e.what()).find("source coordinate (9)") != std::string::npos);
    }
  }
}

TEST_CASE("[L5.1] interleaved schedule: conflicts between points are still found, with both points", "[interp][L5.1][L16.1]") {
  // Point i takes a ticket, then writes y[dst[i]]: dst[1] == dst[3] is a write-write conflict.
  auto m = load(R"(
kernel @k(%dst: In<index[N]>, %cnt: InOut<i32[1]>, %y: Out<i32[8]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%dst) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %t = view.load(%dst, %ri) : index
    %a = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %rt = relation(%t) : relation<1 -> []>
    view.store(%y, %rt, %a)
    yield()
  }
}
)");
  auto ok = view(DType::Index, {4}, {3, 1, 0, 2});
  auto y = view(DType::I32, {8});
  interp::Interpreter(*m, interleaved(4)).run_kernel("k", {{"dst", ok}, {"cnt", view(DType::I32, {1})}, {"y", y}});
  auto got = values(y);
  CHECK(sorted({got[0], got[1], got[2], got[3]}) == iota(4));
  auto bad = view(DType::Index, {4}, {0, 5, 2, 5});
  try {
    interp::Interpreter(*m, interleaved(4)).run_kernel("k", {{"dst", bad}, {"cnt", view(DType::I32, {1})}, {"y", view(DType::I32, {8})}});
    FAIL("expected a parallel conflict");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == interp::ErrorKind::ParallelConflict);
    const std::string w = e.what();
    CHECK((w.find("points (1) and (3)") != std::string::npos || w.find("points (3) and (1)") != std::string::npos));
    CHECK(w.find("both write view %y element (5)") != std::string::npos);
  }
}

TEST_CASE("[L16.1] interleaved schedule: a nested parallel inside a point runs sequentially and keeps its atomics",
          "[interp][L16.1][L5.1]") {
  // Outer point i, inner point j: ticket = atomic add on cnt[0]; seen[i, j] = ticket.
  auto m = load(R"(
kernel @k(%cnt: InOut<i32[1]>, %seen: Out<i32[R, C]>) {
  %c0 = const() {value = 0} : index
  %nr = dim(%seen) {axis = 0} : index
  %nc = dim(%seen) {axis = 1} : index
  %dr = domain(%c0, %nr) : domain<R>
  %dc = domain(%c0, %nc) : domain<C>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%dr) region(%i: index) {
    parallel(%dc) region(%j: index) {
      %a = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
      %rij = relation(%i, %j) : relation<2 -> []>
      view.store(%seen, %rij, %a)
      yield()
    }
    yield()
  }
}
)");
  auto cnt = view(DType::I32, {1}, {0});
  auto seen = view(DType::I32, {3, 4});
  interp::Interpreter(*m, interleaved(9)).run_kernel("k", {{"cnt", cnt}, {"seen", seen}});
  CHECK(values(cnt) == std::vector<double>{12});
  CHECK(sorted(values(seen)) == iota(12));
  // Inside one outer point the inner points run in canonical order: increasing tickets per row.
  auto s = values(seen);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 1; j < 4; ++j) CHECK(s[i * 4 + j] > s[i * 4 + j - 1]);
}
