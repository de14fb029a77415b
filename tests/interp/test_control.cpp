// Structured control: for with carries in logical order, break/continue, while, if, parallel in
// canonical order, helper calls with constexpr arguments and enums.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

TEST_CASE("[L6.1] [L6.2] for carries in logical order; break and continue carry values", "[interp][L6.1][L6.2]") {
  // Sum of the non-negative prefix elements, stopping once the sum exceeds %lim.
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[1]>, %lim: f32) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %z = const() {value = 0.0} : f32
  %tot = for(%d, %z) : f32 region(%j: index, %carry: f32) {
    %r = relation(%j) : relation<1 -> []>
    %e = view.load(%x, %r) : f32
    %neg = cmp(%e, %z) {pred = lt} : bool
    %next = if(%neg) : f32 region() {
      continue(%carry)
    } region() {
      %s = add(%carry, %e) : f32
      yield(%s)
    }
    %big = cmp(%next, %lim) {pred = gt} : bool
    if(%big) region() {
      break(%next)
    } region() {
      yield()
    }
    yield(%next)
  }
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%o, %r0, %tot)
}
)");
  auto x = view(DType::F32, {6}, {1, -5, 2, 4, 100, 1000});
  auto o = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"lim", f32(5)}});
  CHECK(values(o)[0] == 7.0);  // 1 + 2 + 4 = 7 > 5: break after index 3
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"lim", f32(1e9)}});
  CHECK(values(o)[0] == 1107.0);
}

TEST_CASE("[L3.2] [L6.1] while loop and a reverse order written with a forward counter", "[interp][L6.1][L3.2]") {
  auto m = load(R"(
kernel @k(%x: In<i32[N]>, %o: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  for(%d) region(%k: index) {
    %t = sub(%n, %c1) : index
    %i = sub(%t, %k) : index
    %ri = relation(%i) : relation<1 -> []>
    %rk = relation(%k) : relation<1 -> []>
    %v = view.load(%x, %ri) : i32
    view.store(%o, %rk, %v)
    yield()
  }
  %count = while(%c0) : index region(%a: index) {
    %more = cmp(%a, %n) {pred = lt} : bool
    condition(%more, %a)
  } region(%b: index) {
    %b1 = add(%b, %c1) : index
    yield(%b1)
  }
}
)");
  auto x = view(DType::I32, {4}, {1, 2, 3, 4});
  auto o = view(DType::I32, {4});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}});
  CHECK(values(o) == std::vector<double>{4, 3, 2, 1});
}

TEST_CASE("[L5.1] parallel runs every point once", "[interp][L5.1]") {
  auto m = load(R"(
kernel @k(%o: Out<index[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%o) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %r = relation(%i) : relation<1 -> []>
    %sq = mul(%i, %i) : index
    view.store(%o, %r, %sq)
    yield()
  }
}
)");
  auto o = view(DType::Index, {5});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}});
  CHECK(values(o) == std::vector<double>{0, 1, 4, 9, 16});
}

TEST_CASE("[L1.4] [L2.5] [L2.6] helper calls with constexpr and enum specialization", "[interp][L1.4][L2.5][L2.6]") {
  auto m = load(R"(
enum @Mode { causal = 0, full = 1 }

fn @scale(%x: f32, %s: f32, constexpr %twice: bool = false) -> f32 {
  %y = mul(%x, %s) : f32
  %r = if(%twice) : f32 region() {
    %y2 = add(%y, %y) : f32
    yield(%y2)
  } region() {
    yield(%y)
  }
  return(%r)
}

kernel @k(%o: Out<f32[1]>, %s: f32, constexpr %twice: bool, constexpr %mode: enum<@Mode> = @Mode::full) {
  %c0 = const() {value = 0} : index
  %r = relation(%c0) : relation<1 -> []>
  %three = const() {value = 3.0} : f32
  %v = call(%three, %s, %twice) {callee = @scale} : f32
  %causal = const() {value = @Mode::causal} : enum<@Mode>
  %is = cmp(%mode, %causal) {pred = eq} : bool
  %w = if(%is) : f32 region() {
    %z = const() {value = 0.0} : f32
    yield(%z)
  } region() {
    yield(%v)
  }
  view.store(%o, %r, %w)
}
)");
  auto o = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"s", f32(2)}, {"twice", num::make_bool(true)}});
  CHECK(values(o)[0] == 12.0);
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"s", f32(2)}, {"twice", num::make_bool(false)}});
  CHECK(values(o)[0] == 6.0);
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"s", f32(2)}, {"twice", num::make_bool(false)}, {"mode", interp::EnumArg{"causal"}}});
  CHECK(values(o)[0] == 0.0);
}

TEST_CASE("a runaway while is a step-limit error, not a hang", "[interp][L6.1]") {
  auto m = load(R"(
kernel @k(%o: Out<i32[1]>) {
  %t = const() {value = true} : bool
  %c0 = const() {value = 0} : index
  %x = while(%c0) : index region(%a: index) {
    condition(%t, %a)
  } region(%b: index) {
    yield(%b)
  }
}
)");
  interp::Options opts;
  opts.max_steps = 10000;
  interp::Interpreter it(*m, opts);
  auto o = view(DType::I32, {1});
  try {
    it.run_kernel("k", {{"o", o}});
    FAIL("expected the step limit");
  } catch (const interp::RuntimeError& e) {
    CHECK(e.kind() == interp::ErrorKind::Limit);
  }
}
