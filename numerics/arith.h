// Floating-point scalar arithmetic, comparison and select (docs/numerics.md "Arithmetic",
// "NaN and signed zero"). Every result is the exact result rounded once (RNE) into the operands'
// format with its overflow rule; NaN results are the format's canonical NaN.
#pragma once
#include "numerics/ops.h"
#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

// Add, Sub, Mul, Div (correctly rounded), Min, Max (NaN-propagating; -0 < +0).
// a and b must have the same float dtype (any of f16..f64, e4m3, e5m2, e2m1, e8m0).
Result<Scalar> float_binary(BinaryOp op, Scalar a, Scalar b);
// Neg, Abs (sign operations; NaN -> canonical NaN), Sqrt (correctly rounded; sqrt(-0) = -0,
// negative -> NaN), Floor (exact).
Result<Scalar> float_unary(UnaryOp op, Scalar a);
// IEEE comparison: NaN is unordered (every predicate false except Ne), -0 == +0.
Result<bool> float_compare(CompareOp op, Scalar a, Scalar b);

// I.fdiv(lhs, rhs, approximate, flush_to_zero). approximate/flush_to_zero are f32-only and FTZ
// requires approximate (TypeMismatch otherwise). The reference value of an approximate
// division is the correctly rounded quotient; backends may differ from it by at most
// kApproxDivMaxUlp ulp when 2^-126 <= |rhs| <= 2^126 (docs). flush_to_zero: subnormal inputs are
// read as zero of the same sign and a subnormal result becomes zero of the same sign.
inline constexpr int kApproxDivMaxUlp = 2;
Result<Scalar> fdiv(Scalar a, Scalar b, bool approximate = false, bool flush_to_zero = false);

// Dispatch on dtype: integers/bool -> integer.h, floats -> above.
Result<Scalar> binary(BinaryOp op, Scalar a, Scalar b);
Result<Scalar> unary(UnaryOp op, Scalar a);
Result<bool> compare(CompareOp op, Scalar a, Scalar b);
// select(cond, a, b): a if cond else b; a and b must have the same dtype. No rounding, NaN
// payloads are passed through unchanged.
Result<Scalar> select(bool cond, Scalar a, Scalar b);

}  // namespace kir::num
