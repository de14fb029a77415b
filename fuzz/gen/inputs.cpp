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
    // 0: ordinary values; 1: a quarter special; 2: all special; 3: one special value throughout
    // (all -0, all -inf: what a wrong identity of a sum or a max shows on); 4: ordinary values,
    // all negative (floats).
    const bool signed_float = is_float(in.dtype) || info(in.dtype).cls == DTypeClass::SmallFloat;
    int mode = 0;
    if (r.chance(special_rate))
      mode = r.chance(0.5) ? 1 : r.chance(0.5) ? 2 : 3;
    else if (signed_float && r.chance(0.1))
      mode = 4;
    in.bits.resize(n);
    const uint64_t one = special_bits(in.dtype, r);
    const uint64_t sign = uint64_t{1} << (info(in.dtype).bits - 1);
    for (auto& b : in.bits) {
      if (mode == 3)
        b = one;
      else if (mode == 2 || (mode == 1 && r.chance(0.25)))
        b = special_bits(in.dtype, r);
      else
        b = random_bits(in.dtype, r) | (mode == 4 ? sign : 0);
    }
  }
}

}  // namespace kir::fuzz
