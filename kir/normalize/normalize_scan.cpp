// cumsum / cummax -> generic scan (seed 000 §8; L8.2). One axis (negative allowed), same shape,
// inclusive/reverse kept as operation semantics (defaults true/false, always printed). cumsum uses
// add with identity 0 and reduce.sum's default widening; cummax uses the propagating `max` with
// identity -inf / the dtype minimum and keeps the dtype. acc_dtype casts the source first (L7.5).
#include "kir/normalize/axes.h"
#include "kir/normalize/combines.h"
#include "kir/normalize/families.h"
#include "kir/normalize/widening.h"

namespace kir::normalize {

bool normalize_scan(Rewriter& rw) {
  const std::string R = "L8.2";
  Operation& op = rw.op();
  bool sum = op.name == "cumsum";
  if (!arity(rw, 1, 1, R) || !only_attrs(rw, {"axis", "inclusive", "reverse", "acc_dtype"}, R)) return false;
  Value* x = op.operands[0];
  if (!x->type.is_tensor()) return rw.fail(R, "source must be a ranked tensor, got " + type_str(x->type));
  if (x->type.rank() == 0) return rw.fail(R, "source " + x->type.str() + " has no axis to scan");
  auto axes = read_axes(rw, x->type.rank(), true, R);
  if (!axes) return false;
  auto inclusive = bool_attr(rw, "inclusive", true, R);
  auto reverse = bool_attr(rw, "reverse", false, R);
  if (!inclusive || !reverse) return false;
  std::optional<DType> given;
  if (!dtype_attr(rw, "acc_dtype", "L7.5", false, given)) return false;
  auto acc_dt = builtin_accumulator(rw, sum, x->type.dtype(), given, R);
  if (!acc_dt) return false;
  Type result = x->type.with_dtype(*acc_dt);
  if (!check_result(rw, 0, result, R)) return false;
  Type acc = acc_type(*acc_dt, remove_axes(x->type.shape(), *axes));

  Value* source = rw.cast(x, *acc_dt, "src");
  Value* identity = rw.splat(sum ? zero_value(*acc_dt) : lowest_value(*acc_dt), acc, "id");
  std::string combine = pointwise_combine(rw, sum ? "sum" : "max", sum ? "add" : "max", acc);
  Value* r = rw.value("scan", {source, identity}, result,
                      {{"axis", Attribute::integer(static_cast<int64_t>((*axes)[0]))},
                       {"combine", Attribute::symbol(combine)},
                       {"inclusive", Attribute::boolean(*inclusive)},
                       {"reverse", Attribute::boolean(*reverse)}},
                      "r");
  rw.replace({r});
  return true;
}

}  // namespace kir::normalize
