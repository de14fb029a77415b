// Internal pieces of numerics/math.cpp, split by responsibility: the exact special-value table,
// the double-precision fast path (f16/bf16/f32) and the MPFR/Ziv reference path. All three work
// on doubles: every f16/bf16/f32/f64 value is exactly a double, and every return value is either
// NaN or a double that is exactly representable in the target dtype.
#pragma once
#include <cstdint>
#include <optional>

#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::num::detail {

// Results fixed by the special-value table (NaN, ±Inf, ±0, domain errors, poles, exact points),
// plus floor and abs, which are always exact. nullopt: x needs a real evaluation.
std::optional<double> math_special(MathFn f, double x);

// Double evaluation with a proven or documented error bound (docs/numerics.md "Math functions" "Fast
// path"); nullopt when the error interval does not round to a single value of d (then the
// caller uses math_mpfr). d is f16, bf16 or f32; x is finite and not special. Returns the
// encoding of the correctly rounded result.
std::optional<uint64_t> math_fast(MathFn f, DType d, double x);

// Correctly rounded result via MPFR (exp .. rsqrt) or Ziv loops (i0, sigmoid). x finite, not
// special; d any of f16/bf16/f32/f64.
double math_mpfr(MathFn f, DType d, double x);

// I0(x) in double for |x| <= 128 by its positive power series; *rel_err receives a rigorous
// bound on the relative error of the returned value.
double i0_series(double x, double* rel_err);

}  // namespace kir::num::detail
