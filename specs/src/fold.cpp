// Folding decided conditionals and boolean operands (see fold.h).
#include "specs/src/fold.h"

namespace kir::specs {
namespace {

// The truth value of `e` at `env`, or nothing when it reads an unknown name or fails.
std::optional<bool> decided(const Expr& e, const Env& env) {
  try {
    return eval(e, env).truthy();
  } catch (const EvalError&) {
    return std::nullopt;
  }
}

}  // namespace

ExprPtr fold_decided(const ExprPtr& e, const Env& env) {
  if (!e) return e;
  if (e->k == Expr::K::IfExp) {
    if (auto t = decided(*e->kids[1], env)) return fold_decided(*t ? e->kids[0] : e->kids[2], env);
  }
  if (e->k == Expr::K::BoolOp) {
    // Operands after the first one that decides the whole (false for `and`, true for `or`)
    // are never evaluated; operands decided the other way do not change the result.
    const bool stop_on = e->s == "or";
    std::vector<ExprPtr> live;
    for (const auto& k : e->kids) {
      auto v = decided(*k, env);
      if (v && *v == stop_on) {
        if (live.empty()) return k;
        live.push_back(k);
        break;
      }
      if (v) continue;
      live.push_back(fold_decided(k, env));
    }
    if (live.empty()) return e->kids.back();  // every operand decided the neutral way
    if (live.size() == 1) return live[0];
    auto c = std::make_shared<Expr>(*e);
    c->kids = live;
    return c;
  }
  auto c = std::make_shared<Expr>(*e);
  bool changed = false;
  for (auto& k : c->kids) {
    auto n = fold_decided(k, env);
    if (n != k) {
      k = n;
      changed = true;
    }
  }
  return changed ? c : e;
}

}  // namespace kir::specs
