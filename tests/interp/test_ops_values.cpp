// Run-time meaning of definitions, parameters and value ops not covered by test_values.cpp:
// helper results, captures and coordinate provenance (L1.2, L1.3, L1.6), InOut and runtime
// scalars (L2.3, L2.4), implicit broadcast (L4.1), fdiv / exp2 / tanh modes (L4.4, L4.5), .shape
// (L4.8), full/zeros (L4.9), tuples and records as reduce accumulators and loop carries (L4.13). Expected values are hand-computed or come from the C
// library in double precision (rounded once to f32).
#include <cmath>
#include <cstring>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

uint32_t f32_bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

// Distance in ulps between two finite f32 of the same sign.
int64_t ulp_diff(uint64_t a, uint64_t b) { return std::llabs(static_cast<long long>(a) - static_cast<long long>(b)); }

}  // namespace

TEST_CASE("[L1.2] a helper returns a tensor, a tuple and a record", "[interp][L1.2]") {
  auto m = load(R"(
fn @twice(%x: f32[N]) -> f32[N] {
  %y = add(%x, %x) : f32[N]
  return(%y)
}

fn @pair(%a: f32, %b: f32) -> tuple<f32, f32> {
  %s = add(%a, %b) : f32
  %d = sub(%a, %b) : f32
  %t = tuple(%s, %d) : tuple<f32, f32>
  return(%t)
}

fn @rec(%a: f32, %b: f32) -> record<sum: f32, prod: f32> {
  %s = add(%a, %b) : f32
  %p = mul(%a, %b) : f32
  %r = record(%s, %p) : record<sum: f32, prod: f32>
  return(%r)
}

fn @f(%x: f32[N], %a: f32, %b: f32) -> (f32[N], tuple<f32, f32>, record<sum: f32, prod: f32>) {
  %t = call(%x) {callee = @twice} : f32[N]
  %p = call(%a, %b) {callee = @pair} : tuple<f32, f32>
  %r = call(%a, %b) {callee = @rec} : record<sum: f32, prod: f32>
  return(%t, %p, %r)
}
)");
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(tensor(DType::F32, {3}, {1, 2, 3})), f32(3), f32(5)});
  REQUIRE(r.size() == 3);
  CHECK(tvalues(r[0]) == std::vector<double>{2, 4, 6});
  CHECK(svalue(r[1].tuple().elems[0]) == 8);   // 3 + 5
  CHECK(svalue(r[1].tuple().elems[1]) == -2);  // 3 - 5
  CHECK(r[2].record().names == std::vector<std::string>{"sum", "prod"});
  CHECK(svalue(r[2].record().elems[0]) == 8);
  CHECK(svalue(r[2].record().elems[1]) == 15);
}

TEST_CASE("[L1.3] runtime captures are explicit parameters (a view, a scalar); constexpr selects the branch",
          "[interp][L1.3]") {
  auto m = load(R"(
fn @store_scaled(%o: Out<f32[N]>, %x: f32[N], %s: f32, constexpr %neg: bool) -> f32 {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %sb = broadcast(%s) {dims = []} : f32[N]
  %y = mul(%x, %sb) : f32[N]
  %z = if(%neg) : f32[N] region() {
    %ny = neg(%y) : f32[N]
    yield(%ny)
  } region() {
    yield(%y)
  }
  view.store(%o, %r, %z)
  return(%s)
}

kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>, %s: f32, constexpr %neg: bool) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : f32[N]
  %echo = call(%o, %v, %s, %neg) {callee = @store_scaled} : f32
}
)");
  auto x = view(DType::F32, {3}, {1, -2, 0.5});
  auto o = view(DType::F32, {3});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"s", f32(2)}, {"neg", num::make_bool(true)}});
  CHECK(values(o) == std::vector<double>{-2, 4, -1});  // -(x * 2)
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"s", f32(4)}, {"neg", num::make_bool(false)}});
  CHECK(values(o) == std::vector<double>{4, -8, 2});  // x * 4
}

TEST_CASE("[L2.3] InOut keeps its input contents; reads see earlier writes", "[interp][L2.3]") {
  auto m = load(R"(
kernel @k(%io: InOut<f32[4]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %r2 = relation(%c2) : relation<1 -> []>
  %r3 = relation(%c3) : relation<1 -> []>
  %a = view.load(%io, %r1) : f32
  %b = view.load(%io, %r3) : f32
  %s = add(%a, %b) : f32
  view.store(%io, %r0, %s)
  %t = view.load(%io, %r0) : f32
  %ten = const() {value = 10.0} : f32
  %u = mul(%t, %ten) : f32
  view.store(%io, %r2, %u)
}
)");
  auto io = view(DType::F32, {4}, {1, 2, 3, 4});
  interp::Interpreter(*m).run_kernel("k", {{"io", io}});
  // io[0] = io[1] + io[3] = 6; io[2] = io[0] * 10 = 60 (the new io[0]); io[1], io[3] kept.
  CHECK(values(io) == std::vector<double>{6, 2, 60, 4});
}

TEST_CASE("[L2.4] dtype-annotated scalars are runtime values: one module, several values", "[interp][L2.4]") {
  auto m = load(R"(
kernel @k(%x: In<i32[N]>, %o: Out<i32[1]>, %scale: i32, %count: index) {
  %c0 = const() {value = 0} : index
  %d = domain(%c0, %count) : domain<%count>
  %z = const() {value = 0} : i32
  %s = for(%d, %z) : i32 region(%j: index, %acc: i32) {
    %r = relation(%j) : relation<1 -> []>
    %e = view.load(%x, %r) : i32
    %p = mul(%e, %scale) : i32
    %t = add(%acc, %p) : i32
    yield(%t)
  }
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%o, %r0, %s)
}
)");
  auto x = view(DType::I32, {4}, {1, 2, 3, 4});
  auto o = view(DType::I32, {1});
  auto run = [&](int64_t scale, int64_t count) {
    interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}, {"scale", interp::Scalar{DType::I32, num::make_int(DType::I32, static_cast<uint64_t>(scale)).bits}}, {"count", idx(count)}});
    return values(o)[0];
  };
  CHECK(run(1, 4) == 10);   // 1+2+3+4
  CHECK(run(-3, 2) == -9);  // -3 * (1+2)
  CHECK(run(7, 0) == 0);    // empty domain
}

namespace {
const char* kModes = R"(
fn @div_modes(%a: f32, %b: f32) -> (f32, f32, f32) {
  %q = div(%a, %b) : f32
  %qa = div(%a, %b) {approximate = true} : f32
  %qf = div(%a, %b) {approximate = true, flush_to_zero = true} : f32
  return(%q, %qa, %qf)
}

fn @exp2_modes(%x: f32) -> (f32, f32, f32) {
  %e = exp2(%x) : f32
  %ea = exp2(%x) {approximate = true} : f32
  %ef = exp2(%x) {approximate = true, flush_to_zero = true} : f32
  return(%e, %ea, %ef)
}

fn @tanh_modes(%x: f32) -> (f32, f32) {
  %t = tanh(%x) : f32
  %ta = tanh(%x) {approximate = true} : f32
  return(%t, %ta)
}
)";
}  // namespace

TEST_CASE("[L4.4] fdiv: the default is correctly rounded division; approximate within 2 ulp; FTZ flushes",
          "[interp][L4.4]") {
  auto m = load(kModes);
  interp::Interpreter it(*m);
  auto r = it.call_helper("div_modes", {f32(1), f32(3)});
  const uint64_t third = f32_bits(1.0f / 3.0f);  // 0x3EAAAAAB
  CHECK(third == 0x3EAAAAABu);
  CHECK(r[0].scalar().bits == third);
  CHECK(ulp_diff(r[1].scalar().bits, third) <= 2);  // docs/numerics.md: 2 ulp for 2^-126 <= |b| <= 2^126
  CHECK(ulp_diff(r[2].scalar().bits, third) <= 2);
  // A subnormal quotient: 2^-120 / 2^10 = 2^-130. Default and approximate keep it; FTZ gives +0.
  auto s = it.call_helper("div_modes", {f32(std::ldexp(1.0, -120)), f32(1024)});
  CHECK(s[0].scalar().bits == f32_bits(std::ldexp(1.0f, -130)));
  CHECK(s[2].scalar().bits == 0u);
  // A subnormal dividend is read as zero under FTZ: 2^-140 / 1 -> +0; the default keeps 2^-140.
  auto t = it.call_helper("div_modes", {f32(std::ldexp(1.0, -140)), f32(1)});
  CHECK(t[0].scalar().bits == f32_bits(std::ldexp(1.0f, -140)));
  CHECK(t[2].scalar().bits == 0u);
}

TEST_CASE("[L4.5] exp2 and tanh modes: default correctly rounded, approximate within the documented bound",
          "[interp][L4.5]") {
  auto m = load(kModes);
  interp::Interpreter it(*m);
  for (double x : {3.0, -1.5, 0.1, 10.25}) {
    INFO("exp2(" << x << ")");
    const uint64_t want = f32_bits(static_cast<float>(std::exp2(static_cast<double>(static_cast<float>(x)))));
    auto r = it.call_helper("exp2_modes", {f32(x)});
    CHECK(r[0].scalar().bits == want);
    CHECK(ulp_diff(r[1].scalar().bits, want) <= 2);
    CHECK(ulp_diff(r[2].scalar().bits, want) <= 2);
  }
  // exp2(-130) = 2^-130 is subnormal: kept by default, flushed to +0 under FTZ.
  auto u = it.call_helper("exp2_modes", {f32(-130)});
  CHECK(u[0].scalar().bits == f32_bits(std::ldexp(1.0f, -130)));
  CHECK(u[2].scalar().bits == 0u);
  for (double x : {0.5, -2.0, 1e-3}) {
    INFO("tanh(" << x << ")");
    const double exact = std::tanh(static_cast<double>(static_cast<float>(x)));
    auto r = it.call_helper("tanh_modes", {f32(x)});
    CHECK(r[0].scalar().bits == f32_bits(static_cast<float>(exact)));
    const double approx = num::to_double(r[1].scalar().bits, DType::F32);
    CHECK(std::fabs(approx - exact) <= std::ldexp(std::fabs(exact), -11));  // relative 2^-11
  }
}

TEST_CASE("[L4.8] .shape (dim) of tensors, views and buffers gives the logical extents", "[interp][L4.8]") {
  auto m = load(R"(
kernel @k(%x: In<f32[M, N], strides = [1, M]>, %o: Out<index[4]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dn = domain(%c0, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bm = broadcast(%im) {dims = [0]} : index[M, N]
  %bn = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%bm, %bn) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %t = transpose(%v) {perm = [1, 0]} : f32[N, M]
  %t0 = dim(%t) {axis = 0} : index
  %z = const() {value = 0.0} : f32
  %buf = buffer.alloc(%z) : buffer<f32[N, 3]>
  %b1 = dim(%buf) {axis = 1} : index
  %mn = mul(%m, %n) : index
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %r2 = relation(%c2) : relation<1 -> []>
  %r3 = relation(%c3) : relation<1 -> []>
  view.store(%o, %r0, %m)
  view.store(%o, %r1, %t0)
  view.store(%o, %r2, %b1)
  view.store(%o, %r3, %mn)
}
)");
  // A column-major 2x5 view: logical extents M = 2, N = 5 whatever the strides.
  interp::HostView x = view(DType::F32, {2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  x.strides = {1, 2};
  auto o = view(DType::Index, {4});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}});
  CHECK(values(o) == std::vector<double>{2, 5, 3, 10});  // M, dim 0 of the transpose (N), 3, M*N
}

TEST_CASE("[L4.9] full and zeros: every element is the fill; () gives rank 0", "[interp][L4.9]") {
  auto m = load_surface(R"(
fn @f(%x: f32[M]) -> (f32[], i32[M, 2], bool[M]) {
  %c = const() {value = 2.5} : f32
  %r0 = full(%c) : f32[]
  %z = zeros() : i32[M, 2]
  %t = const() {value = true} : bool
  %b = full(%t) : bool[M]
  return(%r0, %z, %b)
}
)");
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(tensor(DType::F32, {3}, {7, 8, 9}))});
  CHECK(r[0].tensor().shape.empty());
  CHECK(tvalues(r[0]) == std::vector<double>{2.5});
  CHECK(r[1].tensor().shape == interp::Shape{3, 2});
  CHECK(tvalues(r[1]) == std::vector<double>(6, 0.0));
  CHECK(tvalues(r[2]) == std::vector<double>{1, 1, 1});
}

TEST_CASE("[L4.13] a record as reduce source, accumulator and identity", "[interp][L4.13]") {
  auto m = load(R"(
fn @acc(%a: record<sum: f32, cnt: i32, hi: f32>, %b: record<sum: f32, cnt: i32, hi: f32>) -> record<sum: f32, cnt: i32, hi: f32> {
  %as = record.get(%a) {field = sum} : f32
  %bs = record.get(%b) {field = sum} : f32
  %ac = record.get(%a) {field = cnt} : i32
  %bc = record.get(%b) {field = cnt} : i32
  %ah = record.get(%a) {field = hi} : f32
  %bh = record.get(%b) {field = hi} : f32
  %s = add(%as, %bs) : f32
  %c = add(%ac, %bc) : i32
  %h = max(%ah, %bh) : f32
  %r = record(%s, %c, %h) : record<sum: f32, cnt: i32, hi: f32>
  return(%r)
}

fn @f(%x: f32[N], %ones: i32[N]) -> record<sum: f32, cnt: i32, hi: f32> {
  %src = record(%x, %ones, %x) : record<sum: f32[N], cnt: i32[N], hi: f32[N]>
  %z = const() {value = 0.0} : f32
  %zi = const() {value = 0} : i32
  %ninf = const() {value = -inf} : f32
  %id = record(%z, %zi, %ninf) : record<sum: f32, cnt: i32, hi: f32>
  %r = reduce(%src, %id) {axes = [0], combine = @acc} : record<sum: f32, cnt: i32, hi: f32>
  return(%r)
}
)");
  interp::Interpreter it(*m);
  auto r = it.call_helper("f", {interp::Value(tensor(DType::F32, {4}, {1.5, -2, 8, 0.5})), interp::Value(tensor(DType::I32, {4}, {1, 1, 1, 1}))});
  const auto& rec = r[0].record();
  CHECK(svalue(rec.elems[0]) == 8);  // 1.5 - 2 + 8 + 0.5
  CHECK(svalue(rec.elems[1]) == 4);
  CHECK(svalue(rec.elems[2]) == 8);
  // Empty source: the identity record, component by component.
  auto e = it.call_helper("f", {interp::Value(tensor(DType::F32, {0}, {})), interp::Value(tensor(DType::I32, {0}, {}))});
  CHECK(svalue(e[0].record().elems[0]) == 0);
  CHECK(svalue(e[0].record().elems[1]) == 0);
  CHECK(std::isinf(svalue(e[0].record().elems[2])));
}

TEST_CASE("[L4.13] tuples and records as loop carries (for and while)", "[interp][L4.13][L6.2]") {
  auto m = load(R"(
fn @fib(%n: index) -> (tuple<i64, i64>, record<steps: index, last: i64>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %d = domain(%c0, %n) : domain<%n>
  %a0 = const() {value = 0} : i64
  %b0 = const() {value = 1} : i64
  %t0 = tuple(%a0, %b0) : tuple<i64, i64>
  %t = for(%d, %t0) : tuple<i64, i64> region(%i: index, %c: tuple<i64, i64>) {
    %a = tuple.get(%c) {index = 0} : i64
    %b = tuple.get(%c) {index = 1} : i64
    %s = add(%a, %b) : i64
    %nt = tuple(%b, %s) : tuple<i64, i64>
    yield(%nt)
  }
  %r0 = record(%c0, %a0) : record<steps: index, last: i64>
  %r = while(%r0) : record<steps: index, last: i64> region(%w: record<steps: index, last: i64>) {
    %k = record.get(%w) {field = steps} : index
    %more = cmp(%k, %n) {pred = lt} : bool
    condition(%more, %w)
  } region(%w2: record<steps: index, last: i64>) {
    %k2 = record.get(%w2) {field = steps} : index
    %l2 = record.get(%w2) {field = last} : i64
    %k3 = add(%k2, %c1) : index
    %kc = cast(%k3) : i64
    %l3 = add(%l2, %kc) : i64
    %nr = record(%k3, %l3) : record<steps: index, last: i64>
    yield(%nr)
  }
  return(%t, %r)
}
)");
  auto r = interp::Interpreter(*m).call_helper("fib", {idx(10)});
  // (F0, F1) = (0, 1) advanced 10 times: (F10, F11) = (55, 89).
  CHECK(svalue(r[0].tuple().elems[0]) == 55);
  CHECK(svalue(r[0].tuple().elems[1]) == 89);
  // while: steps 10, last = 1 + 2 + ... + 10 = 55.
  CHECK(svalue(r[1].record().elems[0]) == 10);
  CHECK(svalue(r[1].record().elems[1]) == 55);
}

TEST_CASE("[L4.1] implicit scalar and size-one broadcast normalize to explicit broadcasts with the same values",
          "[interp][L4.1]") {
  auto m = load_surface(R"(
fn @f(%x: f32[M, N], %r: f32[1, N], %s: f32) -> f32[M, N] {
  %a = add(%x, %r) : f32[M, N]
  %b = mul(%a, %s) : f32[M, N]
  return(%b)
}
)");
  CHECK(has_op(*m, "broadcast"));
  auto r = interp::Interpreter(*m).call_helper(
      "f", {interp::Value(tensor(DType::F32, {2, 2}, {1, 2, 3, 4})), interp::Value(tensor(DType::F32, {1, 2}, {10, 20})), f32(2)});
  CHECK(tvalues(r[0]) == std::vector<double>{22, 44, 26, 48});  // (x + row) * 2
}

TEST_CASE("[L1.6] indices passed through a helper stay source coordinates", "[interp][L1.6]") {
  auto m = load(R"(
fn @shift(%i: index[S], %k: index) -> index[S] {
  %kb = broadcast(%k) {dims = []} : index[S]
  %j = add(%i, %kb) : index[S]
  return(%j)
}

kernel @k(%x: In<f32[N]>, %o: Out<f32[2]>) {
  %c0 = const() {value = 0} : index
  %c2 = const() {value = 2} : index
  %c4 = const() {value = 4} : index
  %n = dim(%x) {axis = 0} : index
  %all = domain(%c0, %n) : domain<N>
  %part = subregion(%all, %c2, %c4) : subregion<2>
  %pi = indices(%part) : index[2]
  %same = call(%pi, %c0) {callee = @shift} : index[2]
  %rel = relation(%same) : relation<1 -> [2]>
  %v = view.load(%x, %rel) : f32[2]
  %d2 = domain(%c0, %c2) : domain<2>
  %i2 = indices(%d2) : index[2]
  %orel = relation(%i2) : relation<1 -> [2]>
  view.store(%o, %orel, %v)
}
)");
  auto x = view(DType::F32, {5}, {10, 11, 12, 13, 14});
  auto o = view(DType::F32, {2});
  interp::Interpreter(*m).run_kernel("k", {{"x", x}, {"o", o}});
  CHECK(values(o) == std::vector<double>{12, 13});  // members 2, 3 of the source, not 0, 1
}
