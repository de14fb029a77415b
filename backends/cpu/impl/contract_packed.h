// The packed contract's BLIS loop nest (contract_packed.cpp), offered to implementations of
// other computations whose terms are a dense f32 matrix product once their operands are packed
// (scaled_packed.cpp: the MX scaled_contract). They supply the extents and the packing; the nest
// (task tiles, jc/pc/ic blocks, the f32 gemm micro-kernel over the panels) is the contract's.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "backends/cpu/impl/registry.h"

namespace kir::cpu {

struct PackedIsa {
  std::string name;        // avx512 | avx2 | portable
  std::string capability;  // host capability the micro-kernel needs
  int registers;           // vector registers of the ISA (the micro-tile must fit)
};

// A product C[M, N] (f32, the op's first result, rows then columns) = A[M, K] B[K, N] whose
// operands are packed by `pack`.
struct PackedSource {
  ExprP M, N, K;
  // The statements filling the f32 scratch `panel` with the n x kc block of side 0 (A: rows
  // base.., k pc..) or 1 (B: columns base.., k pc..) in micro-panels of W, k-major:
  // panel[(p * kc + k) * W + w] for p < ceil(n / W), k < kc, w < W, +0 for w beyond n.
  std::function<StmtP(BufId panel, int side, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W)> pack;
  // A sparse A (sparse_packed.cpp: 2:4 / 1:2) when keep > 0: K is dense and every group of `group`
  // k keeps `keep` terms per row; KC blocks are cut on group boundaries, B is packed by `pack`
  // (side 1) and A by `pack_kept` into micro-panels of W rows holding kc / group * keep kept terms,
  // term-major: vals[(p * kt + t) * W + w] and its k within the block ks[(p * kt + t) * W + w]
  // (0 and 0 beyond n). The micro-kernel is gemm_sparse (ir/ukernels.h).
  int64_t group = 0, keep = 0;
  std::function<StmtP(BufId vals, BufId ks, ExprP base, ExprP n, ExprP pc, ExprP kc, int64_t W)> pack_kept;
};
// The packed nest of contract.packed.<isa> over `src`: each element one f32 accumulator through
// k ascending with one fma per term (gemm.f32), starting at -0; K = 0 gives +0. No epilogue.
std::vector<StmtP> expand_packed_nest(const PackedIsa& isa, Program& P, const Stmt& s, const PackedSource& src);

// The MX scaled_contract kind the packed implementations realize (scaled_packed.cpp): e2m1 /
// e4m3 / e5m2 elements with e8m0 scales, operands [M,G,C], [M,G], [G,C,N], [N,G], an f32
// accumulator and an f32 [M, N] result. "" when `st` is of it, otherwise why not;
// scaled_contract.sequential realizes every other scaled_contract.
std::string mx_packed_form(const Program& P, const StructuredOp& st);
std::vector<Implementation> scaled_packed_implementations();  // scaled_contract.packed.<isa>

// The 2:4 / 1:2 sparse_contract kind the packed implementations realize (sparse_packed.cpp):
// values [M, Kc] and integer metadata [M, Kc] (the compressed lhs, reduce pair [1, 0], no batch),
// a dense rhs [Kd, N], an f32 or f64 accumulator into which both operands embed exactly and a
// result [M, N] of the accumulator dtype. "" when `st` is of it, otherwise why not;
// sparse_contract.sequential takes every other sparse_contract.
std::string sparse_packed_form(const Program& P, const StructuredOp& st);
// The shape check and metadata validation of sparse_contract.sequential (format_impls.cpp), the
// same faults for every implementation.
std::vector<StmtP> sparse_validation(Program& P, const Stmt& s);
std::vector<Implementation> sparse_packed_implementations();  // sparse_contract.packed.<isa>

}  // namespace kir::cpu
