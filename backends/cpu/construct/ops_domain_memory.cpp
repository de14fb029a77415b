// Construction of domains, index relations and indexed memory access (seed 000 §3, §15):
// domain/subregion are (begin, count, step) triples of index expressions; indices is a Compute
// of begin + c * step; a relation keeps its coordinate values and validity; view.load / gather
// are Computes whose value loads through the relation (bounds-checked, masked lanes read the
// fill and never touch the source); view.store / unique_store are scattering Computes guarded
// by the validity; logical buffers are Local buffers.
#include "backends/cpu/construct/builder.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/rt/kir_abi.h"

namespace kir::cpu {
namespace {

// domain(begin, end, step): its type's extent floordiv(end - begin + step - 1, step) and its
// max(extent, 0) points, computed exactly. With q(x) = floordiv(x, step) and r(x) = x - q(x) * step
// the extent is q(end) - q(begin) + (r(end) > r(begin)), so no partial sum leaves the index range
// (the numerator as written overflows near the ends of the range). Only with step 1 can the
// point count exceed INT64_MAX: a located `limit` fault, as in the interpreter.
void op_domain(Builder& B, const Operation& op) {
  CValue d;
  d.kind = CValue::Kind::Domain;
  d.begin = B.get(op.operands[0]).scalar;
  ExprP end = B.get(op.operands[1]).scalar;
  std::optional<int64_t> cstep = 1;
  d.step = make_index(1);
  if (op.operands.size() > 2) {
    d.step = B.get(op.operands[2]).scalar;
    cstep = const_index(d.step);
    if (!cstep || *cstep <= 0) {
      auto chk = make_stmt(StmtKind::Check, B.origin(op));
      chk->value = make_compare("gt", d.step, make_index(0));
      chk->fault = KIR_FAULT_INVALID_VALUE;  // a domain step must be positive
      chk->detail = {d.step};
      B.emit(std::move(chk));
    }
  }
  const Extent& declared = op.result()->type.extent();
  auto cb = const_index(d.begin), ce = const_index(end);
  if (cb && ce && cstep && *cstep > 0) {
    const kir::int128 num = static_cast<kir::int128>(*ce) - *cb + *cstep - 1;
    kir::int128 ext = num / *cstep;
    if (num % *cstep != 0 && num < 0) --ext;
    if (ext <= INT64_MAX) {  // else the runtime form below faults
      const int64_t n = ext > 0 ? static_cast<int64_t>(ext) : 0;
      d.count = make_index(n);
      if (ext >= INT64_MIN) B.bind_extent(declared, make_index(static_cast<int64_t>(ext)));
      B.set(op.result(), d);
      return;
    }
  }
  const bool unit = cstep && *cstep == 1;
  ExprP ext;
  if (unit) {
    ext = index_sub(end, d.begin);
  } else {
    // A step that is not positive has faulted above; max keeps the arithmetic defined.
    ExprP s = cstep && *cstep > 0 ? d.step : B.let(op.result()->name + "_s", make_binary("max", d.step, make_index(1))).scalar;
    auto q = [&](const ExprP& x) { return make_binary("floordiv", x, s); };
    ExprP qe = q(end), qb = q(d.begin);
    ExprP re = index_sub(end, index_mul(qe, s)), rb = index_sub(d.begin, index_mul(qb, s));
    ext = index_add(index_sub(qe, qb), make_select(make_compare("gt", re, rb), make_index(1), make_index(0)));
  }
  const bool typed = Builder::floordiv_atom(declared);  // the type's extent is floordiv(..., %step)
  if (typed) ext = B.let(op.result()->name + "_x", ext).scalar;  // the count and the type's extent
  // Whether the true extent can leave the index range: only with a step that may be 1, and not
  // when begin >= 0 or end < 0 (end - begin fits then).
  const bool may_overflow = (!cstep || unit) && !(cb && *cb >= 0) && !(ce && *ce < 0);
  if (!may_overflow) {
    d.count = B.let(op.result()->name + "_n", make_binary("max", ext, make_index(0))).scalar;
    B.note_nonnegative(d.count);
    if (typed) B.bind_extent(declared, ext);
  } else {
    // The extent wraps exactly when it leaves the range: a wrapped count is negative (a fault
    // here); a wrapped extent of an empty domain is positive and stands for a negative one.
    ExprP nonempty = make_compare("gt", end, d.begin);
    d.count = B.let(op.result()->name + "_n", make_select(nonempty, ext, make_index(0))).scalar;
    auto chk = make_stmt(StmtKind::Check, B.origin(op));
    chk->value = make_compare("ge", d.count, make_index(0));
    chk->fault = KIR_FAULT_EXTENT_RANGE;
    chk->detail = {d.begin, end};
    B.emit(std::move(chk));
    if (typed) {
      ExprP wrapped = make_binary("and", make_unary("not", nonempty), make_compare("gt", ext, make_index(0)));
      B.bind_extent(declared, B.let(op.result()->name + "_e", make_select(wrapped, make_index(INT64_MIN), ext)).scalar);
    }
  }
  B.set(op.result(), d);
}

void op_subregion(Builder& B, const Operation& op) {
  const CValue& src = B.get(op.operands[0]);
  ExprP b = B.get(op.operands[1]).scalar, e = B.get(op.operands[2]).scalar;
  // 0 <= begin <= end <= extent(src): no implicit clamp.
  auto chk = make_stmt(StmtKind::Check, B.origin(op));
  chk->value = make_binary("and", make_binary("and", make_compare("ge", b, make_index(0)), make_compare("le", b, e)),
                           make_compare("le", e, src.count));
  chk->fault = KIR_FAULT_OUT_OF_BOUNDS;
  chk->detail = {b, e};
  if (!(const_index(b) && const_index(e) && const_index(src.count))) B.emit(std::move(chk));
  CValue d;
  d.kind = CValue::Kind::Domain;
  d.step = src.step;
  d.begin = B.let(op.result()->name + "_b", index_add(src.begin, index_mul(b, src.step))).scalar;
  d.count = B.let(op.result()->name + "_n", index_sub(e, b)).scalar;
  B.note_nonnegative(d.count);  // checked above: b <= e
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
  r.rel_shape = B.runtime_shape(op, t);
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
  auto shape = B.runtime_shape(op, t);
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
