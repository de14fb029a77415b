// Normalization driver (seed 000 §19; L19.1): walks every function that existed before the pass
// (generated helpers are canonical already), children before parents, and hands each surface
// form (surface.cpp: shorthand ops, implicit pointwise broadcast, region ops without segments) to
// its family. Canonical ops are left untouched. See docs/normalization.md for every form.
#include "kir/normalize/normalize.h"

#include <map>

#include "kir/normalize/families.h"
#include "kir/op_registry.h"

namespace kir {
namespace {

using normalize::Rewriter;
using Family = bool (*)(Rewriter&);

const std::map<std::string, Family, std::less<>>& surface_families() {
  static const std::map<std::string, Family, std::less<>> t = {
      {"matmul", normalize::normalize_contract},
      {"dot", normalize::normalize_contract},
      {"matvec", normalize::normalize_contract},
      {"vecmat", normalize::normalize_contract},
      {"outer", normalize::normalize_outer},
      {"reduce.sum", normalize::normalize_reduce},
      {"reduce.max", normalize::normalize_reduce},
      {"reduce.any", normalize::normalize_reduce},
      {"reduce.all", normalize::normalize_reduce},
      {"arg_reduce.max", normalize::normalize_arg_reduce},
      {"cumsum", normalize::normalize_scan},
      {"cummax", normalize::normalize_scan},
      {"zeros", normalize::normalize_zeros},
      {"scaled_matmul", normalize::normalize_scaled_sparse},
      {"sparse_matmul", normalize::normalize_scaled_sparse},
      {"sparse_contract_2to4", normalize::normalize_scaled_sparse},
  };
  return t;
}

void process(Rewriter& rw, Region& r, int depth) {
  if (depth > 1000) return;  // the parser bounds nesting far below this
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(r.ops.size()); ++i) {
    Operation* op = r.ops[static_cast<size_t>(i)].get();
    for (auto& sub : op->regions) process(rw, *sub, depth + 1);
    auto before = static_cast<std::ptrdiff_t>(r.ops.size());
    if (is_canonical(*op)) continue;
    rw.begin(*op);
    const OpInfo* info = find_op(op->name);
    bool ok = true;
    if (info && info->status == OpStatus::Surface) {
      auto it = surface_families().find(op->name);
      if (it == surface_families().end())
        ok = rw.fail(std::string(info->rule), "not implemented: normalization of this shorthand");
      else
        ok = it->second(rw);
    } else if (op->name == "region_scan" || op->name == "region_fold") {
      ok = normalize::normalize_region_surface(rw);
    } else {
      ok = normalize::normalize_pointwise(rw);
    }
    if (!ok) rw.abandon();
    i += static_cast<std::ptrdiff_t>(r.ops.size()) - before;
  }
}

}  // namespace

bool normalize_module(Module& m, Diagnostics& diags) {
  size_t before = diags.error_count();
  size_t n = m.functions.size();
  for (size_t i = 0; i < n; ++i) {
    Function& f = *m.functions[i];
    Rewriter rw(m, f, diags);
    process(rw, f.body, 0);
  }
  return diags.error_count() == before;
}

}  // namespace kir
