// Provable conflicts between the points of a `parallel` (seed 000 §5, L5.1). Points run once
// each, in no order; conflicting non-atomic, non-reduction effects are illegal, and only atomic
// accesses (atomic ops, scatter_reduce) are ordered among themselves. Statically provable cases,
// for accesses to memory that lives outside the body executed unconditionally by every point:
//  * a store (view.store, buffer.store, unique_store) whose relation is the same for every point
//    (no data-flow path from the region argument, or coordinates affine in the point with a zero
//    coefficient, e.g. mul(%i, 0)): every point writes the same locations. If the body also loads
//    from that destination it is a non-atomic read-modify-write;
//  * an atomic access and a plain access of the same destination that provably touch one element
//    for two different points (at least one of them writing): both relations the same for every
//    point and equal, or one the same for every point and the other the point coordinate itself
//    reaching that element at the domain's first point.
// A value is point-dependent when it has a data-flow path from the point, and also when it is
// the result of an atomic (each point sees the others' updates: a ticket from a fetch-add is
// distinct per point), of a load of memory the body writes, or of a call of a helper that uses
// atomics. Stores under a point-dependent if/for/while, or through a point-dependent relation,
// are not provably conflicting and are left to the interpreter; atomic with atomic never conflicts.
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "kir/op_registry.h"
#include "kir/verify/core_rules.h"
#include "kir/verify/core_util.h"
#include "kir/verify/effects.h"

namespace kir::verify::core {

namespace {

bool is_plain_load(const std::string& n) { return n == "view.load" || n == "buffer.load"; }
bool is_plain_store(const std::string& n) { return n == "view.store" || n == "buffer.store" || n == "unique_store"; }
bool is_atomic_update(const std::string& n) {
  return n == "atomic.store" || n == "atomic.rmw" || n == "atomic.compare_exchange" || n == "scatter_reduce";
}
bool is_atomic_access(const std::string& n) { return n == "atomic.load" || is_atomic_update(n); }

std::optional<int128> const_int(const Value* v) {
  if (!v || !v->def || v->def->name != "const") return std::nullopt;
  const Attribute* a = v->def->attr("value");
  if (!a || !a->is_int()) return std::nullopt;
  return a->i;
}

// Two values provably equal: the same value, or the same pure op (no regions) with equal
// attributes applied to provably equal operands (e.g. two `relation(%c0)` ops, or two `const`s).
bool same_value(const Value* a, const Value* b, int depth = 0) {
  if (a == b) return a != nullptr;
  if (!a || !b || !a->def || !b->def || depth > 16) return false;
  const Operation& x = *a->def;
  const Operation& y = *b->def;
  if (x.name != y.name || a->index != b->index || !x.regions.empty() || !y.regions.empty() || x.attrs != y.attrs ||
      x.operands.size() != y.operands.size())
    return false;
  const OpInfo* info = find_op(x.name);
  if (!info || info->effect != Effect::Pure) return false;
  for (size_t i = 0; i < x.operands.size(); ++i)
    if (!same_value(x.operands[i], y.operands[i], depth + 1)) return false;
  return true;
}

// One unconditional access of a destination defined outside the body.
struct Access {
  const Operation* op;
  bool atomic;    // an atomic op or scatter_reduce
  bool write;     // a plain store, or an atomic that may write
  bool reported;  // already rejected as a write-write conflict
};

struct Analysis {
  Analysis(Context& c, const Operation& p) : cx(c), par(p) {}
  Context& cx;
  const Operation& par;
  std::set<const Value*> dep;      // values depending on the point coordinate
  std::set<const Value*> inside;   // values defined inside the body
  std::set<const Value*> loaded;   // destinations loaded from inside the body
  std::set<const Value*> written;  // destinations stored to or atomically updated, or passed to a call
  const Value* point = nullptr;    // the point argument
  std::map<const Value*, std::optional<int128>> coef_memo;
  std::map<const Value*, std::vector<Access>> accesses;  // per destination, in program order

  bool any_dep(const Operation& op) const {
    for (const Value* v : op.operands)
      if (dep.count(v)) return true;
    return false;
  }

  // Results that may differ between points although no operand depends on the point.
  bool point_varying(const Operation& op) const {
    if (op.results.empty()) return false;
    if (is_atomic_access(op.name)) return true;  // sees the other points' updates (tickets)
    if (op.name == "dim") return false;          // a shape never changes
    for (const Value* v : op.operands)
      if (v && written.count(v)) return true;  // reads memory the body writes
    if (op.name == "call") {
      const Attribute* callee = op.attr("callee");
      const Function* fn = callee ? cx.module.find_function(callee->s) : nullptr;
      if (fn && !fn->is_kernel() && helper_effects(cx.module, *fn).atomics) return true;
    }
    return false;
  }

  // v = c * point + (a point-independent value): c, or nullopt when v is not provably of that
  // form. Exact for integer add/sub/neg/mul by a constant (wrapping arithmetic keeps c = 0
  // meaning "the same for every point"); any other pure op of values with c = 0 has c = 0.
  std::optional<int128> coef(const Value* v) {
    if (!v) return std::nullopt;
    if (!dep.count(v)) return 0;
    if (v == point) return 1;
    auto memo = coef_memo.find(v);
    if (memo != coef_memo.end()) return memo->second;
    std::optional<int128> c = compute_coef(v);
    if (c && (*c > (int128(1) << 100) || *c < -(int128(1) << 100))) c = std::nullopt;
    coef_memo[v] = c;
    return c;
  }
  std::optional<int128> compute_coef(const Value* v) {
    const Operation* d = v->def;
    if (!d || !d->regions.empty()) return std::nullopt;
    const OpInfo* info = find_op(d->name);
    if (!info || info->effect != Effect::Pure) return std::nullopt;
    const std::string& n = d->name;
    const Value* a = operand(*d, 0);
    const Value* b = operand(*d, 1);
    if ((n == "sub" || n == "xor") && a && a == b && d->operands.size() == 2) return 0;
    if (is_index_like_scalar(v->type)) {
      if (n == "mul" && (const_int(a) == int128(0) || const_int(b) == int128(0))) return 0;
      if (n == "add" || n == "sub" || n == "mul") {
        auto ca = coef(a), cb = coef(b);
        if (!ca || !cb) return std::nullopt;
        if (n == "add") return *ca + *cb;
        if (n == "sub") return *ca - *cb;
        if (*ca == 0 && *cb == 0) return 0;
        if (*ca == 0 && const_int(a)) return *const_int(a) * *cb;
        if (*cb == 0 && const_int(b)) return *ca * *const_int(b);
        return std::nullopt;
      }
      if (n == "neg") {
        auto ca = coef(a);
        if (ca) return -*ca;
        return std::nullopt;
      }
    }
    for (const Value* o : d->operands)
      if (coef(o) != int128(0)) return std::nullopt;
    return 0;
  }

  // The relation addresses the same elements for every point.
  bool same_for_every_point(const Value* rel) {
    if (!rel) return false;
    if (!dep.count(rel)) return true;
    if (!rel->def || rel->def->name != "relation") return false;
    for (const Value* o : rel->def->operands)
      if (coef(o) != int128(0)) return false;
    return true;
  }

  // Data flow to a fixed point (results of region ops may depend on values yielded inside).
  void propagate(const Region& body) {
    for (int round = 0; round < 64; ++round) {
      size_t before = dep.size();
      walk(body, [&](const Operation& op) {
        bool d = any_dep(op) || point_varying(op);
        for (const auto& sub : op.regions)
          for (const auto& inner : sub->ops)
            if (is_terminator(inner->name) && any_dep(*inner)) d = true;
        if (d) {
          for (const auto& r : op.results) dep.insert(r.get());
          if (any_dep(op))
            for (const auto& sub : op.regions)
              for (const auto& a : sub->args) dep.insert(a.get());
        }
      });
      if (dep.size() == before) break;
    }
  }

  void collect(const Region& body) {
    walk(body, [&](const Operation& op) {
      for (const auto& r : op.results) inside.insert(r.get());
      for (const auto& sub : op.regions)
        for (const auto& a : sub->args) inside.insert(a.get());
      if (is_plain_load(op.name) && operand(op, 0)) loaded.insert(operand(op, 0));
      if ((is_plain_store(op.name) || is_atomic_update(op.name)) && operand(op, 0)) written.insert(operand(op, 0));
      if (op.name == "call")
        for (const Value* v : op.operands)
          if (v && (v->type.is(TypeKind::View) || v->type.is(TypeKind::Buffer))) written.insert(v);
    });
  }

  void scan(const Region& r, bool conditional) {
    for (const auto& op : r.ops) {
      const std::string& n = op->name;
      const Value* dest = operand(*op, 0);
      const bool plain = is_plain_load(n) || is_plain_store(n);
      if ((plain || is_atomic_access(n)) && !conditional && dest && operand(*op, 1) && !inside.count(dest))
        accesses[dest].push_back({op.get(), !plain, is_plain_store(n) || is_atomic_update(n), false});
      if (is_plain_store(n) && !conditional) {
        const Value* rel = operand(*op, 1);
        if (dest && rel && !inside.count(dest) && same_for_every_point(rel)) {
          accesses[dest].back().reported = true;
          std::string where = "%" + dest->name;
          if (loaded.count(dest))
            cx.error(*op, "L5.1", "non-atomic read-modify-write of " + where +
                                      " inside parallel: every point reads and writes the same locations (the relation "
                                      "does not depend on the point coordinate); use atomic.rmw or scatter_reduce");
          else
            cx.error(*op, "L5.1", "write-write conflict inside parallel: every point stores to the same locations of " +
                                      where + " (the relation does not depend on the point coordinate)");
        }
      }
      bool inner_conditional = conditional;
      if (n == "while") inner_conditional = true;
      if ((n == "if" || n == "for" || n == "parallel") && any_dep(*op)) inner_conditional = true;
      for (const auto& sub : op->regions) scan(*sub, inner_conditional);
    }
  }

  // The first point of the parallel's domain when it is a constant (`domain(c, ...)`).
  std::optional<int128> first_point() const {
    const Value* d = operand(par, 0);
    if (!d || !d->def || d->def->name != "domain") return std::nullopt;
    return const_int(operand(*d->def, 0));
  }

  // Why atomic access `a` and plain access `p` (same destination, both unconditional) provably
  // touch one element for two different points; empty when not provable.
  std::string mixed_conflict(const Access& a, const Access& p) {
    const Value* ra = operand(*a.op, 1);
    const Value* rp = operand(*p.op, 1);
    if (!ra || !rp || !ra->type.is(TypeKind::Relation) || !rp->type.is(TypeKind::Relation) || ra->type.masked() ||
        rp->type.masked())
      return "";  // (an all-invalid mask touches nothing)
    const std::string dest = "%" + operand(*p.op, 0)->name;
    const std::string pverb = p.write ? "writes" : "reads";
    const std::string averb = a.write ? "atomically updates" : "atomically loads";
    const std::string aop = "'" + a.op->name + "' at " + a.op->loc.str();
    const std::string tail = "; atomic and plain accesses of one element by different points are unordered (make both atomic)";
    const bool ca = same_for_every_point(ra), cp = same_for_every_point(rp);
    if (ca && cp && same_value(ra, rp))
      return "atomic-plain conflict inside parallel: every point " + averb + " the same locations of " + dest + " (" +
             aop + ") and " + pverb + " them with a plain '" + p.op->name + "' (the relation does not depend on the point coordinate)" + tail;
    if (ca == cp || !ra->def || !rp->def || ra->def->name != "relation" || rp->def->name != "relation" ||
        ra->def->operands.size() != rp->def->operands.size())
      return "";
    // One relation is the same for every point, the other reaches that element at the first point.
    const auto first = first_point();
    if (!first) return "";
    const Operation& fixed = ca ? *ra->def : *rp->def;
    const Operation& moving = ca ? *rp->def : *ra->def;
    bool uses_point = false;
    for (size_t k = 0; k < fixed.operands.size(); ++k) {
      const Value* cf = fixed.operands[k];
      const Value* cm = moving.operands[k];
      if (cm == point && const_int(cf) == *first) uses_point = true;
      else if (!same_value(cf, cm)) return "";
    }
    if (!uses_point) return "";
    const std::string at = "point (" + int128_str(*first) + ")";
    if (ca)
      return "atomic-plain conflict inside parallel: " + at + " " + pverb + " with a plain '" + p.op->name +
             "' an element of " + dest + " that every point " + averb + " (" + aop + ")" + tail;
    return "atomic-plain conflict inside parallel: every point " + pverb + " the same locations of " + dest +
           " with a plain '" + p.op->name + "' and " + at + " " + averb + " one of them (" + aop + ")" + tail;
  }

  void check_mixed() {
    for (const auto& entry : accesses) {
      const std::vector<Access>& list = entry.second;
      for (const Access& p : list) {
        if (p.atomic || p.reported) continue;
        for (const Access& a : list) {
          if (!a.atomic || (!a.write && !p.write)) continue;  // two reads never conflict
          const std::string why = mixed_conflict(a, p);
          if (why.empty()) continue;
          cx.error(*p.op, "L5.1", why);
          break;
        }
      }
    }
  }
};

void check_parallel(Context& cx, const Operation& par) {
  if (par.regions.size() != 1 || par.regions[0]->args.empty()) return;  // malformed: its own check reports
  const Value* d = operand(par, 0);
  if (d && (d->type.is(TypeKind::Domain) || d->type.is(TypeKind::Subregion))) {
    auto c = d->type.extent().constant_value();
    if (c && *c <= 1) return;  // at most one point: nothing can conflict
  }
  Analysis a{cx, par};
  const Region& body = *par.regions[0];
  a.point = body.args[0].get();
  for (const auto& arg : body.args) {
    a.dep.insert(arg.get());
    a.inside.insert(arg.get());
  }
  a.collect(body);
  a.propagate(body);
  a.scan(body, false);
  a.check_mixed();
}

}  // namespace

void check_parallel_conflicts(Context& cx) {
  for (const auto& f : cx.module.functions) {
    cx.function = f.get();
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) {
      if (op.name == "parallel") check_parallel(cx, op);
    });
  }
  cx.function = nullptr;
}

}  // namespace kir::verify::core
