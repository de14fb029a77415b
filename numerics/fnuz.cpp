// fnuz float8 encode/decode (see fnuz.h).
#include "numerics/fnuz.h"

#include <cmath>
#include <limits>

namespace kir::num {
namespace {

struct Params {
  int man_bits, bias, exp_max;  // exp_max: the largest exponent field (all codes are finite)
};

Params params(Fnuz f) { return f == Fnuz::E4M3 ? Params{3, 8, 15} : Params{2, 16, 31}; }

constexpr uint8_t kNaN = 0x80;

}  // namespace

double fnuz_to_double(uint8_t code, Fnuz f) {
  if (code == kNaN) return std::numeric_limits<double>::quiet_NaN();
  Params p = params(f);
  int ef = (code & 0x7F) >> p.man_bits;
  int mf = code & ((1 << p.man_bits) - 1);
  double mag = ef == 0 ? std::ldexp(mf, 1 - p.bias - p.man_bits)
                       : std::ldexp((1 << p.man_bits) + mf, ef - p.bias - p.man_bits);
  return (code & 0x80) ? -mag : mag;
}

double fnuz_max(Fnuz f) { return fnuz_to_double(0x7F, f); }

uint8_t fnuz_from_double(double x, Fnuz f) {
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  Params p = params(f);
  double a = std::fabs(x);
  if (a >= std::ldexp(1.0, p.exp_max - p.bias + 1)) return kNaN;  // beyond the top binade
  const int emin = 1 - p.bias;
  int e = emin;  // exponent of the quantum's binade; subnormals share the lowest one
  if (a >= std::ldexp(1.0, emin)) {
    std::frexp(a, &e);
    e -= 1;  // a = 1.f * 2^e
  }
  // a / quantum is exact (scaling by a power of two that stays far from under/overflow);
  // nearbyint rounds to nearest, ties to even, in the default rounding mode.
  double r = std::nearbyint(std::ldexp(a, p.man_bits - e));
  // A subnormal result (r < 2^m) is its own code; a normal one is (exponent field, fraction).
  unsigned code;
  if (r >= std::ldexp(1.0, p.man_bits + 1)) {  // carry into the next binade
    r = std::ldexp(r, -1);
    e += 1;
  }
  if (r < std::ldexp(1.0, p.man_bits)) {
    code = static_cast<unsigned>(r);
  } else {
    int field = e + p.bias;
    if (field > p.exp_max) return kNaN;
    code = (static_cast<unsigned>(field) << p.man_bits) | (static_cast<unsigned>(r) - (1u << p.man_bits));
  }
  if (code == 0) return 0x00;  // no negative zero
  return static_cast<uint8_t>(code | (std::signbit(x) ? 0x80u : 0u));
}

}  // namespace kir::num
