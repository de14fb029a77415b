// Fast path of the unary math functions for f16, bf16 and f32: evaluate in double, widen the
// result to an interval [y - δ, y + δ] that is guaranteed to contain the exact value, and accept
// the result only if both ends round (RNE) to the same value of the target dtype. Rounding is
// monotone, so the exact value then rounds to that value too; otherwise the caller falls back
// to MPFR. The error bounds δ per function are listed and argued in docs/numerics.md "Math functions"
// ("Fast path"); the constants below are the single place they are used.
#include <algorithm>
#include <math.h>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "numerics/format.h"
#include "numerics/math_detail.h"

namespace kir::num::detail {
namespace {

// Assumed relative error bound of the glibc double functions used here (exp, exp2, log, log1p,
// lgamma on x > 0, sin, cos, asin, tanh, erf, erfc): 2^-40, i.e. 4096 ulps of double, against the
// documented worst cases of 1-5 ulps (numerics reference §6.1, glibc x86_64 libm-test-ulps).
constexpr double kLibmRel = 0x1p-40;
// Absolute slack for results in double's subnormal range, where libm bounds are in ulps of
// 2^-1074 rather than relative (16384 such ulps).
constexpr double kAbs = 0x1p-1060;
// Rounding of the interval ends themselves (|y|*c and y ± δ): at most a few units of 2^-53.
constexpr double kEndpointRel = 0x1p-50;

std::optional<uint64_t> round_unique(DType d, double lo, double hi) {
  if (d == DType::F32) {
    // hardware double->float conversion is RNE with gradual underflow and overflow to Inf
    const uint32_t a = std::bit_cast<uint32_t>(static_cast<float>(lo));
    const uint32_t b = std::bit_cast<uint32_t>(static_cast<float>(hi));
    if (a != b) return std::nullopt;
    return a;
  }
  const uint64_t a = from_double(lo, d), b = from_double(hi, d);
  if (a != b) return std::nullopt;
  return a;
}

std::optional<uint64_t> accept(DType d, double y, double rel, bool nonneg, double abs = 0) {
  if (!std::isfinite(y)) return std::nullopt;
  const double delta = std::fabs(y) * (rel + kEndpointRel) + kAbs + abs * (1 + 0x1p-40);
  double lo = y - delta;
  const double hi = y + delta;
  if (nonneg && lo < 0) lo = 0.0;
  return round_unique(d, lo, hi);
}

// The value 0 / +Inf of dtype d, for results known to lie strictly inside (0, 2^-151) (rounds to
// +0 in f16, bf16 and f32) or above DBL_MAX (rounds to +Inf).
uint64_t plus_zero(DType) { return 0; }
uint64_t plus_inf(DType d) { return inf_bits(d); }

// lgamma(x) for x < 0, not an integer, by the reflection formula
// lgamma(x) = log π - log|sin(πx)| - lgamma(1 - x), with an absolute error bound: the result
// crosses zero twice between consecutive negative integers, so only an absolute bound holds
// there, and near those zeros accept() cannot decide and MPFR takes over.
std::optional<uint64_t> lgamma_negative(DType d, double x) {
  constexpr double kU = 0x1p-53;
  // s = x mod 2 in (-1, 1] exactly, folded to |s| <= 1/2 with |sin(πs)| = |sin(πx)| (exact).
  double s = x - 2 * std::nearbyint(x / 2);
  if (s > 0.5) s = 1 - s;
  if (s < -0.5) s = -1 - s;
  const double sn = std::fabs(std::sin(3.141592653589793 * s));  // rel. error <= kLibmRel + 3u
  const double a = 1.1447298858494002;                           // log π, rounded
  const double b = std::log(sn);
  const double z = 1 - x;  // > 1; its rounding moves lgamma by at most u z |ψ(z)| <= u z (0.58 + log z)
  const double c = std::lgamma(z);
  const double y = (a - b) - c;
  const double abs_err = kLibmRel * (std::fabs(b) + std::fabs(c) + 1.5) + kU * (1 + 4 * std::fabs(a)) +
                         kU * z * (0.58 + std::log(z)) + 3 * kU * (std::fabs(a - b) + std::fabs(y));
  return accept(d, y, 0, false, abs_err);
}

}  // namespace

double i0_series(double x, double* rel_err) {
  // q = x^2/4 is exact (x has <= 24 significant bits here). t_k = t_{k-1}*q/k^2: two roundings
  // per term (k^2 exact), so t_k carries relative error <= gamma_{2k}; the sum of n positive
  // terms adds gamma_{n}. Stop when q/(k+1)^2 <= 1/2 (tail <= t_k) and t_k <= s*2^-60.
  const double q = x * x * 0.25;
  double t = 1, s = 1;
  int k = 1;
  for (;; ++k) {
    t = t * q / (double(k) * double(k));
    s += t;
    if (q <= 0.5 * double(k + 1) * double(k + 1) && t <= s * 0x1p-60) break;
  }
  *rel_err = 3.0 * k * 0x1p-53 * 1.01 + 0x1p-58;
  return s;
}

std::optional<uint64_t> math_fast_f64(MathFn f, double x) {
  // glibc's x87 long double functions, assumed within 2^-58 relative (32 ulps of the 64-bit
  // significand; glibc's libm-test-ulps lists at most a few). The double conversion of the two
  // interval ends is RNE with gradual underflow and overflow to Inf.
  if constexpr (std::numeric_limits<long double>::digits < 64) return std::nullopt;  // no x87 format
  constexpr long double kRel = 0x1p-58L;
  const long double lx = x;
  long double y, rel = kRel;
  switch (f) {
    case MathFn::Exp: y = expl(lx); break;
    case MathFn::Exp2: y = exp2l(lx); break;
    case MathFn::Log: y = logl(lx); break;
    case MathFn::Log1p: y = log1pl(lx); break;
    case MathFn::Lgamma:
      if (x < 3) return std::nullopt;  // near the zeros at 1 and 2, and negative x: MPFR
      y = lgammal(lx);
      break;
    case MathFn::Sin: y = sinl(lx); break;
    case MathFn::Cos: y = cosl(lx); break;
    case MathFn::Asin: y = asinl(lx); break;
    case MathFn::Tanh: y = tanhl(lx); break;
    case MathFn::Erf: y = erfl(lx); break;
    case MathFn::Erfc: y = erfcl(lx); break;
    case MathFn::Sigmoid: y = 1 / (1 + expl(-lx)); rel = 2 * kRel; break;
    case MathFn::Rsqrt: y = 1 / sqrtl(lx); rel = 0x1p-62L; break;  // two correctly rounded ops
    case MathFn::Sqrt: return std::bit_cast<uint64_t>(std::sqrt(x));  // correctly rounded
    default: return std::nullopt;  // i0: MPFR / Ziv; floor, abs: the special table
  }
  if (!std::isfinite(y)) return std::nullopt;
  const long double delta = fabsl(y) * (rel + 0x1p-62L);
  const double lo = static_cast<double>(y - delta), hi = static_cast<double>(y + delta);
  if (std::bit_cast<uint64_t>(lo) != std::bit_cast<uint64_t>(hi)) return std::nullopt;
  return std::bit_cast<uint64_t>(lo);
}

std::optional<uint64_t> math_fast(MathFn f, DType d, double x) {
  if (has_f32_kernel(f)) {
    // The own f32 kernel, then (f16, bf16) the f32 result rounded once more. That double rounding
    // is innocuous unless the f32 result r is itself a rounding boundary of d: every boundary of
    // f16/bf16 is an f32 value, so a boundary strictly between f(x) and r would be an f32 value
    // closer to f(x) than r. r(1 ± 2^-30) contains no f32 value but r, so accept decides exactly
    // when r is not a boundary.
    const auto x32 = static_cast<float>(x);
    if (const uint64_t r = kF32Kernels[static_cast<int>(f)](x32); r != kUndecided) {
      if (d == DType::F32) return r;
      return accept(d, std::bit_cast<float>(static_cast<uint32_t>(r)), 0x1p-30, false);
    }
    // undecided: MPFR, except sin/cos beyond the kernels' reduction range (glibc's below)
    if (!((f == MathFn::Sin || f == MathFn::Cos) && std::fabs(x) >= 0x1p20)) return std::nullopt;
  }
  switch (f) {
    case MathFn::Exp: {
      if (x < -110) return plus_zero(d);  // e^-110 < 2^-151
      const double y = std::exp(x);
      if (std::isinf(y)) return plus_inf(d);  // e^x > DBL_MAX overflows every f16/bf16/f32
      return accept(d, y, kLibmRel, true);
    }
    case MathFn::Exp2: {
      if (x < -152) return plus_zero(d);
      const double y = std::exp2(x);
      if (std::isinf(y)) return plus_inf(d);
      return accept(d, y, kLibmRel, true);
    }
    case MathFn::Log: return accept(d, std::log(x), kLibmRel, false);
    case MathFn::Log1p: return accept(d, std::log1p(x), kLibmRel, false);
    case MathFn::Lgamma:
      if (x < 0) return lgamma_negative(d, x);
      return accept(d, std::lgamma(x), kLibmRel, false);
    case MathFn::Sin: return accept(d, std::sin(x), kLibmRel, false);
    case MathFn::Cos: return accept(d, std::cos(x), kLibmRel, false);
    case MathFn::Asin: return accept(d, std::asin(x), kLibmRel, false);
    case MathFn::Tanh: return accept(d, std::tanh(x), kLibmRel, false);
    case MathFn::Erf: return accept(d, std::erf(x), kLibmRel, false);
    case MathFn::Erfc:
      if (x > 11) return plus_zero(d);  // erfc(11) < 2^-174
      return accept(d, std::erfc(x), kLibmRel, true);
    case MathFn::I0: {
      if (std::fabs(x) > 128) return plus_inf(d);  // I0(128) > 1e54 overflows f32/bf16/f16
      double rel = 0;
      const double y = i0_series(x, &rel);
      return accept(d, y, rel, true);
    }
    case MathFn::Rsqrt:  // sqrt and the division are each correctly rounded: 2u + u^2
      return accept(d, 1.0 / std::sqrt(x), 0x1p-51, true);
    case MathFn::Sqrt: return accept(d, std::sqrt(x), 0x1p-53, true);
    case MathFn::Sigmoid: {
      if (x < -120) return plus_zero(d);  // sigmoid(-120) < e^-120 < 2^-151
      // exp's error kLibmRel, then 1+e and the reciprocal: kLibmRel + 2u + tiny <= 2 kLibmRel
      return accept(d, 1.0 / (1.0 + std::exp(-x)), 2 * kLibmRel, true);
    }
    case MathFn::Floor:
    case MathFn::Abs: return std::nullopt;  // exact; handled by the special table
  }
  return std::nullopt;
}

}  // namespace kir::num::detail
