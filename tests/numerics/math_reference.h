// Test-side reference for the unary math functions, independent of numerics/: values from
// Boost.Multiprecision cpp_bin_float / Boost.Math (sin/cos with an explicit high-precision
// argument reduction, i0 cross-checked by its power series), an own RNE rounding routine to
// (precision, emin, emax) with subnormals and overflow, and an own special-value table.
// A value whose distance to a rounding midpoint is not clearly larger than the reference's
// own error is reported as ambiguous, and the caller escalates to a higher precision.
#pragma once
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::test {

namespace mp = boost::multiprecision;
using Bf113 = mp::number<mp::cpp_bin_float<113, mp::digit_base_2>, mp::et_off>;
using Bf128 = mp::number<mp::cpp_bin_float<128, mp::digit_base_2>, mp::et_off>;
using Bf256 = mp::number<mp::cpp_bin_float<256, mp::digit_base_2>, mp::et_off>;
using Bf1400 = mp::number<mp::cpp_bin_float<1400, mp::digit_base_2>, mp::et_off>;

struct Fmt {
  int p;          // significand bits
  int emin;       // exponent of the smallest normal
  int emax;       // exponent of the largest binade
  int bits;       // storage width
  int man_bits;
  uint64_t nan;   // canonical quiet NaN
};

inline Fmt fmt_of(DType d) {
  switch (d) {
    case DType::F16: return {11, -14, 15, 16, 10, 0x7E00};
    case DType::BF16: return {8, -126, 127, 16, 7, 0x7FC0};
    case DType::F32: return {24, -126, 127, 32, 23, 0x7FC00000};
    case DType::F64: return {53, -1022, 1023, 64, 52, 0x7FF8000000000000};
    default: throw std::invalid_argument("fmt_of");
  }
}

// Own decode/encode of IEEE binary formats (sign, biased exponent, fraction).
// Round trip helper for infinite/zero reference values.
template <class T>
std::optional<double> round_nonfinite(const T& v) {
  if (mp::isinf(v)) return v > 0 ? INFINITY : -INFINITY;
  return std::nullopt;
}

inline double decode_bits(uint64_t b, const Fmt& f) {
  const int eb = f.bits - 1 - f.man_bits;
  const uint64_t man = b & ((uint64_t{1} << f.man_bits) - 1);
  const uint64_t ex = (b >> f.man_bits) & ((uint64_t{1} << eb) - 1);
  const bool neg = (b >> (f.bits - 1)) & 1;
  const int bias = (1 << (eb - 1)) - 1;
  double v;
  if (ex == (uint64_t{1} << eb) - 1)
    v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ex == 0)
    v = std::ldexp(double(man), 1 - bias - f.man_bits);
  else
    v = std::ldexp(double(man | (uint64_t{1} << f.man_bits)), int(ex) - bias - f.man_bits);
  return neg ? -v : v;
}

inline uint64_t encode_value(double v, const Fmt& f) {  // v exactly representable (or ±Inf/NaN)
  if (std::isnan(v)) return f.nan;
  const int eb = f.bits - 1 - f.man_bits;
  const int bias = (1 << (eb - 1)) - 1;
  const uint64_t sign = std::signbit(v) ? uint64_t{1} << (f.bits - 1) : 0;
  v = std::fabs(v);
  if (std::isinf(v)) return sign | (((uint64_t{1} << eb) - 1) << f.man_bits);
  if (v == 0) return sign;
  int e;
  std::frexp(v, &e);
  int lead = e - 1;
  if (lead < f.emin) {  // subnormal
    const double m = std::ldexp(v, f.man_bits - f.emin);
    return sign | uint64_t(m);
  }
  const double m = std::ldexp(v, f.man_bits - lead);  // in [2^man_bits, 2^(man_bits+1))
  const uint64_t frac = uint64_t(m) - (uint64_t{1} << f.man_bits);
  return sign | (uint64_t(lead + bias) << f.man_bits) | frac;
}

// RNE of a finite reference value v with error <= max(|v| 2^-trust, 2^-abs_trust) into f.
// nullopt when v lies within that error of a rounding midpoint (the correct rounding is then
// not decided by v).
template <class T>
std::optional<double> round_ref(const T& v, const Fmt& f, int trust, int abs_trust = 100000,
                                bool exact = false) {
  if (auto nf = round_nonfinite(v)) return nf;
  if (v == 0) return 0.0;
  const bool neg = v < 0;
  T a = neg ? T(-v) : v;
  int e = 0;
  (void)mp::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
  const int lead = e - 1;
  if (lead > f.emax + 1) return neg ? -INFINITY : INFINITY;
  if (lead < f.emin - f.p - 2) {  // far below half the smallest subnormal
    return neg ? -0.0 : 0.0;
  }
  const int q = std::max(lead, f.emin) - (f.p - 1);
  T scaled = mp::ldexp(a, -q);  // exact
  T n = mp::floor(scaled);
  T frac = scaled - n;
  // distance to the midpoint in units of 2^q versus the reference error |a| 2^-trust
  T dist = mp::abs(frac - T(0.5));
  T err = mp::ldexp(a, -trust);
  const T abs_err = mp::ldexp(T(1), -abs_trust);
  if (abs_err > err) err = abs_err;
  if (!exact && mp::ldexp(dist, q) <= err) return std::nullopt;
  uint64_t ni = static_cast<uint64_t>(n);
  if (frac > T(0.5) || (frac == T(0.5) && (ni & 1))) ++ni;
  double r = std::ldexp(double(ni), q);
  const double maxv = std::ldexp(double((uint64_t{1} << f.p) - 1), f.emax - (f.p - 1));
  if (r > maxv) r = INFINITY;
  return neg ? -r : r;
}

// Special-value table, written from the C99 Annex F / IEEE 754 rules independently of
// numerics/math_special.cpp. nullopt: a real evaluation is needed.
inline std::optional<double> ref_special(num::MathFn fn, double x) {
  using num::MathFn;
  const double inf = INFINITY, nan = NAN;
  if (std::isnan(x)) return nan;
  const bool isinf = std::isinf(x), z = x == 0, neg = std::signbit(x);
  switch (fn) {
    case MathFn::Exp: case MathFn::Exp2:
      return isinf ? std::optional<double>(neg ? 0.0 : inf) : z ? std::optional<double>(1.0) : std::nullopt;
    case MathFn::Log:
      if (z) return -inf;
      if (neg) return nan;
      if (isinf) return inf;
      if (x == 1) return 0.0;
      return std::nullopt;
    case MathFn::Log1p:
      if (x == -1) return -inf;
      if (x < -1) return nan;
      if (isinf || z) return x;
      return std::nullopt;
    case MathFn::Lgamma:
      if (isinf) return inf;
      if (x <= 0 && x == std::trunc(x)) return inf;
      if (x == 1 || x == 2) return 0.0;
      return std::nullopt;
    case MathFn::Sin: if (isinf) return nan; if (z) return x; return std::nullopt;
    case MathFn::Cos: if (isinf) return nan; if (z) return 1.0; return std::nullopt;
    case MathFn::Asin: if (x > 1 || x < -1) return nan; if (z) return x; return std::nullopt;
    case MathFn::Tanh: case MathFn::Erf:
      if (isinf) return neg ? -1.0 : 1.0;
      if (z) return x;
      return std::nullopt;
    case MathFn::Erfc: if (isinf) return neg ? 2.0 : 0.0; if (z) return 1.0; return std::nullopt;
    case MathFn::I0: if (isinf) return inf; if (z) return 1.0; return std::nullopt;
    case MathFn::Rsqrt:
      if (z) return neg ? -inf : inf;
      if (neg) return nan;
      if (isinf) return 0.0;
      return std::nullopt;
    case MathFn::Sqrt: if (z) return x; if (neg) return nan; if (isinf) return inf; return std::nullopt;
    case MathFn::Sigmoid: if (isinf) return neg ? 0.0 : 1.0; if (z) return 0.5; return std::nullopt;
    case MathFn::Floor: if (isinf || z) return x; return std::nullopt;
    case MathFn::Abs: return std::fabs(x);
  }
  return std::nullopt;
}

// sin / cos with the argument reduced modulo pi/2 in 1400-bit arithmetic (exact enough for any
// f64 argument), the reduced argument evaluated in T.
template <class T>
T ref_sincos(bool is_sin, double x) {
  if (std::fabs(x) < 1) return is_sin ? T(mp::sin(T(x))) : T(mp::cos(T(x)));
  static const Bf1400 half_pi = boost::math::constants::half_pi<Bf1400>();
  Bf1400 X(x);
  Bf1400 n = mp::round(X / half_pi);
  Bf1400 r = X - n * half_pi;
  Bf1400 k4 = mp::fmod(n, Bf1400(4));
  int k = static_cast<int>(k4);
  if (k < 0) k += 4;
  T rt(r);
  T s = mp::sin(rt), c = mp::cos(rt);
  if (is_sin) return k == 0 ? s : k == 1 ? c : k == 2 ? T(-s) : T(-c);
  return k == 0 ? c : k == 1 ? T(-s) : k == 2 ? T(-c) : s;
}

// I0 by its power series (second method, used when Boost's at most 113-bit I0 is ambiguous).
template <class T>
T ref_i0_series(double x) {
  T q = T(x) * T(x) / 4, t = 1, s = 1;
  for (int k = 1;; ++k) {
    t = t * q / (T(k) * T(k));
    s += t;
    if (t < s * mp::ldexp(T(1), -std::numeric_limits<T>::digits - 8) && q < T(k) * T(k)) break;
  }
  return s;
}

template <class T>
T ref_value(num::MathFn fn, double xd) {
  using num::MathFn;
  namespace bm = boost::math;
  const T x(xd);
  // arguments whose results over/underflow every format by far (keeps Boost in range)
  switch (fn) {
    case MathFn::Exp: if (xd > 800 || xd < -800) return xd > 0 ? T(INFINITY) : T(0); break;
    case MathFn::Exp2: if (xd > 1100 || xd < -1100) return xd > 0 ? T(INFINITY) : T(0); break;
    case MathFn::Sigmoid: if (xd > 200) return T(1); if (xd < -800) return T(0); break;
    case MathFn::Erfc: if (xd > 30) return T(0); break;
    case MathFn::I0: if (std::fabs(xd) > 800) return T(INFINITY); break;
    case MathFn::Tanh: if (std::fabs(xd) > 100) return T(xd > 0 ? 1 : -1); break;
    default: break;
  }
  switch (fn) {
    case MathFn::Exp: return mp::exp(x);
    case MathFn::Exp2: {
      T fl = mp::floor(x);
      return mp::ldexp(mp::exp((x - fl) * bm::constants::ln_two<T>()), static_cast<int>(fl));
    }
    case MathFn::Log: return mp::log(x);
    case MathFn::Log1p: return bm::log1p(x);
    case MathFn::Lgamma: return bm::lgamma(x);
    case MathFn::Sin: return ref_sincos<T>(true, xd);
    case MathFn::Cos: return ref_sincos<T>(false, xd);
    case MathFn::Asin: return mp::asin(x);
    case MathFn::Tanh: return mp::tanh(x);
    case MathFn::Floor: return mp::floor(x);
    case MathFn::Erf: return bm::erf(x);
    case MathFn::Erfc: return bm::erfc(x);
    case MathFn::I0:
      if constexpr (std::numeric_limits<T>::digits <= 113) return bm::cyl_bessel_i(0, x);
      else return ref_i0_series<T>(xd);
    case MathFn::Rsqrt: return T(1) / mp::sqrt(x);
    case MathFn::Sqrt: return mp::sqrt(x);
    case MathFn::Sigmoid: return T(1) / (T(1) + mp::exp(-x));
    case MathFn::Abs: return mp::abs(x);
  }
  throw std::logic_error("ref_value");
}

// Expected encoding of fn(x) in d. Tries Boost at 113 (i0) / 128 bits trusting 2^-100 relative
// error, then 256 bits (i0: series) trusting 2^-220. Throws if still ambiguous.
inline uint64_t reference(num::MathFn fn, DType d, uint64_t bits) {
  const Fmt f = fmt_of(d);
  const double x = decode_bits(bits, f);
  if (auto s = ref_special(fn, x)) return encode_value(*s, f);
  if (fn == num::MathFn::Exp2 && x == std::trunc(x) && std::fabs(x) < 1100) {  // exact power of 2
    auto r = round_ref(mp::ldexp(Bf128(1), int(x)), f, 0, 100000, true);
    return encode_value(*r, f);
  }
  // lgamma's error near its zeros is absolute, not relative
  const bool absolute = fn == num::MathFn::Lgamma;
  std::optional<double> r;
  if (fn == num::MathFn::I0) r = round_ref(ref_value<Bf113>(fn, x), f, 100);
  else r = round_ref(ref_value<Bf128>(fn, x), f, 100, absolute ? 100 : 100000);
  if (!r) r = round_ref(ref_value<Bf256>(fn, x), f, 220, absolute ? 220 : 100000);
  if (!r) throw std::runtime_error("reference ambiguous for " + std::string(num::name(fn)));
  return encode_value(*r, f);
}

// Sample count of the randomized f32/f64 tests: KIR_NUMERICS_SAMPLES (default `dflt`).
inline long samples(long dflt) {
  if (const char* e = std::getenv("KIR_NUMERICS_SAMPLES")) return std::max(1L, std::atol(e));
  return dflt;
}

}  // namespace kir::test
