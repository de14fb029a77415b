// Tight per-dtype loops the interpreter uses instead of per-element dispatch through Scalar when
// the result is known to be bit-identical to the numerics library (docs/design.md "Interpreter
// speed"). Each entry point says which (op, dtype) pairs it covers; callers take the general
// numerics path for everything else. Kept separate from the op handlers so tests can compare
// every fast loop against num::binary / num::compare / ExactSum on the same inputs.
#pragma once
#include <cstdint>

#include "numerics/dtype.h"
#include "numerics/ops.h"

namespace kir::interp::fast {

// Whether binary() below covers `op` on dtype `d`: f32/f64 add, sub, mul, div, min, max;
// integer and index add, sub, mul, and, or, xor, min, max (wrapping, never an error); bool and,
// or, xor, min, max. Never pow/rem/shifts/integer division (those can fail or need numerics).
bool binary_supported(num::BinaryOp op, DType d);
// out[i] = op(a[i * sa], b[i * sb]) for i < n; sa and sb are 0 (a scalar operand) or 1.
void binary(num::BinaryOp op, DType d, const uint64_t* a, int64_t sa, const uint64_t* b, int64_t sb, uint64_t* out,
            int64_t n);
// The left fold acc = op(acc, x[offset(k)]) for k = 0..n-1, where offset(k) is offs[k] when
// offs is non-null and k * stride otherwise. Requires binary_supported(op, d).
uint64_t fold(num::BinaryOp op, DType d, uint64_t acc, const uint64_t* x, int64_t stride, const int64_t* offs, int64_t n);

// Whether compare() covers dtype d: f32, f64, integers, index and bool.
bool compare_supported(DType d);
// out[i] = (a[i * sa] pred b[i * sb]) ? 1 : 0.
void compare(num::CompareOp pred, DType d, const uint64_t* a, int64_t sa, const uint64_t* b, int64_t sb, uint64_t* out,
             int64_t n);

// One element of a contract with an f32 accumulator over operands whose products are exact in
// double (f32, f16, bf16 widened exactly to double): the exact sum of a[ao[k]] * b[bo[k]] for
// k < n rounded once to f32, when that rounding can be decided from a double-double evaluation
// with a rigorous error bound. Returns false (result untouched) when it cannot: a non-finite or
// zero result, an f32 subnormal or |result| >= 2^127, or a sum too close to a rounding
// boundary; the caller then uses ExactSum.
bool dot_f32(const double* a, const int64_t* ao, const double* b, const int64_t* bo, int64_t n, uint32_t& result);

}  // namespace kir::interp::fast
