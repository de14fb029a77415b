// Float operations of canonical KIR beyond arith.h: `pow` and
// float `rem` (fmod: truncated quotient, result has the dividend's sign, always exact). Both are
// computed with MPFR and rounded once (RNE) into the operands' format.
#pragma once
#include "numerics/scalar.h"

namespace kir::num {

Scalar float_pow(Scalar a, Scalar b);   // IEEE 754 pow special cases (C99 Annex F)
Scalar float_fmod(Scalar a, Scalar b);  // fmod(x, 0) and fmod(inf, y) are NaN

}  // namespace kir::num
