// Enum uses (seed 000 §2, L2.6): an enum value is a constexpr; it may be a constexpr parameter,
// a `const` result, an operand of cmp eq/ne against the SAME enum (giving a constexpr bool for an
// `if`), or an argument binding a helper's constexpr parameter. No arithmetic, no conversion, no
// comparison across enum types, no loop carries, tuples, records or tensors of enums.
#include "kir/op_registry.h"
#include "kir/verify/core_rules.h"
#include "kir/verify/core_util.h"

namespace kir::verify::core {

namespace {

void check_op(const Operation& op, Context& cx) {
  bool enum_operand = any_enum_operand(op);
  if (op.name == "cmp" && op.operands.size() == 2 && op.operands[0] && op.operands[1]) {
    Type a = op.operands[0]->type, b = op.operands[1]->type;
    if (!a.is(TypeKind::Enum) && !b.is(TypeKind::Enum)) return;
    if (a != b)
      return cx.error(op, "L2.6", "no comparison across enum types: " + ty(a) + " vs " + ty(b));
    const Attribute* p = op.attr("pred");
    if (!p || p->kind != Attribute::Kind::Keyword || (p->s != "eq" && p->s != "ne"))
      return cx.error(op, "L2.6", "enum values compare only with pred = eq or ne (they have no order)");
    if (result_type(op) != Type::scalar(DType::Bool))
      cx.error(op, "L2.6", "an enum comparison yields a scalar bool, got " + ty(result_type(op)));
    return;
  }
  if (op.name == "call") {
    const Attribute* a = op.attr("callee");
    const Function* f = a && a->kind == Attribute::Kind::Symbol ? cx.module.find_function(a->s) : nullptr;
    if (f) {
      std::vector<Value*> ps = f->params();
      for (size_t i = 0; i < op.operands.size() && i < ps.size(); ++i)
        if (op.operands[i] && op.operands[i]->type.is(TypeKind::Enum) && ps[i] && !ps[i]->is_constexpr)
          return cx.error(op, "L2.6", "enum argument %" + op.operands[i]->name + " binds runtime parameter %" + ps[i]->name +
                                          " of @" + f->name + "; enum values are constexpr only");
    }
    return;
  }
  for (const auto& reg : op.regions)
    for (const auto& a : reg->args)
      if (a && a->type.is(TypeKind::Enum))
        return cx.error(op, "L2.6", "region argument %" + a->name + " is an enum; enum values are not loop carries");
  if (enum_operand) {
    const OpInfo* info = find_op(op.name);
    if (op.name == "cast" || op.name == "bitcast")
      return cx.error(op, "L2.6", "no conversion of enum values (" + op.name + " of an enum)");
    if (info && (info->family == OpFamily::Pointwise || info->family == OpFamily::Unary))
      return cx.error(op, "L2.6", "no integer arithmetic on enum values");
    if (op.name == "cmp") return;  // malformed cmp: reported by its own check
    return cx.error(op, "L2.6", "enum values are used only as constexpr parameters, constants, eq/ne conditions and "
                                "helper constexpr arguments, not by '" + op.name + "'");
  }
  for (const auto& r : op.results)
    if (r && r->type.is(TypeKind::Enum) && op.name != "const") {
      if (op.name == "cast" || op.name == "bitcast")
        return cx.error(op, "L2.6", "no conversion to an enum type (" + op.name + " to " + ty(r->type) + ")");
      if (op.name == "call") return;  // the helper's signature is checked (enum results are rejected there)
      return cx.error(op, "L2.6", "'" + op.name + "' cannot produce an enum value; enum values are constexpr");
    }
}

}  // namespace

void check_enum_uses(Context& cx) {
  for (const auto& f : cx.module.functions) {
    cx.function = f.get();
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) { check_op(op, cx); });
  }
  cx.function = nullptr;
}

}  // namespace kir::verify::core
