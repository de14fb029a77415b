// Default accumulator widening and builtin identities.
#include "kir/normalize/widening.h"

#include <limits>

namespace kir::normalize {

std::optional<DType> default_sum_accumulator(DType source) {
  switch (source) {
    case DType::F16: case DType::BF16: return DType::F32;
    case DType::F32: case DType::F64: return source;
    case DType::I8: case DType::I16: return DType::I32;
    case DType::U8: case DType::U16: return DType::U32;
    case DType::I32: case DType::I64: case DType::U32: case DType::U64: case DType::Index: return source;
    default: return std::nullopt;  // bool, e4m3, e5m2, e2m1, e8m0
  }
}

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
