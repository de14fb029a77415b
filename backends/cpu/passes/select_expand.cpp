// Selection and expansion of structured computations (checklist C6, C7, C11, C12). Selection
// takes a config row (impl/config.h): for every Structured op exactly one member of the row's
// implementation set must apply — its capability present, every parameter given by the row and
// inside its domain, its own applicability holding — or the row is rejected with the reason.
// The accepted row's binding (implementation and parameter values) is written into the op
// (StructuredOp::implementation, params) and recorded in Program::bindings. Expansion replaces each bound
// op by its implementation's statements, which go on through the later passes and the
// verifier: nothing is left for the runtime to interpret. Invalidates: everything.
#include "backends/cpu/construct/builder.h"
#include "backends/cpu/impl/config.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/runtime/capabilities.h"
#include "backends/cpu/passes/pass.h"
#include "kir/rules/rule.h"

namespace kir::cpu {
namespace {

std::string where(const Program& P, const Stmt& s) {
  if (s.op_id < 0) return "structured op";
  const auto& o = P.ops[static_cast<size_t>(s.op_id)];
  return o.location + ": `" + o.name + "`";
}

// The bindings a row gives the program, or why the row is rejected.
struct RowResult {
  std::vector<std::pair<Stmt*, Program::Binding>> bind;
  std::string rejected;
};

RowResult try_row(Program& P, const ConfigRow& row) {
  RowResult r;
  const auto& caps = rt::host_capabilities().names();
  walk_stmts(P.body.body, [&](Stmt& s) {
    if (s.kind != StmtKind::Structured || !r.rejected.empty()) return;
    StructuredOp& st = *s.structured;
    std::vector<std::pair<const Implementation*, std::vector<std::pair<std::string, int64_t>>>> ok;
    std::string reasons;
    for (const std::string& n : row.implementations) {
      const Implementation* impl = find_implementation(n);
      if (!impl || impl->computation != st.kind) continue;
      std::string why;
      if (!impl->capability.empty() && std::find(caps.begin(), caps.end(), impl->capability) == caps.end())
        why = "needs " + impl->capability + ", which this CPU does not have";
      std::vector<std::pair<std::string, int64_t>> params;
      for (const auto& d : impl->params) {
        if (!why.empty()) break;
        const int64_t* v = row.value(d.name);
        if (!v) why = "the row gives no value for its parameter " + d.name;
        else if (!d.contains(*v))
          why = "parameter " + d.name + " = " + std::to_string(*v) + " is outside " + std::to_string(d.lo) + ".." +
                std::to_string(d.hi) + (d.step > 1 ? " step " + std::to_string(d.step) : "");
        else params.emplace_back(d.name, *v);
      }
      if (why.empty()) {
        auto saved = st.params;
        st.params = params;
        why = impl->applicable(P, st);
        st.params = saved;
      }
      if (why.empty()) ok.emplace_back(impl, params);
      else reasons += "\n      " + impl->name + ": " + why;
    }
    if (ok.size() == 1) {
      r.bind.push_back({&s, {s.op_id, ok[0].first->name, ok[0].second, ok[0].first->order}});
      return;
    }
    if (ok.empty()) {
      r.rejected = where(P, s) + ": no member of its implementation set realizes this " + st.kind +
                   (reasons.empty() ? " (the set has no " + st.kind + " implementation)" : reasons);
      return;
    }
    std::string names;
    for (const auto& [i, _] : ok) names += " " + i->name;
    r.rejected = where(P, s) + ": several members of its implementation set apply to this " + st.kind + ":" + names;
  });
  return r;
}

// The policy: the row named by the program (a forced row or a tuned winner), otherwise the
// first row of the active table that is not rejected. A rejected forced row is an error; no
// row is ever exchanged for another after a compile or run failure.
void run_select(Program& P) {
  const ConfigTable& table = active_config();
  std::vector<const ConfigRow*> rows;
  if (!P.config_row.empty()) {
    const ConfigRow* r = table.find(P.config_row);
    if (!r) throw BackendError("error[config]: no config row named `" + P.config_row + "` in " + table.source + rules::explain_hint("config"));
    rows.push_back(r);
  } else {
    for (const auto& r : table.rows) rows.push_back(&r);
  }
  std::string reasons;
  for (const ConfigRow* row : rows) {
    RowResult res = try_row(P, *row);
    if (!res.rejected.empty()) {
      reasons += "\n  row `" + row->name + "` (" + row->where + ") is rejected:\n    " + res.rejected;
      continue;
    }
    for (auto& [s, b] : res.bind) {
      s->structured->implementation = b.implementation;
      s->structured->params = b.params;
      P.bindings.push_back(b);
    }
    P.config_row = row->name;
    P.task_grain = *row->value("task_m");
    return;
  }
  throw RowRejected("@" + P.kernel + ": error[backend]: not implemented: no config row of " + table.source +
                     " gives every computation of the kernel exactly one applicable implementation" + reasons + rules::explain_hint("backend"));
}

void expand_list(Program& P, std::vector<StmtP>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    if (s.kind == StmtKind::Structured) {
      const Implementation* impl = find_implementation(s.structured->implementation);
      if (!impl) throw BackendError(where(P, s) + ": internal: structured op expanded before selection");
      auto repl = impl->expand(P, s);
      // Coverage (driver/coverage.h): the implementation in its config row, and its dtypes.
      const StructuredOp& st = *s.structured;
      std::string dts;
      for (BufId b : st.operands) dts += (dts.empty() ? "" : "x") + std::string(name(P.buf(b).dtype));
      repl.insert(repl.begin(), make_cover(P, {"impl:" + st.implementation + "@" + P.config_row}));
      repl.insert(repl.begin() + 1, make_cover(P, {"dtype:" + st.implementation + ":" + dts + "->" + std::string(name(st.acc))}));
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
