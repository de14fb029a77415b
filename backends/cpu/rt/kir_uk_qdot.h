// The q4_K x q8_K decode-dot micro-kernels of the CPU backend's runtime library (catalog entry
// qdot.q4k_q8k.<isa> in backends/cpu/ir/ukernels.h).
//
// qdot_q4k_q8k_<isa>(out, xd, sxd, xdmin, sxdmin, xsc, sscb, ssce, xqs, sqb, sqe, yd, syd, yqs, syqb, syqe,
//                    ybs, sbsb, sbse, nb): one row's dot product over nb super-blocks, stored in *out.
// Each field is given by the address of its block-0 element and its strides (elements): d and
// dmin one per block; scales (12 per block), qs (128 / 256 per block) and bsums (16 per block) a
// block stride and a stride within the block (1: read in place; anything else: the block is
// gathered first). It reads exactly the nb blocks of each field.
//
// The value is numerics/kquant.cpp's vec_dot_q4_K_q8_K bit for bit. Its integer parts are exact
// (any order gives them): per super-block, sumi = sum_j bsums[j] * min[j / 2] and the eight
// lanes aux32[l] = sum over the elements e with e mod 8 = l of scale[e / 32] * q8[e] * q4[e].
// Its float parts take the reference's operations one by one, in f32, without fma:
//   d = f32(x.d) * y.d;     sums[l] = sums[l] + d * f32(aux32[l])   (eight lanes: one vector)
//   dmin = f32(x.dmin) * y.d;  sumf = sumf - dmin * f32(sumi)
// and at the end sumf = sumf + sums[0], ..., + sums[7], in that order.
//
// The integer lanes. vpmaddubsw multiplies u8 by i8 bytes and adds adjacent pairs into i16;
// vpmaddwd (AVX512-VNNI: vpdpwssd, which also accumulates) multiplies i16 words by i16 words and
// adds adjacent pairs into i32. Chunk c of a super-block (64 elements: sub-block A = 2c in the low
// nibbles of 32 qs bytes, sub-block B = 2c + 1 in the high ones; element p of a sub-block has lane
// l = p mod 8 and row t = p / 8) is rearranged so that each i32 lane receives four products of one
// lane l: A's rows ta and tb (one i16 pair, times scale[A]) and B's rows ta and tb (times
// scale[B]). A dword permute gathers, per 128-bit lane, the rows (0, 1) or (2, 3) of lanes 0..3 or
// 4..7 of A and of B; a byte shuffle orders each dword as (A ta, A tb, B ta, B tb) of one lane;
// the q4 side takes the low nibble in the first word of each dword and the high one in the
// second. Products fit: |q4 * q8| <= 1920, a pair <= 3840 (no i16 saturation), and every i32 sum
// stays below 2^23.
#pragma once
#include <cstdint>
#include <cstring>

#include "kir_rt.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace kir_uk {
namespace qdot_detail {

// The 6-bit scales (bytes 0..7) and mins (bytes 8..15) of sub-blocks 0..7 (numerics' q4k_scale_min).
inline void scales_mins(const uint8_t* s12, uint8_t out[16]) {
  uint32_t u[4];
  std::memcpy(u, s12, 12);
  const uint32_t k1 = 0x3f3f3f3fu, k2 = 0x0f0f0f0fu, k3 = 0x03030303u;
  u[3] = ((u[2] >> 4) & k2) | (((u[1] >> 6) & k3) << 4);
  const uint32_t mins_lo = u[1] & k1;
#ifdef KIR_MUTANT_QDOT_SCALE_HIGH_BITS_SHIFT  // seeded mutant (backends/cpu/mutants/mutants.h)
  u[1] = (u[2] & k2) | (((u[0] >> 4) & k3) << 4);
#else
  u[1] = (u[2] & k2) | (((u[0] >> 6) & k3) << 4);
#endif
  u[2] = mins_lo;
  u[0] &= k1;
  std::memcpy(out, u, 16);
}

#if defined(__AVX2__)
// sumi = sum_j bsums[j] * min[j / 2] (exact in i32: |sumi| < 16 * 2^15 * 63).
inline int32_t min_terms(const int16_t* bsums, const uint8_t* mins) {
  const __m256i bs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bsums));
  __m128i m = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(mins));
  m = _mm_unpacklo_epi8(m, m);  // min[0], min[0], min[1], min[1], ...
  const __m256i p = _mm256_madd_epi16(bs, _mm256_cvtepu8_epi16(m));
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

// The row's dot product, the ISA's integer lanes given by `lanes(q4, q8, scale pairs)`.
template <class Lanes>
inline void qdot_q4k_q8k(float* out, const uint16_t* xd, int64_t sxd, const uint16_t* xdmin, int64_t sxdmin,
                         const uint8_t* xsc, int64_t sscb, int64_t ssce, const uint8_t* xqs, int64_t sqb, int64_t sqe,
                         const float* yd, int64_t syd, const int8_t* yqs, int64_t syqb, int64_t syqe, const int16_t* ybs,
                         int64_t sbsb, int64_t sbse, int64_t nb, Lanes lanes) {
  alignas(64) uint8_t tq4[128];
  alignas(64) int8_t tq8[256];
  alignas(32) int16_t tbs[16];
  uint8_t tsc[12];
  __m256 sums = _mm256_setzero_ps();
  float sumf = 0.f;
  for (int64_t b = 0; b < nb; ++b) {
    const uint8_t* sc = xsc + b * sscb;
    const uint8_t* q4 = xqs + b * sqb;
    const int8_t* q8 = yqs + b * syqb;
    const int16_t* bs = ybs + b * sbsb;
    if (ssce != 1) {
      for (int k = 0; k < 12; ++k) tsc[k] = sc[k * ssce];
      sc = tsc;
    }
    if (sqe != 1) {
      for (int k = 0; k < 128; ++k) tq4[k] = q4[k * sqe];
      q4 = tq4;
    }
    if (syqe != 1) {
      for (int k = 0; k < 256; ++k) tq8[k] = q8[k * syqe];
      q8 = tq8;
    }
    if (sbse != 1) {
      for (int k = 0; k < 16; ++k) tbs[k] = bs[k * sbse];
      bs = tbs;
    }
    uint8_t sm[16];
    scales_mins(sc, sm);
    alignas(16) uint32_t pairs[4];  // chunk c: scale[2c] in the low word, scale[2c + 1] in the high one
    const __m128i scales8 = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(sm));
    _mm_store_si128(reinterpret_cast<__m128i*>(pairs), _mm_cvtepu8_epi16(scales8));
    const __m256i aux = lanes(q4, q8, pairs);
    const int32_t sumi = min_terms(bs, sm + 8);
    const float y = yd[b * syd];
    const float d = kir_rt::f16_to_f32(xd[b * sxd]) * y;
    sums = _mm256_add_ps(sums, _mm256_mul_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(aux)));
#ifdef KIR_MUTANT_QDOT_DMIN_FROM_D  // seeded mutant (backends/cpu/mutants/mutants.h)
    const float dmin = kir_rt::f16_to_f32(xd[b * sxd]) * y;
#else
    const float dmin = kir_rt::f16_to_f32(xdmin[b * sxdmin]) * y;
#endif
    const float pm = dmin * static_cast<float>(sumi);
    sumf = sumf - pm;
  }
  alignas(32) float s[8];
  _mm256_store_ps(s, sums);
#ifdef KIR_MUTANT_QDOT_LANE_SUM_REVERSED  // seeded mutant (backends/cpu/mutants/mutants.h)
  for (int l = 7; l >= 0; --l) sumf = sumf + s[l];
#else
  for (int l = 0; l < 8; ++l) sumf = sumf + s[l];
#endif
  *out = kir_rt::canon_f32(sumf);  // a NaN from an f16 NaN or Inf scale carries its payload
}

// The byte order within each 128-bit lane after the dword permute: dword m of the result holds
// lane m's bytes (A ta, A tb, B ta, B tb).
inline __m128i lane_shuffle() { return _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15); }

// aux32 of one super-block with AVX2: two vectors per chunk (lanes 0..3 and 4..7).
inline __m256i lanes_avx2(const uint8_t* q4, const int8_t* q8, const uint32_t* pairs) {
  const __m256i p40 = _mm256_setr_epi32(0, 2, 0, 2, 4, 6, 4, 6), p41 = _mm256_setr_epi32(1, 3, 1, 3, 5, 7, 5, 7);
  const __m256i p8 = _mm256_setr_epi32(0, 2, 1, 3, 4, 6, 5, 7);
  const __m256i shuf = _mm256_broadcastsi128_si256(lane_shuffle());
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
  for (int c = 0; c < 4; ++c) {
    const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q4 + 32 * c));
    __m256i x0 = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, p40), shuf);
    __m256i x1 = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(raw, p41), shuf);
    x0 = _mm256_and_si256(_mm256_blend_epi16(x0, _mm256_srli_epi16(x0, 4), 0xAA), low4);
    x1 = _mm256_and_si256(_mm256_blend_epi16(x1, _mm256_srli_epi16(x1, 4), 0xAA), low4);
    const __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * c)), p8);
    const __m256i b =
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q8 + 64 * c + 32)), p8);
    const __m256i y0 = _mm256_shuffle_epi8(_mm256_unpacklo_epi64(a, b), shuf);
    const __m256i y1 = _mm256_shuffle_epi8(_mm256_unpackhi_epi64(a, b), shuf);
    const __m256i sc = _mm256_set1_epi32(static_cast<int32_t>(pairs[c]));
    acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_maddubs_epi16(x0, y0), sc));
    acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_maddubs_epi16(x1, y1), sc));
  }
  const __m128i lo = _mm_add_epi32(_mm256_castsi256_si128(acc0), _mm256_extracti128_si256(acc0, 1));
  const __m128i hi = _mm_add_epi32(_mm256_castsi256_si128(acc1), _mm256_extracti128_si256(acc1, 1));
  return _mm256_set_m128i(hi, lo);
}

#if defined(__AVX512BW__) && defined(__AVX512VNNI__)
// aux32 of one super-block with AVX-512: one vector per chunk, vpdpwssd applying the scales.
inline __m256i lanes_avx512(const uint8_t* q4, const int8_t* q8, const uint32_t* pairs) {
  const __m512i p4 = _mm512_setr_epi32(0, 2, 0, 2, 1, 3, 1, 3, 4, 6, 4, 6, 5, 7, 5, 7);
  const __m512i p8 = _mm512_setr_epi32(0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15);
  const __m512i shuf = _mm512_broadcast_i32x4(lane_shuffle());
  const __m512i nibble = _mm512_set1_epi32(0x00040000);  // word shifts 0 (low nibble), 4 (high)
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  __m512i acc = _mm512_setzero_si512();
  for (int c = 0; c < 4; ++c) {
    const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q4 + 32 * c));
    __m512i x = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(p4, _mm512_castsi256_si512(raw)), shuf);
    x = _mm512_and_si512(_mm512_srlv_epi16(x, nibble), low4);
    const __m512i y = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(p8, _mm512_loadu_si512(q8 + 64 * c)), shuf);
    acc = _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(x, y), _mm512_set1_epi32(static_cast<int32_t>(pairs[c])));
  }
  return _mm256_add_epi32(_mm512_castsi512_si256(acc), _mm512_extracti64x4_epi64(acc, 1));
}
#endif
#endif

}  // namespace qdot_detail

#if defined(__AVX2__)
inline void qdot_q4k_q8k_avx2(float* out, const uint16_t* xd, int64_t sxd, const uint16_t* xdmin, int64_t sxdmin,
                              const uint8_t* xsc, int64_t sscb, int64_t ssce, const uint8_t* xqs, int64_t sqb,
                              int64_t sqe, const float* yd, int64_t syd, const int8_t* yqs, int64_t syqb, int64_t syqe,
                              const int16_t* ybs, int64_t sbsb, int64_t sbse, int64_t nb) {
  qdot_detail::qdot_q4k_q8k(out, xd, sxd, xdmin, sxdmin, xsc, sscb, ssce, xqs, sqb, sqe, yd, syd, yqs, syqb, syqe, ybs,
                            sbsb, sbse, nb, qdot_detail::lanes_avx2);
}
#endif

#if defined(__AVX2__) && defined(__AVX512BW__) && defined(__AVX512VNNI__)
inline void qdot_q4k_q8k_avx512(float* out, const uint16_t* xd, int64_t sxd, const uint16_t* xdmin, int64_t sxdmin,
                                const uint8_t* xsc, int64_t sscb, int64_t ssce, const uint8_t* xqs, int64_t sqb,
                                int64_t sqe, const float* yd, int64_t syd, const int8_t* yqs, int64_t syqb, int64_t syqe,
                                const int16_t* ybs, int64_t sbsb, int64_t sbse, int64_t nb) {
  qdot_detail::qdot_q4k_q8k(out, xd, sxd, xdmin, sxdmin, xsc, sscb, ssce, xqs, sqb, sqe, yd, syd, yqs, syqb, syqe, ybs,
                            sbsb, sbse, nb, qdot_detail::lanes_avx512);
}
#endif

}  // namespace kir_uk
