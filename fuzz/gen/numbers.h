// Values of every dtype as bit patterns (numerics' Scalar::bits layout): ordinary random values,
// special values (NaN, ±inf, ±0, subnormals, extreme finite values, rounding midpoints, integer
// extremes), small "nice" constants, neutral elements of combines, and their KIR literal text.
#pragma once
#include <cstdint>
#include <string>

#include "fuzz/gen/rng.h"
#include "numerics/dtype.h"

namespace kir::fuzz {

std::string literal(DType d, uint64_t bits);  // the `value` of a const (exactly the bits' value)
uint64_t random_bits(DType d, Rng& r);        // moderate values, sometimes any bit pattern
uint64_t special_bits(DType d, Rng& r);       // one of the dtype's special values
uint64_t nice_bits(DType d, Rng& r);          // small constants (0, 1, 2, 0.5, -3, ...)
uint64_t value_bits(DType d, double x);       // x converted (rounded / wrapped) to d
uint64_t int_bits(DType d, int64_t x);        // x wrapped to an integer dtype d (bool: x != 0)
uint64_t int_min_bits(DType d);               // smallest value of an integer dtype
uint64_t int_max_bits(DType d);
uint64_t all_ones_bits(DType d);              // integer -1 / unsigned max / bool true

// Neutral elements: `kind` is add, mul, min, max, and, or, xor.
uint64_t neutral_bits(DType d, const std::string& kind);

}  // namespace kir::fuzz
