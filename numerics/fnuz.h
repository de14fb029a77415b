// The two "fnuz" float8 formats (float8_e4m3fnuz, float8_e5m2fnuz: AMD/Graphcore style, in
// PyTorch and ml_dtypes but not Intent dtypes, so they live outside the DType table). They have
// no infinity, no negative zero and a single NaN 0x80; every other code is finite:
//   e4m3fnuz: 1/4/3 bits, bias 8, max 240 (0x7F), min normal 2^-7, min subnormal 2^-10
//   e5m2fnuz: 1/5/2 bits, bias 16, max 57344 (0x7F), min normal 2^-15, min subnormal 2^-17
// Conversion from double follows ml_dtypes' and PyTorch's plain (non-saturating) cast: round to
// nearest, ties to even; a result too large, ±Inf and NaN become NaN 0x80; a zero result is +0
// (0x00), whatever the sign.
#pragma once
#include <cstdint>

namespace kir::num {

enum class Fnuz : uint8_t { E4M3, E5M2 };

uint8_t fnuz_from_double(double x, Fnuz f);
double fnuz_to_double(uint8_t code, Fnuz f);  // 0x80 → quiet NaN
double fnuz_max(Fnuz f);                      // 240 or 57344

}  // namespace kir::num
