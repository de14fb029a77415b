// Options::accumulation (L7.3): the contract family evaluated canonically (exact sum of exact
// products rounded once) or in the declared Sequential order (acc = +0; per reduce point, row-major
// over the reduce pairs as listed, acc = round(acc + round(exact product)), both in the accumulator
// dtype). Hand-computed cases where the two differ (f32, f16 operands into f32, bf16 accumulator,
// overflow, signed zero, reduce-pair order, scaled and sparse contracts), a property against a plain
// C++ loop over random f32 dot products, the envelope log under both orders, and `kir run --policy
// accumulation=...`.
#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "interp/envelope_log.h"
#include "interp/npy.h"
#include "ops_test.h"
#include "tests/run_tool.h"

using namespace kir;
using namespace kir::itest;
using interp::AccumulationOrder;

namespace {

const char* kContracts = R"(
fn @dot(%a: f32[K], %b: f32[K]) -> f32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 0]]} : f32[]
  return(%c)
}

fn @dot2(%a: f32[P, Q], %b: f32[P, Q]) -> f32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 0], [1, 1]]} : f32[]
  return(%c)
}

fn @dot2_swapped(%a: f32[P, Q], %b: f32[P, Q]) -> f32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[1, 1], [0, 0]]} : f32[]
  return(%c)
}

fn @dot_f16(%a: f16[K], %b: f16[K]) -> f32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 0]]} : f32[]
  return(%c)
}

fn @dot_bf16(%a: bf16[K], %b: bf16[K]) -> bf16[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 0]]} : bf16[]
  return(%c)
}

fn @dot_i8(%a: i8[K], %b: i8[K]) -> i32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 0]]} : i32[]
  return(%c)
}
)";

const char* kScaledSparse = R"(
fn @scaled(%l: u8[M, G, 2], %ls: e8m0[M, G], %r: u8[G, 2, N], %rs: e8m0[N, G]) -> f32[M, N] {
  %c = scaled_matmul(%l, %ls, %r, %rs) {acc_dtype = f32, group_size = 2, lhs_format = e5m2, rhs_format = e5m2} : f32[M, N]
  return(%c)
}

fn @scaled_f16(%l: u8[M, G, 2], %ls: e8m0[M, G], %r: u8[G, 2, N], %rs: e8m0[N, G]) -> f16[M, N] {
  %c = scaled_matmul(%l, %ls, %r, %rs) {acc_dtype = f16, group_size = 2, lhs_format = e5m2, rhs_format = e5m2} : f16[M, N]
  return(%c)
}

fn @s12(%c: f32[M, 4], %meta: u8[M, 4], %rhs: f32[8, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = one_of_two} : f32[M, N]
  return(%y)
}
)";

interp::Value tv(DType d, const interp::Shape& s, const std::vector<double>& v) { return interp::Value(tensor(d, s, v)); }
interp::Value rawv(DType d, const interp::Shape& s, std::vector<uint64_t> b) { return interp::Value(raw_tensor(d, s, std::move(b))); }

// First element of the first result of helper `fn` under `order`; the log (optional) gets the records.
uint64_t eval(const Module& m, const std::string& fn, const std::vector<interp::Value>& args, AccumulationOrder order,
              interp::EnvelopeLog* log = nullptr) {
  interp::Options o;
  o.accumulation = order;
  o.envelopes = log;
  auto r = interp::Interpreter(m, o).call_helper(fn, args);
  return r.at(0).tensor().bits.at(0);
}

bool same_double(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// Runs `fn` under both orders with an envelope log: returns {canonical bits, sequential bits} and
// checks that both logs hold the same envelopes, each recording the value its run produced, and
// that the sequential value is accepted (unless `seq_in_envelope` is false).
std::pair<uint64_t, uint64_t> both(const Module& m, const std::string& fn, const std::vector<interp::Value>& args,
                                   bool seq_in_envelope = true) {
  interp::EnvelopeLog lc, ls;
  const uint64_t c = eval(m, fn, args, AccumulationOrder::Canonical, &lc);
  const uint64_t s = eval(m, fn, args, AccumulationOrder::Sequential, &ls);
  REQUIRE(lc.records.size() == 1);
  REQUIRE(ls.records.size() == 1);
  const auto &ec = lc.records[0].components.at(0), &es = ls.records[0].components.at(0);
  CHECK(ec.kind == es.kind);
  CHECK(ec.elements.at(0).canonical == c);
  CHECK(es.elements.at(0).canonical == s);
  const auto &a = ec.elements[0].env, &b = es.elements[0].env;
  CHECK(same_double(a.exact_rounded, b.exact_rounded));
  CHECK(same_double(a.bound, b.bound));
  CHECK(same_double(a.lo, b.lo));
  CHECK(same_double(a.hi, b.hi));
  CHECK(a.may_overflow == b.may_overflow);
  CHECK(lc.check(0, 0, c));
  if (seq_in_envelope) {
    CHECK(ls.check(0, 0, s));
    CHECK(es.elements[0].inside);
    CHECK(lc.check(0, 0, s));
  }
  return {c, s};
}

uint64_t bits(double v, DType d) { return num::from_double(v, d); }

}  // namespace

TEST_CASE("[L7.3] sequential f32 contract rounds every addition: [1e8, 1, -1e8] . [1, 1, 1]", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // 1e8 is exact in f32 (ulp 8 there): 1e8 + 1 rounds back to 1e8, so the sequential sum is 0
  auto [c, s] = both(*m, "dot", {tv(DType::F32, {3}, {1e8, 1, -1e8}), tv(DType::F32, {3}, {1, 1, 1})});
  CHECK(c == bits(1, DType::F32));
  CHECK(s == bits(0, DType::F32));
  // default options: canonical
  CHECK(interp::Interpreter(*m).call_helper("dot", {tv(DType::F32, {3}, {1e8, 1, -1e8}), tv(DType::F32, {3}, {1, 1, 1})})[0]
            .tensor()
            .bits[0] == c);
}

TEST_CASE("[L7.3] sequential-fused-pairs: each pair of reduce points second first, an odd last point last", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // [1, 1e8, -1e8, 1] . 1 (1e8 exact in f32, ulp 8): the fused fold in order gives
  // ((1 + 1e8) - 1e8) + 1 = 1; in pairs, second first, ((1e8 + 1) + 1) - 1e8 = 0.
  const std::vector<interp::Value> four = {tv(DType::F32, {4}, {1, 1e8, -1e8, 1}), tv(DType::F32, {4}, {1, 1, 1, 1})};
  CHECK(eval(*m, "dot", four, AccumulationOrder::SequentialFused) == bits(1, DType::F32));
  CHECK(eval(*m, "dot", four, AccumulationOrder::SequentialFusedPairs) == bits(0, DType::F32));
  // Five points [1e8, 1, 1, -1e8, 1], the fifth without a partner, last: pairs give
  // (((1 + 1e8) - 1e8) + 1) + 1 = 2; in order, (((1e8 + 1) + 1) - 1e8) + 1 = 1.
  const std::vector<interp::Value> five = {tv(DType::F32, {5}, {1e8, 1, 1, -1e8, 1}), tv(DType::F32, {5}, {1, 1, 1, 1, 1})};
  CHECK(eval(*m, "dot", five, AccumulationOrder::SequentialFused) == bits(1, DType::F32));
  CHECK(eval(*m, "dot", five, AccumulationOrder::SequentialFusedPairs) == bits(2, DType::F32));
  // One point, and signed zeros: -0 . 1 stays -0 (the fold starts from its first term).
  CHECK(eval(*m, "dot", {tv(DType::F32, {1}, {-0.0}), tv(DType::F32, {1}, {1})}, AccumulationOrder::SequentialFusedPairs) ==
        bits(-0.0, DType::F32));
  CHECK(eval(*m, "dot", {tv(DType::F32, {0}, {}), tv(DType::F32, {0}, {})}, AccumulationOrder::SequentialFusedPairs) ==
        bits(0.0, DType::F32));
}

TEST_CASE("[L7.3] sequential: each f32 x f32 product is rounded once to f32 before the addition", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // (1 + 2^-23)(1 + 2^-22) = 1 + 3*2^-23 + 2^-45 -> f32 1 + 3*2^-23; minus 1 gives 3*2^-23.
  // Canonical: 3*2^-23 + 2^-45 = 2^-22 * (1.5 + 2^-23), 24 significant bits: exact in f32.
  const double a = 1 + std::ldexp(1, -23), b = 1 + std::ldexp(1, -22);
  auto [c, s] = both(*m, "dot", {tv(DType::F32, {2}, {a, 1}), tv(DType::F32, {2}, {b, -1})});
  CHECK(c == bits(3 * std::ldexp(1, -23) + std::ldexp(1, -45), DType::F32));
  CHECK(s == bits(3 * std::ldexp(1, -23), DType::F32));
}

TEST_CASE("[L7.3] sequential: f16 operands with an f32 accumulator keep the f32 product", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: exact in f32 (rounded to f16 it would lose 2^-20)
  const double a = 1 + std::ldexp(1, -10);
  auto [c, s] = both(*m, "dot_f16", {tv(DType::F16, {2}, {a, 1}), tv(DType::F16, {2}, {a, -1})});
  CHECK(s == bits(std::ldexp(1, -9) + std::ldexp(1, -20), DType::F32));
  CHECK(c == s);
  // additions round in f32: 2048 + 2^-7 * 2^-7 rounds to 2048 (f32 ulp 2^-12 there), - 2048 gives
  // 0; exact: 2^-14
  auto [c2, s2] = both(*m, "dot_f16", {tv(DType::F16, {3}, {2048, std::ldexp(1, -7), -2048}), tv(DType::F16, {3}, {1, std::ldexp(1, -7), 1})});
  CHECK(c2 == bits(std::ldexp(1, -14), DType::F32));
  CHECK(s2 == bits(0, DType::F32));
}

TEST_CASE("[L7.3] sequential: a bf16 accumulator rounds every term and every addition to bf16", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // (1 + 2^-7)(1 + 2^-6) = 1 + 3*2^-7 + 2^-13 -> bf16 (8 bits) 1 + 3*2^-7; minus 1 gives 3*2^-7.
  // Canonical: 3*2^-7 + 2^-13 = 2^-6 * 1.1000001b, 8 significant bits: exact in bf16.
  auto [c, s] = both(*m, "dot_bf16", {tv(DType::BF16, {2}, {1 + std::ldexp(1, -7), 1}), tv(DType::BF16, {2}, {1 + std::ldexp(1, -6), -1})});
  CHECK(c == bits(3 * std::ldexp(1, -7) + std::ldexp(1, -13), DType::BF16));
  CHECK(s == bits(3 * std::ldexp(1, -7), DType::BF16));
  // 256 + 1 is a tie between 256 and 258 (ulp 2): even 256, twice; canonical 258
  auto [c2, s2] = both(*m, "dot_bf16", {tv(DType::BF16, {3}, {256, 1, 1}), tv(DType::BF16, {3}, {1, 1, 1})});
  CHECK(c2 == bits(258, DType::BF16));
  CHECK(s2 == bits(256, DType::BF16));
}

TEST_CASE("[L7.3] sequential: first reduce pair outermost, in the order the pairs are listed", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // a = [[1e8, 1], [-1e8, 1]], b = ones. Pair (0, 0) outermost visits 1e8, 1, -1e8, 1 -> 1;
  // pair (1, 1) listed first visits 1e8, -1e8, 1, 1 -> 2 (= canonical).
  const auto a = tv(DType::F32, {2, 2}, {1e8, 1, -1e8, 1}), b = tv(DType::F32, {2, 2}, {1, 1, 1, 1});
  auto [c, s] = both(*m, "dot2", {a, b});
  CHECK(c == bits(2, DType::F32));
  CHECK(s == bits(1, DType::F32));
  auto [c2, s2] = both(*m, "dot2_swapped", {a, b});
  CHECK(c2 == bits(2, DType::F32));
  CHECK(s2 == bits(2, DType::F32));
}

TEST_CASE("[L7.3] sequential: empty reduction, signed zeros, overflow, NaN; integer acc unchanged", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  // empty K: +0 under both orders
  auto [c0, s0] = both(*m, "dot", {tv(DType::F32, {0}, {}), tv(DType::F32, {0}, {})});
  CHECK(c0 == bits(0, DType::F32));
  CHECK(s0 == bits(0, DType::F32));
  // every product -0: the exact sum is -0 and so is every legal order's; the sequential fold
  // starts from the first term (not from +0, which would be an extra term), giving -0 too.
  auto [cz, sz] = both(*m, "dot", {tv(DType::F32, {2}, {-1, 1}), tv(DType::F32, {2}, {0, -0.0})});
  CHECK(cz == bits(-0.0, DType::F32));
  CHECK(sz == bits(-0.0, DType::F32));
  // 3e38 + 3e38 overflows to +Inf in f32 and stays there; the exact sum is 3e38
  auto [co, so] = both(*m, "dot", {tv(DType::F32, {3}, {3e38, 3e38, -3e38}), tv(DType::F32, {3}, {1, 1, 1})});
  CHECK(co == bits(3e38, DType::F32));
  CHECK(so == num::inf_bits(DType::F32));
  // Inf x 0 is NaN in either order (the library's canonical NaN)
  auto [cn, sn] = both(*m, "dot", {tv(DType::F32, {2}, {INFINITY, 1}), tv(DType::F32, {2}, {0, 1})});
  CHECK(num::is_nan(cn, DType::F32));
  CHECK(sn == num::float_format(DType::F32).canonical_nan);
  // integer accumulators wrap: order-independent, same value
  const auto ia = tv(DType::I8, {3}, {100, -128, 7}), ib = tv(DType::I8, {3}, {100, 127, -3});
  CHECK(eval(*m, "dot_i8", {ia, ib}, AccumulationOrder::Sequential) == eval(*m, "dot_i8", {ia, ib}, AccumulationOrder::Canonical));
}

TEST_CASE("[L7.3] sequential scaled_contract: scaled terms in group, then element order", "[L7.3][accumulation]") {
  auto m = load_surface(kScaledSparse);
  // e5m2: 0x3C = 1, 0xBC = -1, 0x0C = 2^-12. lhs groups [1, 2^-12], [-1, 2^-12]; rhs groups
  // [1, 2^-12], [1, 2^-12]; scales 2^(151-127) * 2^0 = 2^24 for both groups. Terms in order:
  // 2^24, 1, -2^24, 1. Sequential f32: 2^24 + 1 is a tie -> 2^24; - 2^24 -> 0; + 1 -> 1. Exact: 2.
  const auto l = rawv(DType::U8, {1, 2, 2}, {0x3C, 0x0C, 0xBC, 0x0C}), r = rawv(DType::U8, {2, 2, 1}, {0x3C, 0x0C, 0x3C, 0x0C});
  const auto ls = rawv(DType::E8M0, {1, 2}, {151, 151}), rs = rawv(DType::E8M0, {1, 2}, {127, 127});
  auto [c, s] = both(*m, "scaled", {l, ls, r, rs});
  CHECK(c == bits(2, DType::F32));
  CHECK(s == bits(1, DType::F32));
  // f16 accumulator, four terms 1 * 1 * 2^-26 (scales 2^(101-127) * 2^0): each rounds once to f16
  // by itself, below half the smallest subnormal 2^-24 -> +0; their exact sum is 2^-24.
  const auto ones_l = rawv(DType::U8, {1, 2, 2}, {0x3C, 0x3C, 0x3C, 0x3C}), ones_r = rawv(DType::U8, {2, 2, 1}, {0x3C, 0x3C, 0x3C, 0x3C});
  auto [c2, s2] = both(*m, "scaled_f16", {ones_l, rawv(DType::E8M0, {1, 2}, {101, 101}), ones_r, rs});
  CHECK(c2 == bits(std::ldexp(1, -24), DType::F16));
  CHECK(s2 == bits(0, DType::F16));
  // a NaN scale makes the block, and so the result, NaN
  auto [cn, sn] = both(*m, "scaled", {l, rawv(DType::E8M0, {1, 2}, {151, 0xFF}), r, rs});
  CHECK(num::is_nan(cn, DType::F32));
  CHECK(num::is_nan(sn, DType::F32));
}

TEST_CASE("[L7.3] sequential-fused scaled_contract: each scaled term added with one rounding", "[L7.3][accumulation]") {
  auto m = load_surface(kScaledSparse);
  // e5m2 elements 1 (0x3C) and 1/2 (0x38) times 1, scales 2^(0-127) * 2^(105-127) = 2^-149: the
  // terms 2^-149 and 2^-150 (half of f32's smallest subnormal). Sequential rounds the second by
  // itself, a tie to even: +0, so 2^-149. Fused adds it exactly: 1.5 * 2^-149, a tie to even:
  // 2^-148 (also the exact sum rounded once). Scaled products are not f32 factors, so the
  // interpreter may not hand them to the host's fma.
  const auto l = rawv(DType::U8, {1, 1, 2}, {0x3C, 0x38}), r = rawv(DType::U8, {1, 2, 1}, {0x3C, 0x3C});
  const auto ls = rawv(DType::E8M0, {1, 1}, {0}), rs = rawv(DType::E8M0, {1, 1}, {105});
  CHECK(eval(*m, "scaled", {l, ls, r, rs}, AccumulationOrder::Sequential) == 1u);
  CHECK(eval(*m, "scaled", {l, ls, r, rs}, AccumulationOrder::SequentialFused) == 2u);
  CHECK(eval(*m, "scaled", {l, ls, r, rs}, AccumulationOrder::Canonical) == 2u);
  // -0 + (+0) is +0; a sum of -0 terms stays -0; +Inf then a -Inf term is NaN.
  const auto zl = rawv(DType::U8, {1, 1, 2}, {0x80, 0x00}), nl = rawv(DType::U8, {1, 1, 2}, {0x80, 0x80});
  CHECK(eval(*m, "scaled", {zl, ls, r, rs}, AccumulationOrder::SequentialFused) == 0u);
  CHECK(eval(*m, "scaled", {nl, ls, r, rs}, AccumulationOrder::SequentialFused) == 0x80000000u);
  const auto il = rawv(DType::U8, {1, 1, 2}, {0x7C, 0xFC});
  CHECK(num::is_nan(eval(*m, "scaled", {il, ls, r, rs}, AccumulationOrder::SequentialFused), DType::F32));
}

TEST_CASE("[L7.3] sequential sparse_contract: only the kept positions, in increasing order", "[L7.3][accumulation]") {
  auto m = load_surface(kScaledSparse);
  // one_of_two: values [1e8, 1, -1e8, 1] at positions [1, 0, 0, 1] -> dense positions 1, 2, 4, 7.
  // rhs is 1 there and +Inf at the dropped positions (0 * Inf would be NaN if they took part).
  // Sequential: 1e8 + 1 -> 1e8, - 1e8 -> 0, + 1 -> 1; exact: 2.
  const double inf = INFINITY;
  auto [c, s] = both(*m, "s12",
                     {tv(DType::F32, {1, 4}, {1e8, 1, -1e8, 1}), tv(DType::U8, {1, 4}, {1, 0, 0, 1}),
                      tv(DType::F32, {8, 1}, {inf, 1, 1, inf, 1, inf, inf, 1})});
  CHECK(c == bits(2, DType::F32));
  CHECK(s == bits(1, DType::F32));
}

namespace {

// The plain loop a backend declaring the Sequential order runs; the product is stored before the
// addition so that it cannot be contracted into an FMA.
float plain_dot(const std::vector<float>& a, const std::vector<float>& b) {
  float acc = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    volatile float p = a[k] * b[k];
    acc = acc + p;
  }
  return acc;
}

}  // namespace

TEST_CASE("[L7.3] sequential f32 dot products equal a plain C++ loop and lie in the envelope", "[L7.3][accumulation]") {
  auto m = load(kContracts);
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<int> len(0, 40), ex(-12, 12), coin(0, 1);
  std::uniform_real_distribution<double> frac(1.0, 2.0);
  auto value = [&] { return static_cast<float>((coin(rng) ? -1.0 : 1.0) * std::ldexp(frac(rng), ex(rng))); };
  interp::Options o;
  o.accumulation = AccumulationOrder::Sequential;
  interp::EnvelopeLog log;
  o.envelopes = &log;
  interp::Interpreter seq(*m, o), canon(*m);
  int differ = 0;
  for (int t = 0; t < 200; ++t) {
    const auto n = static_cast<size_t>(len(rng));
    std::vector<float> a(n), b(n);
    std::vector<uint64_t> ab(n), bb(n);
    for (size_t k = 0; k < n; ++k) {
      a[k] = value();
      b[k] = value();
      ab[k] = std::bit_cast<uint32_t>(a[k]);
      bb[k] = std::bit_cast<uint32_t>(b[k]);
    }
    const std::vector<interp::Value> args = {rawv(DType::F32, {static_cast<int64_t>(n)}, ab), rawv(DType::F32, {static_cast<int64_t>(n)}, bb)};
    const uint64_t s = seq.call_helper("dot", args)[0].tensor().bits[0];
    const uint64_t c = canon.call_helper("dot", args)[0].tensor().bits[0];
    const float want = plain_dot(a, b);
    INFO("trial " << t << ", K = " << n);
    CHECK(s == std::bit_cast<uint32_t>(want));
    REQUIRE(log.records.size() == static_cast<size_t>(t + 1));
    CHECK(log.records.back().components.at(0).elements.at(0).canonical == s);
    CHECK(log.check(log.records.size() - 1, 0, s));
    if (s != c) ++differ;
  }
  CHECK(differ >= 50);  // the property is not vacuous: the orders disagree often
}

namespace {

const char* kDotKernel = R"(kernel @dotk(%a: In<f32[M, K]>, %b: In<f32[K]>, %y: Out<f32[M]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %brel = relation(%ik) : relation<1 -> [K]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M]
  %yrel = relation(%im) : relation<1 -> [M]>
  view.store(%y, %yrel, %acc)
}
)";

}  // namespace

TEST_CASE("[L7.3] kir run --policy accumulation=canonical|sequential", "[L7.3][accumulation][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("kir_acc_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "dot.kir").string(), a = (dir / "a.npy").string(), b = (dir / "b.npy").string();
  std::ofstream(file) << kDotKernel;
  interp::write_npy(a, DType::F32, {1, 3}, {bits(1e8, DType::F32), bits(1, DType::F32), bits(-1e8, DType::F32)});
  interp::write_npy(b, DType::F32, {3}, {bits(1, DType::F32), bits(1, DType::F32), bits(1, DType::F32)});
  const std::string run = "run " + file + " --input a=" + a + " --input b=" + b + " --envelope";
  for (auto [policy, want] : {std::pair{"", "{1}"}, {" --policy accumulation=canonical", "{1}"}, {" --policy accumulation=sequential", "{0}"}}) {
    auto r = kir::test::run_kir(run + policy);
    INFO(policy << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(std::string("%y: f32[1] ") + want) != std::string::npos);
    CHECK(r.out.find("canonical inside envelope: yes") != std::string::npos);
  }
  auto bad = kir::test::run_kir(run + " --policy accumulation=pairwise");
  INFO(bad.out);
  CHECK(bad.code == 2);
  CHECK(bad.out.find("accumulation=canonical|sequential") != std::string::npos);
  auto help = kir::test::run_kir("run --help");
  CHECK(help.out.find("accumulation=canonical|sequential") != std::string::npos);
  std::filesystem::remove_all(dir);
}
