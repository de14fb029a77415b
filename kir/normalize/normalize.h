// Surface -> canonical normalization (seed 000 §19): every shorthand becomes its one canonical
// form (matmul/dot/matvec/vecmat -> contract, outer -> broadcast multiply, reduce.* and
// arg_reduce.max -> reduce with fixed combine and identity, cumsum/cummax -> scan, zeros -> full,
// scaled_matmul -> scaled_contract, sparse_matmul/sparse_contract_2to4 -> sparse_contract,
// implicit pointwise broadcast -> explicit broadcast, degenerate region forms -> scan).
#pragma once
#include <optional>
#include <string>

#include "kir/ir.h"

namespace kir {

// A surface form: an op the normalizer rewrites, so canonical KIR never contains it (L19.1).
//   * a shorthand op (matmul, reduce.sum, cumsum, zeros, ...; rule L19.1);
//   * a pointwise binary op, cmp or select with implicit scalar / size-one broadcast (L4.1, L4.2);
//   * region_fold / region_scan written without `segments` — one source and no operands — whose
//     degenerate forms become ordinary reduce / scan (L9.1, L9.5, L9.6).
// `problem` is set when normalization cannot rewrite it (e.g. extents that do not broadcast): the
// normalizer reports it, and the verifier reports the op under its own rules instead of
// suggesting `kir normalize`.
struct SurfaceForm {
  std::string rule;
  std::string what;     // "shorthand 'matmul' (...)", "implicit broadcast of ... to f32[M, N]", ...
  std::string problem;  // empty when `kir normalize` rewrites it
};

// The one test of "is this op canonical" shared by the normalizer (what it rewrites), the loader
// (whether to normalize) and the verifier (what it reports as "surface form: run kir normalize").
std::optional<SurfaceForm> surface_form(const Operation& op);
inline bool is_canonical(const Operation& op) { return !surface_form(op); }
// True when some op of some function of `m` is a surface form.
bool needs_normalization(const Module& m);

// Rewrites `m` in place. Returns false (with diagnostics naming the op) when a surface op is
// ill-formed and cannot be normalized.
bool normalize_module(Module& m, Diagnostics& diags);

}  // namespace kir
