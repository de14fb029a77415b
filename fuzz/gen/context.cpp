// See context.h.
#include "fuzz/gen/context.h"

#include <algorithm>

#include "fuzz/gen/families.h"

namespace kir::fuzz {

Ctx::Ctx(const GenOptions& o) : opt(o), dtypes(o.dtypes.empty() ? all_dtypes() : o.dtypes) {
  for (const auto& f : family_table()) weights[f.name] = f.weight;
  for (const auto& [k, w] : o.family_weights)
    if (weights.count(k)) weights[k] = w;
  if (!o.allow_atomics) weights["atomic"] = weights["scatter"] = 0;
}

void Ctx::family(const std::string& f) {
  if (std::find(families.begin(), families.end(), f) == families.end()) families.push_back(f);
}

std::string Ctx::helper_name(const std::string& base) { return "@" + base + std::to_string(counter_++); }
std::string Ctx::param_name(const char* base) { return "%" + std::string(base) + std::to_string(counter_++); }

int64_t Ctx::numel(const FnBuilder& fb, const Shape& s) const {
  int64_t n = 1;
  for (const auto& e : s) {
    int64_t v = e.eval(fb.atoms);
    if (v > 0 && n > (int64_t{1} << 40) / v) return int64_t{1} << 40;
    n *= v;
  }
  return n;
}

bool Ctx::fits(const FnBuilder& fb, const Shape& s) const { return numel(fb, s) <= opt.max_elements; }

bool Ctx::allowed(DType d) const { return std::find(dtypes.begin(), dtypes.end(), d) != dtypes.end(); }

}  // namespace kir::fuzz
