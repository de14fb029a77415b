// Implicit broadcast in pointwise ops (seed 000 §4; L4.1, L4.2): a pointwise binary op, `cmp` or
// `select` whose scalar/tensor operands do not all have the same shape gets one explicit
// `broadcast` per operand that differs from the broadcast shape (numpy rules, right-aligned; an
// extent broadcasts only when it is the constant 1; two different dynamic extents such as M and
// N are incompatible). A scalar broadcasts with dims = []. The op itself is kept.
#include "kir/normalize/families.h"
#include "kir/op_registry.h"

namespace kir::normalize {

static bool broadcastable_op(const Operation& op) {
  return is_pointwise_binary(op.name) || op.name == "cmp" || op.name == "select";
}

bool needs_pointwise_broadcast(const Operation& op) {
  if (!broadcastable_op(op) || op.operands.size() < 2 || op.results.size() != 1) return false;
  bool any_tensor = false;
  for (const Value* v : op.operands) {
    if (!v || !v->type || !v->type.is_shaped_or_scalar()) return false;  // the verifier reports it
    any_tensor = any_tensor || v->type.is_tensor();
  }
  if (!any_tensor) return false;
  for (const Value* v : op.operands)
    if (!v->type.is_tensor() || v->type.shape() != op.operands[0]->type.shape()) return true;
  return false;
}

std::optional<std::vector<Extent>> pointwise_broadcast_shape(const Operation& op, std::string& rule,
                                                             std::string& why) {
  size_t rank = 0;
  for (const Value* v : op.operands) rank = std::max(rank, v->type.rank());
  std::vector<Extent> shape(rank, Extent::constant(1));
  std::vector<int> from(rank, -1);  // operand that fixed each result extent (other than 1)
  for (size_t k = 0; k < op.operands.size(); ++k) {
    const Type& t = op.operands[k]->type;
    size_t off = rank - t.rank();
    for (size_t i = 0; i < t.rank(); ++i) {
      const Extent& e = t.shape()[i];
      Extent& s = shape[off + i];
      if (e == s || e.constant_value() == 1) continue;
      if (from[off + i] < 0) {
        s = e;
        from[off + i] = static_cast<int>(k);
        continue;
      }
      bool dynamic = !e.is_constant() || !s.is_constant();
      rule = dynamic ? "L4.2" : "L4.1";
      why = "operand " + std::to_string(from[off + i]) + " extent " + s.str() + " and operand " + std::to_string(k) +
            " extent " + e.str() + " (result axis " + std::to_string(off + i) + ") are not broadcast-compatible" +
            (dynamic ? "; dynamic extents are compatible only when provably equal" : "");
      return std::nullopt;
    }
  }
  const Type& declared = op.results[0]->type;
  if (!declared || !declared.is_tensor() || declared.shape() != shape) {
    rule = "L4.1";
    why = "result is declared " + type_str(declared) + " but the operands broadcast to shape " + shape_str(shape);
    return std::nullopt;
  }
  return shape;
}

bool normalize_pointwise(Rewriter& rw) {
  Operation& op = rw.op();
  std::string rule, why;
  auto bshape = pointwise_broadcast_shape(op, rule, why);
  if (!bshape) return rw.fail(rule, why);
  const std::vector<Extent>& shape = *bshape;
  const size_t rank = shape.size();
  for (size_t k = 0; k < op.operands.size(); ++k) {
    Value* v = op.operands[k];
    Type target = Type::tensor(v->type.dtype(), shape);
    if (v->type == target) continue;
    std::vector<int64_t> dims;
    for (size_t i = 0; i < v->type.rank(); ++i) dims.push_back(static_cast<int64_t>(i + rank - v->type.rank()));
    std::string hint = "b";  // (not `"b" + to_string(k)`: GCC 12 -O3 warns -Wrestrict falsely there)
    hint += std::to_string(k);
    op.operands[k] = rw.broadcast(v, target, dims, hint);
  }
  rw.commit_keep();
  return true;
}

}  // namespace kir::normalize
