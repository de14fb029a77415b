// float8_e4m3 conversions (see float8_e4m3.h). Scaling by powers of two is exact in double, so
// one nearbyint (the default round-to-nearest-even mode) is the only rounding.
#include "specs/src/float8_e4m3.h"

#include <cmath>
#include <limits>

namespace kir::specs {

namespace {
constexpr int kBias = 7;
constexpr int kEmin = 1 - kBias;  // -6
constexpr int kEmax = 7;          // exponent field 14; 15 is Inf/NaN
}  // namespace

uint8_t float8_e4m3_from_double(double x) {
  if (std::isnan(x)) return 0x7C;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const double a = std::fabs(x);
  if (std::isinf(a)) return sign | 0x78;
  int e = std::ilogb(a);  // a = 1.f * 2^e for a > 0
  if (a == 0 || e < kEmin) {
    // subnormal range: multiples of 2^(emin - 3); 8 of them make the smallest normal (code 0x08)
    double m = std::nearbyint(std::ldexp(a, 3 - kEmin));
    return sign | static_cast<uint8_t>(m);
  }
  double m = std::nearbyint(std::ldexp(a, 3 - e));  // in [8, 16]
  if (m == 16) {
    m = 8;
    ++e;
  }
  if (e > kEmax) return sign | 0x78;
  return sign | static_cast<uint8_t>(((e + kBias) << 3) | (static_cast<int>(m) - 8));
}

double float8_e4m3_to_double(uint8_t code) {
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  const int ef = (code >> 3) & 0xF, mf = code & 0x7;
  if (ef == 0xF) return mf == 0 ? sign * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (ef == 0) return sign * std::ldexp(mf, kEmin - 3);
  return sign * std::ldexp(8 + mf, ef - kBias - 3);
}

}  // namespace kir::specs
