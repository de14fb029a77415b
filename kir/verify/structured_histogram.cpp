// Verifier rule of histogram (seed 000 §13: L13.1): integer values, a positive index bin count,
// a bool validity of the values' shape (or scalar), and an integer count tensor [bins]. That
// every active value lies in [0, bins) is a run-time check of the interpreter.
#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

void check_histogram(const Operation& op, Context& cx) {
  const std::string R = "L13.1";
  cx.only_attrs(op, {}, R);
  if (!cx.operands(op, 3, R) || !cx.results(op, 1, R)) return;
  Type values = operand_type(op, 0), bins = operand_type(op, 1), valid = operand_type(op, 2);
  auto spell = [](const Type& t) { return t ? t.str() : std::string("<none>"); };
  if (!values.is_tensor() || !is_integer(values.dtype())) {
    cx.error(op, R, "values must be an integer tensor, got " + spell(values));
    return;
  }
  if (!bins.is_scalar() || bins.dtype() != DType::Index) {
    cx.error(op, R, "bins must be an index scalar, got " + spell(bins));
    return;
  }
  Extent b = cx.extent_of(op.operands[1]);
  if (auto c = b.constant_value(); c && *c <= 0) {
    cx.error(op, R, "bins = " + std::to_string(*c) + " must be positive");
    return;
  }
  bool valid_ok = valid && valid.is_shaped_or_scalar() && valid.dtype() == DType::Bool &&
                  (valid.is_scalar() || valid.shape() == values.shape());
  if (!valid_ok) {
    cx.error(op, R, "valid must be a bool scalar or a bool tensor of the values' shape " + shape_str(values.shape()) +
                        ", got " + spell(valid));
    return;
  }
  Type res = result_type(op, 0);
  if (!res.is_tensor() || !is_integer(res.dtype()) || res.rank() != 1 || res.shape()[0] != b) {
    cx.error(op, R, "result must be an integer count tensor [" + b.str() + "] (one count per bin), got " + spell(res));
  }
}

}  // namespace kir::verify::structured
