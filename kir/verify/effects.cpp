// Effects analysis of helpers: one walk over a helper body, following `call` and symbol attributes
// (combine = @f, ...) into other functions, each visited once (so recursion cannot loop here).
#include "kir/verify/effects.h"

#include <set>

#include "kir/op_registry.h"

namespace kir::verify {

namespace {

struct Walker {
  const Module& m;
  HelperEffects fx;
  std::set<const Function*> visited;

  void note(const Operation& op, const Function& where) {
    if (!fx.offender_op.empty()) return;
    fx.offender_op = op.name;
    fx.first_offender = op.loc;
    fx.offender_function = where.name;
  }

  void visit_symbol(const Operation& op, const Function& where, const std::string& sym) {
    const Function* g = m.find_function(sym);
    if (!g) return;  // an undefined symbol is reported by the op's own check
    if (g->is_kernel()) {
      fx.calls_kernel = true;
      note(op, where);
      return;
    }
    visit(*g);
  }

  void visit(const Function& f) {
    if (!visited.insert(&f).second) return;
    walk(f.body, [&](const Operation& op) {
      if (const OpInfo* info = find_op(op.name)) {
        switch (info->effect) {
          case Effect::Read: fx.reads = true; note(op, f); break;
          case Effect::Write: fx.writes = true; note(op, f); break;
          case Effect::Atomic: fx.atomics = true; note(op, f); break;
          case Effect::Random: fx.random = true; note(op, f); break;
          case Effect::Pure: case Effect::Control: case Effect::Call: break;
        }
      }
      for (const auto& [key, a] : op.attrs)
        if (a.kind == Attribute::Kind::Symbol) visit_symbol(op, f, a.s);
    });
  }
};

}  // namespace

std::string HelperEffects::describe(const std::string& helper_name) const {
  if (pure()) return "";
  std::string what = calls_kernel ? "launches a kernel" : "is not pure";
  std::string s = "helper @" + helper_name + " " + what + ": '" + offender_op + "'";
  if (!offender_function.empty() && offender_function != helper_name) s += " in @" + offender_function;
  if (first_offender.known()) s += " at " + first_offender.str();
  return s;
}

HelperEffects helper_effects(const Module& m, const Function& f) {
  Walker w{m, {}, {}};
  w.visit(f);
  return w.fx;
}

}  // namespace kir::verify
