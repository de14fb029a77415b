// Degenerate region_fold / region_scan -> ordinary reduce / scan (seed 000 §9.2; L9.6), for the
// surface spelling without `segments` (one source, no operands); a region op with explicit
// segments is canonical and kept. Recognized form (any other surface region op only gets its
// segments written out):
//   * one tensor source %x, no captures: region_fold(%x, %id), region_scan(%x, %id, %s0);
//   * combine = @C with body `%r = OP(%a, %b); return(%r)`, OP one of add mul min max and or xor
//     (associative and commutative, so both scan and reduce may use it);
//   * summarize(%slice) = reduce(%slice, ID) {axes = [axis], combine = @C}, where ID is built from
//     constants exactly like %id (const / full / broadcast / cast / tuple chains);
//   * region_scan only: apply(%t, %s) = OP(%s, %t) (either order, or call @C);
//     emit(%slice, %s) = OP(broadcast(%s) {dims = every axis but `axis`},
//                           scan(%slice, ID) {axis, combine = @C, inclusive = true, reverse = false})
//     (OP operands in either order).
// Canonical form: region_fold -> reduce(%x, %id) {axes = [axis], combine = @C};
// region_scan -> outputs = scan(%x, %id) {axis, combine = @C, inclusive = true, reverse = false},
// final = reduce(%x, %id) {axes = [axis], combine = @C}; when %s0 is not the identity, both are
// offset by the state: OP(broadcast(%s0), outputs) and OP(%s0, final).
#include <set>

#include "kir/normalize/families.h"

namespace kir::normalize {
namespace {

const std::set<std::string>& commutative_ops() {
  static const std::set<std::string> s = {"add", "mul", "min", "max", "and", "or", "xor"};
  return s;
}

// Two values built only from constants, the same way (types compared by kind, dtype and rank:
// a helper spells extents with its own symbols).
bool same_constant(const Value* a, const Value* b, int depth = 0) {
  if (!a || !b || depth > 32) return false;
  if (a == b) return true;
  const Operation* da = a->def;
  const Operation* db = b->def;
  if (!da || !db || da->name != db->name || da->attrs != db->attrs || da->operands.size() != db->operands.size())
    return false;
  static const std::set<std::string> allowed = {"const", "full", "broadcast", "cast", "tuple"};
  if (!allowed.count(da->name) || da->results.size() != 1 || db->results.size() != 1) return false;
  const Type &ta = a->type, &tb = b->type;
  if (!ta || !tb || ta.kind() != tb.kind()) return false;
  if (ta.is_shaped_or_scalar() && (ta.dtype() != tb.dtype() || ta.rank() != tb.rank())) return false;
  if (!ta.is_shaped_or_scalar() && ta != tb && !ta.is(TypeKind::Tuple)) return false;
  for (size_t i = 0; i < da->operands.size(); ++i)
    if (!same_constant(da->operands[i], db->operands[i], depth + 1)) return false;
  return true;
}

// Adds `v`'s constant-building ops (within helper body `f`) to `ops`.
void constant_chain(const Value* v, std::set<const Operation*>& ops, int depth = 0) {
  if (!v || !v->def || depth > 32) return;
  ops.insert(v->def);
  for (const Value* o : v->def->operands) constant_chain(o, ops, depth + 1);
}

const Function* helper(const Module& m, const Operation& op, const char* key, size_t params) {
  const Attribute* a = op.attr(key);
  if (!a || a->kind != Attribute::Kind::Symbol) return nullptr;
  const Function* f = m.find_function(a->s);
  if (!f || f->is_kernel() || f->body.args.size() != params || f->result_types.size() != 1) return nullptr;
  return f;
}

// The value a one-result helper returns, if its body ends with return(v).
const Value* returned(const Function& f) {
  if (f.body.ops.empty()) return nullptr;
  const Operation& last = *f.body.ops.back();
  if (last.name != "return" || last.operands.size() != 1) return nullptr;
  return last.operands[0];
}

bool is_param(const Function& f, const Value* v, size_t i) { return v == f.body.args.at(i).get(); }

// True if `v` is OP(p, q) with {p, q} == {x, y} in either order.
bool is_op_of(const Value* v, const std::string& opname, const Value* x, const Value* y) {
  if (!v || !v->def || v->def->name != opname || v->def->operands.size() != 2 || !v->def->attrs.empty()) return false;
  const auto& o = v->def->operands;
  return (o[0] == x && o[1] == y) || (o[0] == y && o[1] == x);
}

bool only_ops(const Function& f, const std::set<const Operation*>& ops) {
  for (const auto& op : f.body.ops)
    if (op->name != "return" && !ops.count(op.get())) return false;
  return true;
}

struct Match {
  std::string combine;  // helper name
  std::string op;       // its pointwise op
  size_t axis;
};

std::optional<std::string> combine_op(const Function& c) {
  if (c.body.ops.size() != 2) return std::nullopt;
  const Value* r = returned(c);
  if (!r || !r->def || !commutative_ops().count(r->def->name)) return std::nullopt;
  if (!is_op_of(r, r->def->name, c.body.args[0].get(), c.body.args[1].get())) return std::nullopt;
  return r->def->name;
}

// summarize(%slice) = reduce(%slice, ID) {axes = [axis], combine = @C}
bool summarize_ok(const Function& s, const Match& m, const Value* id) {
  const Value* r = returned(s);
  if (!r || !r->def || r->def->name != "reduce" || r->def->operands.size() != 2) return false;
  const Operation& red = *r->def;
  if (!is_param(s, red.operands[0], 0) || !same_constant(red.operands[1], id)) return false;
  const Attribute* axes = red.attr("axes");
  const Attribute* comb = red.attr("combine");
  if (!axes || !axes->is_int_list() || axes->ints() != std::vector<int64_t>{static_cast<int64_t>(m.axis)}) return false;
  if (!comb || comb->kind != Attribute::Kind::Symbol || comb->s != m.combine || red.attrs.size() != 2) return false;
  std::set<const Operation*> ops = {&red};
  constant_chain(red.operands[1], ops);
  return only_ops(s, ops);
}

// apply(%t, %s) = OP(%s, %t) or call(%s, %t) {callee = @C}
bool apply_ok(const Function& a, const Match& m) {
  const Value* r = returned(a);
  const Value* t = a.body.args[0].get();
  const Value* s = a.body.args[1].get();
  if (a.body.ops.size() != 2 || !r || !r->def) return false;
  if (is_op_of(r, m.op, s, t)) return true;
  const Operation& c = *r->def;
  const Attribute* callee = c.attr("callee");
  return c.name == "call" && callee && callee->kind == Attribute::Kind::Symbol && callee->s == m.combine &&
         c.attrs.size() == 1 && c.operands.size() == 2 &&
         ((c.operands[0] == s && c.operands[1] == t) || (c.operands[0] == t && c.operands[1] == s));
}

// emit(%slice, %s) = OP(broadcast(%s) {dims}, scan(%slice, ID) {axis, combine = @C, inclusive, !reverse})
bool emit_ok(const Function& e, const Match& m, const Value* id, size_t rank) {
  const Value* r = returned(e);
  if (!r || !r->def || r->def->name != m.op || r->def->operands.size() != 2 || !r->def->attrs.empty()) return false;
  const Value* slice = e.body.args[0].get();
  const Value* state = e.body.args[1].get();
  const Operation* scan = nullptr;
  const Operation* bc = nullptr;
  for (const Value* o : r->def->operands) {
    if (!o->def) return false;
    if (o->def->name == "scan") scan = o->def;
    else if (o->def->name == "broadcast") bc = o->def;
  }
  if (!scan || !bc) return false;
  // The broadcast: the state along every axis but `axis` (a scalar state: dims = []).
  std::vector<int64_t> dims;
  for (size_t i = 0; i < rank; ++i)
    if (i != m.axis) dims.push_back(static_cast<int64_t>(i));
  const Attribute* d = bc->attr("dims");
  if (bc->operands.size() != 1 || bc->operands[0] != state || !d || !d->is_int_list() || d->ints() != dims ||
      bc->attrs.size() != 1)
    return false;
  // The scan: inclusive, forward, with combine @C and the identity.
  if (scan->operands.size() != 2 || scan->operands[0] != slice || !same_constant(scan->operands[1], id)) return false;
  for (const auto& [k, v] : scan->attrs) {
    if (k == "axis" && v.is_int() && v.i == static_cast<int128>(m.axis)) continue;
    if (k == "combine" && v.kind == Attribute::Kind::Symbol && v.s == m.combine) continue;
    if (k == "inclusive" && v.kind == Attribute::Kind::Bool && v.b) continue;
    if (k == "reverse" && v.kind == Attribute::Kind::Bool && !v.b) continue;
    return false;
  }
  if (!scan->attr("axis") || !scan->attr("combine")) return false;
  std::set<const Operation*> ops = {r->def, scan, bc};
  constant_chain(scan->operands[1], ops);
  return only_ops(e, ops);
}

}  // namespace

bool normalize_degenerate_region(Rewriter& rw) {
  Operation& op = rw.op();
  bool scan = op.name == "region_scan";
  if (op.operands.size() != (scan ? 3u : 2u) || op.results.size() != (scan ? 2u : 1u) || !op.regions.empty())
    return false;
  for (const Value* v : op.operands)
    if (!v || !v->type) return false;
  Value* x = op.operands[0];
  Value* id = op.operands[1];
  if (!x->type.is_tensor() || x->type.rank() == 0) return false;
  const Attribute* ax = op.attr("axis");
  if (!ax || !ax->is_int() || ax->i < INT64_MIN || ax->i > INT64_MAX) return false;
  auto axis = norm_axis(static_cast<int64_t>(ax->i), x->type.rank());
  if (!axis) return false;
  const Module& m = rw.module();
  const Function* c = helper(m, op, "combine", 2);
  const Function* s = helper(m, op, "summarize", 1);
  if (!c || !s) return false;
  auto cop = combine_op(*c);
  if (!cop) return false;
  Match match{c->name, *cop, *axis};
  if (!summarize_ok(*s, match, id)) return false;
  Type acc = x->type.rank() == 1 ? x->type.element() : x->type.with_shape([&] {
    std::vector<Extent> sh = x->type.shape();
    sh.erase(sh.begin() + static_cast<std::ptrdiff_t>(*axis));
    return sh;
  }());
  if (id->type != acc) return false;
  AttrMap red_attrs = {{"axes", Attribute::int_list({static_cast<int64_t>(*axis)})},
                       {"combine", Attribute::symbol(c->name)}};
  if (!scan) {
    if (op.results[0]->type != acc) return false;
    rw.replace({rw.value("reduce", {x, id}, acc, red_attrs, "r")});
    return true;
  }
  Value* s0 = op.operands[2];
  const Function* a = helper(m, op, "apply", 2);
  const Function* e = helper(m, op, "emit", 2);
  if (!a || !e || !apply_ok(*a, match) || !emit_ok(*e, match, id, x->type.rank())) return false;
  if (s0->type != acc || op.results[0]->type != x->type || op.results[1]->type != acc) return false;
  Value* outputs = rw.value("scan", {x, id}, x->type,
                            {{"axis", Attribute::integer(static_cast<int64_t>(*axis))},
                             {"combine", Attribute::symbol(c->name)},
                             {"inclusive", Attribute::boolean(true)},
                             {"reverse", Attribute::boolean(false)}},
                            "scan");
  Value* final_state = rw.value("reduce", {x, id}, acc, red_attrs, "total");
  if (!same_constant(s0, id)) {
    std::vector<int64_t> dims;
    for (size_t i = 0; i < x->type.rank(); ++i)
      if (i != *axis) dims.push_back(static_cast<int64_t>(i));
    Value* sb = rw.broadcast(s0, x->type, dims, "state");
    outputs = rw.value(*cop, {sb, outputs}, x->type, {}, "out");
    final_state = rw.value(*cop, {s0, final_state}, acc, {}, "final");
  }
  rw.replace({outputs, final_state});
  return true;
}

bool normalize_region_surface(Rewriter& rw) {
  if (normalize_degenerate_region(rw)) return true;
  rw.abandon();
  Operation& op = rw.op();
  // Not degenerate: the op stays, with the segments of its one source and no operands.
  op.attrs["segments"] = Attribute::int_list(op.name == "region_scan" ? std::vector<int64_t>{1, 1, 1, 0}
                                                                      : std::vector<int64_t>{1, 1, 0});
  return true;
}

}  // namespace kir::normalize
