// Construction of domains, index relations and indexed memory access (seed 000 §3, §15):
// domain/subregion are (begin, count, step) triples of index expressions; indices is a Compute
// of begin + c * step; a relation keeps its coordinate values and validity; view.load / gather
// are Computes whose value loads through the relation (bounds-checked, masked lanes read the
// fill and never touch the source); view.store / unique_store are scattering Computes guarded
// by the validity; logical buffers are Local buffers.
#include "backends/cpu/construct/builder.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

void op_domain(Builder& B, const Operation& op) {
  CValue d;
  d.kind = CValue::Kind::Domain;
  d.begin = B.get(op.operands[0]).scalar;
  ExprP end = B.get(op.operands[1]).scalar;
  ExprP span = index_sub(end, d.begin);
  if (op.operands.size() > 2) {
    d.step = B.get(op.operands[2]).scalar;
    auto cs = const_index(d.step);
    if (!cs || *cs <= 0) {
      auto chk = make_stmt(StmtKind::Check, B.origin(op));
      chk->value = make_compare("gt", d.step, make_index(0));
      chk->fault = 6;  // KIR_FAULT_INVALID_VALUE: a domain step must be positive
      chk->detail = {d.step};
      B.emit(std::move(chk));
    }
    span = make_binary("floordiv", index_add(span, index_sub(d.step, make_index(1))), d.step);
  } else {
    d.step = make_index(1);
  }
  auto cs = const_index(span);
  d.count = cs ? make_index(std::max<int64_t>(*cs, 0)) : make_binary("max", span, make_index(0));
  if (!cs) d.count = B.let(op.result()->name + "_n", d.count).scalar;
  B.set(op.result(), d);
}

void op_subregion(Builder& B, const Operation& op) {
  const CValue& src = B.get(op.operands[0]);
  ExprP b = B.get(op.operands[1]).scalar, e = B.get(op.operands[2]).scalar;
  // 0 <= begin <= end <= extent(src): no implicit clamp.
  auto chk = make_stmt(StmtKind::Check, B.origin(op));
  chk->value = make_binary("and", make_binary("and", make_compare("ge", b, make_index(0)), make_compare("le", b, e)),
                           make_compare("le", e, src.count));
  chk->fault = 5;  // KIR_FAULT_OUT_OF_BOUNDS
  chk->detail = {b, e};
  if (!(const_index(b) && const_index(e) && const_index(src.count))) B.emit(std::move(chk));
  CValue d;
  d.kind = CValue::Kind::Domain;
  d.step = src.step;
  d.begin = B.let(op.result()->name + "_b", index_add(src.begin, index_mul(b, src.step))).scalar;
  d.count = B.let(op.result()->name + "_n", index_sub(e, b)).scalar;
  B.set(op.result(), d);
}

void op_indices(Builder& B, const Operation& op) {
  const CValue& d = B.get(op.operands[0]);
  B.set(op.result(), B.compute(op, op.result()->name, DType::Index, {d.count}, [&](const std::vector<ExprP>& c) {
    return index_add(d.begin, index_mul(c[0], d.step));
  }));
}

void op_relation(Builder& B, const Operation& op) {
  CValue r;
  r.kind = CValue::Kind::Relation;
  const Type& t = op.result()->type;
  size_t n = static_cast<size_t>(t.source_rank());
  for (size_t i = 0; i < n; ++i) r.coords.push_back(B.get(op.operands[i]));
  if (t.masked()) r.valid = std::make_shared<CValue>(B.get(op.operands.at(n)));
  r.rel_shape = B.shape_of(op, t);
  B.set(op.result(), r);
}

// The source coordinates of relation point c, converted to index.
std::vector<ExprP> rel_index(Builder& B, const CValue& r, const std::vector<ExprP>& c) {
  std::vector<ExprP> idx;
  for (const auto& k : r.coords) idx.push_back(make_cast(B.element(k, c), DType::Index));
  return idx;
}

// view.load / gather / buffer.load: a block of the relation's shape.
void op_load(Builder& B, const Operation& op) {
  const CValue& src = B.get(op.operands[0]);
  const CValue& r = B.get(op.operands[1]);
  if (src.kind == CValue::Kind::Scalar) B.not_implemented(op, "gather from a scalar");
  DType d = B.program().buf(src.buf).dtype;
  int32_t id = B.origin(op);
  auto value = [&](const std::vector<ExprP>& c) {
    auto ld = std::const_pointer_cast<Expr>(make_load(src.buf, d, rel_index(B, r, c)));
    ld->op_id = id;  // a checked load: out of bounds is a located fault
    ExprP v = ld;
    if (r.valid && !mutant_active(MutantId::MaskedLoadReadsInactive))
      v = make_select(B.element(*r.valid, c), v, B.get(op.operands.at(2)).scalar);
    return v;
  };
  if (r.rel_shape.empty()) {
    if (B.scalar_mode()) B.not_implemented(op, "a load inside a combine helper");
    B.set(op.result(), B.let(op.result()->name, value({})));
    return;
  }
  B.set(op.result(), B.compute(op, op.result()->name, d, r.rel_shape, value));
}

// view.store / buffer.store / unique_store: dest[rel(c)] = value[c] where valid.
void op_store(Builder& B, const Operation& op) {
  const CValue& dst = B.get(op.operands[0]);
  const CValue& r = B.get(op.operands[1]);
  const CValue& val = B.get(op.operands[2]);
  auto s = make_stmt(StmtKind::Compute, B.origin(op));
  s->buf = dst.buf;
  s->extents = r.rel_shape;
  std::vector<ExprP> c;
  for (size_t k = 0; k < r.rel_shape.size(); ++k) {
    VarId v = B.program().add_var("s" + std::to_string(k), DType::Index, VarRole::Loop);
    s->coords.push_back(v);
    c.push_back(make_var(v, DType::Index));
  }
  s->index = rel_index(B, r, c);
  s->value = B.element(val, c);
  if (r.valid && !mutant_active(MutantId::MaskedStoreWritesInactive)) s->guard = B.element(*r.valid, c);
  B.emit(std::move(s));
}

void op_buffer_alloc(Builder& B, const Operation& op) {
  const Type& t = op.result()->type;
  auto shape = B.shape_of(op, t);
  BufId b = B.new_local(op.result()->name, t.dtype(), shape);
  if (!op.operands.empty()) {
    const CValue& init = B.get(op.operands[0]);
    auto s = make_stmt(StmtKind::Compute, B.origin(op));
    s->buf = b;
    for (size_t k = 0; k < shape.size(); ++k)
      s->coords.push_back(B.program().add_var("c" + std::to_string(k), DType::Index, VarRole::Loop));
    std::vector<ExprP> c;
    for (VarId v : s->coords) c.push_back(make_var(v, DType::Index));
    s->extents = shape;
    s->value = B.element(init, c);
    B.emit(std::move(s));
  }
  CValue v;
  v.kind = CValue::Kind::LogicalBuffer;
  v.buf = b;
  B.set(op.result(), v);
}

}  // namespace

void register_domain_ops(std::map<std::string, OpHandler>& t) {
  t["domain"] = op_domain;
  t["subregion"] = op_subregion;
  t["indices"] = op_indices;
  t["relation"] = op_relation;
}

void register_memory_ops(std::map<std::string, OpHandler>& t) {
  t["view.load"] = op_load;
  t["gather"] = op_load;
  t["buffer.load"] = op_load;
  t["view.store"] = op_store;
  t["buffer.store"] = op_store;
  t["unique_store"] = op_store;
  t["buffer.alloc"] = op_buffer_alloc;
}

}  // namespace kir::cpu
