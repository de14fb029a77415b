// Atomic and plain accesses of one element by different points of a parallel (issue 11 items 1,
// 3 and 4b, checklist L5.1): the language orders atomics (atomic ops, scatter_reduce) only among
// themselves, so an atomic update by one point and a plain read or write of the same element by
// another (or an atomic load and a plain write) is a conflict, found under every schedule: the
// canonical, reverse and shuffled point orders and the interleaved atomics. Atomic with atomic,
// two reads, and a point mixing accesses of its own element stay legal. Also: aliasing views and
// buffers, unique_store against plain loads, and a unique_store indexed by atomic tickets.
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

interp::Options interleaved(uint64_t seed, int window = 8) {
  interp::Options o;
  o.atomic_schedule = interp::AtomicSchedule::Interleaved;
  o.atomic_seed = seed;
  o.atomic_window = window;
  return o;
}

struct Policy {
  const char* name;
  interp::Options opts;
};

// Every schedule a conflict must be found under.
const std::vector<Policy> kPolicies = {
    {"canonical", order(interp::ParallelOrder::Canonical)},
    {"reverse", order(interp::ParallelOrder::Reverse)},
    {"shuffle:1", order(interp::ParallelOrder::Shuffle, 1)},
    {"shuffle:42", order(interp::ParallelOrder::Shuffle, 42)},
    {"interleaved:0", interleaved(0)},
    {"interleaved:3", interleaved(3)},
    {"interleaved:5 window 1", interleaved(5, 1)},
};

// Runs kernel @k and returns the ParallelConflict message (fails the test on anything else).
std::string conflict(const Module& m, const std::map<std::string, interp::KernelArg>& args, const interp::Options& opts) {
  interp::Interpreter it(m, opts);
  try {
    it.run_kernel("k", args);
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == interp::ErrorKind::ParallelConflict);
    return e.what();
  }
  FAIL("expected a parallel-conflict error");
  return "";
}

bool has(const std::string& s, const std::string& fragment) { return s.find(fragment) != std::string::npos; }

// Point i atomically adds 1 to cnt[a[i]], then plainly reads cnt[b[i]] into out[i].
const char* kAtomicThenRead = R"(
kernel @k(%a: In<index[N]>, %b: In<index[N]>, %cnt: InOut<i32[4]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    %old = atomic.rmw(%cnt, %ra, %one) {kind = add, order = relaxed} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %seen = view.load(%cnt, %rb) : i32
    view.store(%out, %ri, %seen)
    yield()
  }
}
)";

}  // namespace

TEST_CASE("[L5.1] a point reading its own atomically updated element is legal under every schedule", "[interp][L5.1]") {
  auto m = load(kAtomicThenRead);
  for (const auto& p : kPolicies) {
    INFO(p.name);
    // Point i adds 1 to cnt[i] and then reads cnt[i]: nobody else touches it, so it sees its add.
    auto cnt = view(DType::I32, {4}, {10, 20, 30, 40});
    auto out = view(DType::I32, {4});
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"a", view(DType::Index, {4}, {0, 1, 2, 3})}, {"b", view(DType::Index, {4}, {0, 1, 2, 3})},
                          {"cnt", cnt}, {"out", out}});
    CHECK(values(cnt) == std::vector<double>{11, 21, 31, 41});
    CHECK(values(out) == std::vector<double>{11, 21, 31, 41});
  }
}

TEST_CASE("[L5.1] an atomic update and a plain read of one element by two points is an error under every schedule",
          "[interp][L5.1]") {
  auto m = load(kAtomicThenRead);
  // Both points add to cnt[0]; point 0 reads cnt[1], point 1 reads cnt[0]: the value point 1
  // sees depends on whether point 0's add ran before its read.
  auto a = view(DType::Index, {2}, {0, 0});
  auto b = view(DType::Index, {2}, {1, 0});
  for (const auto& p : kPolicies) {
    INFO(p.name);
    const std::string w = conflict(*m, {{"a", a}, {"b", b}, {"cnt", view(DType::I32, {4})}, {"out", view(DType::I32, {2})}}, p.opts);
    CHECK(has(w, "view %cnt element (0)"));
    CHECK(has(w, "of the parallel at t.kir:7:3"));
    // Whichever access comes second reports the first one with its location.
    CHECK((has(w, "point (0) atomically updates and point (1) plainly reads") ||
           has(w, "point (1) plainly reads and point (0) atomically updates")));
    CHECK((has(w, "(the atomic update is op 'atomic.rmw' at t.kir:11:5)") ||
           has(w, "(the plain read is op 'view.load' at t.kir:14:5)")));
    CHECK(has(w, "atomic and plain accesses of one element by different points are unordered"));
  }
  // Canonical order: point 0's add comes first, point 1's plain read finds it.
  const std::string w =
      conflict(*m, {{"a", a}, {"b", b}, {"cnt", view(DType::I32, {4})}, {"out", view(DType::I32, {2})}}, {});
  CHECK(has(w, "op 'view.load'"));
  CHECK(has(w, "point (0) atomically updates and point (1) plainly reads view %cnt element (0) of the parallel at "
               "t.kir:7:3 (the atomic update is op 'atomic.rmw' at t.kir:11:5)"));
  // Reverse order: point 1 reads first, point 0's add finds the read.
  const std::string r = conflict(*m, {{"a", a}, {"b", b}, {"cnt", view(DType::I32, {4})}, {"out", view(DType::I32, {2})}},
                                 order(interp::ParallelOrder::Reverse));
  CHECK(has(r, "op 'atomic.rmw'"));
  CHECK(has(r, "point (1) plainly reads and point (0) atomically updates view %cnt element (0) of the parallel at "
               "t.kir:7:3 (the plain read is op 'view.load' at t.kir:14:5)"));
}

TEST_CASE("[L5.1] an atomic update and a plain write of one element by two points is an error under every schedule",
          "[interp][L5.1]") {
  // Point i atomically adds to cnt[a[i]] and plainly stores i to cnt[b[i]].
  auto m = load(R"(
kernel @k(%a: In<index[N]>, %b: In<index[N]>, %cnt: InOut<i32[4]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    %old = atomic.rmw(%cnt, %ra, %one) {kind = add, order = relaxed} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %ii = cast(%i) : i32
    view.store(%cnt, %rb, %ii)
    yield()
  }
}
)");
  // Legal: atomics on element 0 only, plain stores to elements 2 and 3.
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto cnt = view(DType::I32, {4}, {5, 0, 0, 0});
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"a", view(DType::Index, {2}, {0, 0})}, {"b", view(DType::Index, {2}, {2, 3})}, {"cnt", cnt}});
    CHECK(values(cnt) == std::vector<double>{7, 0, 0, 1});
  }
  // Point 1 plainly stores to cnt[0], which point 0 updates atomically.
  auto a = view(DType::Index, {2}, {0, 0});
  auto b = view(DType::Index, {2}, {2, 0});
  for (const auto& p : kPolicies) {
    INFO(p.name);
    const std::string w = conflict(*m, {{"a", a}, {"b", b}, {"cnt", view(DType::I32, {4})}}, p.opts);
    CHECK(has(w, "view %cnt element (0)"));
    CHECK((has(w, "point (0) atomically updates and point (1) plainly writes") ||
           has(w, "point (1) plainly writes and point (0) atomically updates")));
  }
  const std::string w = conflict(*m, {{"a", a}, {"b", b}, {"cnt", view(DType::I32, {4})}}, {});
  CHECK(has(w, "op 'view.store'"));
  CHECK(has(w, "point (0) atomically updates and point (1) plainly writes view %cnt element (0) of the parallel at "
               "t.kir:7:3 (the atomic update is op 'atomic.rmw' at t.kir:11:5)"));
}

TEST_CASE("[L5.1] an atomic load conflicts with a plain write by another point, not with a plain read", "[interp][L5.1]") {
  // Point i atomically loads y[a[i]] and plainly reads y[b[i]]; with %w it also stores to y[b[i]].
  const std::string head = R"(
kernel @k(%a: In<index[N]>, %b: In<index[N]>, %y: InOut<i32[4]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    %x = atomic.load(%y, %ra) {order = acquire} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %z = view.load(%y, %rb) : i32
    %s = add(%x, %z) : i32
)";
  auto reads = load(head + "    view.store(%out, %ri, %s)\n    yield()\n  }\n}\n");
  auto writes = load(head + "    view.store(%y, %rb, %s)\n    view.store(%out, %ri, %s)\n    yield()\n  }\n}\n");
  auto a = view(DType::Index, {2}, {0, 0});
  auto b = view(DType::Index, {2}, {1, 0});
  for (const auto& p : kPolicies) {
    INFO(p.name);
    // Two reads of y[0] (one atomic, one plain) by points 0 and 1: legal; out = y[0] + y[b[i]].
    auto out = view(DType::I32, {2});
    interp::Interpreter(*reads, p.opts)
        .run_kernel("k", {{"a", a}, {"b", b}, {"y", view(DType::I32, {4}, {100, 7, 0, 0})}, {"out", out}});
    CHECK(values(out) == std::vector<double>{107, 200});
    // Point 1 plainly writes y[0], which point 0 loads atomically.
    const std::string w =
        conflict(*writes, {{"a", a}, {"b", b}, {"y", view(DType::I32, {4}, {100, 7, 0, 0})}, {"out", view(DType::I32, {2})}}, p.opts);
    CHECK(has(w, "view %y element (0)"));
    CHECK((has(w, "atomically loads and point (1) plainly writes") || has(w, "plainly writes and point (0) atomically loads")));
  }
}

TEST_CASE("[L5.1] scatter_reduce updates are atomic: legal with atomics, a conflict with plain reads of other points",
          "[interp][L5.1]") {
  // Point i scatter-adds v[i] into bins[a[i]], atomically adds 1 to bins[c[i]], and plainly reads
  // bins[b[i]].
  auto m = load(R"(
fn @add_i32(%x: i32, %y: i32) -> i32 {
  %s = add(%x, %y) : i32
  return(%s)
}

kernel @k(%v: In<i32[N]>, %a: In<index[N]>, %b: In<index[N]>, %c: In<index[N]>, %bins: InOut<i32[4]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%v) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %x = view.load(%v, %ri) : i32
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    scatter_reduce(%bins, %ra, %x) {combine = @add_i32}
    %tc = view.load(%c, %ri) : index
    %rc = relation(%tc) : relation<1 -> []>
    %old = atomic.rmw(%bins, %rc, %one) {kind = add, order = relaxed} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %seen = view.load(%bins, %rb) : i32
    view.store(%out, %ri, %seen)
    yield()
  }
}
)");
  auto v = view(DType::I32, {3}, {5, 6, 7});
  for (const auto& p : kPolicies) {
    INFO(p.name);
    // scatter_reduce and atomic.rmw of every point meet on bins[0]; the plain reads are of
    // bins[3], which nobody updates.
    auto bins = view(DType::I32, {4}, {0, 0, 0, 9});
    auto out = view(DType::I32, {3});
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"v", v}, {"a", view(DType::Index, {3}, {0, 0, 0})}, {"b", view(DType::Index, {3}, {3, 3, 3})},
                          {"c", view(DType::Index, {3}, {0, 0, 0})}, {"bins", bins}, {"out", out}});
    CHECK(values(bins) == std::vector<double>{21, 0, 0, 9});
    CHECK(values(out) == std::vector<double>{9, 9, 9});
    // Point 2 plainly reads bins[1], which point 1 scatter-reduces into.
    const std::string w = conflict(*m,
                                   {{"v", v}, {"a", view(DType::Index, {3}, {0, 1, 2})}, {"b", view(DType::Index, {3}, {3, 3, 1})},
                                    {"c", view(DType::Index, {3}, {0, 0, 0})}, {"bins", view(DType::I32, {4})}, {"out", view(DType::I32, {3})}},
                                   p.opts);
    CHECK(has(w, "view %bins element (1)"));
    CHECK((has(w, "point (1) atomically updates and point (2) plainly reads") ||
           has(w, "point (2) plainly reads and point (1) atomically updates")));
    CHECK((has(w, "op 'scatter_reduce' at t.kir:17:5") || has(w, "op 'view.load' at t.kir:23:5")));
  }
}

TEST_CASE("[L5.1] views aliasing one storage and buffers are tracked per storage element", "[interp][L5.1]") {
  // %acc and %peek are two views the host passes over the same storage: point i atomically adds
  // to acc[i] and plainly reads peek[b[i]].
  auto m = load(R"(
kernel @k(%b: In<index[N]>, %acc: InOut<i32[N]>, %peek: In<i32[N]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%b) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %old = atomic.rmw(%acc, %ri, %one) {kind = add, order = relaxed} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %seen = view.load(%peek, %rb) : i32
    view.store(%out, %ri, %seen)
    yield()
  }
}
)");
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto shared = view(DType::I32, {3}, {1, 2, 3});
    auto out = view(DType::I32, {3});
    // Each point reads its own element through the alias: legal.
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"b", view(DType::Index, {3}, {0, 1, 2})}, {"acc", shared}, {"peek", shared}, {"out", out}});
    CHECK(values(out) == std::vector<double>{2, 3, 4});
    // Point 0 reads peek[1], the storage element point 1 updates through acc.
    auto shared2 = view(DType::I32, {3}, {1, 2, 3});
    const std::string w = conflict(*m, {{"b", view(DType::Index, {3}, {1, 1, 2})}, {"acc", shared2}, {"peek", shared2}, {"out", view(DType::I32, {3})}},
                                   p.opts);
    CHECK((has(w, "point (1) atomically updates and point (0) plainly reads view %peek element (1)") ||
           has(w, "point (0) plainly reads and point (1) atomically updates view %acc element (1)")));
  }
  // A buffer allocated outside the parallel is shared by the points like a view: point i
  // atomically adds to buf[a[i]] and plainly reads buf[b[i]].
  auto mb = load(R"(
kernel @k(%a: In<index[N]>, %b: In<index[N]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %one = const() {value = 1} : i32
  %z = const() {value = 0} : i32
  %buf = buffer.alloc(%z) : buffer<i32[4]>
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    %old = atomic.rmw(%buf, %ra, %one) {kind = add, order = relaxed} : i32
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %seen = buffer.load(%buf, %rb) : i32
    view.store(%out, %ri, %seen)
    yield()
  }
}
)");
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto out = view(DType::I32, {2});
    interp::Interpreter(*mb, p.opts)
        .run_kernel("k", {{"a", view(DType::Index, {2}, {0, 0})}, {"b", view(DType::Index, {2}, {3, 3})}, {"out", out}});
    CHECK(values(out) == std::vector<double>{0, 0});
    const std::string w = conflict(*mb, {{"a", view(DType::Index, {2}, {0, 0})}, {"b", view(DType::Index, {2}, {3, 0})}, {"out", view(DType::I32, {2})}},
                                   p.opts);
    CHECK(has(w, "buffer %buf element (0)"));
    CHECK((has(w, "point (0) atomically updates and point (1) plainly reads") ||
           has(w, "point (1) plainly reads and point (0) atomically updates")));
  }
}

TEST_CASE("[L5.1] a unique_store and a plain load of its element by another point conflict under every schedule",
          "[interp][L5.1]") {
  // Point i stores i to y[a[i]] with unique_store and reads y[b[i]].
  auto m = load(R"(
kernel @k(%a: In<index[N]>, %b: In<index[N]>, %y: InOut<i32[4]>, %out: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %ta = view.load(%a, %ri) : index
    %ra = relation(%ta) : relation<1 -> []>
    %ii = cast(%i) : i32
    unique_store(%y, %ra, %ii)
    %tb = view.load(%b, %ri) : index
    %rb = relation(%tb) : relation<1 -> []>
    %seen = view.load(%y, %rb) : i32
    view.store(%out, %ri, %seen)
    yield()
  }
}
)");
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto y = view(DType::I32, {4}, {9, 9, 9, 9});
    auto out = view(DType::I32, {2});
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"a", view(DType::Index, {2}, {1, 2})}, {"b", view(DType::Index, {2}, {1, 3})}, {"y", y}, {"out", out}});
    CHECK(values(y) == std::vector<double>{9, 0, 1, 9});
    CHECK(values(out) == std::vector<double>{0, 9});
    const std::string w = conflict(*m, {{"a", view(DType::Index, {2}, {1, 2})}, {"b", view(DType::Index, {2}, {2, 3})},
                                        {"y", view(DType::I32, {4})}, {"out", view(DType::I32, {2})}},
                                   p.opts);
    CHECK(has(w, "view %y element (2)"));
    CHECK((has(w, "point (0) reads and point (1) writes") || has(w, "point (1) writes and point (0) reads")));
  }
}

// Item 4b: every point takes a ticket from an atomic counter and stores its value at the ticket
// (a compaction): the verifier cannot prove two tickets equal, so the run time checks it.
static const char* kTicketStore = R"(
kernel @k(%v: In<f32[N]>, %cnt: InOut<i32[1]>, %y: Out<f32[N]>, %m: index) {
  %c0 = const() {value = 0} : index
  %n = dim(%v) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %x = view.load(%v, %ri) : f32
    %t = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %ti = cast(%t) : index
    %slot = rem(%ti, %m) : index
    %rt = relation(%slot) : relation<1 -> []>
    unique_store(%y, %rt, %x)
    yield()
  }
}
)";

TEST_CASE("[L5.1] a unique_store indexed by atomic tickets verifies and runs under every schedule", "[interp][L5.1]") {
  auto m = load(kTicketStore);  // verifies: the tickets are not provably equal
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto cnt = view(DType::I32, {1}, {0});
    auto y = view(DType::F32, {4});
    // %m = 4: slot = ticket, tickets 0..3 are distinct, every slot written once.
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"v", view(DType::F32, {4}, {1.5, 2.5, 3.5, 4.5})}, {"cnt", cnt}, {"y", y}, {"m", idx(4)}});
    CHECK(values(cnt) == std::vector<double>{4});
    auto got = values(y);
    std::sort(got.begin(), got.end());
    CHECK(got == std::vector<double>{1.5, 2.5, 3.5, 4.5});
  }
  // Canonical order: point i takes ticket i (y = v); reverse: point 3 takes ticket 0 (y = v reversed).
  auto y = view(DType::F32, {4});
  interp::Interpreter(*m).run_kernel(
      "k", {{"v", view(DType::F32, {4}, {1.5, 2.5, 3.5, 4.5})}, {"cnt", view(DType::I32, {1}, {0})}, {"y", y}, {"m", idx(4)}});
  CHECK(values(y) == std::vector<double>{1.5, 2.5, 3.5, 4.5});
  interp::Interpreter(*m, order(interp::ParallelOrder::Reverse))
      .run_kernel("k", {{"v", view(DType::F32, {4}, {1.5, 2.5, 3.5, 4.5})}, {"cnt", view(DType::I32, {1}, {0})}, {"y", y}, {"m", idx(4)}});
  CHECK(values(y) == std::vector<double>{4.5, 3.5, 2.5, 1.5});
}

TEST_CASE("[L5.1] ticket-indexed unique_stores that collide are a run-time error under every schedule", "[interp][L5.1]") {
  auto m = load(kTicketStore);
  for (const auto& p : kPolicies) {
    INFO(p.name);
    // %m = 2: tickets 0 and 2 (and 1 and 3) share a slot: two points write one element.
    const std::string w = conflict(
        *m, {{"v", view(DType::F32, {4}, {1.5, 2.5, 3.5, 4.5})}, {"cnt", view(DType::I32, {1}, {0})}, {"y", view(DType::F32, {4})}, {"m", idx(2)}},
        p.opts);
    CHECK(has(w, "op 'unique_store'"));
    CHECK((has(w, "both write view %y element (0)") || has(w, "both write view %y element (1)")));
    CHECK(has(w, "of the parallel at t.kir:8:3"));
  }
}

TEST_CASE("[L5.1] histogram and random ops inside a parallel have no memory effect: same results under every schedule",
          "[interp][L5.1][L13.1][L17.1]") {
  // Point i: h[i, :] = histogram of row x[i, :] into 4 bins (a new tensor, no shared memory);
  // bits[i] = random.bits(seed, i), a pure function of seed and counter. ref = the same bits
  // drawn outside the parallel for all counters at once.
  auto m = load(R"(
kernel @k(%x: In<i32[R, 4]>, %seed: u64, %h: Out<u32[R, 4]>, %bits: Out<u32[R]>, %ref: Out<u32[R]>) {
  %c0 = const() {value = 0} : index
  %c4 = const() {value = 4} : index
  %r = dim(%x) {axis = 0} : index
  %dr = domain(%c0, %r) : domain<R>
  %d4 = domain(%c0, %c4) : domain<4>
  %i4 = indices(%d4) : index[4]
  %yes = const() {value = true} : bool
  parallel(%dr) region(%i: index) {
    %ib = broadcast(%i) {dims = []} : index[4]
    %row = relation(%ib, %i4) : relation<2 -> [4]>
    %vals = view.load(%x, %row) : i32[4]
    %hist = histogram(%vals, %c4, %yes) : u32[4]
    view.store(%h, %row, %hist)
    %ctr = cast(%i) : u64
    %b = random.bits(%seed, %ctr) : u32
    %ri = relation(%i) : relation<1 -> []>
    view.store(%bits, %ri, %b)
    yield()
  }
  %ir = indices(%dr) : index[R]
  %all = relation(%ir) : relation<1 -> [R]>
  %ctrs = cast(%ir) : u64[R]
  %rb = random.bits(%seed, %ctrs) : u32[R]
  view.store(%ref, %all, %rb)
}
)");
  auto x = view(DType::I32, {3, 4}, {0, 1, 1, 3, 2, 2, 2, 2, 3, 0, 3, 1});
  std::vector<double> first_bits;
  for (const auto& p : kPolicies) {
    INFO(p.name);
    auto h = view(DType::U32, {3, 4}), bits = view(DType::U32, {3}), ref = view(DType::U32, {3});
    interp::Interpreter(*m, p.opts)
        .run_kernel("k", {{"x", x}, {"seed", interp::Scalar{DType::U64, 12345}}, {"h", h}, {"bits", bits}, {"ref", ref}});
    CHECK(values(h) == std::vector<double>{1, 2, 0, 1, 0, 0, 4, 0, 1, 1, 0, 2});
    CHECK(values(bits) == values(ref));
    if (first_bits.empty()) first_bits = values(bits);
    CHECK(values(bits) == first_bits);
  }
  CHECK(first_bits[0] != first_bits[1]);  // different counters, different bits
}
