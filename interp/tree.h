// Operations on structured-op sources and accumulators (seed 000 §7-§9): a source is a tensor or
// a tuple/record whose leaves are tensors; these helpers slice every leaf the same way (fix some
// axes at coordinates, or cut a range along one axis), write accumulator slices back, and
// concatenate per-segment outputs, keeping the tuple/record structure.
#pragma once
#include <vector>

#include "interp/value.h"

namespace kir::interp {

// Every leaf with `axes` (increasing) removed, fixed at `at` (one coordinate per axis); a leaf
// that loses all its axes becomes a scalar.
Value take_slice(const Value& src, const std::vector<int64_t>& axes, const Shape& at);
// Leaves cut to [begin, end) along `axis`.
Value slice_range(const Value& src, int64_t axis, int64_t begin, int64_t end);
// The per-segment values `parts` (same structure and dtypes, leaves cut along `axis`) joined
// along `axis` in order: the inverse of slice_range over consecutive ranges.
Value concat_range(const std::vector<Value>& parts, int64_t axis);
// Writes `acc` (the schema of take_slice(out, {axis}, {pos})) into every leaf of `out` at `pos`.
void put_slice(Value& out, int64_t axis, int64_t pos, const Value& acc);
// A value shaped like `src` (same structure, shapes and dtypes), zero bits.
Value zeros_like(const Value& src);
// Extent of `axis` in the first leaf (all leaves agree, checked by the verifier; re-checked here).
int64_t leaf_extent(const Value& src, int64_t axis);
// Whether every leaf of `v` agrees on the extent of `axis`.
bool leaves_agree(const Value& src, int64_t axis, int64_t extent);

}  // namespace kir::interp
