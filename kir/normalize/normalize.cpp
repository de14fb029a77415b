// Normalization driver.
#include "kir/normalize/normalize.h"

#include "kir/op_registry.h"

namespace kir {

bool normalize_module(Module& m, Diagnostics& diags) {
  size_t before = diags.error_count();
  for (auto& f : m.functions)
    walk(f->body, [&](Operation& op) {
      const OpInfo* info = find_op(op.name);
      if (info && info->status == OpStatus::Surface)
        diags.error(op.loc, std::string(info->rule), "op '" + op.name + "': not implemented: normalization of this shorthand");
    });
  return diags.error_count() == before;
}

}  // namespace kir
