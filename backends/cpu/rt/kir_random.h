// kir_random.h — counter-based random bits for generated C++ (random.bits / random.uniform):
// Philox4x32-10 with the language's (seed, counter) mapping and the fixed bits -> [0, 1)
// conversion, bit for bit as kir::num::random_bits / kir::num::uniform (numerics/philox.h);
// plus the float binary ops the host computes (pow, float rem) through kir_env::binary.
// Self-contained like kir_rt.h: compiled at run time from the artifact cache's include directory.
#ifndef KIR_RANDOM_H
#define KIR_RANDOM_H
#include <cstdint>
#include <cstring>

#include "kir_abi.h"
#include "kir_rt.h"

namespace kir_random {

// Word `counter % 4` of Philox4x32-10 at block counter / 4 under key {lo32(seed), hi32(seed)}.
inline uint32_t bits(uint64_t seed, uint64_t counter) {
  const uint64_t block = counter / 4;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  uint32_t c0 = static_cast<uint32_t>(block), c1 = static_cast<uint32_t>(block >> 32), c2 = 0, c3 = 0;
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * c0, p1 = uint64_t{0xCD9E8D57u} * c2;
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0, n1 = static_cast<uint32_t>(p1);
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1, n3 = static_cast<uint32_t>(p0);
    c0 = n0, c1 = n1, c2 = n2, c3 = n3;
  }
  switch (counter % 4) {
    case 0: return c0;
    case 1: return c1;
    case 2: return c2;
    default: return c3;
  }
}

// The top k bits of the word times 2^-k (k = 11 f16, 8 bf16, 24 f32, 32 f64): exact in the format.
inline uint16_t uniform_f16(uint32_t b) { return kir_rt::f32_to_f16(static_cast<float>(b >> 21) * 0x1p-11f); }
inline uint16_t uniform_bf16(uint32_t b) { return kir_rt::f32_to_bf16(static_cast<float>(b >> 24) * 0x1p-8f); }
inline float uniform_f32(uint32_t b) { return static_cast<float>(b >> 8) * 0x1p-24f; }
inline double uniform_f64(uint32_t b) { return static_cast<double>(b) * 0x1p-32; }

// An index counter must not be negative (KIR_FAULT_INVALID_VALUE); *out is always written.
inline int32_t counter(int64_t c, uint64_t* out) {
  *out = c < 0 ? 0 : static_cast<uint64_t>(c);
  return c < 0 ? KIR_FAULT_INVALID_VALUE : KIR_FAULT_NONE;
}
inline uint64_t counter(uint64_t c) { return c; }

// A float binary op of the host (op: KIR_BINARY_POW / KIR_BINARY_REM, dt: kir::DType).
template <class T>
inline T host_binary(kir_call* call, int32_t op, int32_t dt, T a, T b) {
  uint64_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof(T));
  std::memcpy(&y, &b, sizeof(T));
  const uint64_t r = call->env->binary(op, dt, x, y);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

}  // namespace kir_random

#endif  // KIR_RANDOM_H
