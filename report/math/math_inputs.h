// The inputs the math section evaluates every function on: all 65536 bit patterns of a 16-bit
// dtype, or for f32/f64 a fixed set of special values followed by pseudo-random bit patterns
// (uniform over all patterns, so every binade, subnormals, infinities and NaNs are covered in
// proportion to their share of the encoding space). Deterministic in (dtype, samples, seed).
#pragma once
#include <cstdint>
#include <vector>

#include "numerics/dtype.h"

namespace kir::report {

struct MathInputs {
  std::vector<uint64_t> bits;
  bool exhaustive = false;  // every pattern of the dtype (f16, bf16)
};

// ±0, ±Inf, NaN, ±smallest subnormal, ±largest finite, 1, -1, 0.5 (12 values) in dtype d.
std::vector<uint64_t> special_inputs(kir::DType d);

// f16/bf16: 0 .. 65535 (samples and seed are not used). f32/f64: special_inputs(d), then
// `samples` patterns of a SplitMix64 stream seeded from `seed` and the dtype.
MathInputs math_inputs(kir::DType d, uint64_t samples, uint64_t seed);

}  // namespace kir::report
