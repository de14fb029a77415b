// Verifier driver: module rules, then every op of every function through its family's check.
// Unknown, surface and forbidden op names are reported here (L19.1, L18.1, L6.3, L6.4).
#include "kir/verify/verifier.h"

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
      if (info->status == OpStatus::Surface && !opts.allow_surface) {
        cx.error(op, "L19.1", "surface shorthand; run `kir normalize` to obtain its canonical form (" +
                                  std::string(info->summary) + ")");
        return;
      }
      auto it = table.find(op.name);
      if (it == table.end()) {
        if (info->status == OpStatus::Surface) return;  // checked by the normalizer
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
