// Vector math anchors (anchors.h): SLEEF's u10 (1-ulp) f32 exp/tanh/erf and glibc's libmvec
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
__m256 Sleef_expf8_u10avx2(__m256);
__m256 Sleef_tanhf8_u10avx2(__m256);
__m256 Sleef_erff8_u10avx2(__m256);
// glibc libmvec (x86_64 vector ABI names: e = AVX-512, d = AVX2).
__m512 _ZGVeN16v_expf(__m512);
__m512 _ZGVeN16v_tanhf(__m512);
__m512 _ZGVeN16v_erff(__m512);
__m256 _ZGVdN8v_expf(__m256);
__m256 _ZGVdN8v_tanhf(__m256);
__m256 _ZGVdN8v_erff(__m256);
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

const char* name(Fn f) { return f == Fn::Exp ? "exp" : f == Fn::Tanh ? "tanh" : "erf"; }

std::string isa() { return has_avx512() ? "avx512f" : "avx2"; }

void sleef(Fn f, const float* in, float* out, size_t n) {
  static const bool wide = has_avx512();
  if (wide) apply16(f == Fn::Exp ? Sleef_expf16_u10avx512f : f == Fn::Tanh ? Sleef_tanhf16_u10avx512f : Sleef_erff16_u10avx512f, in, out, n);
  else apply8(f == Fn::Exp ? Sleef_expf8_u10avx2 : f == Fn::Tanh ? Sleef_tanhf8_u10avx2 : Sleef_erff8_u10avx2, in, out, n);
}

void libmvec(Fn f, const float* in, float* out, size_t n) {
  static const bool wide = has_avx512();
  if (wide) apply16(f == Fn::Exp ? _ZGVeN16v_expf : f == Fn::Tanh ? _ZGVeN16v_tanhf : _ZGVeN16v_erff, in, out, n);
  else apply8(f == Fn::Exp ? _ZGVdN8v_expf : f == Fn::Tanh ? _ZGVdN8v_tanhf : _ZGVdN8v_erff, in, out, n);
}

}  // namespace kbench::vecmath
