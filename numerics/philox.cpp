// Philox4x32 rounds (multipliers 0xD2511F53 / 0xCD9E8D57, Weyl increments 0x9E3779B9 /
// 0xBB67AE85) and the seed/counter mapping.
#include "numerics/philox.h"

#include <cmath>
#include <string>

#include "numerics/format.h"

namespace kir::num {
namespace {
constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;

PhiloxCounter round_once(const PhiloxCounter& c, const PhiloxKey& k) {
  const uint64_t p0 = uint64_t{kM0} * c[0];
  const uint64_t p1 = uint64_t{kM1} * c[2];
  const auto hi = [](uint64_t p) { return static_cast<uint32_t>(p >> 32); };
  const auto lo = [](uint64_t p) { return static_cast<uint32_t>(p); };
  return {hi(p1) ^ c[1] ^ k[0], lo(p1), hi(p0) ^ c[3] ^ k[1], lo(p0)};
}
}  // namespace

PhiloxCounter philox4x32(PhiloxCounter ctr, PhiloxKey key, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) {
      key[0] += kW0;
      key[1] += kW1;
    }
    ctr = round_once(ctr, key);
  }
  return ctr;
}

uint32_t random_bits(uint64_t seed, uint64_t counter) {
  const uint64_t block = counter / 4;
  const PhiloxKey key{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
  const PhiloxCounter ctr{static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), 0, 0};
  return philox4x32_10(ctr, key)[counter % 4];
}

Result<Scalar> uniform(uint32_t bits, DType d) {
  int k;
  switch (d) {
    case DType::F16: k = 11; break;
    case DType::BF16: k = 8; break;
    case DType::F32: k = 24; break;
    case DType::F64: k = 32; break;
    default:
      return make_error(Status::TypeMismatch,
                        "uniform: dtype " + std::string(name(d)) + " is not f16/bf16/f32/f64");
  }
  const double u = std::ldexp(static_cast<double>(bits >> (32 - k)), -k);
  return Scalar{d, from_double(u, d)};
}

}  // namespace kir::num
