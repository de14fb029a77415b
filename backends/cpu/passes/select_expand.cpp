// Selection and expansion of structured computations (checklist C6, C7, C11, C12). Selection
// finds, for every Structured op, the implementations of its computation that apply; exactly
// one must (none or several is an error naming the op and every candidate's reason) and its
// name is written into the op (StructuredOp::implementation). Expansion replaces each bound
// op by its implementation's statements, which go on through the later passes and the
// verifier: nothing is left for the runtime to interpret. Invalidates: everything.
#include "backends/cpu/construct/builder.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/passes/pass.h"

namespace kir::cpu {
namespace {

std::string where(const Program& P, const Stmt& s) {
  if (s.op_id < 0) return "structured op";
  const auto& o = P.ops[static_cast<size_t>(s.op_id)];
  return o.location + ": `" + o.name + "`";
}

void run_select(Program& P) {
  walk_stmts(P.body.body, [&](Stmt& s) {
    if (s.kind != StmtKind::Structured) return;
    StructuredOp& st = *s.structured;
    std::vector<const Implementation*> ok;
    std::string reasons;
    for (const auto& impl : implementations()) {
      if (impl.computation != st.kind) continue;
      std::string why = impl.applicable(P, st);
      if (why.empty()) ok.push_back(&impl);
      else reasons += "\n  " + impl.name + ": " + why;
    }
    if (ok.size() == 1) {
      st.implementation = ok[0]->name;
      return;
    }
    if (ok.empty())
      throw BackendError(where(P, s) + ": error[backend]: not implemented: no implementation of " + st.kind +
                         " applies on the CPU backend" + reasons);
    std::string names;
    for (const auto* i : ok) names += " " + i->name;
    throw BackendError(where(P, s) + ": error[backend]: several implementations of " + st.kind + " apply:" + names);
  });
}

void expand_list(Program& P, std::vector<StmtP>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    if (s.kind == StmtKind::Structured) {
      const Implementation* impl = find_implementation(s.structured->implementation);
      if (!impl) throw BackendError(where(P, s) + ": internal: structured op expanded before selection");
      auto repl = impl->expand(P, s);
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
      list.insert(list.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(repl.begin()),
                  std::make_move_iterator(repl.end()));
      --i;
      continue;
    }
    expand_list(P, s.body);
    expand_list(P, s.orelse);
  }
}

}  // namespace

Pass select_pass() {
  return {"select", "Structured ops without a binding", {}, run_select};
}

Pass expand_pass() {
  return {"expand", "every Structured op bound to an implementation", {"buffer uses", "lifetimes", "loops"},
          [](Program& P) { expand_list(P, P.body.body); }};
}

}  // namespace kir::cpu
