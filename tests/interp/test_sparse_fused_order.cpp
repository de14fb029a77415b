// sparse_contract under AccumulationOrder::SequentialFused (L7.3, L12.1): the order a packed
// 2:4 / 1:2 backend implementation declares (per element acc = -0, then one fma per KEPT term,
// kept dense positions increasing; a dropped position is no term at all, so an Inf or NaN of the
// dense operand there does not reach the result and no +0 product is added). The interpreter is
// the oracle such an implementation is compared against; here it is checked against hand-derived
// values and against an independent loop (std::fma per kept term) over random two_of_four and
// one_of_two matrices with Inf / NaN at dropped positions and signed zeros.
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;
using interp::AccumulationOrder;

namespace {

const char* kSparseFused = R"(
fn @s24(%c: f32[M, C], %meta: u8[M, C], %rhs: f32[2*C, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = two_of_four} : f32[M, N]
  return(%y)
}

fn @s12(%c: f32[M, C], %meta: u8[M, C], %rhs: f32[2*C, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = one_of_two} : f32[M, N]
  return(%y)
}
)";

uint64_t f32bits(float v) { return std::bit_cast<uint32_t>(v); }

std::vector<uint64_t> run(const Module& m, const std::string& fn, const std::vector<float>& c, const std::vector<int>& meta,
                          const std::vector<float>& rhs, int64_t M, int64_t C, int64_t D, int64_t N, AccumulationOrder order) {
  std::vector<uint64_t> cb, mb, rb;
  for (float v : c) cb.push_back(f32bits(v));
  for (int v : meta) mb.push_back(static_cast<uint64_t>(v));
  for (float v : rhs) rb.push_back(f32bits(v));
  interp::Options o;
  o.accumulation = order;
  auto r = interp::Interpreter(m, o).call_helper(
      fn, {interp::Value(raw_tensor(DType::F32, {M, C}, cb)), interp::Value(raw_tensor(DType::U8, {M, C}, mb)),
           interp::Value(raw_tensor(DType::F32, {D, N}, rb))});
  return r.at(0).tensor().bits;
}

}  // namespace

TEST_CASE("[L7.3] sequential-fused sparse_contract: one fma per kept term, from -0", "[L7.3][L12.1][accumulation]") {
  auto m = load_surface(kSparseFused);
  const float nan = std::nanf(""), inf = INFINITY;
  // one_of_two, values [-1, 1 + 2^-12] at positions [1, 0]: kept dense positions 1 and 2, where
  // rhs holds 1 + 2^-11 and 1 + 2^-12; the dropped positions 0 and 3 hold NaN and +Inf.
  // Fused: fma(-1, 1 + 2^-11, -0) = -(1 + 2^-11), then fma(1 + 2^-12, 1 + 2^-12, that) = 2^-24
  // exactly. Sequential rounds the product 1 + 2^-11 + 2^-24 to 1 + 2^-11 (a tie to even): +0.
  const float a = 1.0f + std::ldexp(1.0f, -12), b = 1.0f + std::ldexp(1.0f, -11);
  const std::vector<float> c = {-1.0f, a}, rhs = {nan, b, a, inf};
  const std::vector<int> meta = {1, 0};
  CHECK(run(*m, "s12", c, meta, rhs, 1, 2, 4, 1, AccumulationOrder::SequentialFused)[0] == f32bits(std::ldexp(1.0f, -24)));
  CHECK(run(*m, "s12", c, meta, rhs, 1, 2, 4, 1, AccumulationOrder::Sequential)[0] == 0u);
  CHECK(run(*m, "s12", c, meta, rhs, 1, 2, 4, 1, AccumulationOrder::Canonical)[0] == f32bits(std::ldexp(1.0f, -24)));
  // Kept terms -0 * 1 and 1 * -0 sum to -0 from the -0 start; a dropped position adding a +0
  // product (a decompressed zero times the rhs's 1 there) would make it +0.
  const std::vector<float> zc = {-0.0f, 1.0f}, zr = {1.0f, 1.0f, -0.0f, 1.0f};
  CHECK(run(*m, "s12", zc, meta, zr, 1, 2, 4, 1, AccumulationOrder::SequentialFused)[0] == 0x80000000u);
  // two_of_four, positions [0, 3]: Inf and NaN at the dropped 1 and 2 do not poison 2*3 + 5*7.
  const std::vector<float> tc = {2.0f, 5.0f}, tr = {3.0f, inf, nan, 7.0f};
  CHECK(run(*m, "s24", tc, {0, 3}, tr, 1, 2, 4, 1, AccumulationOrder::SequentialFused)[0] == f32bits(41.0f));
  // An Inf at a kept position times a kept 0 is NaN (0 * Inf), as the term is.
  const std::vector<float> ir = {inf, 1.0f, 1.0f, 7.0f};
  const std::vector<float> ic = {0.0f, 5.0f};
  CHECK(std::isnan(std::bit_cast<float>(static_cast<uint32_t>(
      run(*m, "s24", ic, {0, 3}, ir, 1, 2, 4, 1, AccumulationOrder::SequentialFused)[0]))));
}

TEST_CASE("[L7.3] sequential-fused sparse_contract equals an fma loop over the kept terms (random, every format)",
          "[L7.3][L12.1][accumulation]") {
  auto m = load_surface(kSparseFused);
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> val(-4.0f, 4.0f);
  for (const char* fn : {"s24", "s12"}) {
    const int64_t group = std::string(fn) == "s24" ? 4 : 2, keep = group / 2;
    for (int64_t groups : {1, 3, 17}) {
      const int64_t M = 5, N = 7, C = groups * keep, D = groups * group;
      std::vector<float> c(static_cast<size_t>(M * C)), rhs(static_cast<size_t>(D * N));
      std::vector<int> meta(static_cast<size_t>(M * C));
      for (auto& v : c) v = std::uniform_int_distribution<int>(0, 9)(rng) == 0 ? -0.0f : val(rng);
      for (auto& v : rhs) v = val(rng);
      for (int64_t i = 0; i < M; ++i)
        for (int64_t g = 0; g < groups; ++g) {
          // keep positions: ascending distinct picks from [0, group)
          std::vector<int> pos;
          for (int p = 0; p < group; ++p) pos.push_back(p);
          std::shuffle(pos.begin(), pos.end(), rng);
          pos.resize(static_cast<size_t>(keep));
          std::sort(pos.begin(), pos.end());
          for (int64_t t = 0; t < keep; ++t) meta[static_cast<size_t>(i * C + g * keep + t)] = pos[static_cast<size_t>(t)];
        }
      // Row 0's dropped positions in rhs hold Inf / NaN (all rows read rhs, so only where row 0
      // drops and no other row keeps; the expectation handles either).
      for (int64_t g = 0; g < groups; ++g)
        for (int p = 0; p < group; ++p) {
          bool kept = false;
          for (int64_t i = 0; i < M; ++i)
            for (int64_t t = 0; t < keep; ++t) kept |= meta[static_cast<size_t>(i * C + g * keep + t)] == p;
          if (!kept)
            for (int64_t n = 0; n < N; ++n) rhs[static_cast<size_t>((g * group + p) * N + n)] = (n % 2) ? INFINITY : std::nanf("");
        }
      const auto got = run(*m, fn, c, meta, rhs, M, C, D, N, AccumulationOrder::SequentialFused);
      for (int64_t i = 0; i < M; ++i)
        for (int64_t n = 0; n < N; ++n) {
          float acc = -0.0f;
          for (int64_t k = 0; k < C; ++k) {
            const int64_t d = (k / keep) * group + meta[static_cast<size_t>(i * C + k)];
            acc = std::fma(c[static_cast<size_t>(i * C + k)], rhs[static_cast<size_t>(d * N + n)], acc);
          }
          INFO(fn << " groups " << groups << " at " << i << "," << n);
          CHECK(got[static_cast<size_t>(i * N + n)] == f32bits(acc));
        }
    }
  }
}
