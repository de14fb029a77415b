// Verifier rules for memory, atomics and RNG (seed 000 §2, §15–§17): every indexed access takes
// a typed relation whose source rank matches the accessed value and whose result shape is the
// shape of the loaded/stored block (L15.1); a masked relation needs an explicit fill on reads
// (L15.2); writes go to Out/InOut views or logical buffers, never In (L2.1, L15.3, L15.4);
// atomics address one element with a legal memory order and no scope (L16.1); RNG ops take a
// u64 seed and logical counters (L17.1, L17.2). Read-before-store of Out views (L2.2) and parallel
// conflicts (L5.1) are whole-function facts, checked in core_access_order.cpp / core_parallel.cpp.
#include "kir/verify/context.h"
#include "kir/verify/core_util.h"
#include "kir/verify/effects.h"

namespace kir::verify {

using namespace core;

namespace {

std::string dn(DType d) { return std::string(name(d)); }

enum class Dest { Tensor, View, Buffer };

// Checks the relation operand against a source of `rank`; returns the relation type or null.
Type relation_for(const Operation& op, Context& cx, size_t i, size_t rank, const std::string& rule) {
  Type r = operand_type(op, i);
  if (!r.is(TypeKind::Relation)) {
    cx.error(op, "L15.1", "operand " + std::to_string(i) + " must be an index relation, got " + ty(r));
    return Type();
  }
  if (r.source_rank() < 0 || static_cast<size_t>(r.source_rank()) != rank) {
    cx.error(op, rule, "the relation addresses a rank-" + std::to_string(r.source_rank()) + " source but " + ty(operand_type(op, 0)) +
                           " has rank " + std::to_string(rank));
    return Type();
  }
  return r;
}

// dest of a write: Out/InOut view or logical buffer.
bool writable_dest(const Operation& op, Context& cx, const Type& d, bool allow_view, const std::string& rule) {
  if (d.is(TypeKind::Buffer)) return true;
  if (d.is(TypeKind::View) && allow_view) {
    if (d.access() == Access::In) {
      cx.error(op, "L2.1", "writes to " + ty(d) + ": an In view is read-only");
      return false;
    }
    return true;
  }
  cx.error(op, rule, std::string("the destination must be ") + (allow_view ? "an Out/InOut view or " : "") +
                         "a logical buffer, got " + ty(d));
  return false;
}

// Loads: gather(src, rel[, fill]), view.load, buffer.load.
void check_load(const Operation& op, Context& cx) {
  bool a = cx.operands_between(op, 2, 3, "L15.3");
  bool b = cx.results(op, 1, "L15.3");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L15.3");
  Type src = operand_type(op, 0);
  bool ok = op.name == "gather" ? src.is_tensor() : op.name == "view.load" ? src.is(TypeKind::View) : src.is(TypeKind::Buffer);
  if (!ok)
    return cx.error(op, "L15.3", "the source must be " +
                                     std::string(op.name == "gather" ? "a tensor value"
                                                 : op.name == "view.load" ? "an external view" : "a logical buffer") +
                                     ", got " + ty(src));
  Type r = relation_for(op, cx, 1, src.rank(), "L15.1");
  if (!r) return;
  bool has_fill = op.operands.size() == 3;
  if (r.masked() && !has_fill)
    return cx.error(op, "L15.2", "the relation is masked: an invalid read returns an explicit fill, which is missing");
  if (!r.masked() && has_fill)
    return cx.error(op, "L15.2", "a fill is given but the relation is not masked (no invalid lanes)");
  if (has_fill && operand_type(op, 2) != src.element())
    return cx.error(op, "L15.2", "the fill must be a scalar " + dn(src.dtype()) + ", got " + ty(operand_type(op, 2)));
  Type want = element_block(src.dtype(), r.shape());
  if (result_type(op) != want)
    cx.error(op, "L15.1", "result must be " + ty(want) + " (source dtype, relation shape), got " + ty(result_type(op)));
}

bool stored_value(const Operation& op, Context& cx, size_t i, DType d, const Type& rel) {
  Type want = element_block(d, rel.shape());
  Type v = operand_type(op, i);
  if (v == want) return true;
  cx.error(op, "L15.1", "the stored value must be " + ty(want) + " (destination dtype, relation shape), got " + ty(v));
  return false;
}

// view.store, buffer.store, unique_store: (dest, rel, value).
void check_store(const Operation& op, Context& cx) {
  const std::string rule = op.name == "buffer.store" ? "L15.4" : "L15.3";
  bool a = cx.operands(op, 3, rule);
  bool b = cx.results(op, 0, rule);
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, rule);
  Type d = operand_type(op, 0);
  if (op.name == "view.store" && !d.is(TypeKind::View))
    return cx.error(op, "L15.3", "the destination must be an Out/InOut view, got " + ty(d));
  if (op.name == "buffer.store" && !d.is(TypeKind::Buffer))
    return cx.error(op, "L15.4", "the destination must be a logical buffer, got " + ty(d));
  if (!writable_dest(op, cx, d, op.name != "buffer.store", rule)) return;
  Type r = relation_for(op, cx, 1, d.rank(), "L15.1");
  if (!r || !stored_value(op, cx, 2, d.dtype(), r)) return;
  if (op.name == "unique_store") {
    // Provably not injective: every coordinate is a scalar (the same for every point) and the
    // relation has a constant number of points > 1. Other cases are checked by the interpreter.
    bool all_scalar = true;
    size_t coords = op.operands[1]->def && op.operands[1]->def->name == "relation" ? op.operands[1]->def->operands.size() : 0;
    if (r.masked() && coords > 0) --coords;
    if (coords == 0 || !op.operands[1]->def || op.operands[1]->def->name != "relation") all_scalar = false;
    for (size_t i = 0; all_scalar && i < coords; ++i) {
      const Value* c = op.operands[1]->def->operands[i];
      if (!c || !c->type.is_scalar()) all_scalar = false;
    }
    int64_t points = 1;
    bool constant = true;
    for (const auto& e : r.shape()) {
      auto c = e.constant_value();
      if (!c) constant = false;
      else if (*c > 0 && points <= INT64_MAX / *c) points *= *c;
      else if (*c == 0) points = 0;
    }
    if (all_scalar && constant && points > 1)
      cx.error(op, "L15.3", "unique_store needs an injective relation, but all " + std::to_string(points) +
                                " points map to the same coordinate");
  }
}

void check_alloc(const Operation& op, Context& cx) {
  bool a = cx.operands_between(op, 0, 1, "L15.4");
  bool b = cx.results(op, 1, "L15.4");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L15.4");
  Type r = result_type(op);
  if (!r.is(TypeKind::Buffer)) return cx.error(op, "L15.4", "result must be a buffer<...> type, got " + ty(r));
  for (size_t i = 0; i < r.rank(); ++i)
    if (auto c = r.shape()[i].constant_value(); c && *c < 0)
      return cx.error(op, "L15.4", "extent " + std::to_string(*c) + " of axis " + std::to_string(i) + " is negative");
  if (op.operands.size() == 1) {
    Type init = operand_type(op, 0);
    if (init != r.element() && init != r.tensor_type())
      cx.error(op, "L15.4", "the initializer must be a scalar " + dn(r.dtype()) + " fill or a " + ty(r.tensor_type()) +
                                " tensor, got " + ty(init));
  }
}

void check_scatter_reduce(const Operation& op, Context& cx) {
  bool a = cx.operands_between(op, 3, SIZE_MAX, "L15.3");
  bool b = cx.results(op, 0, "L15.3");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {"combine"}, "L15.3");
  Type d = operand_type(op, 0);
  if (!writable_dest(op, cx, d, true, "L15.3")) return;
  Type r = relation_for(op, cx, 1, d.rank(), "L15.1");
  if (!r || !stored_value(op, cx, 2, d.dtype(), r)) return;
  const Function* f = cx.callee(op, "combine", "L15.3");
  if (!f) return;
  Type t = d.element();
  std::vector<Value*> params = f->params();
  size_t captures = op.operands.size() - 3;
  if (params.size() != 2 + captures)
    return cx.error(op, "L15.3", "combine @" + f->name + " must take (" + ty(t) + ", " + ty(t) + ") and " +
                                     std::to_string(captures) + " captures, but takes " + std::to_string(params.size()) +
                                     " parameters");
  std::map<std::string, Extent> binding;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i]) return;
    Type want = i < 2 ? t : operand_type(op, 1 + i);
    std::string why;
    if (!cx.unify(params[i]->type, want, binding, why))
      return cx.error(op, "L15.3", "combine @" + f->name + " parameter " + std::to_string(i) + ": " + why);
  }
  if (f->result_types.size() != 1 || f->result_types[0] != t)
    return cx.error(op, "L15.3", "combine @" + f->name + " must return the element type " + ty(t));
  HelperEffects fx = helper_effects(cx.module, *f);
  if (!fx.pure()) cx.error(op, "L1.5", "combine must be a pure helper, but " + fx.describe(f->name));
}

// ---- atomics -------------------------------------------------------------------------------

bool one_of(const std::string& s, std::initializer_list<const char*> xs) {
  for (const char* x : xs)
    if (s == x) return true;
  return false;
}

void check_atomic(const Operation& op, Context& cx) {
  const std::string& n = op.name;
  size_t nops = n == "atomic.load" ? 2 : n == "atomic.compare_exchange" ? 4 : 3;
  size_t nres = n == "atomic.store" ? 0 : 1;
  if (op.has_attr("scope"))
    return cx.error(op, "L16.1", "atomics take no scope argument (no scope): the provider chooses the physical scope");
  bool a = cx.operands(op, nops, "L16.1");
  bool b = cx.results(op, nres, "L16.1");
  if (!a || !b || !has_operand_types(op)) return;
  if (n == "atomic.rmw") cx.only_attrs(op, {"order", "kind"}, "L16.1");
  else cx.only_attrs(op, {"order"}, "L16.1");
  Type d = operand_type(op, 0);
  if (n == "atomic.load") {
    if (!d.is(TypeKind::View) && !d.is(TypeKind::Buffer))
      return cx.error(op, "L16.1", "the address must be in a view or logical buffer, got " + ty(d));
  } else if (!writable_dest(op, cx, d, true, "L16.1")) {
    return;
  }
  Type r = relation_for(op, cx, 1, d.rank(), "L16.1");
  if (!r) return;
  if (r.rank() != 0)
    return cx.error(op, "L16.1", "an atomic addresses one element: the relation must be relation<" +
                                     std::to_string(r.source_rank()) + " -> []>, got " + ty(r));
  if (r.masked()) return cx.error(op, "L16.1", "an atomic address has no validity mask (guard it with if)");
  const Attribute* o = cx.attr(op, "order", Attribute::Kind::Keyword, "L16.1");
  if (o) {
    bool ok = n == "atomic.load" ? one_of(o->s, {"relaxed", "acquire"})
              : n == "atomic.store" ? one_of(o->s, {"relaxed", "release"})
                                    : one_of(o->s, {"relaxed", "acquire", "release", "acq_rel"});
    if (!ok)
      return cx.error(op, "L16.1", "order " + o->s + " is not allowed for " + n + " (" +
                                       (n == "atomic.load" ? "relaxed or acquire"
                                        : n == "atomic.store" ? "relaxed or release"
                                                              : "relaxed, acquire, release or acq_rel") + ")");
  }
  Type t = d.element();
  DType dt = d.dtype();
  for (size_t i = 2; i < nops; ++i)
    if (operand_type(op, i) != t)
      return cx.error(op, "L16.1", "operand " + std::to_string(i) + " must be a scalar " + dn(dt) + " (the element type), got " +
                                       ty(operand_type(op, i)));
  if (n == "atomic.rmw") {
    const Attribute* k = cx.attr(op, "kind", Attribute::Kind::Keyword, "L16.1");
    if (!k) return;
    if (!one_of(k->s, {"exchange", "add", "max", "min", "and", "or", "xor"}))
      return cx.error(op, "L16.1", "kind must be exchange, add, max, min, and, or or xor, got " + k->s);
    if (one_of(k->s, {"and", "or", "xor"}) && !is_integer(dt))
      return cx.error(op, "L16.1", "atomic " + k->s + " needs an integer element type, got " + dn(dt));
    if (one_of(k->s, {"add", "max", "min"}) && !(is_integer(dt) || is_float(dt)))
      return cx.error(op, "L16.1", "atomic " + k->s + " needs an integer or f16/bf16/f32/f64 element type, got " + dn(dt));
  }
  if (nres == 1) {
    Type want = n == "atomic.compare_exchange" ? Type::record({{"old_value", t}, {"success", Type::scalar(DType::Bool)}}) : t;
    if (result_type(op) != want) cx.error(op, "L16.1", "result must be " + ty(want) + ", got " + ty(result_type(op)));
  }
}

// ---- RNG -----------------------------------------------------------------------------------

void check_random(const Operation& op, Context& cx) {
  const std::string rule = op.name == "random.bits" ? "L17.1" : "L17.2";
  bool a = cx.operands(op, 2, rule);
  bool b = cx.results(op, 1, rule);
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, rule);
  Type seed = operand_type(op, 0), counter = operand_type(op, 1), r = result_type(op);
  if (seed != Type::scalar(DType::U64)) return cx.error(op, rule, "the seed must be a u64 scalar, got " + ty(seed));
  if (!counter.is_shaped_or_scalar() || (counter.dtype() != DType::U64 && counter.dtype() != DType::Index))
    return cx.error(op, rule, "the counter must be a u64 or index scalar or tensor, got " + ty(counter));
  if (op.name == "random.bits") {
    Type want = counter.with_dtype(DType::U32);
    if (r != want) cx.error(op, rule, "result must be " + ty(want) + " (u32 with the counter's shape), got " + ty(r));
    return;
  }
  if (!r.is_shaped_or_scalar() || !is_float(r.dtype()))
    return cx.error(op, rule, "result must be f16, bf16, f32 or f64 with the counter's shape, got " + ty(r));
  Type want = counter.with_dtype(r.dtype());
  if (r != want) cx.error(op, rule, "result must be " + ty(want) + " (the counter's shape), got " + ty(r));
}

}  // namespace

void register_memory_ops(OpTable& t) {
  t["gather"] = check_load;
  t["view.load"] = check_load;
  t["buffer.load"] = check_load;
  t["view.store"] = check_store;
  t["buffer.store"] = check_store;
  t["unique_store"] = check_store;
  t["buffer.alloc"] = check_alloc;
  t["scatter_reduce"] = check_scatter_reduce;
  for (const char* n : {"atomic.load", "atomic.store", "atomic.rmw", "atomic.compare_exchange"}) t[n] = check_atomic;
  t["random.bits"] = check_random;
  t["random.uniform"] = check_random;
}

}  // namespace kir::verify
