// Generated pure combine helpers of the builtin reductions and prefixes (L7.6, L7.7, L8.2). Each is
// generated once per distinct signature, with a deterministic name and its own generic extent
// symbols (A0, A1, ...), e.g. `fn @__kir_sum_f32_r1(%a: f32[A0], %b: f32[A0]) -> f32[A0]`;
// r0 means a scalar accumulator.
#pragma once
#include <string>

#include "kir/normalize/rewriter.h"

namespace kir::normalize {

// `kind` names the helper (sum, max, any, all); `op` is the canonical pointwise op it applies.
std::string pointwise_combine(Rewriter& rw, const std::string& kind, const std::string& op, const Type& acc);

// Combine of arg_reduce.max over (value, index) accumulators: the larger value wins; on equal
// values the lower index; a NaN value beats every non-NaN value, and among NaNs the lower index.
std::string argmax_combine(Rewriter& rw, const Type& value_acc);

}  // namespace kir::normalize
