// zeros() : T -> `const` 0 of T's dtype + `full` (seed 000 §4; L4.9). T must be a ranked tensor
// (f32[] is the rank-0 tensor); the shape, with its dynamic extents, comes from T.
#include "kir/normalize/families.h"
#include "kir/normalize/widening.h"

namespace kir::normalize {

bool normalize_zeros(Rewriter& rw) {
  const std::string R = "L4.9";
  if (!arity(rw, 0, 1, R) || !only_attrs(rw, {}, R)) return false;
  const Type& t = rw.op().results[0]->type;
  if (!t.is_tensor()) return rw.fail(R, "result must be a ranked tensor type (shape and dtype), got " + t.str());
  Value* fill = rw.constant(zero_value(t.dtype()), t.dtype(), "fill");
  rw.replace({rw.value("full", {fill}, t, {}, "r")});
  return true;
}

}  // namespace kir::normalize
