// The catalog of micro-kernels a Kernel statement may call (checklist C6, C7): what each one
// computes, which arguments it takes and how the provider spells the call. A micro-kernel is a
// small, target-specialized inner loop of the runtime library (rt/kir_uk.h) behind a fixed
// interface, as IREE's ukernels and BLIS's micro-kernels are: the loops around it and the
// scratch it works in are ordinary CPU IR built by the implementation, and every buffer it
// touches is an argument of the statement (its first element), so the analyses and the task
// partition see each access, and the block it covers is stated here. The verifier checks a
// Kernel statement against this catalog; the serializer only spells it.
//
//   gemm.<f32|f64>.<isa>.<MR>x<NV>   isa: avx512 (16 f32 / 8 f64 lanes), avx2 (8 / 4), portable (1)
//     buf[..., i0, j0] = the C block over buf's last two axes (a buffer of rank 2 or more: the
//     leading indices fix a batch element; row and column strides are buf's own);
//     detail = (A panel: a Load of the first element, B panel likewise, kc, mr, nr, first: bool,
//     last: bool)
//     For every i < mr, j < nr (mr <= MR, nr <= NR = NV * lanes):
//       acc = first ? -0 : C[i0 + i, j0 + j]
//       for k in [0, kc): acc = fma(A[k * MR + i], B[k * NR + j], acc)   (one rounding each)
//       C[i0 + i, j0 + j] = last ? canonical(acc) : acc
//     canonical(x): the canonical NaN when x is a NaN (the fmas keep an operand NaN's payload
//     and give a negative default NaN for Inf * 0), else x. The float tiles below do the same.
//     The panels are packed k-major: A holds kc columns of MR rows, B kc rows of NR columns,
//     zero beyond mr / nr. Elements of C outside mr x nr are neither read nor written.
//
//   gemm_sparse.<f32|f64>.<isa>.<MR>x<NV>   the gemm tile for a sparse A (2:4 / 1:2 kept terms)
//     detail = (A values panel, B panel, kt, mr, nr, first, A k panel: an i32 scratch element, last).
//     A holds kt kept terms per row, term-major: value A[t * MR + i], its k within the B panel
//     Ak[t * MR + i] (0 <= Ak < the panel's kc). For every i < mr, j < nr:
//       acc = first ? -0 : C[i0 + i, j0 + j]
//       for t in [0, kt): acc = fma(A[t * MR + i], B[Ak[t * MR + i] * NR + j], acc)
//     Only kept terms enter (a k no term names adds nothing, not even a zero product).
//
//   gemm.u8i8.<isa>.<MR>x<NV>        isa: avx512 (16 i32 lanes, needs VNNI), portable (1)
//     buf[i0, j0] = the C block of i32; detail = (A panel: u8, B panel: i8, kc, mr, nr, first,
//     row terms: an i32 scratch element, column terms likewise). The panels hold k in groups of
//     four bytes: A[((k / 4) * MR + i) * 4 + k % 4], B[((k / 4) * NR + j) * 4 + k % 4], zero from
//     kc up to the next multiple of 4 and beyond mr / nr. For every i < mr, j < nr, modulo 2^32:
//       C[i0 + i, j0 + j] = (first ? 0 : C[i0 + i, j0 + j]) + sum_k A(i, k) * B(k, j) + row[i] + col[j]
//     Integer sums wrap, so any order of the terms gives this value.
//
//   gemm.bf16.<isa>.<MR>x<NV>        isa: avx512 (16 f32 lanes), portable (1)
//     buf[i0, j0] = the C block of f32; detail = (A panel: bf16, B panel: bf16, kc, mr, nr, first,
//     A range: an i32 scratch element (the A micro-panel's, see pack below), B range likewise,
//     last).
//     The panels hold k in pairs: A[((k / 2) * MR + i) * 2 + k % 2], B[((k / 2) * NR + j) * 2 +
//     k % 2]; an odd kc is padded with -0 in A and +0 in B (a -0 product, which adds nothing).
//     For every i < mr, j < nr: acc = first ? -0 : C[i0 + i, j0 + j]; for each pair q:
//       acc = fma(A(i, 2q + 1), B(2q + 1, j), acc); acc = fma(A(i, 2q), B(2q, j), acc)
//     (the order sequential-fused-pairs). Where the target has AVX512-BF16, the avx512 kernel
//     uses vdpbf16ps, which computes exactly this while no input, product or partial sum is
//     subnormal and no product overflows (it flushes subnormals to zero); it does so only when
//     the two ranges and C prove it (each product a multiple of 2^-126 below 2^127, C zero or a
//     multiple of 2^-126), and otherwise takes the same order in f32 fmas.
//
//   gemv.<f32|f64>.<isa>                at most 4 rows of C, any number of columns
//     buf[i0, j0] = the C block; detail = (A: a Load of its element [i0, k = 0], A's row axis and
//     k axis (index constants), B: a Load of its element [k = 0, j0], B's k axis and column axis,
//     k, m, n). For every i < m <= 4, j < n: acc = -0; for q in [0, k): acc = fma(A(i0 + i, q),
//     B(q, j0 + j), acc); C[i0 + i, j0 + j] = canonical(acc) — the gemm order, with A and B read
//     in place.
//
//   pack.<src>.<panel>.w<W>          a packing kernel (BLIS's packm): W = MR or NR, G = 4 for
//     u8/i8 panels (the k groups above), 2 for bf16 panels (the pairs above), else 1. buf[0] = the panel (rank-1 scratch of <panel>);
//     detail = (source: a Load of the block's first element, its free axis and its k axis
//     (index constants), n, kc, kcp[, terms: an i32 scratch element, factor: i32]). Writes
//     panel[p * kcp * W + ((k / G) * W + w) * G + k % G] for p < ceil(n / W), k < kcp, w < W:
//     convert(source[f0 + p * W + w, k0 + k]) when p * W + w < n and k < kc, else 0; convert
//     is exact (the same dtype; f32 -> f64; f16/bf16 -> f32; i8 -> u8 adds 128, u8 -> i8
//     subtracts 128). With terms: terms[f] = factor * sum_{k < kc} source[f0 + f, k0 + k]
//     for f < n, modulo 2^32. Reads exactly the n x kc block of the source.
//     pack.bf16.bf16.w<W>: detail = (source, its free axis and k axis, n, kc, kcp, ranges: an i32
//     scratch element, pad: i32, the bits of the value padding k from kc to kcp). Copies the bits;
//     ranges[p] of micro-panel p is -1 when it holds a subnormal, an Inf or a NaN, else
//     (hi << 8) | lo, lo and hi the smallest and largest biased exponent of its nonzero
//     elements (255 and 0 when it has none).
//
//   qdot.q4k_q8k.<isa>               isa: avx512 (AVX512-BW and VNNI), avx2 (rt/kir_uk_qdot.h)
//     buf[o...] = one f32 element: the q4_K x q8_K dot product of one row, numerics/kquant.cpp's
//     vec_dot_q4_K_q8_K bit for bit (integer parts exact, the reference's f32 operations in its
//     order, no fma). detail = (x.d, x.dmin, x.scales, x.qs, y.d, y.qs, y.bsums: each a Load of the
//     row's block-0 element of that field, nb: the number of super-blocks). Dtypes f16, f16, u8,
//     u8, f32, i8, i16. d and dmin hold one element per block along their last axis; scales (12),
//     x.qs (128), y.qs (256) and bsums (16) are either [..., NB, per] (block axis and element axis
//     the last two, relative to their record's d: one rank more) or [..., NB * per] (the last
//     axis, block b at b * per; the same rank as d). Reads exactly the nb blocks of each field.
#pragma once
#include <optional>
#include <string>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

struct GemmUKernel {
  DType dtype = DType::F32;  // C's element type: f32 or f64 (also the panels'), or i32 (u8 x i8 panels)
  std::string isa;           // avx512 | avx2 | portable
  int mr = 0, nv = 0;        // micro-tile rows and vectors per row
  bool bf16 = false;         // f32 C over bf16 pair panels (gemm.bf16)
  bool sparse = false;       // kept-term A panel with its k panel (gemm_sparse)
  int lanes() const;         // elements per vector
  int nr() const { return nv * lanes(); }
  std::string name() const;  // "gemm.f32.avx512.6x4", "gemm.u8i8.avx512.12x2", "gemm.bf16.avx512.12x2"
  bool integer() const { return dtype == DType::I32; }
  DType a_panel() const { return integer() ? DType::U8 : bf16 ? DType::BF16 : dtype; }
  DType b_panel() const { return integer() ? DType::I8 : bf16 ? DType::BF16 : dtype; }
  int group() const { return integer() ? 4 : bf16 ? 2 : 1; }  // k per packed group
  // Whether the kernel takes two i32 side arguments (integer: row/column terms; bf16: ranges).
  bool side_args() const { return integer() || bf16; }
  // The number of detail arguments, and where a float tile's `last` flag is (the last one).
  size_t args() const { return side_args() ? 8 + (bf16 ? 1 : 0) : sparse ? 8 : 7; }
  size_t last_arg() const { return args() - 1; }
  std::string capability() const;  // the capability the ISA needs ("" for portable)
};

// The gemm micro-kernel a name denotes, or nullopt.
std::optional<GemmUKernel> parse_gemm_ukernel(const std::string& op);

struct GemvUKernel {
  DType dtype = DType::F32;
  std::string isa;
  std::string name() const;  // "gemv.f32.avx512"
};
std::optional<GemvUKernel> parse_gemv_ukernel(const std::string& op);

struct PackUKernel {
  DType src = DType::F32, panel = DType::F32;
  int w = 1;
  bool integer() const { return panel == DType::U8 || panel == DType::I8; }
  bool bf16() const { return panel == DType::BF16; }
  int group() const { return integer() ? 4 : bf16() ? 2 : 1; }
  // Whether it takes the two side arguments (integer: terms and factor; bf16: ranges and pad).
  bool side_args() const { return integer() || bf16(); }
  std::string name() const;  // "pack.i8.u8.w12"
};
struct QdotUKernel {
  std::string isa;  // avx512 | avx2
  std::string name() const { return "qdot.q4k_q8k." + isa; }
  std::string capability() const { return isa == "avx512" ? "avx512_vnni" : "avx2"; }
};
std::optional<QdotUKernel> parse_qdot_ukernel(const std::string& op);
// The per-block element count of quantized_dot field `i` (0..6: x.d, x.dmin, x.scales, x.qs,
// y.d, y.qs, y.bsums).
int64_t qdot_field_per_block(size_t i);

// Whether a packing kernel converts `src` into `panel` (the pairs listed in the catalog).
bool packable(DType src, DType panel);
std::optional<PackUKernel> parse_pack_ukernel(const std::string& op);
// "" when the Kernel statement `s` is a well-formed call of a catalog entry, otherwise why not.
std::string check_kernel_call(const Program& p, const Stmt& s);

}  // namespace kir::cpu
