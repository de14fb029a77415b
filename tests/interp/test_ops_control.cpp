// Ordered control at run time beyond test_control.cpp: carries keep their schema (L6.2) and
// structured break/continue in while loops and nested ifs (L6.3). Expected values are
// hand-computed.
#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

TEST_CASE("[L6.3] while with continue and break in nested ifs carries the right values", "[interp][L6.3]") {
  // Sum the non-negative elements from the start, skipping negatives (continue), stopping once
  // the sum exceeds %lim (break); the carry is (position, sum).
  auto m = load(R"(
kernel @k(%x: In<i32[N]>, %o: Out<i32[2]>, %lim: i32) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %z = const() {value = 0} : i32
  %pos, %sum = while(%c0, %z) : (index, i32) region(%p: index, %s: i32) {
    %more = cmp(%p, %n) {pred = lt} : bool
    condition(%more, %p, %s)
  } region(%q: index, %t: i32) {
    %next = add(%q, %c1) : index
    %r = relation(%q) : relation<1 -> []>
    %e = view.load(%x, %r) : i32
    %neg = cmp(%e, %z) {pred = lt} : bool
    if(%neg) region() {
      continue(%next, %t)
    } region() {
      yield()
    }
    %u = add(%t, %e) : i32
    %big = cmp(%u, %lim) {pred = gt} : bool
    if(%big) region() {
      %stop = cmp(%u, %u) {pred = eq} : bool
      if(%stop) region() {
        break(%next, %u)
      } region() {
        yield()
      }
      yield()
    } region() {
      yield()
    }
    yield(%next, %u)
  }
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %pi = cast(%pos) : i32
  view.store(%o, %r0, %pi)
  view.store(%o, %r1, %sum)
}
)");
  auto x = view(DType::I32, {6}, {2, -7, 3, 4, -1, 100});
  auto o = view(DType::I32, {2});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"lim", interp::Scalar{DType::I32, 6}}});
  // 2 (pos 1), skip -7 (pos 2), 5 (pos 3), 9 > 6: break with position 4.
  CHECK(values(o) == std::vector<double>{4, 9});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"lim", interp::Scalar{DType::I32, 1000}}});
  CHECK(values(o) == std::vector<double>{6, 109});  // no break: 2 + 3 + 4 + 100
}

TEST_CASE("[L6.2] a carry whose dynamic shape changes at run time is a located error", "[interp][L6.2]") {
  // The verifier rejects this program (init f32[%a] and yield f32[%b] are not provably equal);
  // the interpreter keeps the same check at run time for modules it is handed unverified, so the
  // shape mismatch is still reported with op and location instead of running on.
  const char* text = R"(
fn @f(%a: index, %b: index) -> f32[%a] {
  %c0 = const() {value = 0} : index
  %c2 = const() {value = 2} : index
  %d = domain(%c0, %c2) : domain<2>
  %z = const() {value = 0.0} : f32
  %init = full(%z) : f32[%a]
  %r = for(%d, %init) : f32[%a] region(%i: index, %c: f32[%a]) {
    %w = full(%z) : f32[%b]
    yield(%w)
  }
  return(%r)
}
)";
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  CHECK_FALSE(verify_module(*m, d));  // statically: carry 0 types differ (L6.2)
  interp::Interpreter it(*m);
  CHECK(it.call_helper("f", {idx(3), idx(3)})[0].tensor().shape == interp::Shape{3});  // equal at run time: fine
  try {
    it.call_helper("f", {idx(2), idx(3)});
    FAIL("expected a shape mismatch");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == interp::ErrorKind::ShapeMismatch);
    CHECK(e.op() == "for");
    CHECK(e.location() == "t.kir:8:3");
    CHECK(std::string(e.what()).find("carry 0 has shape [3] instead of [2]") != std::string::npos);
  }
}
