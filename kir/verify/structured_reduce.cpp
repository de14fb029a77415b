// Verifier rules of generic reduce (seed 000 §7: L7.1, L7.2, L7.4, L7.5) and generic scan
// (§8: L8.1). Both derive the accumulator schema from the source (each component less the
// reduced/scanned axes) and bind the combine helper fn(acc, acc, captures...) -> acc to it.
#include <algorithm>

#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

namespace {

std::string axes_str(const std::vector<int64_t>& axes) {
  std::string s = "[";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + std::to_string(axes[i]);
  return s + "]";
}

// The source must be a tensor, or a tuple/record of tensors, all having `axes` with equal
// extents there. Reports under `rule`.
bool check_source(Context& cx, const Operation& op, const Type& src, const std::vector<int64_t>& axes,
                  const std::string& rule) {
  std::string miss = missing_axes(src, axes);
  if (!miss.empty()) {
    cx.error(op, rule, "cannot " + std::string(op.name == "scan" ? "scan along" : "reduce over") + " axes " +
                           axes_str(axes) + ": " + miss);
    return false;
  }
  std::string conflict = axis_extent_conflict(leaves(src), axes, "source component");
  if (!conflict.empty()) {
    cx.error(op, rule, "source components must share the reduced extents: " + conflict);
    return false;
  }
  return true;
}

// combine = @f: fn(acc, acc, captures...) -> acc, pure.
void check_combine(Context& cx, const Operation& op, const Type& acc, const std::string& rule,
                   const std::string& purity_rule, const std::string& dtype_rule) {
  HelperUse h;
  if (!resolve_helper(cx, op, "combine", rule, h)) return;
  size_t ncap = op.operands.size() - 2;
  if (helper_arity(cx, op, h, 2 + ncap, 1, rule)) {
    bool ok = bind_param(cx, op, h, 0, acc, "the accumulator", rule, dtype_rule) &&
              bind_param(cx, op, h, 1, acc, "the accumulator", rule, dtype_rule);
    for (size_t k = 0; ok && k < ncap; ++k)
      ok = bind_param(cx, op, h, 2 + k, operand_type(op, 2 + k), "capture " + std::to_string(k), rule, rule);
    if (ok) bind_result(cx, op, h, 0, acc, "the accumulator", rule, dtype_rule);
  }
  check_pure(cx, op, h, purity_rule);
}

// `what` ("identity", "result") must have type `want`; a dtype-only difference is a hidden
// accumulator dtype.
bool expect_type(Context& cx, const Operation& op, const std::string& what, const Type& got, const Type& want,
                 const std::string& want_desc, const std::string& rule, const std::string& dtype_rule) {
  if (got == want) return true;
  std::string g = got ? got.str() : std::string("<none>");
  if (differs_only_in_dtype(got, want))
    cx.error(op, dtype_rule, what + " has type " + g + " but " + want_desc + " is " + want.str() +
                                 ": no hidden accumulator dtype; cast the source first");
  else
    cx.error(op, rule, what + " has type " + g + " but " + want_desc + " is " + want.str());
  return false;
}

}  // namespace

void check_reduce(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"axes", "combine"}, "L7.1");
  if (!cx.results(op, 1, "L7.1")) return;
  if (op.operands.size() < 2) {
    cx.error(op, "L7.1", "expects a source and an identity (then captures), got " +
                             std::to_string(op.operands.size()) + " operands");
    return;
  }
  auto axes = axes_attr(cx, op, "axes", "L7.1");
  if (!axes) return;
  Type src = operand_type(op, 0);
  if (!check_source(cx, op, src, *axes, "L7.1")) return;
  Type acc = remove_axes(src, *axes);
  std::string acc_desc = "the accumulator (the source less axes " + axes_str(*axes) + ")";
  expect_type(cx, op, "identity", operand_type(op, 1), acc, acc_desc, "L7.4", "L7.5");
  expect_type(cx, op, "result", result_type(op, 0), acc, acc_desc, "L7.1", "L7.5");
  check_combine(cx, op, acc, "L7.2", "L7.2", "L7.5");
}

void check_scan(const Operation& op, Context& cx) {
  const std::string R = "L8.1";
  cx.only_attrs(op, {"axis", "combine", "inclusive", "reverse"}, R);
  if (!cx.results(op, 1, R)) return;
  if (op.operands.size() < 2) {
    cx.error(op, R, "expects a source and an identity (then captures), got " + std::to_string(op.operands.size()) +
                        " operands");
    return;
  }
  cx.bool_attr(op, "inclusive", R, true);
  cx.bool_attr(op, "reverse", R, false);
  auto axis = axis_attr(cx, op, "axis", R);
  if (!axis) return;
  std::vector<int64_t> axes{static_cast<int64_t>(*axis)};
  Type src = operand_type(op, 0);
  if (!check_source(cx, op, src, axes, R)) return;
  Type acc = remove_axes(src, axes);
  std::string acc_desc = "the accumulator (the source less axis " + std::to_string(*axis) + ")";
  expect_type(cx, op, "identity", operand_type(op, 1), acc, acc_desc, R, R);
  expect_type(cx, op, "result", result_type(op, 0), src, "the source", R, R);
  check_combine(cx, op, acc, R, R, R);
}

}  // namespace kir::verify::structured
