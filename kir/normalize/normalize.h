// Surface -> canonical normalization (seed 000 §19): every shorthand becomes its one canonical
// form (matmul/dot/matvec/vecmat -> contract, outer -> broadcast multiply, reduce.* and
// arg_reduce.max -> reduce with fixed combine and identity, cumsum/cummax -> scan, zeros -> full,
// scaled_matmul -> scaled_contract, sparse_matmul/sparse_contract_2to4 -> sparse_contract,
// implicit pointwise broadcast -> explicit broadcast, degenerate region forms -> scan).
#pragma once
#include "kir/ir.h"

namespace kir {

// Rewrites `m` in place. Returns false (with diagnostics naming the op) when a surface op is
// ill-formed and cannot be normalized.
bool normalize_module(Module& m, Diagnostics& diags);

}  // namespace kir
