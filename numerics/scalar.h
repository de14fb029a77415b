// One value of a scalar dtype as the interpreter holds it: the dtype plus its bit pattern,
// right-aligned in 64 bits (integers in two's complement of their width, upper bits zero;
// bool is 0 or 1; e2m1 uses the low 4 bits). Every numerics operation takes and returns these.
#pragma once
#include <cstdint>

#include "numerics/dtype.h"

namespace kir::num {

struct Scalar {
  DType dtype;
  uint64_t bits;
  friend bool operator==(const Scalar&, const Scalar&) = default;
};

// Mask of the storage bits of a dtype (bool: 1 bit of meaning, stored as 0/1).
inline uint64_t width_mask(DType d) {
  const int w = info(d).bits;
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}
// Signed value of an integer scalar (sign-extended from its width); for unsigned dtypes the
// raw bits reinterpreted as int64 (callers check signedness).
inline int64_t as_signed(Scalar s) {
  const int w = info(s.dtype).bits;
  if (w >= 64) return static_cast<int64_t>(s.bits);
  const uint64_t m = (uint64_t{1} << w) - 1, sign = uint64_t{1} << (w - 1);
  const uint64_t v = s.bits & m;
  return (v & sign) ? -static_cast<int64_t>((~v & m) + 1) : static_cast<int64_t>(v);
}
// Truncate an integer to dtype d's width (two's-complement wrap).
inline Scalar make_int(DType d, uint64_t bits) { return Scalar{d, bits & width_mask(d)}; }
inline Scalar make_bool(bool b) { return Scalar{DType::Bool, b ? 1u : 0u}; }

}  // namespace kir::num
