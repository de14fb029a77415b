// Construction of atomics, scatter_reduce and random bits (seed 000 §13, §16, §17).
//  * random.bits / random.uniform: a Random expression per element of the counter (a Let for a
//    scalar counter, a Compute for a tensor one); an index counter carries the op id (negative:
//    a located invalid-value fault).
//  * atomic.*: one Atomic statement on the single element the relation addresses (bounds-checked:
//    outside the destination is a located fault); results are Let-role variables.
//  * scatter_reduce: a loop nest over the relation's points in canonical (row-major) order with
//    dest[rel(c)] = combine(dest[rel(c)], value[c], captures...) where the point is valid. Inside
//    a `parallel` the update is an Atomic "update" (a CAS loop recomputing the combine); outside a
//    plain load/combine/store. A helper body may be inlined into a parallel, so it counts as
//    inside one (atomic updates are also correct there, only slower).
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
namespace {

// The source coordinates of relation point c, converted to index.
std::vector<ExprP> rel_index(Builder& B, const CValue& r, const std::vector<ExprP>& c) {
  std::vector<ExprP> idx;
  for (const auto& k : r.coords) idx.push_back(make_cast(B.element(k, c), DType::Index));
  return idx;
}

BufId dest_buffer(Builder& B, const Operation& op) {
  const CValue& d = B.get(op.operands[0]);
  if (d.kind != CValue::Kind::View && d.kind != CValue::Kind::LogicalBuffer)
    B.not_implemented(op, "`" + op.name + "` on a destination that is not a view or buffer");
  return d.buf;
}

// ---------------------------------------------------------------- random
void op_random(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`" + op.name + "` inside a combine helper");
  const bool uniform = op.name == "random.uniform";
  const DType out = uniform ? op.result()->type.dtype() : DType::U32;
  if (uniform && !is_float(out)) B.fail(op, "random.uniform to " + std::string(name(out)));
  ExprP seed = B.get(op.operands[0]).scalar;
  const CValue& ctr = B.get(op.operands[1]);
  const int32_t id = B.origin(op);
  auto value = [&](const ExprP& c) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Random;
    e->dtype = out;
    e->op = uniform ? "uniform" : "bits";
    e->args = {seed, c};
    if (c->dtype == DType::Index) e->op_id = id;
    return ExprP(e);
  };
  if (ctr.is_scalar()) {
    B.set(op.result(), B.let(op.result()->name, value(ctr.scalar)));
    return;
  }
  if (!ctr.is_tensor()) B.fail(op, "random counter is neither a scalar nor a tensor");
  const std::vector<ExprP> shape = B.program().buf(ctr.buf).shape;
  B.set(op.result(), B.compute(op, op.result()->name, out, shape,
                               [&](const std::vector<ExprP>& c) { return value(B.element(ctr, c)); }));
}

// ---------------------------------------------------------------- atomics
std::string order_of(Builder& B, const Operation& op) {
  const Attribute* a = op.attr("order");
  if (!a) B.fail(op, "atomic without an `order`");
  return a->s;
}

StmtP atomic_stmt(Builder& B, const Operation& op, const std::string& what, BufId& buf) {
  if (B.scalar_mode()) B.not_implemented(op, "`" + op.name + "` inside a combine helper");
  buf = dest_buffer(B, op);
  const CValue& r = B.get(op.operands[1]);
  if (!r.rel_shape.empty() || r.valid) B.fail(op, "an atomic addresses one element (unmasked relation of shape [])");
  auto s = make_stmt(StmtKind::Atomic, B.origin(op));
  s->op = what + "." + order_of(B, op);
  s->buf = buf;
  s->index = rel_index(B, r, {});
  return s;
}

VarId result_var(Builder& B, const std::string& name, DType d) { return B.program().add_var(name, d, VarRole::Let); }

void op_atomic_load(Builder& B, const Operation& op) {
  BufId b = kNone;
  auto s = atomic_stmt(B, op, "load", b);
  const DType d = B.program().buf(b).dtype;
  s->var = result_var(B, op.result()->name, d);
  B.set(op.result(), CValue::of_scalar(make_var(s->var, d)));
  B.emit(std::move(s));
}

void op_atomic_store(Builder& B, const Operation& op) {
  BufId b = kNone;
  auto s = atomic_stmt(B, op, "store", b);
  s->value = B.get(op.operands[2]).scalar;
  B.emit(std::move(s));
}

void op_atomic_rmw(Builder& B, const Operation& op) {
  const Attribute* k = op.attr("kind");
  if (!k) B.fail(op, "atomic.rmw without a `kind`");
  BufId b = kNone;
  auto s = atomic_stmt(B, op, "rmw." + k->s, b);
  const DType d = B.program().buf(b).dtype;
  s->value = B.get(op.operands[2]).scalar;
  s->var = result_var(B, op.result()->name, d);
  B.set(op.result(), CValue::of_scalar(make_var(s->var, d)));
  B.emit(std::move(s));
}

void op_atomic_cas(Builder& B, const Operation& op) {
  BufId b = kNone;
  auto s = atomic_stmt(B, op, "cas", b);
  const DType d = B.program().buf(b).dtype;
  s->value = B.get(op.operands[2]).scalar;
  s->detail = {B.get(op.operands[3]).scalar};
  s->var = result_var(B, op.result()->name + "_old", d);
  s->var2 = result_var(B, op.result()->name + "_ok", DType::Bool);
  CValue rec;
  rec.kind = CValue::Kind::Record;
  rec.names = {"old_value", "success"};
  rec.elems = {CValue::of_scalar(make_var(s->var, d)), CValue::of_scalar(make_var(s->var2, DType::Bool))};
  B.set(op.result(), rec);
  B.emit(std::move(s));
}

// ---------------------------------------------------------------- scatter_reduce
// Whether `op` may run inside a parallel: an enclosing parallel, or a helper body (inlined
// wherever it is called).
bool maybe_in_parallel(const Builder& B, const Operation& op) {
  const Operation* cur = &op;
  for (;;) {
    const Operation* up = cur->parent_op();
    if (!up) break;
    if (up->name == "parallel") return true;
    cur = up;
  }
  for (const auto& fn : B.module().functions)
    if (&fn->body == cur->parent) return !fn->is_kernel();
  return true;
}

void op_scatter_reduce(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "`scatter_reduce` inside a combine helper");
  const BufId dst = dest_buffer(B, op);
  const DType d = B.program().buf(dst).dtype;
  const CValue r = B.get(op.operands[1]);
  const CValue val = B.get(op.operands[2]);
  std::vector<CValue> caps;
  for (size_t i = 3; i < op.operands.size(); ++i) caps.push_back(B.get(op.operands[i]));
  const Function& fn = B.helper(op, "combine");
  const bool atomic = maybe_in_parallel(B, op);
  const int32_t id = B.origin(op);
  Program& P = B.program();

  auto point = [&](const std::vector<ExprP>& c) {
    std::vector<ExprP> idx = rel_index(B, r, c);
    CValue v = B.let("sr_v", B.element(val, c));
    if (atomic) {
      auto s = make_stmt(StmtKind::Atomic, id);
      s->op = "update.relaxed";
      s->buf = dst;
      s->index = idx;
      s->var = P.add_var("sr_cur", d, VarRole::Let);
      std::vector<CValue> args = {CValue::of_scalar(make_var(s->var, d)), v};
      args.insert(args.end(), caps.begin(), caps.end());
      auto res = B.inline_scalar(op, fn, args);
      if (res.size() != 1 || res[0]->dtype != d) B.fail(op, "combine @" + fn.name + " does not return one element");
      s->value = res[0];
      B.emit(std::move(s));
      return;
    }
    auto ld = std::make_shared<Expr>(*make_load(dst, d, idx));
    ld->op_id = id;  // outside the destination: a located fault
    CValue old = B.let("sr_old", ld);
    std::vector<CValue> args = {old, v};
    args.insert(args.end(), caps.begin(), caps.end());
    auto res = B.inline_scalar(op, fn, args);
    if (res.size() != 1 || res[0]->dtype != d) B.fail(op, "combine @" + fn.name + " does not return one element");
    auto st = make_stmt(StmtKind::Store, id);
    st->buf = dst;
    st->index = idx;
    st->value = res[0];
    B.emit(std::move(st));
  };

  // Loops over the relation's points, outermost axis first (canonical order).
  std::vector<ExprP> coords;
  std::function<void(size_t)> nest = [&](size_t k) {
    if (k == r.rel_shape.size()) {
      if (!r.valid) {
        point(coords);
        return;
      }
      auto g = make_stmt(StmtKind::If, id);
      g->value = B.element(*r.valid, coords);
      B.with_block(g->body, [&] { point(coords); });
      B.emit(std::move(g));
      return;
    }
    auto l = make_loop(P.add_var("sr" + std::to_string(k), DType::Index, VarRole::Loop), make_index(0), r.rel_shape[k],
                       make_index(1), id);
    coords.push_back(make_var(l->var, DType::Index));
    B.with_block(l->body, [&] { nest(k + 1); });
    coords.pop_back();
    B.emit(std::move(l));
  };
  nest(0);
}

}  // namespace

void register_effect_ops(std::map<std::string, OpHandler>& t) {
  t["random.bits"] = op_random;
  t["random.uniform"] = op_random;
  t["atomic.load"] = op_atomic_load;
  t["atomic.store"] = op_atomic_store;
  t["atomic.rmw"] = op_atomic_rmw;
  t["atomic.compare_exchange"] = op_atomic_cas;
  t["scatter_reduce"] = op_scatter_reduce;
}

}  // namespace kir::cpu
