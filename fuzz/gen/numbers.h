// Values of every dtype as bit patterns (numerics' Scalar::bits layout): ordinary random values,
// special values (NaN, ±inf, ±0, subnormals, extreme finite values, rounding midpoints, integer
// extremes), small "nice" constants, neutral elements of combines, and their KIR literal text.
#pragma once
#include <cstddef>
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

// --- math breakpoints ------------------------------------------------------------------------
// The breakpoints of math function `fn` ("exp", "tanh", ...) are the points of the CPU backend's
// catalogue (backends/cpu/impl/vmath_breakpoints.yaml: thresholds of the vector kernels, true
// limits of the results, reduction edges, inputs set by input, negatives of odd/even functions).
bool has_breakpoints(const std::string& fn);
size_t breakpoint_count(const std::string& fn);  // 0 if none
// A value of float dtype d at or near one of fn's breakpoints p (-p with `negate`): for f32
// (and f64, which holds it exactly) p itself in 30% of the draws, a neighbour 1..4 ulps away
// in 35%, 5..16 ulps away in 20%, 17..4096 ulps away in 15% (either side, across zero,
// stopping at +-Inf); for the other float formats (f16, bf16, the small ones) the nearest
// representable value below or above p, sometimes one to three steps further out. p is the
// point numbered `which` (modulo their count; in file order), or a random one when `which` < 0.
uint64_t breakpoint_bits(DType d, const std::string& fn, Rng& r, bool negate = false, int64_t which = -1);
// The f32 `ulps` steps (negative: down) from bits u in value order: -0 and +0 are neighbours,
// stepping stops at +-Inf.
uint32_t f32_step(uint32_t u, int64_t ulps);

}  // namespace kir::fuzz
