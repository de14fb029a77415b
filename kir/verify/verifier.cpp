// Verifier driver: module rules, then every op of every function through its family's check.
// Unknown and forbidden op names and surface forms are reported here (L19.1, L18.1, L6.3, L6.4;
// surface forms also L4.1, L4.2, L9.1, L9.5).
#include "kir/verify/verifier.h"

#include "kir/normalize/normalize.h"
#include "kir/op_registry.h"
#include "kir/verify/context.h"

namespace kir {

static const verify::OpTable& op_table() {
  static const verify::OpTable table = [] {
    verify::OpTable t;
    verify::register_value_ops(t);
    verify::register_domain_ops(t);
    verify::register_control_ops(t);
    verify::register_structured_ops(t);
    verify::register_memory_ops(t);
    return t;
  }();
  return table;
}

bool verify_module(const Module& m, Diagnostics& diags, const VerifyOptions& opts) {
  size_t before = diags.error_count();
  verify::Context cx(m, diags, opts);
  verify::verify_module_rules(cx);
  const auto& table = op_table();
  for (const auto& f : m.functions) {
    cx.function = f.get();
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) {
      const OpInfo* info = find_op(op.name);
      if (!info) {
        cx.error(op, "L19.1", "unknown op; it is not part of the Intent language");
        return;
      }
      if (info->status == OpStatus::Forbidden) {
        cx.error(op, std::string(info->rule), "not in the language: " + std::string(info->summary));
        return;
      }
      // Surface forms (one predicate with the normalizer and the loader, kir/normalize/normalize.h).
      // One the normalizer cannot rewrite (extents that do not broadcast) gets the op's own check.
      auto sf = surface_form(op);
      if (sf && (sf->problem.empty() || opts.allow_surface)) {
        if (opts.allow_surface) return;  // checked by the normalizer
        std::string msg = "surface form: " + sf->what + "; run `kir normalize` to obtain its canonical form";
        if (sf->rule == "L4.1") msg += " (or broadcast explicitly with broadcast(x) {dims = [...]})";
        return cx.error(op, sf->rule, msg);
      }
      auto it = table.find(op.name);
      if (it == table.end()) {
        cx.error(op, std::string(info->rule), "not implemented: verifier rule for this op");
        return;
      }
      it->second(op, cx);
    });
  }
  cx.function = nullptr;
  return diags.error_count() == before;
}

}  // namespace kir
