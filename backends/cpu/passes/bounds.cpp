// Bounds facts (checklist C8): a checked load of a view inside a Compute whose index along every
// axis is one of the Compute's coordinates running over exactly the view's declared extent of
// that axis cannot leave the view — the entry checks of construction establish that the call's
// extents equal the declared ones (Buffer::extent_checked). Such a load loses its check: the
// copy of a view, a pointwise chain over views and the packing of a contract's operands then
// read plainly, and the C++ compiler can vectorize them. Every other load keeps its check. A
// store through the identity relation over the view's declared extents becomes the dense form
// (destination buf[coords]), whose store needs no check either.
// Run after each fusion (fusion forwards the unchecked value into consumers' loops).
// Invalidates: nothing.
#include "backends/cpu/passes/pass.h"

namespace kir::cpu {

bool spans_view_axis(const Program& P, const Stmt& c, size_t coord, BufId view, size_t axis) {
  const Buffer& V = P.buf(view);
  return V.kind == BufKind::View && axis < V.extent_checked.size() && V.extent_checked[axis] && coord < c.extents.size() &&
         same_expr(*c.extents[coord], *V.shape[axis]);
}

namespace {

bool inside(const Program& P, const Stmt& c, const Expr& load) {
  const Buffer& B = P.buf(load.buf);
  if (B.kind != BufKind::View || load.args.size() != B.shape.size()) return false;
  for (size_t a = 0; a < B.shape.size(); ++a) {
    const Expr& i = *load.args[a];
    if (i.kind != ExprKind::Var) return false;
    size_t j = 0;
    while (j < c.coords.size() && c.coords[j] != i.var) ++j;
    if (!spans_view_axis(P, c, j, load.buf, a)) return false;
  }
  return true;
}

ExprP drop_checks(const Program& P, const Stmt& c, const ExprP& e) {
  if (!e) return e;
  bool changed = false;
  std::vector<ExprP> args;
  for (const auto& a : e->args) {
    args.push_back(drop_checks(P, c, a));
    changed |= args.back() != a;
  }
  const bool unchecked = e->kind == ExprKind::Load && e->op_id >= 0 && inside(P, c, *e);
  if (!changed && !unchecked) return e;
  auto n = std::make_shared<Expr>(*e);
  n->args = std::move(args);
  if (unchecked) n->op_id = kNone;
  return n;
}

// A store through the identity relation into a view, over exactly its declared extents: the
// dense form (destination buf[coords]), whose store needs no check.
bool identity_store(const Program& P, const Stmt& s) {
  if (s.index.empty() || s.index.size() != s.coords.size() || P.buf(s.buf).shape.size() != s.index.size()) return false;
  for (size_t k = 0; k < s.index.size(); ++k)
    if (s.index[k]->kind != ExprKind::Var || s.index[k]->var != s.coords[k] || !spans_view_axis(P, s, k, s.buf, k))
      return false;
  return true;
}

}  // namespace

void prove_bounds(Program& P) {
  walk_stmts(P.body.body, [&](Stmt& s) {
    if (s.kind != StmtKind::Compute) return;
    s.value = drop_checks(P, s, s.value);
    s.guard = drop_checks(P, s, s.guard);
    if (identity_store(P, s)) s.index.clear();
  });
}

Pass bounds_pass() {
  return {"bounds", "views' declared extents checked on entry", {}, prove_bounds};
}

}  // namespace kir::cpu
