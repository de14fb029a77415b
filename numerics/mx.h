// OCP Microscaling (MX) blocks: e2m1/e4m3/e5m2 element carriers with one e8m0 scale per block;
// element value = 2^(scale-127) * element; scale 0xFF (NaN) makes the whole block NaN.
// Also the e2m1 carrier packing (two per byte, low nibble = lower logical index) and the OCP
// quantization rule. docs/numerics.md "MX block scaling".
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

inline constexpr int kMxBlock = 32;

// Exact scaled value of one element, rounded once into `out` (a float dtype).
// NaN scale or NaN element -> NaN (error if out is e2m1).
Result<Scalar> mx_value(Scalar element, uint8_t scale, DType out);

// e2m1 carrier packing: element 2i in the low nibble of byte i, element 2i+1 in the high nibble;
// an odd count leaves the last high nibble 0.
std::vector<uint8_t> pack_e2m1(std::span<const uint8_t> nibbles);
std::vector<uint8_t> unpack_e2m1(std::span<const uint8_t> bytes, size_t count);

// emax of the element format (exponent of its largest normal): e4m3 8, e5m2 15, e2m1 2.
int mx_elem_emax(DType elem);

// OCP MX v1.0 §6.3 shared scale: shared_exp = floor(log2(max |v|)) - emax_elem, clamped to
// [-127, 127] (a larger exponent gives NaN 0xFF); all-zero block -> 0x00 (2^-127); any NaN/Inf
// value -> 0xFF.
uint8_t mx_shared_scale(std::span<const float> block, DType elem);

struct MxBlock {
  uint8_t scale;                 // e8m0
  std::vector<uint8_t> elements; // element bit patterns (e2m1: one nibble per entry, unpacked)
};
// Quantize: scale from mx_shared_scale, P_i = RNE(V_i / X) into elem, finite values beyond the
// element range clamped to ±max (not Inf/NaN). A NaN scale gives NaN elements (e2m1: +0, since it
// has no NaN; the block is NaN through its scale).
Result<MxBlock> mx_quantize(std::span<const float> block, DType elem);

}  // namespace kir::num
