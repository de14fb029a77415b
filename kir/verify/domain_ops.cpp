// Verifier rules for domains, subregions, indices and index relations (seed 000 §3, §15):
// positive steps (L3.1), contiguous source-derived subregions without implicit clamping (L3.3,
// L3.5), source coordinates of indices (L3.4), and typed relations with active validity (L15.1).
// Extents are symbolic (kir/extent.h): a result type must be provably equal to the computed one.
#include "kir/verify/context.h"
#include "kir/verify/core_util.h"

namespace kir::verify {

using namespace core;

namespace {

bool index_operand(const Operation& op, Context& cx, size_t i, const char* what, const std::string& rule) {
  Type t = operand_type(op, i);
  if (t.is_scalar() && t.dtype() == DType::Index) return true;
  cx.error(op, rule, std::string(what) + " must be an index scalar, got " + ty(t));
  return false;
}

void expect_extent(const Operation& op, Context& cx, const Type& r, TypeKind kind, const Extent& e,
                   const std::string& rule) {
  Type want = kind == TypeKind::Domain ? Type::domain(e) : Type::subregion(e);
  if (r == want) return;
  if (!r.is(kind)) return cx.error(op, rule, "result must be " + ty(want) + ", got " + ty(r));
  cx.error(op, rule, "result extent " + r.extent().str() + " is not provably equal to " + e.str() +
                         " (the extent the operands define)");
}

void check_domain(const Operation& op, Context& cx) {
  bool a = cx.operands_between(op, 2, 3, "L3.1");
  bool b = cx.results(op, 1, "L3.1");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L3.1");
  bool ok = index_operand(op, cx, 0, "begin", "L3.1") && index_operand(op, cx, 1, "end", "L3.1");
  if (op.operands.size() == 3) ok = index_operand(op, cx, 2, "step", "L3.1") && ok;
  if (!ok) return;
  Extent begin = cx.extent_of(op.operands[0]), end = cx.extent_of(op.operands[1]);
  Extent e;
  try {
    e = end - begin;
    if (op.operands.size() == 3) {
      Extent step = cx.extent_of(op.operands[2]);
      auto c = step.constant_value();
      if (c && *c <= 0)
        return cx.error(op, "L3.1", "step must be positive, got " + std::to_string(*c) +
                                        " (reverse order is written with an explicit forward counter)");
      if (!(c && *c == 1)) e = Extent::floordiv(end - begin + step - Extent::constant(1), step);
    }
  } catch (const ExtentOverflow&) {
    return cx.error(op, "L3.1", "extent overflows");
  }
  if (auto c = e.constant_value(); c && *c < 0) e = Extent::constant(0);  // empty half-open range
  expect_extent(op, cx, result_type(op), TypeKind::Domain, e, "L3.1");
}

void check_subregion(const Operation& op, Context& cx) {
  if (op.operands.size() > 3)
    return cx.error(op, "L3.5", "a subregion is contiguous (src, begin, end); non-contiguous, repeated or permuted "
                                "members use an index relation");
  bool a = cx.operands(op, 3, "L3.3");
  bool b = cx.results(op, 1, "L3.3");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L3.3");
  Type src = operand_type(op, 0);
  if (!src.is(TypeKind::Domain) && !src.is(TypeKind::Subregion))
    return cx.error(op, "L3.3", "source must be a domain or subregion, got " + ty(src));
  if (!index_operand(op, cx, 1, "begin", "L3.3") || !index_operand(op, cx, 2, "end", "L3.3")) return;
  Extent begin = cx.extent_of(op.operands[1]), end = cx.extent_of(op.operands[2]);
  auto cb = begin.constant_value(), ce = end.constant_value(), cs = src.extent().constant_value();
  if (cb && *cb < 0) return cx.error(op, "L3.3", "begin " + std::to_string(*cb) + " is before the source (no implicit clamp)");
  if (cb && ce && *ce < *cb)
    return cx.error(op, "L3.3", "end " + std::to_string(*ce) + " is before begin " + std::to_string(*cb));
  if (ce && cs && *ce > *cs)
    return cx.error(op, "L3.3", "end " + std::to_string(*ce) + " is past the source extent " + std::to_string(*cs) +
                                    " (no implicit clamp)");
  if (cb && cs && *cb > *cs)
    return cx.error(op, "L3.3", "begin " + std::to_string(*cb) + " is past the source extent " + std::to_string(*cs) +
                                    " (no implicit clamp)");
  Extent e;
  try {
    e = end - begin;
  } catch (const ExtentOverflow&) {
    return cx.error(op, "L3.3", "extent overflows");
  }
  expect_extent(op, cx, result_type(op), TypeKind::Subregion, e, "L3.3");
}

void check_indices(const Operation& op, Context& cx) {
  bool a = cx.operands(op, 1, "L3.4");
  bool b = cx.results(op, 1, "L3.4");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L3.4");
  Type d = operand_type(op, 0);
  if (!d.is(TypeKind::Domain) && !d.is(TypeKind::Subregion))
    return cx.error(op, "L3.4", "operand must be a domain or subregion, got " + ty(d));
  Type want = Type::tensor(DType::Index, {d.extent()});
  if (result_type(op) != want)
    cx.error(op, "L3.4", "result must be " + ty(want) + " (source coordinates of " + ty(d) + "), got " +
                             ty(result_type(op)));
}

void check_relation(const Operation& op, Context& cx) {
  if (!cx.results(op, 1, "L15.1") || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L15.1");
  Type r = result_type(op);
  if (!r.is(TypeKind::Relation)) return cx.error(op, "L15.1", "result must be a relation type, got " + ty(r));
  size_t n = op.operands.size();
  size_t coords = r.masked() ? (n == 0 ? 0 : n - 1) : n;
  if (r.masked()) {
    Type v = operand_type(op, n == 0 ? 0 : n - 1);
    if (n == 0 || !(is_bool_scalar(v) || v == Type::tensor(DType::Bool, r.shape())))
      return cx.error(op, "L15.1", "a masked relation takes a trailing valid operand: bool or " +
                                       ty(Type::tensor(DType::Bool, r.shape())) + ", got " +
                                       (n == 0 ? std::string("none") : ty(v)));
  } else if (n > 0 && operand_type(op, n - 1).is_shaped_or_scalar() && operand_type(op, n - 1).dtype() == DType::Bool) {
    return cx.error(op, "L15.1", "a bool valid operand makes the relation masked; spell the result type " +
                                     std::string("relation<...>, masked>"));
  }
  if (r.source_rank() < 0 || static_cast<size_t>(r.source_rank()) != coords)
    return cx.error(op, "L15.1", "relation<" + std::to_string(r.source_rank()) + " -> ...> needs one coordinate per source axis, got " +
                                     std::to_string(coords));
  Type full = Type::tensor(DType::Index, r.shape());
  for (size_t i = 0; i < coords; ++i) {
    Type c = operand_type(op, i);
    if (!c.is_shaped_or_scalar() || !is_integer(c.dtype()))
      return cx.error(op, "L15.1", "coordinate " + std::to_string(i) + " must be an integer or index value, got " + ty(c));
    if (c.is_tensor() && c.shape() != r.shape())
      return cx.error(op, c.rank() == r.rank() && difference_rule(c, c.with_shape(r.shape())) == "L4.2" ? "L4.2" : "L15.1",
                      "coordinate " + std::to_string(i) + " has shape " + shape_str(c.shape()) +
                          " but the relation's result shape is " + shape_str(r.shape()) + " (broadcast it explicitly)");
  }
}

}  // namespace

void register_domain_ops(OpTable& t) {
  t["domain"] = check_domain;
  t["subregion"] = check_subregion;
  t["indices"] = check_indices;
  t["relation"] = check_relation;
}

}  // namespace kir::verify
