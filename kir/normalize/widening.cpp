// Builtin identities.
#include "kir/normalize/widening.h"

#include <limits>

namespace kir::normalize {

Attribute zero_value(DType d) {
  if (d == DType::Bool) return Attribute::boolean(false);
  if (is_integer(d)) return Attribute::integer(0);
  return Attribute::floating(0.0);
}

Attribute lowest_value(DType d) {
  if (d == DType::Bool) return Attribute::boolean(false);
  if (is_unsigned_integer(d)) return Attribute::integer(0);
  if (is_integer(d)) {  // signed and index (64-bit)
    int bits = info(d).bits;
    return Attribute::integer(-(static_cast<int128>(1) << (bits - 1)));
  }
  return Attribute::floating(-std::numeric_limits<double>::infinity());
}

}  // namespace kir::normalize
