// Internal pieces of numerics/math.cpp, split by responsibility: the exact special-value table,
// the double-precision fast path (f16/bf16/f32) and the MPFR/Ziv reference path. All three work
// on doubles: every f16/bf16/f32/f64 value is exactly a double, and every return value is either
// NaN or a double that is exactly representable in the target dtype.
#pragma once
#include <array>
#include <cstddef>
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
// The same for f64: glibc's long double functions with an assumed bound; nullopt when the
// bound cannot decide or for i0 and lgamma below 3 (then MPFR).
std::optional<uint64_t> math_fast_f64(MathFn f, double x);

// Own double kernels for f32 (numerics/math_f32.cpp): exp, exp2, log, sin, cos, tanh, erf.
// A kernel is undecided when its error bound cannot decide the rounding or x is outside its
// range (then the caller goes on to the special table and MPFR). x is finite and nonzero.
// kF32Kernels[f] is the kernel of f or null; a kernel returns the encoding of the correctly
// rounded f32 result, or kUndecided. Null before its dynamic initialization (callers then take
// the general path, with the same results).
inline constexpr uint64_t kUndecided = ~uint64_t{0};
using F32Kernel = uint64_t (*)(float x);
extern const std::array<F32Kernel, kNumMathFns> kF32Kernels;
inline bool has_f32_kernel(MathFn f) { return kF32Kernels[static_cast<int>(f)] != nullptr; }
// eval_n's f32 path: every out[i] = eval(f, F32, in[i]); false (nothing written) if f has no kernel.
bool f32_batch(MathFn f, const uint64_t* in, uint64_t* out, size_t n);
// eval() for an f32 input the kernel did not decide (it is tried once more, then the special
// table, the fast path and MPFR): rare, so the repetition costs nothing measurable.
uint64_t eval_after_kernel(MathFn f, DType d, uint64_t bits);

// Correctly rounded result via MPFR (exp .. rsqrt) or Ziv loops (i0, sigmoid). x finite, not
// special; d any of f16/bf16/f32/f64.
double math_mpfr(MathFn f, DType d, double x);

// I0(x) in double for |x| <= 128 by its positive power series; *rel_err receives a rigorous
// bound on the relative error of the returned value.
double i0_series(double x, double* rel_err);

}  // namespace kir::num::detail
