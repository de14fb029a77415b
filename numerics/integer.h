// Integer and bool scalar operations: two's-complement wrap for + - * neg abs, truncating
// division, and errors (not UB) for division by zero, INT_MIN / -1 (and INT_MIN % -1), and shift
// amounts outside [0, width). Index behaves as i64. docs/numerics.md "Integer rules".
#pragma once
#include "numerics/ops.h"
#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

// a and b must have the same integer dtype (bool allowed for And/Or/Xor/Min/Max).
// Shl/Shr: b is the shift amount in the same dtype; Shr is arithmetic for signed dtypes and
// index, logical for unsigned.
Result<Scalar> int_binary(BinaryOp op, Scalar a, Scalar b);
// Neg, Abs (wrap: abs(INT_MIN) == INT_MIN; identity for unsigned), Not (bitwise; logical on bool).
Result<Scalar> int_unary(UnaryOp op, Scalar a);
Result<bool> int_compare(CompareOp op, Scalar a, Scalar b);

}  // namespace kir::num
