// Vector math anchors (anchors.h): SLEEF's u10 (1-ulp) f32 exp/tanh/erf/log/sin/cos and glibc's libmvec
// vector variants, AVX-512 when the CPU has it, else AVX2, chosen at run time. The vector
// symbols are declared here rather than taken from sleef.h, which declares them only when the
// translation unit itself is compiled for AVX-512/AVX2; the callers carry target attributes.
#include <immintrin.h>
#include <sleef.h>

#include <stdexcept>

#include "bench/backend/anchors.h"

extern "C" {
__m512 Sleef_expf16_u10avx512f(__m512);
__m512 Sleef_tanhf16_u10avx512f(__m512);
__m512 Sleef_erff16_u10avx512f(__m512);
__m512 Sleef_logf16_u10avx512f(__m512);
__m512 Sleef_sinf16_u10avx512f(__m512);
__m512 Sleef_cosf16_u10avx512f(__m512);
__m256 Sleef_expf8_u10avx2(__m256);
__m256 Sleef_tanhf8_u10avx2(__m256);
__m256 Sleef_erff8_u10avx2(__m256);
__m256 Sleef_logf8_u10avx2(__m256);
__m256 Sleef_sinf8_u10avx2(__m256);
__m256 Sleef_cosf8_u10avx2(__m256);
// glibc libmvec (x86_64 vector ABI names: e = AVX-512, d = AVX2).
__m512 _ZGVeN16v_expf(__m512);
__m512 _ZGVeN16v_tanhf(__m512);
__m512 _ZGVeN16v_erff(__m512);
__m512 _ZGVeN16v_logf(__m512);
__m512 _ZGVeN16v_sinf(__m512);
__m512 _ZGVeN16v_cosf(__m512);
__m256 _ZGVdN8v_expf(__m256);
__m256 _ZGVdN8v_tanhf(__m256);
__m256 _ZGVdN8v_erff(__m256);
__m256 _ZGVdN8v_logf(__m256);
__m256 _ZGVdN8v_sinf(__m256);
__m256 _ZGVdN8v_cosf(__m256);
}

namespace kbench::vecmath {
namespace {

using V16 = __m512 (*)(__m512);
using V8 = __m256 (*)(__m256);

__attribute__((target("avx512f"))) void apply16(V16 f, const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; i += 16) _mm512_storeu_ps(out + i, f(_mm512_loadu_ps(in + i)));
}

__attribute__((target("avx2,fma"))) void apply8(V8 f, const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
}

bool has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

}  // namespace

// The functions of f, in the order of Fn.
constexpr V16 kSleef16[] = {Sleef_expf16_u10avx512f, Sleef_tanhf16_u10avx512f, Sleef_erff16_u10avx512f,
                            Sleef_logf16_u10avx512f, Sleef_sinf16_u10avx512f,  Sleef_cosf16_u10avx512f};
constexpr V8 kSleef8[] = {Sleef_expf8_u10avx2, Sleef_tanhf8_u10avx2, Sleef_erff8_u10avx2,
                          Sleef_logf8_u10avx2, Sleef_sinf8_u10avx2,  Sleef_cosf8_u10avx2};
constexpr V16 kMvec16[] = {_ZGVeN16v_expf, _ZGVeN16v_tanhf, _ZGVeN16v_erff, _ZGVeN16v_logf, _ZGVeN16v_sinf, _ZGVeN16v_cosf};
constexpr V8 kMvec8[] = {_ZGVdN8v_expf, _ZGVdN8v_tanhf, _ZGVdN8v_erff, _ZGVdN8v_logf, _ZGVdN8v_sinf, _ZGVdN8v_cosf};

const char* name(Fn f) {
  constexpr const char* kNames[] = {"exp", "tanh", "erf", "log", "sin", "cos"};
  return kNames[static_cast<int>(f)];
}

std::string isa() { return has_avx512() ? "avx512f" : "avx2"; }

void sleef(Fn f, const float* in, float* out, size_t n) {
  static const bool wide = has_avx512();
  if (wide) apply16(kSleef16[static_cast<int>(f)], in, out, n);
  else apply8(kSleef8[static_cast<int>(f)], in, out, n);
}

void libmvec(Fn f, const float* in, float* out, size_t n) {
  static const bool wide = has_avx512();
  if (wide) apply16(kMvec16[static_cast<int>(f)], in, out, n);
  else apply8(kMvec8[static_cast<int>(f)], in, out, n);
}

}  // namespace kbench::vecmath
