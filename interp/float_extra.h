// Float operations the numerics library does not provide (yet) but canonical KIR has: `pow` and
// float `rem` (fmod: truncated quotient, result has the dividend's sign, always exact). Both are
// computed with MPFR and rounded once (RNE) into the operands' format.
#pragma once
#include "numerics/scalar.h"

namespace kir::interp {

num::Scalar float_pow(num::Scalar a, num::Scalar b);   // IEEE 754 pow special cases (C99 Annex F)
num::Scalar float_fmod(num::Scalar a, num::Scalar b);  // fmod(x, 0) and fmod(inf, y) are NaN

}  // namespace kir::interp
