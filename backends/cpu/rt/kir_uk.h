// Micro-kernels of the CPU backend's runtime library: small, target-specialized inner loops
// behind a fixed interface (the catalog in backends/cpu/ir/ukernels.h states what each one
// computes; a Kernel statement of the CPU IR calls one). The loops around them, the packing of
// their panels and their scratch are ordinary generated code.
//
// gemm_<isa><T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first, last): an MR x NR register tile of C
// (NR = NV vectors) accumulated over kc packed columns of A (k-major, MR per k) and rows of B
// (k-major, NR per k). Each element is one accumulator taken through the k in order with one
// fused multiply-add each — acc = fma(a, b, acc) — starting from -0 (first) or from C: the
// "sequential-fused" order the implementation declares, which the interpreter reproduces.
// Only the mr x nr corner is read and written; rs/cs are C's row and column strides. With last
// (the call that adds each element's last term) every NaN is stored as the canonical NaN: the
// fmas carry an operand NaN's payload and give x86's negative default NaN for Inf * 0, while a
// computed NaN of the language is canonical. The float tiles below do the same.
//
// sgemm_<isa><T, MR, NV>(c, rs, cs, a, b, kt, mr, nr, first, ak, last): the same tile for a sparse A
// (2:4 / 1:2): kt kept terms per row, a[t * MR + i] the value of row i's term t and ak[t * MR + i]
// its k within the B panel; acc = fma(a, B[ak * NR + j], acc) per kept term, t ascending (the
// rows of a tile keep different k). Kept terms only: a dropped k is no term at all.
//
// igemm_<isa><MR, NV>(c, rs, cs, a, b, kc, mr, nr, first, row, col): the same tile of i32 for
// u8 x i8 panels holding k in groups of four bytes (the layout of AVX512-VNNI's vpdpbusd, which
// sums four u8*i8 products into each i32 lane). C = (first ? 0 : C) + A*B + row[i] + col[j],
// all modulo 2^32 (unsigned arithmetic: integer sums wrap, and then any order is exact).
//
// bgemm_<isa><MR, NV>(c, rs, cs, a, b, kc, mr, nr, first, arange, brange, last): the f32 tile for bf16
// panels holding k in pairs, each pair taken second first with one fma per term (the
// "sequential-fused-pairs" order). The avx512 variant runs AVX512-BF16's vdpbf16ps, which
// computes exactly that except that it flushes subnormal inputs, products and partial sums to
// zero (and its products are rounded before the addition) — so it runs only where the panels'
// exponent ranges and C prove that no such value arises: every nonzero product a multiple of
// 2^-126 (smallest exponents summing to >= -112) and below 2^127, C zero or a multiple of
// 2^-126; then every partial sum is a multiple of 2^-126, 0 or normal. Elsewhere it takes the
// same order in f32 fmas.
//
// pack_bf16<W>(panel, src, sf, sk, n, kc, kcp, ranges, pad): the bf16 packing (k in pairs, pad
// bits from kc to kcp) writing each micro-panel's exponent range (ir/ukernels.h).
//
// gemv<T>(c, rs, cs, a, sam, sak, b, sbk, sbn, k, m, n): the same order for at most four rows
// of C and any number of columns, reading A (strides sam, sak) and B (sbk, sbn) in place, without
// packing: for a matrix-vector or few-row product, where packing B would read it twice. Columns
// go in blocks whose accumulators stay in L1, and each k reads a contiguous stretch of B's row
// (when its column stride is 1, as vectors), so B streams from memory once, in order. Its sums
// are complete: NaNs are stored canonical.
//
// pack<W, G>(panel, src, sf, sk, n, kc, kcp, convert[, terms, factor]): BLIS's packm. Copies
// the n x kc block of src (strides sf along the free axis, sk along k) into micro-panels of W
// rows, k in groups of G: panel[p * kcp * W + ((k / G) * W + w) * G + k % G], zero outside the
// block; with terms, terms[f] = factor * sum_k src[f, k] modulo 2^32. Unit strides along either
// axis take loops the compiler vectorizes; any other layout takes the general loop.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kir_rt.h"
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace kir_uk {

// The canonical NaN in place of any NaN (an operand's payload, or x86's negative default NaN
// for Inf * 0): what every NaN of a computed result is (docs/numerics.md).
inline float canon(float x) { return kir_rt::canon_f32(x); }
inline double canon(double x) { return kir_rt::canon_f64(x); }

template <class T, int MR, int NV>
inline void gemm_portable(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                          bool first, bool last) {
  constexpr int NR = NV;
  T acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = (first || i >= mr || j >= nr) ? T(-0.0) : c[i * rs + j * cs];
  for (int64_t k = 0; k < kc; ++k)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) acc[i][j] = std::fma(a[k * MR + i], b[k * NR + j], acc[i][j]);
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) c[i * rs + j * cs] = last ? canon(acc[i][j]) : acc[i][j];
}

template <class T>
inline void gemv(T* c, int64_t rs, int64_t cs, const T* a, int64_t sam, int64_t sak, const T* b, int64_t sbk, int64_t sbn,
                 int64_t k, int64_t m, int64_t n) {
  constexpr int64_t JB = 1024, MR = 4;
  T acc[MR][JB];
  for (int64_t j0 = 0; j0 < n; j0 += JB) {
    const int64_t jb = n - j0 < JB ? n - j0 : JB;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < jb; ++j) acc[i][j] = T(-0.0);
    for (int64_t q = 0; q < k; ++q) {
      const T* row = b + q * sbk + j0 * sbn;
      for (int64_t i = 0; i < m; ++i) {
        const T ai = a[i * sam + q * sak];
        T* r = acc[i];
        if (sbn == 1) {
          for (int64_t j = 0; j < jb; ++j) r[j] = std::fma(ai, row[j], r[j]);
        } else {
#ifdef KIR_MUTANT_UK_GEMV_STRIDED_B_AS_UNIT  // seeded mutant (backends/cpu/mutants/mutants.h)
          for (int64_t j = 0; j < jb; ++j) r[j] = std::fma(ai, row[j], r[j]);
#else
          for (int64_t j = 0; j < jb; ++j) r[j] = std::fma(ai, row[j * sbn], r[j]);
#endif
        }
      }
    }
    for (int64_t i = 0; i < m; ++i)
#ifdef KIR_MUTANT_UK_GEMV_COLUMN_BLOCK_OFFSET  // seeded mutant (backends/cpu/mutants/mutants.h)
      for (int64_t j = 0; j < jb; ++j) c[i * rs + j * cs] = canon(acc[i][j]);
#else
      for (int64_t j = 0; j < jb; ++j) c[i * rs + (j0 + j) * cs] = canon(acc[i][j]);
#endif
  }
}

template <int W, int G, bool Terms, class P, class S, class Conv>
inline void pack_block(P* panel, const S* src, int64_t sf, int64_t sk, int64_t n, int64_t kc, int64_t kcp, Conv convert,
                       int32_t* terms, int32_t factor) {
  auto at = [](int64_t k, int64_t w) { return ((k / G) * W + w) * G + k % G; };
  for (int64_t p = 0; p * W < n; ++p) {
    P* dst = panel + p * kcp * W;
    const S* s0 = src + p * W * sf;
    const int64_t width = n - p * W < W ? n - p * W : W;
    uint32_t sums[W] = {};
    if (width == W && sk == 1) {
      for (int w = 0; w < W; ++w) {
        const S* row = s0 + w * sf;
        uint32_t sum = 0;
        for (int64_t k = 0; k < kc; ++k) {
          dst[at(k, w)] = convert(row[k]);
          if constexpr (Terms) sum += static_cast<uint32_t>(static_cast<int32_t>(row[k]));
        }
        sums[w] = sum;
      }
    } else if (width == W && sf == 1) {
      for (int64_t k = 0; k < kc; ++k) {
        const S* col = s0 + k * sk;
        for (int w = 0; w < W; ++w) {
          dst[at(k, w)] = convert(col[w]);
          if constexpr (Terms) sums[w] += static_cast<uint32_t>(static_cast<int32_t>(col[w]));
        }
      }
    } else {
      for (int64_t k = 0; k < kc; ++k)
        for (int w = 0; w < W; ++w) {
          if (w < width) {
            const S x = s0[w * sf + k * sk];
            dst[at(k, w)] = convert(x);
            if constexpr (Terms) sums[w] += static_cast<uint32_t>(static_cast<int32_t>(x));
          } else {
            dst[at(k, w)] = P(0);
          }
        }
    }
    for (int64_t k = kc; k < kcp; ++k)
      for (int w = 0; w < W; ++w) dst[at(k, w)] = P(0);
    if constexpr (Terms)
      for (int64_t w = 0; w < width; ++w)
        terms[p * W + w] = static_cast<int32_t>(static_cast<uint32_t>(factor) * sums[w]);
  }
}

template <int W, int G, class P, class S, class Conv>
inline void pack(P* panel, const S* src, int64_t sf, int64_t sk, int64_t n, int64_t kc, int64_t kcp, Conv convert) {
  pack_block<W, G, false>(panel, src, sf, sk, n, kc, kcp, convert, nullptr, 0);
}

template <int W, int G, class P, class S, class Conv>
inline void pack(P* panel, const S* src, int64_t sf, int64_t sk, int64_t n, int64_t kc, int64_t kcp, Conv convert,
                 int32_t* terms, int32_t factor) {
  if (factor == 0) {
    pack_block<W, G, false>(panel, src, sf, sk, n, kc, kcp, convert, nullptr, 0);
    for (int64_t f = 0; f < n; ++f) terms[f] = 0;
  } else {
    pack_block<W, G, true>(panel, src, sf, sk, n, kc, kcp, convert, terms, factor);
  }
}

// The exponent range of a bf16 micro-panel, accumulated over its elements (ir/ukernels.h):
// lo / hi the smallest / largest biased exponent of the nonzero ones, bad a subnormal, Inf or NaN.
struct Bf16Range {
  uint32_t lo = 255, hi = 0, bad = 0;
  void note(uint16_t x) {
    const uint32_t e = (x >> 7) & 0xffu, mag = x & 0x7fffu;
    const uint32_t e_nz = mag != 0 ? e : 255u;
    lo = e_nz < lo ? e_nz : lo;
    hi = e > hi ? e : hi;  // a zero has e = 0
    bad |= static_cast<uint32_t>(e == 255u) | static_cast<uint32_t>(e == 0u && mag != 0);
  }
  int32_t code() const { return bad ? -1 : static_cast<int32_t>((hi << 8) | lo); }
};

// Whether vdpbf16ps computes the sequential-fused-pairs order exactly for panels of these
// ranges (see the header): no subnormal/Inf/NaN input, every nonzero product a multiple of
// 2^-126 (biased exponents summing to >= 142) and below 2^127 (largest summing to <= 379).
inline bool bf16_exact_ranges(int32_t ra, int32_t rb) {
#ifdef KIR_MUTANT_UK_BF16_EXACT_RANGE_BOUND  // seeded mutant (backends/cpu/mutants/mutants.h)
  return ra >= 0 && rb >= 0 && (ra & 255) + (rb & 255) >= 126 && (ra >> 8) + (rb >> 8) <= 379;
#else
  return ra >= 0 && rb >= 0 && (ra & 255) + (rb & 255) >= 142 && (ra >> 8) + (rb >> 8) <= 379;
#endif
}

inline float bf16_value(uint16_t x) {
  const uint32_t u = static_cast<uint32_t>(x) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Pair g of lane w of a micro-panel is one 32-bit word: k = 2g in the low half, 2g + 1 in the
// high one. The range is taken over the packed micro-panel afterwards (contiguous, so the loop
// vectorizes; its zero rows and the pad change nothing).
template <int W>
inline void pack_bf16(uint16_t* panel, const uint16_t* src, int64_t sf, int64_t sk, int64_t n, int64_t kc, int64_t kcp,
                      int32_t* ranges, int32_t pad) {
  const int64_t whole = kc / 2, pairs = kcp / 2;
  const uint16_t pad16 = static_cast<uint16_t>(pad);
  for (int64_t p = 0; p * W < n; ++p) {
    uint16_t* dst = panel + p * kcp * W;
    const uint16_t* s0 = src + p * W * sf;
    const int64_t width = n - p * W < W ? n - p * W : W;
    auto put = [&](int64_t g, int64_t w, uint16_t even, uint16_t odd) {
      const uint32_t v = static_cast<uint32_t>(even) | (static_cast<uint32_t>(odd) << 16);
      std::memcpy(dst + (g * W + w) * 2, &v, 4);
    };
    auto at = [&](int64_t w, int64_t k) { return w < width ? s0[w * sf + k * sk] : uint16_t{0}; };
    if (width == W && sk == 1) {  // a row's pairs are contiguous words of the source
      for (int64_t w = 0; w < W; ++w) {
        const uint16_t* row = s0 + w * sf;
        for (int64_t g = 0; g < whole; ++g) std::memcpy(dst + (g * W + w) * 2, row + 2 * g, 4);
      }
    } else if (width == W && sf == 1) {  // two source rows interleave into one pair row
      for (int64_t g = 0; g < whole; ++g) {
        const uint16_t* e = s0 + 2 * g * sk;
        const uint16_t* o = e + sk;
        for (int64_t w = 0; w < W; ++w) put(g, w, e[w], o[w]);
      }
    } else {
      for (int64_t g = 0; g < whole; ++g)
        for (int64_t w = 0; w < W; ++w) put(g, w, at(w, 2 * g), at(w, 2 * g + 1));
    }
    for (int64_t g = whole; g < pairs; ++g)  // an odd kc's last pair, then pad pairs
#ifdef KIR_MUTANT_UK_PACK_BF16_ODD_TAIL_DROPPED  // seeded mutant (backends/cpu/mutants/mutants.h)
      for (int64_t w = 0; w < W; ++w) put(g, w, 2 * g + 1 < kc ? at(w, 2 * g) : pad16, pad16);
#else
      for (int64_t w = 0; w < W; ++w) put(g, w, 2 * g < kc ? at(w, 2 * g) : pad16, pad16);
#endif
    Bf16Range r;
    for (int64_t i = 0; i < kcp * W; ++i) r.note(dst[i]);
    ranges[p] = r.code();
  }
}

template <int MR, int NV>
inline void bgemm_portable(float* c, int64_t rs, int64_t cs, const uint16_t* a, const uint16_t* b, int64_t kc, int64_t mr,
                           int64_t nr, bool first, const int32_t*, const int32_t*, bool last) {
  constexpr int NR = NV;
  float acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = (first || i >= mr || j >= nr) ? -0.0f : c[i * rs + j * cs];
  for (int64_t g = 0; g < (kc + 1) / 2; ++g)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) {
        const uint16_t* ap = a + (g * MR + i) * 2;
        const uint16_t* bp = b + (g * NR + j) * 2;
        acc[i][j] = std::fma(bf16_value(ap[1]), bf16_value(bp[1]), acc[i][j]);
        acc[i][j] = std::fma(bf16_value(ap[0]), bf16_value(bp[0]), acc[i][j]);
      }
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) c[i * rs + j * cs] = last ? canon(acc[i][j]) : acc[i][j];
}

template <int MR, int NV>
inline void igemm_portable(int32_t* c, int64_t rs, int64_t cs, const uint8_t* a, const int8_t* b, int64_t kc, int64_t mr,
                           int64_t nr, bool first, const int32_t* row, const int32_t* col) {
  constexpr int NR = NV;
  uint32_t acc[MR][NR] = {};
  for (int64_t g = 0; g < (kc + 3) / 4; ++g)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        for (int q = 0; q < 4; ++q)
          acc[i][j] += static_cast<uint32_t>(int32_t{a[(g * MR + i) * 4 + q]} * int32_t{b[(g * NR + j) * 4 + q]});
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nr; ++j) {
      uint32_t v = acc[i][j] + static_cast<uint32_t>(row[i]) + static_cast<uint32_t>(col[j]);
      if (!first) v += static_cast<uint32_t>(c[i * rs + j * cs]);
      c[i * rs + j * cs] = static_cast<int32_t>(v);
    }
}

template <class T, int MR, int NV>
inline void sgemm_portable(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kt, int64_t mr, int64_t nr,
                           bool first, const int32_t* ak, bool last) {
  constexpr int NR = NV;
  T acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = (first || i >= mr || j >= nr) ? T(-0.0) : c[i * rs + j * cs];
  for (int64_t t = 0; t < kt; ++t)
    for (int i = 0; i < MR; ++i) {
      const T* brow = b + int64_t{ak[t * MR + i]} * NR;
      for (int j = 0; j < NR; ++j) acc[i][j] = std::fma(a[t * MR + i], brow[j], acc[i][j]);
    }
  for (int i = 0; i < MR && i < mr; ++i)
    for (int j = 0; j < NR && j < nr; ++j) c[i * rs + j * cs] = last ? canon(acc[i][j]) : acc[i][j];
}

// Stores the mr x nr corner of a register tile of MR rows by NV vectors into C (row stride rs,
// column stride cs); a final tile (last: its element's last term is in) has its NaNs made
// canonical in the registers first.
template <class V, int MR, int NV, class T>
inline void store_tile(T* c, int64_t rs, int64_t cs, typename V::vec (&acc)[MR][NV], int64_t mr, int64_t nr, bool last) {
  constexpr int L = V::lanes, NR = NV * L;
  alignas(64) T tmp[NR];
  if (last)
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::canon(acc[i][j]);
  for (int i = 0; i < MR; ++i) {
    if (i >= mr) break;
    if (cs == 1) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) {
        const int64_t w = nr - int64_t{j} * L;
        V::store_n(c + i * rs + j * L, acc[i][j], static_cast<int>(w < 0 ? 0 : w > L ? L : w));
      }
    } else {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) V::store(tmp + j * L, acc[i][j]);
      for (int j = 0; j < nr; ++j) c[i * rs + j * cs] = tmp[j];
    }
  }
}

// The register tile shared by the SIMD variants; V supplies the vector type and operations.
template <class V, class T, int MR, int NV>
inline void gemm_simd(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kc, int64_t mr, int64_t nr,
                      bool first, bool last) {
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
#ifdef KIR_MUTANT_UK_GEMM_STRIDED_C_RELOAD_AS_UNIT  // seeded mutant (backends/cpu/mutants/mutants.h)
      for (int j = 0; j < NR; ++j) tmp[j] = j < nr ? c[i * rs + j] : T(-0.0);
#else
      for (int j = 0; j < NR; ++j) tmp[j] = j < nr ? c[i * rs + j * cs] : T(-0.0);
#endif
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
  store_tile<V, MR, NV>(c, rs, cs, acc, mr, nr, last);
}

// The sparse tile (sgemm above): each row's kept term t reads the B panel row at its own k.
template <class V, class T, int MR, int NV>
inline void sgemm_simd(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kt, int64_t mr, int64_t nr,
                       bool first, const int32_t* ak, bool last) {
  constexpr int L = V::lanes, NR = NV * L;
  typename V::vec acc[MR][NV];
  T tmp[NR];
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
  for (int64_t t = 0; t < kt; ++t) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const typename V::vec ai = V::bcast(a[t * MR + i]);
      const T* brow = b + int64_t{ak[t * MR + i]} * NR;
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::fma(ai, V::load(brow + j * L), acc[i][j]);
    }
  }
  store_tile<V, MR, NV>(c, rs, cs, acc, mr, nr, last);
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
  static vec canon(vec v) { return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v, _mm512_set1_ps(kir_rt::f32_nan())); }
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
  static vec canon(vec v) { return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q), v, _mm512_set1_pd(kir_rt::f64_nan())); }
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
                        bool first, bool last) {
  gemm_simd<Avx512<T>, T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first, last);
}
template <class T, int MR, int NV>
inline void sgemm_avx512(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kt, int64_t mr, int64_t nr,
                        bool first, const int32_t* ak, bool last) {
  sgemm_simd<Avx512<T>, T, MR, NV>(c, rs, cs, a, b, kt, mr, nr, first, ak, last);
}

#if defined(__AVX512VNNI__)
// acc += four u8*i8 products per i32 lane. Spelled in asm with acc tied in and out: through the
// intrinsic GCC 12 copies every accumulator to another register and back around each use.
inline void dpbusd(__m512i& acc, __m512i u8, __m512i i8) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u8), "v"(i8));
}

template <int MR, int NV>
inline void igemm_avx512(int32_t* c, int64_t rs, int64_t cs, const uint8_t* a, const int8_t* b, int64_t kc, int64_t mr,
                         int64_t nr, bool first, const int32_t* row, const int32_t* col) {
  constexpr int L = 16, NR = NV * L;
  __m512i acc[MR][NV];
  auto width = [&](int j) {
    const int64_t w = nr - int64_t{j} * L;
    return static_cast<int>(w < 0 ? 0 : w > L ? L : w);
  };
  auto mask = [](int n) { return static_cast<__mmask16>((1u << n) - 1u); };
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_setzero_si512();
  const int64_t groups = (kc + 3) / 4;
  for (int64_t g = 0; g < groups; ++g) {
    __m512i bv[NV];
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) bv[j] = _mm512_loadu_si512(b + (g * NR + j * L) * 4);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      int32_t four;
      std::memcpy(&four, a + (g * MR + i) * 4, 4);
      const __m512i ai = _mm512_set1_epi32(four);
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) dpbusd(acc[i][j], ai, bv[j]);
    }
  }
  // Spill the tile once with constant indices (so acc stays in registers in the loop above),
  // then add the terms and C under masks.
  alignas(64) int32_t tile[MR][NR];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) _mm512_store_si512(&tile[i][j * L], acc[i][j]);
  for (int i = 0; i < mr; ++i) {
    const __m512i ri = _mm512_set1_epi32(row[i]);
    if (cs == 1) {
      for (int j = 0; j < NV; ++j) {
        const __mmask16 m = mask(width(j));
        __m512i v = _mm512_add_epi32(_mm512_add_epi32(_mm512_load_si512(&tile[i][j * L]), ri),
                                     _mm512_maskz_loadu_epi32(m, col + j * L));
        if (!first) v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(m, c + i * rs + j * L));
        _mm512_mask_storeu_epi32(c + i * rs + j * L, m, v);
      }
    } else {
      for (int j = 0; j < nr; ++j) {
        uint32_t v = static_cast<uint32_t>(tile[i][j]) + static_cast<uint32_t>(row[i]) + static_cast<uint32_t>(col[j]);
        if (!first) v += static_cast<uint32_t>(c[i * rs + j * cs]);
        c[i * rs + j * cs] = static_cast<int32_t>(v);
      }
    }
  }
}
#endif

#if defined(__AVX512BF16__)
// acc += the two bf16 products of each f32 lane's pair, the odd one first (see the header for
// when that is exact). Through the intrinsic: written as asm with acc tied, as dpbusd above,
// GCC 12 kept this kernel's accumulators in memory (85 against 200 GFLOP/s measured).
inline void dpbf16(__m512& acc, __m512i a, __m512i b) { acc = _mm512_dpbf16_ps(acc, (__m512bh)a, (__m512bh)b); }
#endif

template <int MR, int NV>
inline void bgemm_avx512(float* c, int64_t rs, int64_t cs, const uint16_t* a, const uint16_t* b, int64_t kc, int64_t mr,
                         int64_t nr, bool first, const int32_t* arange, const int32_t* brange, bool last) {
  using V = Avx512<float>;
  constexpr int L = 16, NR = NV * L;
  __m512 acc[MR][NV];
  alignas(64) float tmp[NR];
  auto width = [&](int j) {
    const int64_t w = nr - int64_t{j} * L;
    return static_cast<int>(w < 0 ? 0 : w > L ? L : w);
  };
  // C's lanes that vdpbf16ps would flush or misround: nonzero with a biased exponent below 24
  // (not a multiple of 2^-126).
  __mmask16 c_bad = 0;
  const __m512i mag_mask = _mm512_set1_epi32(0x7fffffff), lo_normal = _mm512_set1_epi32(24 << 23);
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i) {
    if (first || i >= mr) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::negzero();
    } else if (cs == 1) {
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::load_n(c + i * rs + j * L, width(j));
    } else {
      for (int j = 0; j < NR; ++j) tmp[j] = j < nr ? c[i * rs + j * cs] : -0.0f;
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[i][j] = V::load(tmp + j * L);
    }
    if (!first && i < mr)
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) {
        const __m512i mag = _mm512_and_si512(_mm512_castps_si512(acc[i][j]), mag_mask);
        c_bad |= _mm512_mask_cmplt_epi32_mask(_mm512_test_epi32_mask(mag, mag), mag, lo_normal);
      }
  }
  const int64_t pairs = (kc + 1) / 2;
#if defined(__AVX512BF16__)
  const bool exact = c_bad == 0 && bf16_exact_ranges(*arange, *brange);
#else
  const bool exact = false;  // no AVX512-BF16 on this target: always the fma path
  (void)c_bad;
#endif
  if (exact) {
#if defined(__AVX512BF16__)
    for (int64_t g = 0; g < pairs; ++g) {
      __m512i bv[NV];
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) bv[j] = _mm512_loadu_si512(b + (g * NR + j * L) * 2);
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        int32_t two;
        std::memcpy(&two, a + (g * MR + i) * 2, 4);
        const __m512i ai = _mm512_set1_epi32(two);
#pragma GCC unroll 8
        for (int j = 0; j < NV; ++j) dpbf16(acc[i][j], ai, bv[j]);
      }
    }
#endif
  } else {
    // The same order in f32 fmas: the odd element of a pair is its high half, the even one its
    // low half shifted up.
    const __m512i hi_mask = _mm512_set1_epi32(static_cast<int32_t>(0xffff0000u));
    for (int64_t g = 0; g < pairs; ++g) {
      __m512 bo[NV], be[NV];
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) {
        const __m512i v = _mm512_loadu_si512(b + (g * NR + j * L) * 2);
        bo[j] = _mm512_castsi512_ps(_mm512_and_si512(v, hi_mask));
        be[j] = _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
      }
#pragma GCC unroll 16
      for (int i = 0; i < MR; ++i) {
        const __m512 ao = _mm512_set1_ps(bf16_value(a[(g * MR + i) * 2 + 1]));
        const __m512 ae = _mm512_set1_ps(bf16_value(a[(g * MR + i) * 2]));
#pragma GCC unroll 8
#ifdef KIR_MUTANT_UK_BGEMM_FALLBACK_EVEN_FIRST  // seeded mutant (backends/cpu/mutants/mutants.h)
        for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(ao, bo[j], _mm512_fmadd_ps(ae, be[j], acc[i][j]));
#else
        for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(ae, be[j], _mm512_fmadd_ps(ao, bo[j], acc[i][j]));
#endif
      }
    }
  }
  store_tile<V, MR, NV>(c, rs, cs, acc, mr, nr, last);
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
  static vec canon(vec v) { return _mm256_blendv_ps(v, _mm256_set1_ps(kir_rt::f32_nan()), _mm256_cmp_ps(v, v, _CMP_UNORD_Q)); }
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
  static vec canon(vec v) { return _mm256_blendv_pd(v, _mm256_set1_pd(kir_rt::f64_nan()), _mm256_cmp_pd(v, v, _CMP_UNORD_Q)); }
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
                      bool first, bool last) {
  gemm_simd<Avx2<T>, T, MR, NV>(c, rs, cs, a, b, kc, mr, nr, first, last);
}
template <class T, int MR, int NV>
inline void sgemm_avx2(T* c, int64_t rs, int64_t cs, const T* a, const T* b, int64_t kt, int64_t mr, int64_t nr,
                        bool first, const int32_t* ak, bool last) {
  sgemm_simd<Avx2<T>, T, MR, NV>(c, rs, cs, a, b, kt, mr, nr, first, ak, last);
}
#endif

}  // namespace kir_uk
