// Casts between every pair of dtypes and same-width bitcasts (docs/numerics.md "Casts",
// "Bitcast"). Float results are rounded once (RNE) with the target's overflow rule.
#pragma once
#include <cstdint>

#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

// The exact value of a scalar: NaN, ±Inf, or (-1)^neg * m * 2^e (every dtype value fits).
struct ExactValue {
  enum Kind : unsigned char { Finite, Inf, NaN } kind;
  bool neg;
  uint64_t m;
  int e;
};
ExactValue exact_value(Scalar x);

// Value-preserving conversion:
//  float/int -> float: RNE once, target overflow rule (format.h); NaN -> canonical NaN,
//    except NaN -> e2m1 is InvalidCast (e2m1 has no NaN).
//  float -> int: truncation toward zero; NaN, ±Inf and values whose truncation is outside the
//    target range are InvalidCast.
//  int -> int: two's-complement wrap (truncate / sign- or zero-extend).
//  x -> bool: x != 0 (NaN -> true); bool -> x: 0 or 1.
Result<Scalar> cast(Scalar x, DType to);
// Reinterpret the bits; only between dtypes of equal storage width, never bool (TypeMismatch).
Result<Scalar> bitcast(Scalar x, DType to);

}  // namespace kir::num
