// Float `rem` (L4.14 arithmetic: fmod — truncated quotient, the dividend's sign, always exact),
// checked on operands decoded by the test-side format decoder (ref_float.h), never through
// numerics' own decode, against MPFR's mpfr_fmod (every pair of the 4- and 8-bit formats, seeded
// random pairs of f32 and f64: bit patterns and close exponents) and against an integer long
// division of the significands (every f16/bf16 value against 34 chosen divisors and as the
// divisor of 34 chosen dividends; every pair of both, 2 x 2^32, in the hidden [.exhaustive]
// case). A NaN result must
// be the format's canonical NaN; e2m1, which has no NaN, reports rem(x, 0) as an error.
#include <mpfr.h>

#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "numerics/arith.h"
#include "ref_float.h"

using kir::DType;
using namespace kir::num;

namespace {

// The canonical NaN encodings, typed in (positive, quiet).
uint64_t canonical_nan(DType d) {
  switch (d) {
    case DType::F16: return 0x7E00;
    case DType::BF16: return 0x7FC0;
    case DType::F32: return 0x7FC00000;
    case DType::F64: return 0x7FF8000000000000ull;
    case DType::E4M3: return 0x7F;
    case DType::E5M2: return 0x7E;
    default: return 0;
  }
}

// fmod of two exact values, exact at 64 bits (every operand has at most 53 significant bits);
// nothing if MPFR reports it inexact (which would fail the pair).
std::optional<double> ref_fmod(double x, double y) {
  mpfr_t a, b, r;
  mpfr_inits2(64, a, b, r, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  const int inexact = mpfr_fmod(r, a, b, MPFR_RNDN);
  const double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, b, r, static_cast<mpfr_ptr>(nullptr));
  if (inexact != 0) return std::nullopt;
  return out;
}

// fmod by integer arithmetic: with x = mx·2^ex and y = my·2^ey (53-bit significands), |x| < |y|
// when ex < ey; otherwise the remainder of mx·2^(ex-ey) by my, doubling one bit at a time.
std::optional<double> int_fmod(double x, double y) {
  if (std::isnan(x) || std::isnan(y) || std::isinf(x) || y == 0) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(y) || x == 0) return x;
  int ex = 0, ey = 0;
  const auto mx = static_cast<uint64_t>(std::ldexp(std::frexp(std::fabs(x), &ex), 53));
  const auto my = static_cast<uint64_t>(std::ldexp(std::frexp(std::fabs(y), &ey), 53));
  if (ex < ey) return x;
  uint64_t r = mx % my;
  for (int k = ex - ey; k > 0; --k) r = (r << 1) % my;
  const double v = std::ldexp(static_cast<double>(r), ey - 53);
  return std::signbit(x) ? -v : v;
}

// The number of pairs whose rem differs from the reference (value, zero sign, canonical NaN);
// the first few are reported.
struct Check {
  DType d;
  std::optional<double> (*reference)(double, double) = ref_fmod;
  reftest::Fmt f = reftest::fmt(d);
  int bad = 0;
  int64_t count = 0;
  void operator()(uint64_t a, uint64_t b) {
    ++count;
    const double x = reftest::decode(a, f), y = reftest::decode(b, f);
    const auto ref = reference(x, y);
    const double want = ref.value_or(0.0);
    auto got = binary(BinaryOp::Rem, Scalar{d, a}, Scalar{d, b});
    bool ok;
    if (!ref) {
      ok = false;
    } else if (d == DType::E2M1 && std::isnan(want)) {
      ok = !got.ok();
    } else if (!got.ok()) {
      ok = false;
    } else if (std::isnan(want)) {
      ok = got->bits == canonical_nan(d);
    } else {
      const double v = reftest::decode(got->bits, f);
      ok = v == want && std::signbit(v) == std::signbit(want);
    }
    if (!ok && ++bad <= 5)
      FAIL_CHECK("rem " << std::hexfloat << x << ", " << y << ": want " << want << ", got "
                        << (got.ok() ? std::to_string(got->bits) : got.error().message));
  }
};

uint64_t mask(DType d) { return reftest::width(reftest::fmt(d)) == 64 ? ~uint64_t{0} : (uint64_t{1} << reftest::width(reftest::fmt(d))) - 1; }

// Chosen encodings of a 16-bit format: zeros, subnormals at both ends, the smallest normals,
// one, powers of two, the largest finites, infinities, NaN, and seeded others.
std::vector<uint64_t> chosen16(DType d, uint64_t seed) {
  const uint64_t man = d == DType::F16 ? 10 : 7, inf = d == DType::F16 ? 0x7C00 : 0x7F80, one = d == DType::F16 ? 0x3C00 : 0x3F80;
  std::vector<uint64_t> v = {0, 1, 2, 3, (uint64_t{1} << man) - 1, uint64_t{1} << man, (uint64_t{1} << man) + 1, one, one + 1,
                             one - 1, one + (uint64_t{1} << man), inf - 1, inf - 2, inf, inf + 1, 0x4500, 0x4248};
  const size_t base = v.size();
  for (size_t i = 0; i < base; ++i) v.push_back(v[i] | 0x8000);
  std::mt19937_64 g(seed);
  while (v.size() < 32) v.push_back(g() & 0xFFFF);
  return v;
}

}  // namespace

TEST_CASE("float rem: every pair of e4m3, e5m2 and e2m1 against MPFR", "[numerics][rem][L4.14]") {
  for (DType d : {DType::E4M3, DType::E5M2, DType::E2M1}) {
    Check c{d};
    const uint64_t n = mask(d) + 1;
    for (uint64_t a = 0; a < n; ++a)
      for (uint64_t b = 0; b < n; ++b) c(a, b);
    INFO(name(d));
    CHECK(c.count == static_cast<int64_t>(n * n));
    CHECK(c.bad == 0);
  }
}

TEST_CASE("float rem: every f16 and bf16 value as dividend and as divisor against integer division", "[numerics][rem][L4.14]") {
  for (DType d : {DType::F16, DType::BF16}) {
    Check c{d, int_fmod};
    const auto some = chosen16(d, 31 + static_cast<uint64_t>(d));
    for (uint64_t v = 0; v <= 0xFFFF; ++v)
      for (uint64_t s : some) {
        c(v, s);
        c(s, v);
      }
    INFO(name(d));
    CHECK(c.count == int64_t{2} * 65536 * static_cast<int64_t>(some.size()));
    CHECK(c.bad == 0);
  }
}

TEST_CASE("float rem: every pair of f16 and of bf16 against integer division", "[.exhaustive][numerics][rem][L4.14]") {
  for (DType d : {DType::F16, DType::BF16}) {
    Check c{d, int_fmod};
    for (uint64_t a = 0; a <= 0xFFFF; ++a)
      for (uint64_t b = 0; b <= 0xFFFF; ++b) c(a, b);
    INFO(name(d));
    CHECK(c.count == int64_t{1} << 32);
    CHECK(c.bad == 0);
  }
}

TEST_CASE("float rem: seeded f32 and f64 pairs against MPFR", "[numerics][rem][L4.14]") {
  for (DType d : {DType::F32, DType::F64}) {
    Check c{d};
    std::mt19937_64 g(57 + static_cast<uint64_t>(d));
    const int w = reftest::width(reftest::fmt(d)), man = reftest::fmt(d).man_bits;
    for (int i = 0; i < 100000; ++i) {
      const uint64_t a = g() & mask(d);
      c(a, g() & mask(d));
      // A divisor within a few binades of the dividend (long quotients are rare otherwise).
      const int64_t shift = static_cast<int64_t>(g() % 9) - 4;
      const uint64_t b = (a & ~(uint64_t{1} << (w - 1))) + (static_cast<uint64_t>(shift) << man) ^ (g() & ((uint64_t{1} << man) - 1));
      c(a, b & mask(d));
    }
    INFO(name(d));
    CHECK(c.bad == 0);
  }
}

TEST_CASE("float rem: hand-computed values", "[numerics][rem][L4.14]") {
  auto f32 = [](float v) { return Scalar{DType::F32, std::bit_cast<uint32_t>(v)}; };
  auto val = [](const Result<Scalar>& r) { return std::bit_cast<float>(static_cast<uint32_t>(r->bits)); };
  CHECK(val(binary(BinaryOp::Rem, f32(7.5f), f32(2.0f))) == 1.5f);
  CHECK(val(binary(BinaryOp::Rem, f32(-7.5f), f32(2.0f))) == -1.5f);   // the dividend's sign
  CHECK(val(binary(BinaryOp::Rem, f32(7.5f), f32(-2.0f))) == 1.5f);
  CHECK(std::signbit(val(binary(BinaryOp::Rem, f32(-4.0f), f32(2.0f)))));  // -0
  CHECK(val(binary(BinaryOp::Rem, f32(1.0f), f32(INFINITY))) == 1.0f);
  CHECK(binary(BinaryOp::Rem, f32(INFINITY), f32(1.0f))->bits == 0x7FC00000u);
  CHECK(binary(BinaryOp::Rem, f32(1.0f), f32(0.0f))->bits == 0x7FC00000u);
  // 2^127 mod 3 = 2 (2^odd ≡ 2 mod 3), exactly, whatever the quotient's size.
  CHECK(val(binary(BinaryOp::Rem, f32(0x1p127f), f32(3.0f))) == 2.0f);
}
