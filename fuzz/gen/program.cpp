// Building one case from its plan: extent symbols and their values, the initial inputs that
// declare every symbol, the top-level steps, stores of the values nothing consumed (so the
// whole dataflow is observable in Out views), input data, and the module text.
#include "fuzz/gen/context.h"
#include "fuzz/gen/families.h"
#include "fuzz/gen/inputs.h"
#include "fuzz/gen/plan.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

std::string module_text(const Ctx& c, const std::map<std::string, int64_t>& dims) {
  std::string t;
  for (const auto& h : c.helpers) t += h + "\n";
  t += "kernel @fuzz(";
  for (size_t i = 0; i < c.params.size(); ++i) t += (i ? ", " : "") + c.params[i];
  t += ")";
  if (!dims.empty()) {
    t += " invocation {";
    bool first = true;
    for (const auto& [k, v] : dims) t += (first ? "" : ", ") + k + " = " + std::to_string(v), first = false;
    t += "}";
  }
  t += " {\n";
  for (const auto& l : c.kernel.lines) t += l + "\n";
  return t + "}\n";
}

}  // namespace

GeneratedCase build_case(const Plan& p, const GenOptions& o) {
  Ctx c(o);
  FnBuilder& k = c.kernel;
  static const char* const kSymbols[] = {"M", "N", "K"};
  const uint32_t nsym = 1 + p.symbols % 3;
  GeneratedCase gc;
  gc.kernel = "fuzz";
  for (uint32_t i = 0; i < nsym; ++i) {
    const std::string s = kSymbols[i];
    const int64_t v = extent_value(i < p.dims.size() ? p.dims[i] : 0, p.size, o.max_extent);
    k.atoms[s] = v;
    gc.dims[s] = v;
    c.symbols.push_back(s);
    k.extents.push_back(Ext::atom(s));
    k.extents.push_back(Ext::atom(s));
    if (v == 0) c.family("extent.zero");
  }
  // Static extents: small ones, and one around a vector width.
  Rng r(p.skeleton);
  for (int64_t v : {1, 2, 3, 4, 8}) k.extents.push_back(Ext::constant(v));
  k.extents.push_back(Ext::constant(r.pick({5, 7, 9, 15, 16, 17, 31, 33})));

  // Initial inputs: together they declare every extent symbol.
  std::vector<Shape> initial;
  const Ext M = Ext::atom("M");
  if (nsym == 1) initial.push_back(r.chance(0.5) ? Shape{M} : Shape{M, Ext::constant(r.range(1, 4))});
  else initial.push_back({M, Ext::atom("N")});
  if (nsym == 3) initial.push_back(r.chance(0.5) ? Shape{Ext::atom("K")} : Shape{Ext::atom("K"), Ext::atom("N")});
  for (const auto& s : initial) new_input(c, k, r, VType::of(random_dtype(c, r, [](DType) { return true; }), s));

  const size_t nsteps = std::min(p.steps.size(), static_cast<size_t>(std::max(1, o.max_ops)));
  for (size_t i = 0; i < nsteps; ++i) {
    Rng sr(p.steps[i].seed ^ mix64(i + 1));
    run_family(c, k, sr, p.steps[i].family);
  }

  // Store what nothing consumed (newest first, at most six values).
  std::vector<PoolValue> sinks;
  for (const auto& v : k.visible())
    if (v.uses == 0) sinks.push_back(v);
  for (size_t i = 0; i < sinks.size() && i < 6; ++i) {
    const PoolValue& v = sinks[sinks.size() - 1 - i];
    store_out(c, k, r, v.name, v.type);
  }
  bool has_output = false;
  for (const auto& v : c.views) has_output = has_output || v.access != Access::In;
  if (!has_output) {
    const auto vis = k.visible();
    store_out(c, k, r, vis.back().name, vis.back().type);
  }

  fill_inputs(c.inputs, p.data, o.special_rate, c.recipes);
  gc.kir = module_text(c, gc.dims);
  gc.inputs = std::move(c.inputs);
  gc.families = std::move(c.families);
  return gc;
}

}  // namespace kir::fuzz
