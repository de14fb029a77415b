// The identities the builtin reductions and prefixes use (seed 000 §7, §8; L7.6, L8.2). The
// default accumulator widening of reduce.sum and cumsum is the numerics contract's
// (kir::num::default_sum_accumulator in numerics/contract.h), the one place that rule lives.
#pragma once
#include <optional>
#include <string>

#include "kir/attribute.h"
#include "numerics/contract.h"
#include "numerics/dtype.h"

namespace kir::normalize {

using num::default_sum_accumulator;

// Identity constants, as `const` value attributes of dtype d.
Attribute zero_value(DType d);     // 0, 0.0 or false
Attribute lowest_value(DType d);   // -inf for floats, the minimum for integers, false for bool

}  // namespace kir::normalize
