// Philox4x32-10 counter-based random bits (Random123 constants) and the language's mapping of a
// (seed, scalar logical counter) pair to one 32-bit word, plus the bits -> [0,1) conversion.
// docs/numerics.md "Random bits (Philox)".
#pragma once
#include <array>
#include <cstdint>

#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

// R rounds of Philox4x32 (round 1 uses the key unchanged; the key is bumped before each later
// round). The language uses R = 10.
PhiloxCounter philox4x32(PhiloxCounter ctr, PhiloxKey key, int rounds);
inline PhiloxCounter philox4x32_10(const PhiloxCounter& ctr, const PhiloxKey& key) {
  return philox4x32(ctr, key, 10);
}

// Word `counter % 4` of philox4x32_10(ctr, key) with
//   key = {lo32(seed), hi32(seed)},  block = counter / 4,  ctr = {lo32(block), hi32(block), 0, 0}.
uint32_t random_bits(uint64_t seed, uint64_t counter);

// Fixed bits -> [0, 1) conversion: u = floor(bits / 2^(32-k)) * 2^-k with k = 11 (f16), 8 (bf16),
// 24 (f32), 32 (f64) — the top k bits of the word; exactly representable, so no rounding.
// Other dtypes: TypeMismatch.
Result<Scalar> uniform(uint32_t bits, DType d);

}  // namespace kir::num
