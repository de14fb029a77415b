// float8_e4m3, the IEEE-style e4m3 (not the "fn" variant KIR calls e4m3, nor the fnuz one):
// 1 sign, 4 exponent bits with bias 7, 3 mantissa bits; the all-ones exponent holds ±Inf
// (mantissa 0, 0x78 / 0xF8) and NaN (the rest; 0x7C is the quiet NaN written). Largest finite
// 240 (0x77), smallest normal 2^-6, smallest subnormal 2^-9. KIR has no such dtype, so it lives
// here for input data (.npy files) only. Conversion from double: round to nearest, ties to even,
// once; a value rounding past 240 becomes ±Inf (IEEE overflow), NaN becomes 0x7C; -0 keeps its
// sign.
#pragma once
#include <cstdint>

namespace kir::specs {

uint8_t float8_e4m3_from_double(double x);
double float8_e4m3_to_double(uint8_t code);

}  // namespace kir::specs
