// Construction of ordered control and parallel (seed 000 §5, §6): if/for/while become If, Loop
// and While statements whose results and carries live in explicit slots (a Carry variable per
// scalar leaf, a carry buffer per tensor leaf) written by Assign/Copy at yield, break, continue
// and condition; parallel becomes Tasks over its domain; call inlines the helper.
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
// A slot able to hold `leaf` (same dtype and shape).
CValue make_slot(Builder& B, const CValue& leaf, const std::string& name) {
  Program& P = B.program();
  if (leaf.kind == CValue::Kind::Scalar || leaf.kind == CValue::Kind::Enum) {
    VarId v = P.add_var(name, leaf.scalar->dtype, VarRole::Carry);
    CValue c = CValue::of_scalar(make_var(v, leaf.scalar->dtype));
    c.kind = leaf.kind;
    return c;
  }
  if (leaf.kind == CValue::Kind::Tensor) {
    const Buffer& src = P.buf(leaf.buf);
    std::vector<ExprP> shape = src.shape;
    DType d = src.dtype;
    return CValue::of_tensor(B.new_local(name, d, shape));
  }
  throw BackendError("not implemented: a loop carry or if result that is a " +
                     std::string(leaf.kind == CValue::Kind::Domain ? "domain" : "view, relation or buffer") +
                     " on the CPU backend");
}

// The leaves of several values, in order.
static std::vector<CValue> flat(const std::vector<CValue>& vals) {
  std::vector<CValue> out;
  for (const auto& v : vals)
    for (auto& l : Builder::leaf_values(v)) out.push_back(std::move(l));
  return out;
}

// slots := values, leaf by leaf, reading every source before writing any slot.
void assign_slots(Builder& B, const Operation& op, const std::vector<CValue>& slots, const std::vector<CValue>& values) {
  if (slots.size() != values.size()) B.fail(op, "internal: carry count mismatch");
  std::vector<CValue> staged = values;
  for (size_t i = 0; i < slots.size(); ++i) {
    const CValue& v = values[i];
    bool is_other_slot = false;
    for (size_t j = 0; j < slots.size(); ++j)
      if (j != i && ((v.is_tensor() && slots[j].is_tensor() && v.buf == slots[j].buf) ||
                     (v.scalar && slots[j].scalar && v.scalar->kind == ExprKind::Var && slots[j].scalar->kind == ExprKind::Var &&
                      v.scalar->var == slots[j].scalar->var)))
        is_other_slot = true;
    if (!is_other_slot) continue;
    if (v.is_tensor()) {
      CValue tmp = make_slot(B, v, "tmp");
      auto c = make_stmt(StmtKind::Copy, B.origin(op));
      c->buf = tmp.buf;
      c->src = v.buf;
      B.emit(std::move(c));
      staged[i] = tmp;
    } else {
      staged[i] = B.let("tmp", v.scalar);
      if (staged[i].scalar->kind == ExprKind::Var && staged[i].scalar->var == v.scalar->var) {
        VarId t = B.program().add_var("tmp", v.scalar->dtype, VarRole::Let);
        auto s = make_stmt(StmtKind::Let);
        s->var = t;
        s->value = v.scalar;
        B.emit(std::move(s));
        staged[i] = CValue::of_scalar(make_var(t, v.scalar->dtype));
      }
    }
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    const CValue& s = slots[i];
    const CValue& v = staged[i];
    if (s.is_tensor()) {
      if (!v.is_tensor()) B.fail(op, "internal: tensor carry receives a non-tensor");
      if (v.buf == s.buf) continue;
      auto c = make_stmt(StmtKind::Copy, B.origin(op));
      c->buf = s.buf;
      c->src = v.buf;
      B.emit(std::move(c));
    } else {
      if (v.scalar->kind == ExprKind::Var && v.scalar->var == s.scalar->var) continue;
      auto a = make_stmt(StmtKind::Assign, B.origin(op));
      a->var = s.scalar->var;
      a->value = v.scalar;
      B.emit(std::move(a));
    }
  }
}

namespace {

std::vector<CValue> operand_values(Builder& B, const Operation& op, size_t from = 0) {
  std::vector<CValue> v;
  for (size_t i = from; i < op.operands.size(); ++i) v.push_back(B.get(op.operands[i]));
  return v;
}

// Handles a region's terminator inside a loop (or an if within one): yield goes to `yield_to`.
void finish_region(Builder& B, const Operation* term, const std::vector<CValue>* yield_to) {
  if (!term) return;
  auto vals = flat(operand_values(B, *term, term->name == "condition" ? 1 : 0));
  if (term->name == "yield") {
    if (yield_to) assign_slots(B, *term, *yield_to, vals);
    return;
  }
  if (term->name == "break" || term->name == "continue") {
    if (B.loops.empty()) B.fail(*term, "`" + term->name + "` outside a loop");
    auto& L = B.loops.back();
    bool brk = term->name == "break";
    assign_slots(B, *term, brk && L.is_while ? L.results : L.carries, vals);
    B.emit(make_stmt(brk ? StmtKind::Break : StmtKind::Continue, B.origin(*term)));
    return;
  }
  B.fail(*term, "unexpected terminator `" + term->name + "`");
}

void op_if(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`if` inside a combine helper");
  ExprP cond = B.get(op.operands[0]).scalar;
  std::vector<CValue> slots;
  std::vector<Type> rtypes;
  for (const auto& r : op.results) Builder::type_leaves(r->type, rtypes);
  // Slots for the results, shaped from the result types.
  for (size_t i = 0; i < rtypes.size(); ++i) {
    const Type& t = rtypes[i];
    if (t.is_scalar() || t.is(TypeKind::Enum)) {
      VarId v = B.program().add_var("if" + std::to_string(i), value_dtype(t), VarRole::Carry);
      CValue c = CValue::of_scalar(make_var(v, value_dtype(t)));
      if (t.is(TypeKind::Enum)) c.kind = CValue::Kind::Enum;
      slots.push_back(c);
    } else if (t.is_tensor()) {
      slots.push_back(CValue::of_tensor(B.new_local("if" + std::to_string(i), t.dtype(), B.shape_of(op, t))));
    } else {
      B.not_implemented(op, "an `if` result of type " + t.str());
    }
  }
  auto s = make_stmt(StmtKind::If, B.origin(op));
  s->value = cond;
  B.with_block(s->body, [&] { finish_region(B, B.build_region(*op.regions[0]), &slots); });
  B.with_block(s->orelse, [&] { finish_region(B, B.build_region(*op.regions[1]), &slots); });
  B.emit(std::move(s));
  auto it = slots.cbegin();
  for (const auto& r : op.results) B.set(r.get(), Builder::from_leaves(r->type, it));
}

void op_for(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`for` inside a combine helper");
  const CValue& dom = B.get(op.operands[0]);
  auto inits = flat(operand_values(B, op, 1));
  std::vector<CValue> slots;
  for (size_t i = 0; i < inits.size(); ++i) slots.push_back(make_slot(B, inits[i], "carry" + std::to_string(i)));
  assign_slots(B, op, slots, inits);
  const Region& body = *op.regions[0];
  auto loop = make_loop(B.program().add_var(body.args[0]->name + "_t", DType::Index, VarRole::Loop), make_index(0), dom.count,
                        make_index(1), B.origin(op));
  B.loops.push_back({slots, {}, false});
  B.with_block(loop->body, [&] {
    B.set(body.args[0].get(), B.let(body.args[0]->name, index_add(dom.begin, index_mul(make_var(loop->var, DType::Index), dom.step))));
    auto it = slots.cbegin();
    for (size_t a = 1; a < body.args.size(); ++a) B.set(body.args[a].get(), Builder::from_leaves(body.args[a]->type, it));
    finish_region(B, B.build_region(body), &slots);
  });
  B.loops.pop_back();
  B.emit(std::move(loop));
  auto it = slots.cbegin();
  for (const auto& r : op.results) B.set(r.get(), Builder::from_leaves(r->type, it));
}

void op_while(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`while` inside a combine helper");
  auto inits = flat(operand_values(B, op, 0));
  std::vector<CValue> slots, results;
  for (size_t i = 0; i < inits.size(); ++i) {
    slots.push_back(make_slot(B, inits[i], "carry" + std::to_string(i)));
    results.push_back(make_slot(B, inits[i], "result" + std::to_string(i)));
  }
  assign_slots(B, op, slots, inits);
  auto loop = make_stmt(StmtKind::While, B.origin(op));
  loop->value = make_const(DType::Bool, 1);
  const Region& before = *op.regions[0];
  const Region& after = *op.regions[1];
  B.loops.push_back({slots, results, true});
  B.with_block(loop->body, [&] {
    auto it = slots.cbegin();
    for (const auto& a : before.args) B.set(a.get(), Builder::from_leaves(a->type, it));
    const Operation* cond = B.build_region(before);
    if (!cond || cond->name != "condition") B.fail(op, "while before-region does not end in condition");
    auto vals = flat(operand_values(B, *cond, 1));
    auto exit = make_stmt(StmtKind::If, B.origin(*cond));
    exit->value = make_unary("not", B.get(cond->operands[0]).scalar);
    B.with_block(exit->body, [&] {
      assign_slots(B, *cond, results, vals);
      B.emit(make_stmt(StmtKind::Break, B.origin(*cond)));
    });
    B.emit(std::move(exit));
    auto vit = vals.cbegin();
    for (const auto& a : after.args) B.set(a.get(), Builder::from_leaves(a->type, vit));
    finish_region(B, B.build_region(after), &slots);
  });
  B.loops.pop_back();
  B.emit(std::move(loop));
  auto it = results.cbegin();
  for (const auto& r : op.results) B.set(r.get(), Builder::from_leaves(r->type, it));
}

void op_parallel(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`parallel` inside a combine helper");
  const CValue& dom = B.get(op.operands[0]);
  auto t = make_stmt(StmtKind::Tasks, B.origin(op));
  const Region& body = *op.regions[0];
  t->var = B.program().add_var(body.args[0]->name + "_t", DType::Index, VarRole::Task);
  t->lo = make_index(0);
  t->hi = dom.count;
  t->step = make_index(1);
  auto saved = std::move(B.loops);  // break/continue do not cross a parallel
  B.loops.clear();
  B.with_block(t->body, [&] {
    B.set(body.args[0].get(), B.let(body.args[0]->name, index_add(dom.begin, index_mul(make_var(t->var, DType::Index), dom.step))));
    finish_region(B, B.build_region(body), nullptr);
  });
  B.loops = std::move(saved);
  B.emit(std::move(t));
}

void op_call(Builder& B, const Operation& op) {
  const Function& fn = B.helper(op, "callee");
  if (fn.is_kernel()) B.not_implemented(op, "calling a kernel (a launch)");
  auto res = B.inline_call(op, fn, operand_values(B, op));
  for (size_t i = 0; i < op.results.size() && i < res.size(); ++i) B.set(op.results[i].get(), res[i]);
}

}  // namespace

void register_control_ops(std::map<std::string, OpHandler>& t) {
  t["if"] = op_if;
  t["for"] = op_for;
  t["while"] = op_while;
  t["parallel"] = op_parallel;
  t["call"] = op_call;
}

}  // namespace kir::cpu
