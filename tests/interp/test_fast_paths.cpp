// The interpreter's fast paths (interp/fast_paths.h, the pointwise-combine reduce, the f32
// contract, plain load/store) against the general numerics path on the same inputs, including
// NaN payloads, infinities, signed zeros, subnormals and overflow. The reference for each
// element is num::binary / num::compare / ExactSum (per-element numerics), never the fast loop.
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "interp/exact_sum.h"
#include "interp/fast_paths.h"
#include "interp_test.h"
#include "numerics/arith.h"
#include "numerics/cast.h"

using namespace kir;
using namespace kir::itest;
using interp::Scalar;

namespace {

uint64_t b32(float x) { return std::bit_cast<uint32_t>(x); }
uint64_t b64(double x) { return std::bit_cast<uint64_t>(x); }

// Special and ordinary values of f32 / f64 as bit patterns (NaNs with payloads and both signs).
std::vector<uint64_t> f32_specials() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<uint64_t> v = {b32(0.f), b32(-0.f), b32(1.f), b32(-1.f), b32(inf), b32(-inf), 0x7fc00000u, 0xffc00001u,
                             0x7f800001u /* sNaN */, 0x00000001u /* min subnormal */, 0x807fffffu /* -max subnormal */,
                             0x00800000u /* min normal */, b32(std::numeric_limits<float>::max()), b32(-std::numeric_limits<float>::max()),
                             b32(3.f), b32(0.1f), b32(-1e-30f), b32(1e30f), b32(0x1p-126f * 1.5f)};
  std::mt19937 rng(7);
  for (int i = 0; i < 16; ++i) v.push_back(rng() & 0xffffffffu);  // arbitrary patterns, any class
  return v;
}
std::vector<uint64_t> f64_specials() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<uint64_t> v = {b64(0.0), b64(-0.0), b64(1.0), b64(-2.5), b64(inf), b64(-inf), 0x7ff8000000000000ull,
                             0xfff0000000000001ull, 1ull /* min subnormal */, b64(std::numeric_limits<double>::max()),
                             b64(-std::numeric_limits<double>::min()), b64(1e300), b64(1e-300)};
  std::mt19937_64 rng(8);
  for (int i = 0; i < 16; ++i) v.push_back(rng());
  return v;
}
std::vector<uint64_t> int_specials(DType d) {
  const uint64_t m = num::width_mask(d);
  std::vector<uint64_t> v = {0, 1, 2, m, m >> 1, (m >> 1) + 1, 7 & m, 0x5a5a5a5a5a5a5a5aull & m};
  if (d == DType::Bool) v = {0, 1};
  return v;
}

// Checks fast::binary against num::binary on every pair of `vals` (both operand layouts).
void check_binary(num::BinaryOp op, DType d, const std::vector<uint64_t>& vals) {
  REQUIRE(interp::fast::binary_supported(op, d));
  std::vector<uint64_t> a, b;
  for (uint64_t x : vals)
    for (uint64_t y : vals) { a.push_back(x); b.push_back(y); }
  std::vector<uint64_t> out(a.size());
  interp::fast::binary(op, d, a.data(), 1, b.data(), 1, out.data(), static_cast<int64_t>(a.size()));
  for (size_t i = 0; i < a.size(); ++i) {
    auto ref = num::binary(op, Scalar{d, a[i]}, Scalar{d, b[i]});
    REQUIRE(ref);
    INFO(num::op_name(op) << " " << name(d) << " a=" << std::hex << a[i] << " b=" << b[i]);
    CHECK(out[i] == ref->bits);
  }
  // Scalar left operand broadcast (stride 0).
  std::vector<uint64_t> out2(vals.size());
  interp::fast::binary(op, d, &vals[0], 0, vals.data(), 1, out2.data(), static_cast<int64_t>(vals.size()));
  for (size_t i = 0; i < vals.size(); ++i) CHECK(out2[i] == num::binary(op, Scalar{d, vals[0]}, Scalar{d, vals[i]})->bits);
}

}  // namespace

TEST_CASE("[L4.14] fast f32/f64 add, sub, mul, div, min, max equal numerics bit for bit", "[interp][fast][L4.14]") {
  for (auto op : {num::BinaryOp::Add, num::BinaryOp::Sub, num::BinaryOp::Mul, num::BinaryOp::Div, num::BinaryOp::Min,
                  num::BinaryOp::Max}) {
    check_binary(op, DType::F32, f32_specials());
    check_binary(op, DType::F64, f64_specials());
  }
}

TEST_CASE("[L4.14] fast integer and bool ops wrap and order like numerics", "[interp][fast][L4.14]") {
  for (DType d : {DType::I8, DType::I16, DType::I32, DType::I64, DType::U8, DType::U32, DType::U64, DType::Index})
    for (auto op : {num::BinaryOp::Add, num::BinaryOp::Sub, num::BinaryOp::Mul, num::BinaryOp::And, num::BinaryOp::Or,
                    num::BinaryOp::Xor, num::BinaryOp::Min, num::BinaryOp::Max})
      check_binary(op, d, int_specials(d));
  for (auto op : {num::BinaryOp::And, num::BinaryOp::Or, num::BinaryOp::Xor, num::BinaryOp::Min, num::BinaryOp::Max})
    check_binary(op, DType::Bool, int_specials(DType::Bool));
  // Ops that can fail or need numerics are never claimed.
  CHECK_FALSE(interp::fast::binary_supported(num::BinaryOp::Div, DType::I32));
  CHECK_FALSE(interp::fast::binary_supported(num::BinaryOp::Shl, DType::I32));
  CHECK_FALSE(interp::fast::binary_supported(num::BinaryOp::Add, DType::Bool));
  CHECK_FALSE(interp::fast::binary_supported(num::BinaryOp::Add, DType::F16));
  CHECK_FALSE(interp::fast::binary_supported(num::BinaryOp::Rem, DType::F32));
}

TEST_CASE("[L4.14] fast compare equals numerics for every predicate", "[interp][fast][L4.14]") {
  auto run = [](DType d, const std::vector<uint64_t>& vals) {
    for (auto pred : {num::CompareOp::Eq, num::CompareOp::Ne, num::CompareOp::Lt, num::CompareOp::Le, num::CompareOp::Gt,
                      num::CompareOp::Ge})
      for (uint64_t x : vals)
        for (uint64_t y : vals) {
          uint64_t out = 7;
          interp::fast::compare(pred, d, &x, 1, &y, 1, &out, 1);
          INFO(name(d) << " " << std::hex << x << " " << y);
          CHECK(out == (*num::compare(pred, Scalar{d, x}, Scalar{d, y}) ? 1u : 0u));
        }
  };
  run(DType::F32, f32_specials());
  run(DType::F64, f64_specials());
  for (DType d : {DType::I8, DType::I32, DType::U16, DType::U64, DType::Index, DType::Bool}) run(d, int_specials(d));
}

TEST_CASE("[L7.1] fast fold is the left fold of numerics ops, strided and with offsets", "[interp][fast][L7.1]") {
  auto reference = [](num::BinaryOp op, DType d, uint64_t acc, const std::vector<uint64_t>& xs) {
    for (uint64_t x : xs) acc = num::binary(op, Scalar{d, acc}, Scalar{d, x})->bits;
    return acc;
  };
  std::vector<std::vector<uint64_t>> seqs = {
      {b32(1.f), b32(0x1p-24f), b32(0x1p-24f), b32(-1.f)},                    // order-sensitive rounding
      {b32(-0.f), b32(-0.f)},                                                 // -0 + -0 = -0
      {b32(INFINITY), b32(1.f), b32(-INFINITY), b32(2.f)},                   // inf - inf = NaN
      {0xffc00001u, b32(1.f)},                                                // NaN payload -> canonical
      {0x00000001u, 0x00000003u, b32(-0.f)},                                  // subnormals
      {b32(3e38f), b32(3e38f), b32(-3e38f)},                                  // overflow stays inf
  };
  for (const auto& xs : seqs)
    for (auto op : {num::BinaryOp::Add, num::BinaryOp::Mul, num::BinaryOp::Min, num::BinaryOp::Max, num::BinaryOp::Sub})
      for (uint64_t init : {b32(0.f), b32(-0.f), b32(2.f)}) {
        // Stride 2 over an interleaved copy, and an explicit offset list in the same order.
        std::vector<uint64_t> spread(xs.size() * 2, 0xdeadbeefu);
        std::vector<int64_t> offs;
        for (size_t i = 0; i < xs.size(); ++i) { spread[2 * i] = xs[i]; offs.push_back(static_cast<int64_t>(2 * i)); }
        const uint64_t want = reference(op, DType::F32, init, xs);
        const auto n = static_cast<int64_t>(xs.size());
        CHECK(interp::fast::fold(op, DType::F32, init, spread.data(), 2, nullptr, n) == want);
        CHECK(interp::fast::fold(op, DType::F32, init, spread.data(), 0, offs.data(), n) == want);
      }
  // Integer wrap: i8 127 + 1 + 1 = -127 (0x81).
  const std::vector<uint64_t> i8s = {1, 1};
  CHECK(interp::fast::fold(num::BinaryOp::Add, DType::I8, 127, i8s.data(), 1, nullptr, 2) == 0x81);
}

// ---- the f32 contract fast path against ExactSum ----
namespace {

uint64_t exact_dot(const std::vector<float>& a, const std::vector<float>& b) {
  interp::ExactSum s;
  for (size_t k = 0; k < a.size(); ++k)
    s.add_product(num::exact_value(Scalar{DType::F32, b32(a[k])}), num::exact_value(Scalar{DType::F32, b32(b[k])}));
  return s.round(DType::F32);
}

// dot_f32 on unit-stride vectors; returns whether it decided, and the result in `r`.
bool fast_dot(const std::vector<float>& a, const std::vector<float>& b, uint32_t& r) {
  std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  std::vector<int64_t> offs(a.size());
  for (size_t k = 0; k < offs.size(); ++k) offs[k] = static_cast<int64_t>(k);
  return interp::fast::dot_f32(ad.data(), offs.data(), bd.data(), offs.data(), static_cast<int64_t>(a.size()), r);
}

}  // namespace

TEST_CASE("[L10.4] f32 dot fast path decides ordinary sums, and only correctly", "[interp][fast][L10.4]") {
  uint32_t r = 0;
  // 1*3 + 2*4 = 11, exactly representable: decided.
  REQUIRE(fast_dot({1.f, 2.f}, {3.f, 4.f}, r));
  CHECK(r == b32(11.f));
  // 1 + 2^-24 is the midpoint between 1 and its successor (a tie): must not be decided by the
  // double-double estimate alone; the exact path gives 1 (ties to even).
  CHECK_FALSE(fast_dot({1.f, 0x1p-24f}, {1.f, 1.f}, r));
  CHECK(exact_dot({1.f, 0x1p-24f}, {1.f, 1.f}) == b32(1.f));
  // Just above the midpoint (2^-24 + 2^-70 survives only in the exact sum): rounds up.
  const std::vector<float> a = {1.f, 0x1p-24f, 0x1p-70f}, o = {1.f, 1.f, 1.f};
  if (fast_dot(a, o, r)) CHECK(r == exact_dot(a, o));
  CHECK(exact_dot(a, o) == b32(1.f + 0x1p-23f));
  // Zero, subnormal, infinite, NaN and overflowing results are left to ExactSum.
  CHECK_FALSE(fast_dot({1.f, -1.f}, {1.f, 1.f}, r));
  CHECK_FALSE(fast_dot({0x1p-100f}, {0x1p-40f}, r));
  CHECK_FALSE(fast_dot({INFINITY, 1.f}, {1.f, 1.f}, r));
  CHECK_FALSE(fast_dot({NAN}, {1.f}, r));
  CHECK_FALSE(fast_dot({3e38f, 3e38f}, {1.f, 1.f}, r));
}

TEST_CASE("[L10.4] f32 dot fast path equals the exact sum rounded once on random and cancelling data", "[interp][fast][L10.4]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> e(-60, 60), len(1, 300);
  int decided = 0, total = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = len(rng);
    std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) {
      a[static_cast<size_t>(k)] = std::ldexp(u(rng), trial % 3 == 0 ? e(rng) : 0);
      b[static_cast<size_t>(k)] = u(rng);
    }
    if (trial % 5 == 1) {  // heavy cancellation: append the negated products except one tiny term
      const int m = n;
      for (int k = 0; k < m; ++k) { a.push_back(-a[static_cast<size_t>(k)]); b.push_back(b[static_cast<size_t>(k)]); }
      a.push_back(0x1p-30f * u(rng));
      b.push_back(1.f);
    }
    uint32_t r = 0;
    ++total;
    if (fast_dot(a, b, r)) {
      ++decided;
      INFO("trial " << trial);
      REQUIRE(r == exact_dot(a, b));
    }
  }
  CHECK(decided > total * 9 / 10);  // the fast path is the common case
}

// ---- kernel level: the fast paths inside run_kernel against the general path ----
namespace {

// Two reduces of the same source: @add_f32 is recognized (fast fold), @add_f32_slow is not (an
// extra unused op), so it runs through the helper per point.
const char* kReduceSrc = R"(
fn @comb(%a: f32, %b: f32) -> f32 {
  %r = OPNAME(%a, %b) : f32
  return(%r)
}
fn @comb_slow(%a: f32, %b: f32) -> f32 {
  %unused = add(%b, %b) : f32
  %r = OPNAME(%a, %b) : f32
  return(%r)
}
fn @combv(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = OPNAME(%a, %b) : f32[R]
  return(%r)
}
fn @combv_slow(%a: f32[R], %b: f32[R]) -> f32[R] {
  %unused = add(%b, %b) : f32[R]
  %r = OPNAME(%a, %b) : f32[R]
  return(%r)
}
kernel @k(%x: In<f32[M, N]>, %init: In<f32[N]>, %o: Out<f32[N]>, %o2: Out<f32[N]>, %s: Out<f32[2]>) {
  %zero = const() {value = 0} : index
  %one = const() {value = 1} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bm = broadcast(%im) {dims = [0]} : index[M, N]
  %bn = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%bm, %bn) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %nrel = relation(%in) : relation<1 -> [N]>
  %id = view.load(%init, %nrel) : f32[N]
  %r1 = reduce(%v, %id) {axes = [0], combine = @combv} : f32[N]
  %r2 = reduce(%v, %id) {axes = [0], combine = @combv_slow} : f32[N]
  view.store(%o, %nrel, %r1)
  view.store(%o2, %nrel, %r2)
  %z = const() {value = -0.0} : f32
  %t1 = reduce(%v, %z) {axes = [0, 1], combine = @comb} : f32
  %t2 = reduce(%v, %z) {axes = [0, 1], combine = @comb_slow} : f32
  %r0 = relation(%zero) : relation<1 -> []>
  %r1i = relation(%one) : relation<1 -> []>
  view.store(%s, %r0, %t1)
  view.store(%s, %r1i, %t2)
}
)";

std::string with_op(std::string text, const std::string& op) {
  for (size_t p; (p = text.find("OPNAME")) != std::string::npos;) text.replace(p, 6, op);
  return text;
}

}  // namespace

TEST_CASE("[L7.1] reduce with a pointwise combine gives the bits of the per-point helper calls", "[interp][fast][L7.1]") {
  const auto sp = f32_specials();
  const int64_t M = 7, N = static_cast<int64_t>(sp.size());
  std::vector<uint64_t> xb, ib;
  std::mt19937 rng(3);
  for (int64_t i = 0; i < M * N; ++i) xb.push_back(sp[rng() % sp.size()]);
  for (int64_t j = 0; j < N; ++j) ib.push_back(sp[static_cast<size_t>(j)]);
  for (const char* op : {"add", "sub", "mul", "div", "min", "max"}) {
    INFO(op);
    auto m = load(with_op(kReduceSrc, op));
    interp::HostView x = interp::make_host_view(DType::F32, {M, N}, xb), init = interp::make_host_view(DType::F32, {N}, ib);
    interp::HostView o = view(DType::F32, {N}), o2 = view(DType::F32, {N}), s = view(DType::F32, {2});
    interp::Interpreter it(*m);
    it.run_kernel("k", {{"x", x}, {"init", init}, {"o", o}, {"o2", o2}, {"s", s}});
    CHECK(o.storage->bits == o2.storage->bits);
    CHECK(s.storage->bits[0] == s.storage->bits[1]);
  }
}

TEST_CASE("[L7.1] the fast reduce charges the step budget like the helper calls", "[interp][fast][L7.1]") {
  // Both reduces of one kind in separate kernels would differ by the unused op; compare a fast
  // reduce's steps with the count the general path has: 2 per point (region entry + the op).
  // --trace turns the fast path off, so the same kernel runs the general path.
  auto m = load(R"(
fn @add_f32(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}
kernel @k(%x: In<f32[N]>, %o: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %z = const() {value = 0.0} : f32
  %s = reduce(%v, %z) {axes = [0], combine = @add_f32} : f32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %s)
}
)");
  auto steps_for = [&](int64_t n, bool general = false) {
    std::ostringstream sink;
    interp::Options o_general;
    if (general) o_general.trace = &sink;
    interp::Interpreter it(*m, o_general);
    interp::HostView x = view(DType::F32, {n}, std::vector<double>(static_cast<size_t>(n), 1.0)), o = view(DType::F32, {1});
    it.run_kernel("k", {{"x", x}, {"o", o}});
    CHECK(values(o)[0] == static_cast<double>(n));
    return it.steps();
  };
  CHECK(steps_for(10) == steps_for(10, true));
  // Per point: 2 for the combine call, 1 element each of `indices` and `view.load`.
  CHECK(steps_for(10) - steps_for(3) == (2 + 2) * 7);
  // A budget too small for the calls is still the step-limit error.
  interp::Options opts;
  opts.max_steps = 50;
  interp::Interpreter it(*m, opts);
  interp::HostView x = view(DType::F32, {100}, std::vector<double>(100, 1.0)), o = view(DType::F32, {1});
  CHECK_THROWS_AS(it.run_kernel("k", {{"x", x}, {"o", o}}), interp::RuntimeError);
}

TEST_CASE("[L10.4] f32 contract: every element equals the exact sum of products rounded once", "[interp][fast][L10.4]") {
  auto m = load(R"(
kernel @mm(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)");
  // Rows of A mix ordinary values with the specials; columns of B likewise, so the outputs
  // cover NaN, +-inf, inf-inf, -0 sums, subnormal sums, overflow and ordinary sums.
  const auto sp = f32_specials();
  const int64_t M = static_cast<int64_t>(sp.size()), K = 5, N = 9;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  std::vector<uint64_t> ab, bb;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) ab.push_back(k == 0 ? sp[static_cast<size_t>(i)] : (i % 4 == 0 ? b32(-0.f) : b32(u(rng))));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j) bb.push_back(j < 3 ? sp[static_cast<size_t>((k * 3 + j) % sp.size())] : b32(u(rng)));
  interp::HostView a = interp::make_host_view(DType::F32, {M, K}, ab), b = interp::make_host_view(DType::F32, {K, N}, bb);
  interp::HostView c = view(DType::F32, {M, N});
  interp::Interpreter it(*m);
  it.run_kernel("mm", {{"a", a}, {"b", b}, {"c", c}});
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      interp::ExactSum s;
      for (int64_t k = 0; k < K; ++k)
        s.add_product(num::exact_value(Scalar{DType::F32, ab[static_cast<size_t>(i * K + k)]}),
                      num::exact_value(Scalar{DType::F32, bb[static_cast<size_t>(k * N + j)]}));
      INFO("element (" << i << ", " << j << ")");
      CHECK(c.storage->bits[static_cast<size_t>(i * N + j)] == s.round(DType::F32));
    }
}

TEST_CASE("[L15.3] plain store: reversed and strided relations write, collisions are still reported", "[interp][fast][L15.3]") {
  auto m = load(R"(
kernel @rev(%x: In<f32[N]>, %y: Out<f32[N]>, %k: In<index[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %ki = view.load(%k, %rel) : index[N]
  %krel = relation(%ki) : relation<1 -> [N]>
  view.store(%y, %krel, %v)
}
)");
  {
    interp::HostView x = view(DType::F32, {4}, {1, 2, 3, 4}), y = view(DType::F32, {4}), k = view(DType::Index, {4}, {3, 2, 1, 0});
    interp::Interpreter it(*m);
    it.run_kernel("rev", {{"x", x}, {"y", y}, {"k", k}});
    CHECK(values(y) == std::vector<double>{4, 3, 2, 1});
  }
  // Points 1 and 3 both write element 2: the collision names both points.
  interp::HostView x = view(DType::F32, {4}, {1, 2, 3, 4}), y = view(DType::F32, {4}), k = view(DType::Index, {4}, {0, 2, 3, 2});
  expect_error(*m, "rev", {{"x", x}, {"y", y}, {"k", k}}, interp::ErrorKind::UniqueCollision, {"(1)", "(3)", "view.store"});
  // An out-of-bounds point after in-order points: the error names it.
  interp::HostView k2 = view(DType::Index, {4}, {0, 1, 2, 9});
  expect_error(*m, "rev", {{"x", x}, {"y", y}, {"k", k2}}, interp::ErrorKind::OutOfBounds, {"coordinate 9", "view.store"});
}
