// Entry points of the normalization families, one file each. Each takes a Rewriter positioned on
// one op (Rewriter::begin), validates it and either replaces it (returns true) or reports why it
// cannot be normalized (returns false, leaving the op in place).
#pragma once
#include "kir/normalize/rewriter.h"

namespace kir::normalize {

bool normalize_contract(Rewriter& rw);         // matmul, dot, matvec, vecmat (L10.1, L10.2)
bool normalize_outer(Rewriter& rw);            // outer (L10.3)
bool normalize_scaled_sparse(Rewriter& rw);    // scaled_matmul, sparse_matmul, sparse_contract_2to4 (L11.1, L12.1)
bool normalize_reduce(Rewriter& rw);           // reduce.sum/max/any/all (L7.5, L7.6)
bool normalize_arg_reduce(Rewriter& rw);       // arg_reduce.max (L7.7)
bool normalize_scan(Rewriter& rw);             // cumsum, cummax (L8.2)
bool normalize_zeros(Rewriter& rw);            // zeros (L4.9)

// The accumulator dtype of reduce.sum / reduce.max / cumsum / cummax: the explicit acc_dtype if
// given, else sum's default widening (widening.h) or max's own dtype. Reports under `rule`.
std::optional<DType> builtin_accumulator(Rewriter& rw, bool is_sum, DType src, std::optional<DType> acc,
                                         const std::string& rule);

// Pointwise binary/compare/select ops with implicit scalar or size-one broadcast (L4.1, L4.2):
// inserts explicit broadcasts and keeps the op. Returns false on incompatible shapes.
bool normalize_pointwise(Rewriter& rw);
bool needs_pointwise_broadcast(const Operation& op);
// The shape the operands of such an op broadcast to, or nullopt with the rule and the reason
// (incompatible extents, or a declared result of another shape).
std::optional<std::vector<Extent>> pointwise_broadcast_shape(const Operation& op, std::string& rule, std::string& why);

// Degenerate region_scan / region_fold (L9.6): replaced by ordinary scan / reduce when recognized;
// returns false (without a diagnostic) when the op is not a recognized degenerate form.
bool normalize_degenerate_region(Rewriter& rw);
// region_fold / region_scan written without `segments` (one source, no operands; L9.1, L9.5):
// a degenerate form becomes scan / reduce (L9.6), any other gets its segments written out.
bool normalize_region_surface(Rewriter& rw);

}  // namespace kir::normalize
