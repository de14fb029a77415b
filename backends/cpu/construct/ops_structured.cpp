// Construction of structured ops (seed 000 §7, §8, §10): reduce, scan and contract become
// Structured statements that keep their whole numeric contract — operand and result buffers,
// axes / reduce and batch pairs, the accumulator dtype, the identity per result leaf and the
// author combine lowered element-wise to scalar expressions over two accumulator variables.
// Implementations (impl/) expand them into loops after selection.
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
namespace {


// Scalar variables standing for one accumulator (one per leaf of `t`), and the aggregate.
CValue accumulator_vars(Builder& B, const Type& t, const std::string& prefix, std::vector<VarId>& vars) {
  std::vector<Type> lt;
  Builder::type_leaves(t, lt);
  std::vector<CValue> leaves;
  for (size_t i = 0; i < lt.size(); ++i) {
    DType d = value_dtype(lt[i]);
    VarId v = B.program().add_var(prefix + std::to_string(i), d, VarRole::Let);
    vars.push_back(v);
    CValue c = CValue::of_scalar(make_var(v, d));
    if (lt[i].is(TypeKind::Enum)) c.kind = CValue::Kind::Enum;
    leaves.push_back(c);
  }
  auto it = leaves.cbegin();
  return Builder::from_leaves(t, it);
}

// A loop nest over `extents` built in the current block; `body` runs inside with the loop
// variables as index expressions.
void build_loops(Builder& B, const Operation& op, const std::vector<ExprP>& extents,
                 const std::function<void(const std::vector<ExprP>&)>& body, std::vector<ExprP> vars = {}) {
  if (vars.size() == extents.size()) {
    body(vars);
    return;
  }
  auto l = make_loop(B.program().add_var("q" + std::to_string(vars.size()), DType::Index, VarRole::Loop), make_index(0),
                     extents[vars.size()], make_index(1), B.origin(op));
  vars.push_back(make_var(l->var, DType::Index));
  B.with_block(l->body, [&] { build_loops(B, op, extents, body, vars); });
  B.emit(std::move(l));
}

// The slice of source leaf `src` with the accumulator's shape `acc_shape`: the axes in `fixed`
// take the given coordinates, the others the accumulator coordinates in order.
CValue source_slice(Builder& B, const Operation& op, BufId src, const std::vector<ExprP>& acc_shape,
                    const std::map<size_t, ExprP>& fixed) {
  const DType d = B.program().buf(src).dtype;
  const size_t rank = B.program().buf(src).shape.size();
  auto index = [&](const std::vector<ExprP>& c) {
    std::vector<ExprP> idx;
    size_t ci = 0;
    for (size_t a = 0; a < rank; ++a) idx.push_back(fixed.count(a) ? fixed.at(a) : c.at(ci++));
    return make_load(src, d, idx);
  };
  if (acc_shape.empty()) return B.let("x", index({}));
  return B.compute(op, "x", d, acc_shape, index);
}

// The general fold, for combines that are not element-wise (control flow, tensor ops, calls
// of non-pointwise helpers): the accumulator lives in loop-carried slots and the combine helper
// is inlined on whole accumulators at every step — the canonical left fold of the language.
void general_fold(Builder& B, const Operation& op, const std::string& kind, const Type& acc_type, const Function& combine) {
  std::vector<CValue> src = Builder::leaf_values(B.get(op.operands[0]));
  std::vector<CValue> ident = Builder::leaf_values(B.get(op.operands[1]));
  std::vector<CValue> caps;
  for (size_t i = 2; i < op.operands.size(); ++i) caps.push_back(B.get(op.operands[i]));
  for (const auto& s : src)
    if (!s.is_tensor()) B.not_implemented(op, kind + " of a scalar source");
  std::vector<CValue> slots;
  for (size_t k = 0; k < ident.size(); ++k) slots.push_back(make_slot(B, ident[k], "acc" + std::to_string(k)));
  assign_slots(B, op, slots, ident);
  auto acc_shape = [&](size_t k) {
    return slots[k].is_tensor() ? B.program().buf(slots[k].buf).shape : std::vector<ExprP>{};
  };
  auto step = [&](const std::vector<CValue>& x, bool x_first) {
    auto it = slots.cbegin();
    CValue acc = Builder::from_leaves(acc_type, it);
    auto xt = x.cbegin();
    CValue xv = Builder::from_leaves(acc_type, xt);
    std::vector<CValue> args = {x_first ? xv : acc, x_first ? acc : xv};
    args.insert(args.end(), caps.begin(), caps.end());
    auto res = B.inline_call(op, combine, args);
    std::vector<CValue> next;
    for (const auto& r : res)
      for (const auto& l : Builder::leaf_values(r)) next.push_back(l);
    assign_slots(B, op, slots, next);
  };
  if (kind == "reduce") {
    auto axes = op.attr("axes")->ints();
    std::vector<ExprP> red_ext;
    for (auto a : axes) red_ext.push_back(B.program().buf(src[0].buf).shape.at(static_cast<size_t>(a)));
    build_loops(B, op, red_ext, [&](const std::vector<ExprP>& q) {
      std::vector<CValue> x;
      for (size_t k = 0; k < src.size(); ++k) {
        std::map<size_t, ExprP> fixed;
        for (size_t j = 0; j < axes.size(); ++j) fixed[static_cast<size_t>(axes[j])] = q[j];
        x.push_back(source_slice(B, op, src[k].buf, acc_shape(k), fixed));
      }
      step(x, false);
    });
    auto it = slots.cbegin();
    B.set(op.result(), Builder::from_leaves(op.result()->type, it));
    return;
  }
  // scan
  const size_t axis = static_cast<size_t>(op.attr("axis")->i);
  const bool inclusive = !op.attr("inclusive") || op.attr("inclusive")->b;
  const bool reverse = op.attr("reverse") && op.attr("reverse")->b;
  std::vector<CValue> results;
  for (size_t k = 0; k < src.size(); ++k) {
    const Buffer& s = B.program().buf(src[k].buf);
    std::vector<ExprP> shape = s.shape;
    results.push_back(CValue::of_tensor(B.new_local(op.result()->name + "_" + std::to_string(k), s.dtype, shape)));
  }
  ExprP n = B.program().buf(src[0].buf).shape.at(axis);
  build_loops(B, op, {n}, [&](const std::vector<ExprP>& q) {
    ExprP p = reverse ? index_sub(index_sub(n, make_index(1)), q[0]) : q[0];
    auto store = [&] {
      for (size_t k = 0; k < results.size(); ++k) {
        auto s = make_stmt(StmtKind::Compute, B.origin(op));
        s->buf = results[k].buf;
        s->extents = acc_shape(k);
        std::vector<ExprP> c;
        for (size_t a = 0; a < s->extents.size(); ++a) {
          VarId v = B.program().add_var("s" + std::to_string(a), DType::Index, VarRole::Loop);
          s->coords.push_back(v);
          c.push_back(make_var(v, DType::Index));
        }
        size_t ci = 0;
        for (size_t a = 0; a < c.size() + 1; ++a) s->index.push_back(a == axis ? p : c[ci++]);
        s->value = B.element(slots[k], c);
        B.emit(std::move(s));
      }
    };
    if (!inclusive) store();
    std::vector<CValue> x;
    for (size_t k = 0; k < src.size(); ++k) x.push_back(source_slice(B, op, src[k].buf, acc_shape(k), {{axis, p}}));
    step(x, reverse);
    if (inclusive) store();
  });
  auto it = results.cbegin();
  B.set(op.result(), Builder::from_leaves(op.result()->type, it));
}

// Shared by reduce and scan: the Structured op with operands, identity, results and combine.
void fold_op(Builder& B, const Operation& op, const std::string& kind, const Type& acc_type) {
  auto st = std::make_shared<StructuredOp>();
  st->kind = kind;
  st->attrs = op.attrs;
  const Function& combine = B.helper(op, "combine");
  for (const auto& l : Builder::leaf_values(B.get(op.operands[0]))) {
    if (!l.is_tensor()) B.not_implemented(op, kind + " of a scalar source");
    st->operands.push_back(l.buf);
  }
  // Result buffers, shaped from the result type.
  std::vector<Type> rtypes;
  Builder::type_leaves(op.result()->type, rtypes);
  std::vector<CValue> results;
  for (size_t i = 0; i < rtypes.size(); ++i) {
    DType d = value_dtype(rtypes[i]);
    std::vector<ExprP> shape = rtypes[i].is_tensor() ? B.shape_of(op, rtypes[i]) : std::vector<ExprP>{};
    BufId b = B.new_local(op.result()->name + (rtypes.size() > 1 ? "_" + std::to_string(i) : ""), d, shape);
    st->results.push_back(b);
    results.push_back(CValue::of_tensor(b));
  }
  st->acc = B.program().buf(st->results[0]).dtype;
  // Identity per leaf over the accumulator coordinates.
  std::vector<Type> atypes;
  Builder::type_leaves(acc_type, atypes);
  // The accumulator coordinates span the highest-rank leaf; a lower-rank leaf must be a scalar
  // (broadcast element-wise by the combine) or of that same rank.
  size_t arank = 0;
  for (const auto& t : atypes) arank = std::max(arank, t.is_tensor() ? t.rank() : size_t{0});
  for (const auto& t : atypes) {
    size_t r = t.is_tensor() ? t.rank() : 0;
    if (r != 0 && r != arank) B.not_implemented(op, kind + " whose accumulator leaves have ranks " + std::to_string(r) +
                                                     " and " + std::to_string(arank));
  }
  std::vector<ExprP> coords;
  for (size_t k = 0; k < arank; ++k) {
    VarId v = B.program().add_var("a" + std::to_string(k), DType::Index, VarRole::Loop);
    st->coords.push_back(v);
    coords.push_back(make_var(v, DType::Index));
  }
  for (const auto& l : Builder::leaf_values(B.get(op.operands[1]))) st->init.push_back(B.element(l, coords));
  // The combine, element-wise: combine(lhs, rhs, captures...).
  std::vector<CValue> args;
  args.push_back(accumulator_vars(B, acc_type, "lhs", st->combine_lhs));
  args.push_back(accumulator_vars(B, acc_type, "rhs", st->combine_rhs));
  for (size_t i = 2; i < op.operands.size(); ++i) {
    const CValue& c = B.get(op.operands[i]);
    if (!c.is_scalar() && c.kind != CValue::Kind::Enum) B.not_implemented(op, kind + " with a tensor capture");
    args.push_back(c);
  }
  try {
    st->combine = B.inline_scalar(op, combine, args);
  } catch (const BackendError&) {
    // Not element-wise: fold whole accumulators instead (nothing was emitted in scalar mode).
    for (BufId b : st->results) B.program().buf(b).dead = true;
    general_fold(B, op, kind, acc_type, combine);
    return;
  }
  if (st->combine.size() != st->results.size()) B.fail(op, "combine result count mismatch");
  auto s = make_stmt(StmtKind::Structured, B.origin(op));
  s->structured = st;
  B.emit(std::move(s));
  // Scalar results are read back from their rank-0 buffers.
  std::vector<CValue> out;
  for (size_t i = 0; i < results.size(); ++i) {
    if (rtypes[i].is_tensor()) {
      out.push_back(results[i]);
    } else {
      CValue c = B.let(op.result()->name, make_load(results[i].buf, B.program().buf(results[i].buf).dtype, {}));
      if (rtypes[i].is(TypeKind::Enum)) c.kind = CValue::Kind::Enum;
      out.push_back(c);
    }
  }
  auto it = out.cbegin();
  B.set(op.result(), Builder::from_leaves(op.result()->type, it));
}

void op_reduce(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "reduce inside a combine helper");
  fold_op(B, op, "reduce", op.result()->type);
}

void op_scan(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "scan inside a combine helper");
  // The accumulator is the identity's type (the source less the scan axis).
  fold_op(B, op, "scan", op.operands[1]->type);
}

void op_contract(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "contract inside a combine helper");
  auto st = std::make_shared<StructuredOp>();
  st->kind = "contract";
  st->attrs = op.attrs;
  for (size_t i = 0; i < 2; ++i) {
    const CValue& v = B.get(op.operands[i]);
    if (!v.is_tensor()) B.not_implemented(op, "contract of a scalar operand");
    st->operands.push_back(v.buf);
  }
  const Type& rt = op.result()->type;
  std::vector<ExprP> shape = rt.is_tensor() ? B.shape_of(op, rt) : std::vector<ExprP>{};
  BufId r = B.new_local(op.result()->name, value_dtype(rt), shape);
  st->results.push_back(r);
  st->acc = value_dtype(rt);
  auto s = make_stmt(StmtKind::Structured, B.origin(op));
  s->structured = st;
  B.emit(std::move(s));
  if (rt.is_tensor()) B.set(op.result(), CValue::of_tensor(r));
  else B.set(op.result(), B.let(op.result()->name, make_load(r, st->acc, {})));
}

}  // namespace

void register_structured_ops(std::map<std::string, OpHandler>& t) {
  t["reduce"] = op_reduce;
  t["scan"] = op_scan;
  t["contract"] = op_contract;
}

}  // namespace kir::cpu
