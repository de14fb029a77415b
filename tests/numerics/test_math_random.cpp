// Randomized f32/f64 checks of the unary math functions against the Boost reference: inputs
// uniform in bits and uniform in each function's interesting value range, every special value,
// and (f32) inputs selected as hard to round. KIR_NUMERICS_SAMPLES sets the count per function
// and dtype. Also: fast path == MPFR path, the numerics reference §2.4 values, FTZ and the API.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "numerics/math.h"
#include "tests/numerics/math_reference.h"

using namespace kir;
using num::MathFn;

namespace {

struct Range { double lo, hi; };

Range value_range(MathFn f, bool f64) {
  switch (f) {
    case MathFn::Exp: return f64 ? Range{-746, 710} : Range{-110, 90};
    case MathFn::Exp2: return f64 ? Range{-1080, 1025} : Range{-152, 130};
    case MathFn::Log: return {0, 1e6};
    case MathFn::Log1p: return {-1, 10};
    case MathFn::Lgamma: return {-60, 60};
    case MathFn::Sin: case MathFn::Cos: return {-1e4, 1e4};
    case MathFn::Asin: return {-1, 1};
    case MathFn::Tanh: return {-20, 20};
    case MathFn::Erf: return {-6, 6};
    case MathFn::Erfc: return f64 ? Range{-8, 28} : Range{-6, 11};
    case MathFn::I0: return f64 ? Range{-720, 720} : Range{-95, 95};
    case MathFn::Sigmoid: return f64 ? Range{-750, 40} : Range{-110, 20};
    default: return {-1e3, 1e3};
  }
}

uint64_t to_bits(double v, DType d) {
  return d == DType::F32 ? std::bit_cast<uint32_t>(static_cast<float>(v)) : std::bit_cast<uint64_t>(v);
}

std::vector<uint64_t> special_inputs(DType d) {
  const bool f64 = d == DType::F64;
  std::vector<double> v = {0.0, 1.0, 2.0, 0.5, -0.5, -1.0, -2.0, -3.0, 3.0, 1e-30, -1e-30, INFINITY,
                           -INFINITY, 100.0, -100.0, 700.0, -700.0, 88.72, -103.9, 0.75, -2.5};
  std::vector<uint64_t> b;
  for (double x : v) b.push_back(to_bits(x, d));
  b.push_back(-0.0 == 0.0 ? (f64 ? 0x8000000000000000ull : 0x80000000ull) : 0);
  if (f64) {
    for (uint64_t x : {0x1ull, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x0010000000000000ull,
                       0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x7FF8000000000000ull,
                       0xFFF0000000000001ull})
      b.push_back(x);
  } else {
    for (uint64_t x : {0x1ull, 0x80000001ull, 0x007FFFFFull, 0x00800000ull, 0x7F7FFFFFull, 0xFF7FFFFFull,
                       0x7FC00000ull, 0xFF800001ull})
      b.push_back(x);
  }
  return b;
}

// f32 inputs whose double-precision result lies closest to an f32 rounding midpoint.
std::vector<uint64_t> hard_inputs_f32(MathFn f, double start, int count, int keep) {
  std::vector<std::pair<double, uint64_t>> cand;
  uint32_t b = std::bit_cast<uint32_t>(static_cast<float>(start));
  for (int i = 0; i < count; ++i, ++b) {
    const double x = std::bit_cast<float>(b);
    double y;
    switch (f) {
      case MathFn::Exp: y = std::exp(x); break;
      case MathFn::Log: y = std::log(x); break;
      case MathFn::Sin: y = std::sin(x); break;
      case MathFn::Cos: y = std::cos(x); break;
      default: y = std::erf(x); break;
    }
    if (!std::isfinite(y) || y == 0) continue;
    int e;
    std::frexp(y, &e);
    const double scaled = std::ldexp(std::fabs(y), 24 - e);  // f32 significand units
    const double frac = scaled - std::floor(scaled);
    cand.push_back({std::fabs(frac - 0.5), b});
  }
  std::partial_sort(cand.begin(), cand.begin() + std::min<size_t>(keep, cand.size()), cand.end());
  std::vector<uint64_t> out;
  for (size_t i = 0; i < cand.size() && i < size_t(keep); ++i) out.push_back(cand[i].second);
  return out;
}

void check_one(MathFn f, DType d, uint64_t b, long& bad) {
  const uint64_t want = test::reference(f, d, b);
  const uint64_t got = num::eval(f, d, b);
  if (want != got && bad++ < 5)
    UNSCOPED_INFO(num::name(f) << "(" << kir::name(d) << " 0x" << std::hex << b << ") = 0x" << got
                               << ", expected 0x" << want << std::dec);
}

void random_check(DType d, long n) {
  const bool f64 = d == DType::F64;
  std::mt19937_64 rng(20261129 + int(d));
  for (int fi = 0; fi < num::kNumMathFns; ++fi) {
    const auto f = static_cast<MathFn>(fi);
    long bad = 0;
    for (uint64_t b : special_inputs(d)) check_one(f, d, b, bad);
    const Range r = value_range(f, f64);
    std::uniform_real_distribution<double> val(r.lo, r.hi);
    for (long i = 0; i < n; ++i) {
      uint64_t b = rng();
      if (!f64) b &= 0xFFFFFFFFu;
      if (i & 1) b = to_bits(val(rng), d);
      check_one(f, d, b, bad);
    }
    if (!f64 && (f == MathFn::Exp || f == MathFn::Log || f == MathFn::Sin || f == MathFn::Cos ||
                 f == MathFn::Erf)) {
      for (double start : {0.3, 1.0, 7.0, 60.0})
        for (uint64_t b : hard_inputs_f32(f, start, 1 << 16, 8)) check_one(f, d, b, bad);
    }
    INFO(num::name(f) << " on " << kir::name(d) << ", " << n << " random inputs");
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("unary math is correctly rounded on random f32 inputs", "[L4.3][numerics]") {
  random_check(DType::F32, test::samples(20000));
}

TEST_CASE("unary math is correctly rounded on random f64 inputs", "[L4.3][numerics]") {
  random_check(DType::F64, test::samples(10000));
}

TEST_CASE("fast path and MPFR path agree on f32", "[L4.3][numerics]") {
  std::mt19937_64 rng(7);
  const long n = test::samples(20000);
  for (int fi = 0; fi < num::kNumMathFns; ++fi) {
    const auto f = static_cast<MathFn>(fi);
    const Range r = value_range(f, false);
    std::uniform_real_distribution<double> val(r.lo, r.hi);
    long bad = 0;
    for (long i = 0; i < n; ++i) {
      const uint64_t b = (i & 1) ? to_bits(val(rng), DType::F32) : (rng() & 0xFFFFFFFFu);
      if (num::eval(f, DType::F32, b) != num::eval_reference(f, DType::F32, b)) ++bad;
    }
    INFO(num::name(f));
    CHECK(bad == 0);
  }
}

TEST_CASE("numerics reference 2.4 correctly rounded f32 values", "[L4.3][numerics]") {
  struct V { const char* fn; float x; uint32_t want; };
  const V vs[] = {
      {"exp", 0x1p+0f, 0x402DF854}, {"exp", -0x1.9p+6f, 0x0000001B}, {"exp", 0x1.62e43p+6f, 0x7F800000},
      {"exp", 0x1.64p+6f, 0x7F800000}, {"exp2", 0x1p-1f, 0x3FB504F3}, {"log", 0x1p+1f, 0x3F317218},
      {"log1p", 0x1.b7cdfep-34f, 0x2EDBE6FF}, {"sin", 0x1p+0f, 0x3F576AA4},
      {"sin", 0x1.0f0cfp+73f, 0xBF3BECC4}, {"cos", 0x1.e848p+19f, 0x3F6FCEFD},
      {"asin", 0x1p-1f, 0x3F060A92}, {"tanh", 0x1p-1f, 0x3EEC9A9F}, {"erf", 0x1p-1f, 0x3F053F7B},
      {"erfc", 0x1.4p+3f, 0x00000001}, {"erfc", 0x1p+2f, 0x32846EE9}, {"lgamma", -0x1.4p+1f, 0xBD665FD0},
      {"lgamma", 0x1p-1f, 0x3F128682}, {"rsqrt", 0x1p+1f, 0x3F3504F3}, {"sqrt", 0x1p+1f, 0x3FB504F3},
      {"i0", 0.5f, std::bit_cast<uint32_t>(0x1.104072p+0f)}, {"i0", 1.0f, std::bit_cast<uint32_t>(0x1.441ce4p+0f)},
      {"i0", 2.5f, std::bit_cast<uint32_t>(0x1.a51972p+1f)}, {"i0", 10.0f, std::bit_cast<uint32_t>(0x1.5ff6eep+11f)},
      {"i0", 50.0f, std::bit_cast<uint32_t>(0x1.fcb78cp+67f)}, {"i0", 91.5f, std::bit_cast<uint32_t>(0x1.57b19ep+127f)},
  };
  for (const V& v : vs) {
    INFO(v.fn << "(" << v.x << ")");
    const uint64_t b = std::bit_cast<uint32_t>(v.x);
    CHECK(num::eval_unary(v.fn, DType::F32, b) == std::optional<uint64_t>(v.want));
    CHECK(num::eval_reference(*num::parse_math_fn(v.fn), DType::F32, b) == v.want);
  }
  struct W { double x, want; };
  for (W w : {W{0.5, 0x1.104072392c800p+0}, W{1, 0x1.441ce4b386c2dp+0}, W{2.5, 0x1.a51972f665e07p+1},
              W{10, 0x1.5ff6ee9ed23e4p+11}, W{50, 0x1.fcb78c9d0a578p+67}, W{91.5, 0x1.57b19d5a5bf73p+127},
              W{700, 0x1.c8cdeeadb5df0p+1003}}) {
    INFO("i0(" << w.x << ") f64");
    CHECK(num::eval(MathFn::I0, DType::F64, std::bit_cast<uint64_t>(w.x)) == std::bit_cast<uint64_t>(w.want));
  }
  CHECK(num::eval(MathFn::I0, DType::F32, std::bit_cast<uint32_t>(92.0f)) == 0x7F800000u);
}

TEST_CASE("unary math special values and API", "[L4.3][numerics]") {
  CHECK(num::parse_math_fn("sigmoid") == MathFn::Sigmoid);
  CHECK(!num::parse_math_fn("tan"));
  for (int fi = 0; fi < num::kNumMathFns; ++fi)
    CHECK(num::parse_math_fn(num::name(static_cast<MathFn>(fi))) == static_cast<MathFn>(fi));
  CHECK(!num::eval_unary("exp", DType::I32, 0));
  CHECK(!num::eval_unary("nope", DType::F32, 0));
  CHECK_THROWS(num::eval(MathFn::Exp, DType::E4M3, 0));
  // canonical NaN out, whatever the NaN in
  CHECK(num::eval(MathFn::Abs, DType::F32, 0xFFC00001u) == 0x7FC00000u);
  CHECK(num::eval(MathFn::Sqrt, DType::F16, 0xBC00) == 0x7E00);  // sqrt(-1)
  CHECK(num::eval(MathFn::Log, DType::BF16, 0xBF80) == 0x7FC0);  // log(-1)
  CHECK(num::eval(MathFn::Rsqrt, DType::F32, 0x80000000u) == 0xFF800000u);  // rsqrt(-0) = -Inf
  CHECK(num::eval(MathFn::Rsqrt, DType::F32, 0x00000000u) == 0x7F800000u);
  CHECK(num::eval(MathFn::Lgamma, DType::F32, 0x80000000u) == 0x7F800000u);  // lgamma(-0) = +Inf
  CHECK(num::eval(MathFn::Lgamma, DType::F32, std::bit_cast<uint32_t>(-3.0f)) == 0x7F800000u);
  CHECK(num::eval(MathFn::Sqrt, DType::F64, 0x8000000000000000ull) == 0x8000000000000000ull);
  CHECK(num::eval(MathFn::Floor, DType::F32, std::bit_cast<uint32_t>(-0.5f)) == std::bit_cast<uint32_t>(-1.0f));
  CHECK(num::eval(MathFn::Erfc, DType::F32, 0xFF800000u) == std::bit_cast<uint32_t>(2.0f));
}

TEST_CASE("exp2 flush-to-zero evaluation", "[L4.5][numerics]") {
  const uint32_t sub = 0x00000001;  // smallest f32 subnormal
  CHECK(num::eval(MathFn::Exp2, DType::F32, sub, false) == 0x3F800000u);
  CHECK(num::eval(MathFn::Exp2, DType::F32, sub, true) == 0x3F800000u);
  const uint32_t m130 = std::bit_cast<uint32_t>(-130.0f);  // 2^-130 is subnormal
  CHECK(num::eval(MathFn::Exp2, DType::F32, m130, false) == 0x00080000u);
  CHECK(num::eval(MathFn::Exp2, DType::F32, m130, true) == 0x00000000u);
  CHECK(num::eval(MathFn::Tanh, DType::F32, 0x80000001u, true) == 0x80000000u);  // -sub -> -0
}
