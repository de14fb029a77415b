// Float operations of canonical KIR beyond arith.h: `pow` (MPFR, rounded once (RNE) into the
// operands' format) and float `rem` (fmod: truncated quotient, the result has the dividend's
// sign and is always exact; binary() computes float rem with it).
#pragma once
#include "numerics/ops.h"
#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

Scalar float_pow(Scalar a, Scalar b);   // IEEE 754 pow special cases (C99 Annex F)
Scalar float_fmod(Scalar a, Scalar b);  // fmod(x, 0) and fmod(inf, y) are NaN (e2m1: +0; binary() reports it)

// One element of a pointwise binary op of canonical KIR, as the interpreter computes it: `pow`
// (is_pow), float `div` with its approximate / flush_to_zero options, and binary() for the rest
// (float `rem` included). `kir numerics eval` calls the same function.
Result<Scalar> pointwise_binary(BinaryOp op, bool is_pow, Scalar a, Scalar b, bool approximate = false,
                                bool flush_to_zero = false);

}  // namespace kir::num
