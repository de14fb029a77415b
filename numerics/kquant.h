// GGML k-quant blocks q4_K and q8_K (QK_K = 256) in logical record form, their reference
// quantizers, q4_K dequantization and the exact q4_K x q8_K dot product (generic reference
// order: 8 float lanes, f32 arithmetic, no FMA). docs/numerics.md "q4_K / q8_K".
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "numerics/result.h"

namespace kir::num {

inline constexpr int kQK_K = 256;

struct BlockQ4K {
  uint16_t d;      // f16 bits: scale of the 6-bit sub-block scales
  uint16_t dmin;   // f16 bits: scale of the 6-bit sub-block mins
  std::array<uint8_t, 12> scales;  // 8 x (6-bit scale, 6-bit min), packed as in ggml
  std::array<uint8_t, 128> qs;     // 256 x 4-bit quants (chunk c: byte 32c+l = w[64c+l] | w[64c+32+l] << 4)
  friend bool operator==(const BlockQ4K&, const BlockQ4K&) = default;
};

struct BlockQ8K {
  float d;
  std::array<int8_t, 256> qs;
  std::array<int16_t, 16> bsums;  // bsums[j] = sum of qs[16j .. 16j+15]
  friend bool operator==(const BlockQ8K&, const BlockQ8K&) = default;
};

// 6-bit scale and min of sub-block j (0..7).
void q4k_scale_min(const BlockQ4K& b, int j, uint8_t& scale, uint8_t& min);

// ggml's nearest_int: round half to even to an int, valid for |f| <= 4194303.
int nearest_int(float f);

// x.size() must be a multiple of 256 (TypeMismatch otherwise).
Result<std::vector<BlockQ8K>> quantize_row_q8_K(std::span<const float> x);
Result<std::vector<BlockQ4K>> quantize_row_q4_K_ref(std::span<const float> x);
std::vector<float> dequantize_row_q4_K(std::span<const BlockQ4K> blocks);
// Same number of blocks on both sides (TypeMismatch otherwise).
Result<float> vec_dot_q4_K_q8_K(std::span<const BlockQ4K> x, std::span<const BlockQ8K> y);

// Little-endian byte images (144 and 292 bytes per block) of the ggml layouts.
std::array<uint8_t, 144> to_bytes(const BlockQ4K& b);
BlockQ4K q4k_from_bytes(std::span<const uint8_t, 144> bytes);

}  // namespace kir::num
