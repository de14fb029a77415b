// The accumulator rules of the builtin reductions and prefixes (seed 000 §7, §8; L7.5, L7.6, L8.2):
// the default accumulator widening of reduce.sum and cumsum, and the identities the builtins use.
// This is the one place the rule lives; docs/normalization.md and the numerics contract cite it.
#pragma once
#include <optional>
#include <string>

#include "kir/attribute.h"
#include "numerics/dtype.h"

namespace kir::normalize {

// Default accumulator dtype of reduce.sum / cumsum for a source dtype:
//   f16, bf16 -> f32;  f32, f64 unchanged;  i8, i16 -> i32;  u8, u16 -> u32;
//   i32, i64, u32, u64, index unchanged;  bool and the storage formats (e4m3, e5m2, e2m1, e8m0)
//   have none (nullopt): bool sums are an error, storage formats need an explicit acc_dtype.
std::optional<DType> default_sum_accumulator(DType source);

// Identity constants, as `const` value attributes of dtype d.
Attribute zero_value(DType d);     // 0, 0.0 or false
Attribute lowest_value(DType d);   // -inf for floats, the minimum for integers, false for bool

}  // namespace kir::normalize
