// Hoisting of loop invariants (checklist C5): in an innermost loop whose body is one store, each
// largest subexpression of the stored value that the loop does not change — it mentions neither
// the loop variable nor the buffer the loop writes, and cannot fault — is computed once into a
// `let` before the loop (a per-row mean or scale read at every column). Left inside, the C++
// compiler hoists it itself, together with the branch of its NaN canonicalization, and GCC's
// partial-redundancy elimination then gives the loop a shape its vectorizer refuses ("control
// flow in loop"): layer-norm's normalization ran scalar once its passes were row-fused. Same
// values, computed once (and only when the loop runs at all: with no iteration its loads may lie
// outside their buffers). Runs after row fusion, before the task partition. Invalidates: nothing.
#include "backends/cpu/passes/pass.h"

namespace kir::cpu {
namespace {

struct Hoister {
  Program& P;
  const Stmt& loop;
  const Stmt& store;
  std::vector<std::pair<ExprP, VarId>> lets;  // hoisted values, in order

  bool invariant(const Expr& e) const {
    return !mentions_var(e, loop.var) && !reads_buffer(e, store.buf) && !may_fault(e) && e.kind != ExprKind::Random;
  }
  // Worth a let: it computes something (not a leaf, a plain load or a cast of one).
  static bool computes(const Expr& e) {
    if (e.args.empty() || e.kind == ExprKind::Load) return false;
    if (e.kind == ExprKind::Cast) return computes(*e.args[0]);
    return true;
  }
  ExprP rewrite(const ExprP& e) {
    if (invariant(*e)) {
      if (!computes(*e) || e->dtype == DType::Index) return e;
      for (const auto& [v, var] : lets)
        if (same_expr(*v, *e)) return make_var(var, e->dtype);
      const VarId var = P.add_var("inv", e->dtype, VarRole::Let);
      lets.emplace_back(e, var);
      return make_var(var, e->dtype);
    }
    bool changed = false;
    std::vector<ExprP> args;
    for (const auto& a : e->args) {
      args.push_back(rewrite(a));
      changed |= args.back() != a;
    }
    if (!changed) return e;
    auto c = std::make_shared<Expr>(*e);
    c->args = std::move(args);
    return c;
  }
};

void hoist_list(Program& P, std::vector<StmtP>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    hoist_list(P, s.body);
    hoist_list(P, s.orelse);
    if (s.kind != StmtKind::Loop || s.body.size() != 1 || s.body[0]->kind != StmtKind::Store) continue;
    Stmt& st = *s.body[0];
    if (!st.value || st.guard) continue;
    Hoister h{P, s, st, {}};
    st.value = h.rewrite(st.value);
    for (auto& [value, var] : h.lets) {
      auto let = make_stmt(StmtKind::Let, s.op_id);
      let->var = var;
      // Only when the loop runs: with no iteration its loads may lie outside their buffers.
      let->value = make_select(make_compare("lt", s.lo, s.hi), value, make_const(value->dtype, 0));
      list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), std::move(let));
      ++i;
    }
  }
}

}  // namespace

Pass hoist_pass() {
  return {"hoist", "loops formed, before the task partition", {}, [](Program& P) { hoist_list(P, P.body.body); }};
}

}  // namespace kir::cpu
