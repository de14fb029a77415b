// The catalog of micro-kernels a Kernel statement may call (checklist C6, C7): what each one
// computes, which arguments it takes and how the provider spells the call. A micro-kernel is a
// small, target-specialized inner loop of the runtime library (rt/kir_uk.h) behind a fixed
// interface, as IREE's ukernels and BLIS's micro-kernels are: the loops around it, the packing
// of its panels and the scratch it reads are ordinary CPU IR built by the implementation, so
// the verifier, the analyses and the task partition see every access. The verifier checks a
// Kernel statement against this catalog; the serializer only spells it.
//
//   gemm.<f32|f64>.<isa>.<MR>x<NV>   isa: avx512 (16 f32 / 8 f64 lanes), avx2 (8 / 4), portable (1)
//     buf[i0, j0] = the C block (row stride and column stride are buf's own);
//     detail = (A panel: a Load of the first element, B panel likewise, kc, mr, nr, first: bool)
//     For every i < mr, j < nr (mr <= MR, nr <= NR = NV * lanes):
//       acc = first ? -0 : C[i0 + i, j0 + j]
//       for k in [0, kc): acc = fma(A[k * MR + i], B[k * NR + j], acc)   (one rounding each)
//       C[i0 + i, j0 + j] = acc
//     The panels are packed k-major: A holds kc columns of MR rows, B kc rows of NR columns,
//     zero beyond mr / nr. Elements of C outside mr x nr are neither read nor written.
#pragma once
#include <optional>
#include <string>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

struct GemmUKernel {
  DType dtype = DType::F32;  // f32 or f64: the panels' and C's element type
  std::string isa;           // avx512 | avx2 | portable
  int mr = 0, nv = 0;        // micro-tile rows and vectors per row
  int lanes() const;         // elements per vector
  int nr() const { return nv * lanes(); }
  std::string name() const;  // "gemm.f32.avx512.6x4"
  std::string capability() const;  // the capability the ISA needs ("" for portable)
};

// The gemm micro-kernel a name denotes, or nullopt.
std::optional<GemmUKernel> parse_gemm_ukernel(const std::string& op);
// "" when the Kernel statement `s` is a well-formed call of a catalog entry, otherwise why not.
std::string check_kernel_call(const Program& p, const Stmt& s);

}  // namespace kir::cpu
