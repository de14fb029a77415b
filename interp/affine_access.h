// Load and store through an affine relation (every source coordinate an affine function of the
// relation point, e.g. built from `indices` and `broadcast`) as strided loops: the storage index
// of a point is itself affine in its coordinate, and bounds are checked once over the whole box
// of points instead of per point. Used only when no parallel tracks accesses; whenever a check
// cannot be settled up front the caller runs the general per-point loop, which reports errors.
#pragma once
#include <vector>

#include "interp/value.h"

namespace kir::interp {

// Loads every point of affine relation `r` from view `v` into `out` (inactive points: `fill`).
// False, with `out` unspecified, when `r` is not affine, a source coordinate of some point (even
// an inactive one) is outside the view, or an active point reads an undefined element.
bool affine_load(const ViewV& v, const RelationV& r, uint64_t fill, std::vector<uint64_t>& out);

// Stores `val` (a scalar or a tensor of the relation's shape) at every active point of affine
// relation `r` when all points are inside `v` and the active points address strictly increasing
// storage indices (injective, so no collision marks are needed). False otherwise; the elements
// already written are exactly those the general loop writes first, with the same values.
bool affine_store(const ViewV& v, const RelationV& r, const Value& val);

}  // namespace kir::interp
