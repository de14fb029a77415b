// Test-side second implementation of the float formats: decoding from the field layout and
// round-to-nearest-even of a Boost cpp_bin_float value, written independently of numerics/
// (it never calls round_to / decode). Values of every format fit in a double, so expected
// results are doubles (NaN = any NaN; zero signs compared explicitly).
#pragma once
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "numerics/dtype.h"

namespace reftest {

using BF64 = boost::multiprecision::number<
    boost::multiprecision::cpp_bin_float<64, boost::multiprecision::digit_base_2>>;
using BF400 = boost::multiprecision::number<
    boost::multiprecision::cpp_bin_float<400, boost::multiprecision::digit_base_2>>;

enum class Over { Inf, NaN, Sat };
struct Fmt {
  int p, emin, emax;  // IEEE-style: normals 1.f * 2^e with emin <= e <= emax
  double maxv;        // largest finite value
  Over over;
  int exp_bits, man_bits, bias;
  bool ieee_specials;  // all-ones exponent = Inf/NaN
  bool e4m3_nan;       // S.1111.111 = NaN
  bool e8m0;
  bool has_sign;
};

// Parameters typed in from the reference table (docs/reference/numerics.md §2.1), not from
// numerics/format.cpp.
inline Fmt fmt(kir::DType d) {
  using kir::DType;
  switch (d) {
    case DType::F16: return {11, -14, 15, 65504.0, Over::Inf, 5, 10, 15, true, false, false, true};
    case DType::BF16:
      return {8, -126, 127, 0x1.fep127, Over::Inf, 8, 7, 127, true, false, false, true};
    case DType::F32:
      return {24, -126, 127, 0x1.fffffep127, Over::Inf, 8, 23, 127, true, false, false, true};
    case DType::F64:
      return {53, -1022, 1023, std::numeric_limits<double>::max(), Over::Inf, 11, 52, 1023, true,
              false, false, true};
    case DType::E4M3: return {4, -6, 8, 448.0, Over::NaN, 4, 3, 7, false, true, false, true};
    case DType::E5M2: return {3, -14, 15, 57344.0, Over::Inf, 5, 2, 15, true, false, false, true};
    case DType::E2M1: return {2, 0, 2, 6.0, Over::Sat, 2, 1, 1, false, false, false, true};
    case DType::E8M0: return {1, -127, 127, 0x1p127, Over::NaN, 8, 0, 127, false, false, true, false};
    default: break;
  }
  return {};
}

inline int width(const Fmt& f) { return (f.has_sign ? 1 : 0) + f.exp_bits + f.man_bits; }

inline double decode(uint64_t bits, const Fmt& f) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.e8m0) return (bits & 0xFF) == 0xFF ? nan : std::ldexp(1.0, int(bits & 0xFF) - 127);
  const int w = width(f);
  const bool neg = f.has_sign && ((bits >> (w - 1)) & 1);
  const uint64_t e = (bits >> f.man_bits) & ((1ull << f.exp_bits) - 1);
  const uint64_t m = bits & ((1ull << f.man_bits) - 1);
  double v;
  if (f.ieee_specials && e == (1ull << f.exp_bits) - 1) {
    if (m != 0) return nan;
    v = std::numeric_limits<double>::infinity();
  } else if (f.e4m3_nan && e == 15 && m == 7) {
    return nan;
  } else if (e == 0) {
    v = std::ldexp(double(m), 1 - f.bias - f.man_bits);
  } else {
    v = std::ldexp(double(m + (1ull << f.man_bits)), int(e) - f.bias - f.man_bits);
  }
  return neg ? -v : v;
}

// Round an exact value once to nearest-even in format f with f's overflow rule.
// `is_nan`/`is_inf` describe specials; returns the expected value as a double.
template <class BF>
double round(const BF& x, const Fmt& f) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using boost::multiprecision::isnan;
  using boost::multiprecision::isinf;
  if (isnan(x)) return nan;
  const bool neg = x < 0 || (x == 0 && boost::multiprecision::signbit(x));
  if (f.e8m0) {
    if (neg || x == 0 || isinf(x)) return nan;
    int k;
    BF fr = frexp(x, &k);  // x = fr * 2^k, fr in [0.5, 1)
    int e = k - 1;
    if (fr * 2 >= BF(1.5)) ++e;
    if (e > 127) return nan;
    if (e < -127) e = -127;
    return std::ldexp(1.0, e);
  }
  auto over = [&]() {
    switch (f.over) {
      case Over::Inf: return neg ? -inf : inf;
      case Over::NaN: return nan;
      case Over::Sat: return neg ? -f.maxv : f.maxv;
    }
    return nan;
  };
  if (isinf(x)) return over();
  if (x == 0) return neg ? -0.0 : 0.0;
  const BF a = neg ? BF(-x) : x;
  int k;
  (void)frexp(a, &k);
  const int e = k - 1;
  const int q = (e > f.emin ? e : f.emin) - (f.p - 1);
  const BF scaled = ldexp(a, -q);
  BF n = floor(scaled);
  const BF frac = scaled - n;
  if (frac > BF(0.5) || (frac == BF(0.5) && fmod(n, BF(2)) != 0)) n += 1;
  const double r = std::ldexp(n.template convert_to<double>(), q);
  if (r > f.maxv) return over();
  return neg ? -r : r;
}

// Same value (NaN matches NaN, zero signs must agree).
inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

inline uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float f32_from(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace reftest
