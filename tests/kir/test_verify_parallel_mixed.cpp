// Static L5.1 rules for atomic and plain accesses inside a parallel (issue 11 items 1 and 4b):
// what the verifier must reject (provable conflicts, the fixtures in tests/kir/invalid/) and what
// it must accept because no conflict is provable (the interpreter checks those at run time).
#include <catch2/catch.hpp>

#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

using namespace kir;

namespace {

Diagnostics verify_text(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  verify_module(*m, d);
  return d;
}

// A kernel whose parallel body is `body` (point %i over [0, N), or over [1, N) with `from_one`).
std::string kernel(const std::string& body, bool from_one = false) {
  return R"(
kernel @k(%a: In<index[N]>, %cnt: InOut<i32[N]>, %y: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%a) {axis = 0} : index
)" + std::string(from_one ? "  %d = domain(%c1, %n) : domain<N - 1>\n" : "  %d = domain(%c0, %n) : domain<N>\n") + R"(
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
)" + body + R"(    yield()
  }
}
)";
}

void accepted(const std::string& body, bool from_one = false) {
  const std::string text = kernel(body, from_one);
  auto d = verify_text(text);
  INFO(text << "\n" << d.render(text));
  CHECK_FALSE(d.has_errors());
}

void rejected(const std::string& body, const std::string& fragment) {
  const std::string text = kernel(body);
  auto d = verify_text(text);
  INFO(text << "\n" << d.render(text));
  CHECK(d.contains("L5.1", fragment));
}

}  // namespace

TEST_CASE("[L5.1] a unique_store at an atomic ticket is accepted: tickets are not provably equal", "[L5.1]") {
  accepted(R"(    %t = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %ti = cast(%t) : index
    %rt = relation(%ti) : relation<1 -> []>
    unique_store(%y, %rt, %one)
)");
  // Through arithmetic on the ticket, and through a plain store as well.
  accepted(R"(    %t = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %ti = cast(%t) : index
    %t2 = add(%ti, %c1) : index
    %rt = relation(%t2) : relation<1 -> []>
    view.store(%y, %rt, %one)
)");
}

TEST_CASE("[L5.1] a value loaded from memory the body writes is point-dependent", "[L5.1]") {
  // A buffer allocated by the point holds its coordinate: the load gives every point its own.
  accepted(R"(    %buf = buffer.alloc() : buffer<index[1]>
    buffer.store(%buf, %r0, %i)
    %back = buffer.load(%buf, %r0) : index
    %rb = relation(%back) : relation<1 -> []>
    view.store(%y, %rb, %one)
)");
}

TEST_CASE("[L5.1] a unique_store whose index is provably the same for every point is rejected", "[L5.1]") {
  rejected(R"(    %k = mul(%i, %c0) : index
    %rk = relation(%k) : relation<1 -> []>
    unique_store(%y, %rk, %one)
)",
           "write-write conflict inside parallel");
  rejected(R"(    %t = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %ti = cast(%t) : index
    %z = mul(%ti, %c0) : index
    %rk = relation(%z) : relation<1 -> []>
    unique_store(%y, %rk, %one)
)",
           "write-write conflict inside parallel");
  // i - i + 1: constant.
  rejected(R"(    %k = sub(%i, %i) : index
    %k1 = add(%k, %c1) : index
    %rk = relation(%k1) : relation<1 -> []>
    view.store(%y, %rk, %one)
)",
           "every point stores to the same locations of %y");
  // 2 * i - i - i: affine with coefficient 0.
  rejected(R"(    %c2 = const() {value = 2} : index
    %k = mul(%c2, %i) : index
    %k1 = sub(%k, %i) : index
    %k2 = sub(%k1, %i) : index
    %rk = relation(%k2) : relation<1 -> []>
    view.store(%y, %rk, %one)
)",
           "every point stores to the same locations of %y");
  // 2 * i - i = i: injective, accepted.
  accepted(R"(    %c2 = const() {value = 2} : index
    %k = mul(%c2, %i) : index
    %k1 = sub(%k, %i) : index
    %rk = relation(%k1) : relation<1 -> []>
    unique_store(%y, %rk, %one)
)");
}

TEST_CASE("[L5.1] an atomic and a plain access provably touching one element for two points are rejected", "[L5.1]") {
  // Every point updates cnt[0] atomically and reads it plainly (one relation, or two equal ones).
  rejected(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %now = view.load(%cnt, %r0) : i32
)",
           "atomic-plain conflict inside parallel: every point atomically updates the same locations of %cnt");
  rejected(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %z = const() {value = 0} : index
    %rz = relation(%z) : relation<1 -> []>
    %now = view.load(%cnt, %rz) : i32
)",
           "and reads them with a plain 'view.load'");
  // The same index, affine in the point with coefficient 0 (not injective): i * 0.
  rejected(R"(    %k = mul(%i, %c0) : index
    %rk = relation(%k) : relation<1 -> []>
    %old = atomic.rmw(%cnt, %rk, %one) {kind = add, order = relaxed} : i32
    %now = view.load(%cnt, %rk) : i32
)",
           "atomic-plain conflict inside parallel: every point atomically updates the same locations of %cnt");
  // A compare-exchange counts as an update even if it may fail.
  rejected(R"(    %z = const() {value = 0} : i32
    %res = atomic.compare_exchange(%cnt, %r0, %z, %one) {order = acq_rel} : record<old_value: i32, success: bool>
    %now = view.load(%cnt, %r0) : i32
)",
           "atomically updates the same locations of %cnt");
  // Point 0 stores cnt[0] plainly, every point updates it atomically.
  rejected(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    view.store(%cnt, %ri, %one)
)",
           "point (0) writes with a plain 'view.store' an element of %cnt that every point atomically updates");
  // Every point stores cnt[0] plainly: the plain write-write conflict is reported (once).
  rejected(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    view.store(%cnt, %r0, %one)
)",
           "write-write conflict inside parallel");
}

TEST_CASE("[L5.1] atomic and plain accesses that are not provably conflicting are accepted", "[L5.1]") {
  // Different elements: atomics on cnt[0], plain reads of cnt[1].
  accepted(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %r1 = relation(%c1) : relation<1 -> []>
    %now = view.load(%cnt, %r1) : i32
)");
  // Two reads: an atomic load and a plain load of cnt[0].
  accepted(R"(    %a0 = atomic.load(%cnt, %r0) {order = acquire} : i32
    %p0 = view.load(%cnt, %r0) : i32
)");
  // Each point its own element (injective in the point).
  accepted(R"(    %old = atomic.rmw(%cnt, %ri, %one) {kind = add, order = relaxed} : i32
    %now = view.load(%cnt, %ri) : i32
    view.store(%cnt, %ri, %now)
)");
  // The domain starts at 1: no point's coordinate reaches element 0.
  accepted(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    view.store(%cnt, %ri, %one)
)",
           true);
  // The plain read happens only at the point where the condition holds (point-dependent).
  accepted(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %first = cmp(%i, %c0) {pred = eq} : bool
    if(%first) region() {
      %now = view.load(%cnt, %r0) : i32
      yield()
    } region() {
      yield()
    }
)");
  // Data-dependent coordinates: left to the interpreter.
  accepted(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %t = view.load(%a, %ri) : index
    %rt = relation(%t) : relation<1 -> []>
    %now = view.load(%cnt, %rt) : i32
)");
  // Atomic with atomic: never a conflict.
  accepted(R"(    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %m = atomic.rmw(%cnt, %r0, %one) {kind = max, order = relaxed} : i32
    %l = atomic.load(%cnt, %r0) {order = acquire} : i32
)");
}
