// See inputs.h.
#include "fuzz/gen/inputs.h"

#include "fuzz/gen/numbers.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

int64_t storage_size(const GeneratedCase::Input& in) {
  if (in.scalar) return 1;
  int64_t n = 1;
  for (int64_t e : in.shape) n *= e;
  if (in.strides.empty() || n == 0) return n;
  int64_t hi = in.offset;
  for (size_t k = 0; k < in.shape.size(); ++k) hi += (in.shape[k] - 1) * in.strides[k];
  return hi + 1;
}

void fill_inputs(std::vector<GeneratedCase::Input>& inputs, uint64_t seed, double special_rate) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto& in = inputs[i];
    Rng r(seed * 0x100000001b3ull + i);
    const size_t n = static_cast<size_t>(storage_size(in));
    // 0: ordinary values; 1: a quarter special; 2: all special.
    const int mode = r.chance(special_rate) ? (r.chance(0.3) ? 2 : 1) : 0;
    in.bits.resize(n);
    for (auto& b : in.bits) b = (mode == 2 || (mode == 1 && r.chance(0.25))) ? special_bits(in.dtype, r) : random_bits(in.dtype, r);
  }
}

}  // namespace kir::fuzz
