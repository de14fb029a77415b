// Micro-kernels of the CPU backend's runtime library: small, target-specialized inner loops
// behind a fixed interface (the catalog in backends/cpu/ir/ukernels.h states what each one
// computes; a Kernel statement of the CPU IR calls one). The loops around them, the packing of
// their panels and their scratch are ordinary generated code.
//
// gemm_<isa><T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first): an MR x NR register tile of C
// (NR = NV vectors) accumulated over kc packed columns of A (k-major, MR per k) and rows of B
// (k-major, NR per k). Each element is one accumulator taken through the k in order with one
// fused multiply-add each — acc = fma(a, b, acc) — starting from -0 (first) or from C: the
// "sequential-fused" order the implementation declares, which the interpreter reproduces.
// Only the mr x nr corner is read and written; rs/cs are C's row and column strides.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace kir_uk {

template <class T, int MR, int NV>
inline void gemm_portable(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                          bool first) {
  constexpr int NR = NV;
  T acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = (first || i >= mr || j >= nr) ? T(-0.0) : c[i * rs + j * cs];
  for (int64_t k = 0; k < kc; ++k)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) acc[i][j] = std::fma(a[k * MR + i], b[k * NR + j], acc[i][j]);
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) c[i * rs + j * cs] = acc[i][j];
}

// The register tile shared by the SIMD variants; V supplies the vector type and operations.
template <class V, class T, int MR, int NV>
inline void gemm_simd(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                      bool first) {
  constexpr int L = V::lanes, NR = NV * L;
  typename V::vec acc[MR][NV];
  T tmp[NR];
  // Lanes of vector j that belong to the tile (0..L).
  auto width = [&](int j) {
    const int64_t w = nr - int64_t{j} * L;
    return static_cast<int>(w < 0 ? 0 : w > L ? L : w);
  };
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    if (first || i >= mr) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::negzero();
    } else if (cs == 1) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::load_n(c + i * rs + j * L, width(j));
    } else {
      for (int j = 0; j < NR; ++j) tmp[j] = j < nr ? c[i * rs + j * cs] : T(-0.0);
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::load(tmp + j * L);
    }
  }
  for (int64_t k = 0; k < kc; ++k) {
    typename V::vec bv[NV];
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) bv[j] = V::load(b + k * NR + j * L);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const typename V::vec ai = V::bcast(a[k * MR + i]);
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::fma(ai, bv[j], acc[i][j]);
    }
  }
  for (int i = 0; i < MR; ++i) {
    if (i >= mr) break;
    if (cs == 1) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) V::store_n(c + i * rs + j * L, acc[i][j], width(j));
    } else {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) V::store(tmp + j * L, acc[i][j]);
      for (int j = 0; j < nr; ++j) c[i * rs + j * cs] = tmp[j];
    }
  }
}

#if defined(__AVX512F__)
template <class T>
struct Avx512;
template <>
struct Avx512<float> {
  using vec = __m512;
  static constexpr int lanes = 16;
  static vec negzero() { return _mm512_set1_ps(-0.0f); }
  static vec load(const float* p) { return _mm512_loadu_ps(p); }
  static vec bcast(float x) { return _mm512_set1_ps(x); }
  static vec fma(vec a, vec b, vec c) { return _mm512_fmadd_ps(a, b, c); }
  static void store(float* p, vec v) { _mm512_storeu_ps(p, v); }
  static __mmask16 mask(int n) { return static_cast<__mmask16>((1u << n) - 1u); }
  static vec load_n(const float* p, int n) {
    return n == lanes ? load(p) : _mm512_mask_loadu_ps(negzero(), mask(n), p);
  }
  static void store_n(float* p, vec v, int n) {
    if (n == lanes) store(p, v);
    else _mm512_mask_storeu_ps(p, mask(n), v);
  }
};
template <>
struct Avx512<double> {
  using vec = __m512d;
  static constexpr int lanes = 8;
  static vec negzero() { return _mm512_set1_pd(-0.0); }
  static vec load(const double* p) { return _mm512_loadu_pd(p); }
  static vec bcast(double x) { return _mm512_set1_pd(x); }
  static vec fma(vec a, vec b, vec c) { return _mm512_fmadd_pd(a, b, c); }
  static void store(double* p, vec v) { _mm512_storeu_pd(p, v); }
  static __mmask8 mask(int n) { return static_cast<__mmask8>((1u << n) - 1u); }
  static vec load_n(const double* p, int n) {
    return n == lanes ? load(p) : _mm512_mask_loadu_pd(negzero(), mask(n), p);
  }
  static void store_n(double* p, vec v, int n) {
    if (n == lanes) store(p, v);
    else _mm512_mask_storeu_pd(p, mask(n), v);
  }
};
template <class T, int MR, int NV>
inline void gemm_avx512(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                        bool first) {
  gemm_simd<Avx512<T>, T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first);
}
#endif

#if defined(__AVX2__) && defined(__FMA__)
template <class T>
struct Avx2;
template <>
struct Avx2<float> {
  using vec = __m256;
  static constexpr int lanes = 8;
  static vec negzero() { return _mm256_set1_ps(-0.0f); }
  static vec load(const float* p) { return _mm256_loadu_ps(p); }
  static vec bcast(float x) { return _mm256_set1_ps(x); }
  static vec fma(vec a, vec b, vec c) { return _mm256_fmadd_ps(a, b, c); }
  static void store(float* p, vec v) { _mm256_storeu_ps(p, v); }
  static __m256i mask(int n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
  static vec load_n(const float* p, int n) {
    return n == lanes ? load(p) : _mm256_blendv_ps(negzero(), _mm256_maskload_ps(p, mask(n)), _mm256_castsi256_ps(mask(n)));
  }
  static void store_n(float* p, vec v, int n) {
    if (n == lanes) store(p, v);
    else _mm256_maskstore_ps(p, mask(n), v);
  }
};
template <>
struct Avx2<double> {
  using vec = __m256d;
  static constexpr int lanes = 4;
  static vec negzero() { return _mm256_set1_pd(-0.0); }
  static vec load(const double* p) { return _mm256_loadu_pd(p); }
  static vec bcast(double x) { return _mm256_set1_pd(x); }
  static vec fma(vec a, vec b, vec c) { return _mm256_fmadd_pd(a, b, c); }
  static void store(double* p, vec v) { _mm256_storeu_pd(p, v); }
  static __m256i mask(int n) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)); }
  static vec load_n(const double* p, int n) {
    return n == lanes ? load(p) : _mm256_blendv_pd(negzero(), _mm256_maskload_pd(p, mask(n)), _mm256_castsi256_pd(mask(n)));
  }
  static void store_n(double* p, vec v, int n) {
    if (n == lanes) store(p, v);
    else _mm256_maskstore_pd(p, mask(n), v);
  }
};
template <class T, int MR, int NV>
inline void gemm_avx2(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                      bool first) {
  gemm_simd<Avx2<T>, T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first);
}
#endif

}  // namespace kir_uk
