// Provable conflicts between the points of a `parallel` (seed 000 §5, L5.1). Points run once
// each, in no order; conflicting non-atomic, non-reduction effects are illegal. Statically
// provable case: a store (view.store, buffer.store, unique_store) to memory that lives outside
// the body, executed unconditionally by every point, whose relation does not depend on the
// point coordinate (no data-flow path from the region argument): every point writes the same
// locations. If the body also loads from that destination it is a non-atomic read-modify-write.
// Stores under a point-dependent if/for/while, or through a point-dependent relation, are not
// provably conflicting and are left to the interpreter; atomics and scatter_reduce never conflict.
#include <set>

#include "kir/op_registry.h"
#include "kir/verify/core_rules.h"
#include "kir/verify/core_util.h"

namespace kir::verify::core {

namespace {

struct Analysis {
  Context& cx;
  const Operation& par;
  std::set<const Value*> dep;      // values depending on the point coordinate
  std::set<const Value*> inside;   // values defined inside the body
  std::set<const Value*> loaded;   // destinations loaded from inside the body

  bool any_dep(const Operation& op) const {
    for (const Value* v : op.operands)
      if (dep.count(v)) return true;
    return false;
  }

  // Data flow to a fixed point (results of region ops may depend on values yielded inside).
  void propagate(const Region& body) {
    for (int round = 0; round < 64; ++round) {
      size_t before = dep.size();
      walk(body, [&](const Operation& op) {
        bool d = any_dep(op);
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
      if ((op.name == "view.load" || op.name == "buffer.load") && operand(op, 0)) loaded.insert(operand(op, 0));
    });
  }

  void scan(const Region& r, bool conditional) {
    for (const auto& op : r.ops) {
      const std::string& n = op->name;
      if ((n == "view.store" || n == "buffer.store" || n == "unique_store") && !conditional) {
        const Value* dest = operand(*op, 0);
        const Value* rel = operand(*op, 1);
        if (dest && rel && !inside.count(dest) && !dep.count(rel)) {
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
};

void check_parallel(Context& cx, const Operation& par) {
  if (par.regions.size() != 1 || par.regions[0]->args.empty()) return;  // malformed: its own check reports
  const Value* d = operand(par, 0);
  if (d && (d->type.is(TypeKind::Domain) || d->type.is(TypeKind::Subregion))) {
    auto c = d->type.extent().constant_value();
    if (c && *c <= 1) return;  // at most one point: nothing can conflict
  }
  Analysis a{cx, par, {}, {}, {}};
  const Region& body = *par.regions[0];
  for (const auto& arg : body.args) {
    a.dep.insert(arg.get());
    a.inside.insert(arg.get());
  }
  a.propagate(body);
  a.collect(body);
  a.scan(body, false);
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
