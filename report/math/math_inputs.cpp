// Input generation of the math section (see math_inputs.h). SplitMix64 is used for its simple,
// well-known definition: the same seed gives the same inputs on every platform and build.
#include "report/math/math_inputs.h"

#include <stdexcept>
#include <string>

#include "numerics/format.h"

namespace kir::report {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<uint64_t> special_inputs(kir::DType d) {
  const auto& f = num::float_format(d);
  const uint64_t sign = uint64_t{1} << (f.bits - 1);
  const uint64_t one = num::from_double(1.0, d);
  return {num::zero_bits(d),         num::zero_bits(d, true), num::inf_bits(d),          num::inf_bits(d, true),
          f.canonical_nan,           1,                       sign | 1,                  num::max_finite(d),
          num::max_finite(d, true),  one,                     num::from_double(-1.0, d), num::from_double(0.5, d)};
}

MathInputs math_inputs(kir::DType d, uint64_t samples, uint64_t seed) {
  MathInputs in;
  if (d == kir::DType::F16 || d == kir::DType::BF16) {
    in.exhaustive = true;
    in.bits.resize(65536);
    for (uint64_t i = 0; i < 65536; ++i) in.bits[i] = i;
    return in;
  }
  if (d != kir::DType::F32 && d != kir::DType::F64)
    throw std::invalid_argument("math inputs: dtype " + std::string(kir::name(d)) + " is not f16, bf16, f32 or f64");
  in.bits = special_inputs(d);
  in.bits.reserve(in.bits.size() + samples);
  uint64_t state = seed ^ (d == kir::DType::F32 ? 0x3232323232323232ULL : 0x6464646464646464ULL);
  for (uint64_t i = 0; i < samples; ++i) {
    const uint64_t r = splitmix64(state);
    in.bits.push_back(d == kir::DType::F32 ? r >> 32 : r);
  }
  return in;
}

}  // namespace kir::report
