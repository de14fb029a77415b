// The predicate "is this op canonical" (normalize.h): the one list of surface forms, used by the
// normalizer, the loader (kir/load.cpp) and the verifier.
#include "kir/normalize/families.h"
#include "kir/normalize/normalize.h"
#include "kir/op_registry.h"

namespace kir {

namespace {

// region_fold(%x, %id) / region_scan(%x, %id, %s0) without `segments`: the only region spelling
// whose segments are implied (one source, no operands).
bool region_without_segments(const Operation& op) {
  if (op.name != "region_fold" && op.name != "region_scan") return false;
  return !op.attr("segments") && op.operands.size() == (op.name == "region_scan" ? 3u : 2u);
}

}  // namespace

std::optional<SurfaceForm> surface_form(const Operation& op) {
  const OpInfo* info = find_op(op.name);
  if (info && info->status == OpStatus::Surface)
    return SurfaceForm{"L19.1", "shorthand '" + op.name + "' (" + std::string(info->summary) + ")", ""};
  if (normalize::needs_pointwise_broadcast(op)) {
    std::string rule, why, shapes;
    for (const Value* v : op.operands) shapes += (shapes.empty() ? "" : ", ") + normalize::type_str(v->type);
    auto shape = normalize::pointwise_broadcast_shape(op, rule, why);
    if (!shape) return SurfaceForm{rule, "implicit broadcast of " + shapes, why};
    return SurfaceForm{"L4.1", "implicit broadcast of " + shapes + " to shape " + shape_str(*shape), ""};
  }
  if (region_without_segments(op)) {
    bool scan = op.name == "region_scan";
    return SurfaceForm{scan ? "L9.5" : "L9.1",
                       op.name + " without 'segments' (implied " + (scan ? "[1, 1, 1, 0]" : "[1, 1, 0]") +
                           "; a degenerate form becomes an ordinary " + (scan ? "scan" : "reduce") + ", L9.6)",
                       ""};
  }
  return std::nullopt;
}

bool needs_normalization(const Module& m) {
  bool found = false;
  for (const auto& f : m.functions)
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) { found = found || !is_canonical(op); });
  return found;
}

}  // namespace kir
