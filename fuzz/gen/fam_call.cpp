// Call and RNG families: a helper generated for the call site (parameters generalized to its own
// extent symbols, sometimes a constexpr flag, a random pure body, one or two results) called
// with `call`; random.bits / random.uniform from a u64 seed and index or u64 counters.
#include "fuzz/gen/families.h"
#include "fuzz/gen/helpers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {

bool fam_call(Ctx& c, FnBuilder& fb, Rng& r) {
  std::vector<PoolValue> args;
  for (int i = 0, n = static_cast<int>(r.range(1, 3)); i < n; ++i)
    if (auto v = pick(fb, r, [](const VType&) { return true; })) args.push_back(*v);
  if (args.empty()) return false;
  std::vector<VType> types;
  for (const auto& a : args) types.push_back(a.type);
  const Generalized g = generalize(fb, types);
  FnBuilder h(false);
  h.atoms = g.atoms;
  h.extents = g.symbols;
  for (int64_t k : {1, 2, 4}) h.extents.push_back(Ext::constant(k));
  std::vector<HelperParam> params;
  std::string call_args;
  for (size_t i = 0; i < args.size(); ++i) {
    params.push_back({"%x" + std::to_string(i), g.types[i].str()});
    h.add(params.back().name, g.types[i], true);
    call_args += (i ? ", " : "") + args[i].name;
  }
  if (r.chance(0.3)) {  // a constexpr flag the body may branch on
    const bool flag = r.chance(0.5);
    params.push_back({"%flag", "bool", true});
    h.add("%flag", VType::scalar(DType::Bool), true);
    call_args += ", " + const_scalar(fb, DType::Bool, flag ? 1 : 0);
    c.family("call.constexpr");
  }
  run_steps(c, h, r, static_cast<int>(r.range(1, 4)));
  // One or two results, preferring values computed in the body.
  std::vector<PoolValue> pool = h.visible(), results;
  for (int i = 0, n = static_cast<int>(r.range(1, 2)); i < n; ++i) results.push_back(pool[pool.size() - 1 - r.below(std::min<size_t>(pool.size(), 3))]);
  std::vector<std::string> rtypes, rnames, names;
  std::vector<VType> site_types;
  for (const auto& v : results) {
    rtypes.push_back(v.type.str());
    rnames.push_back(v.name);
    VType st = v.type;
    for (auto& e : st.shape) e = e.subst(g.call_site);
    site_types.push_back(st);
    names.push_back(fb.fresh());
  }
  const std::string callee = c.helper_name("helper");
  add_helper(c, callee, params, rtypes, h.lines, rnames);
  std::string lhs, tt;
  for (size_t i = 0; i < names.size(); ++i) {
    lhs += (i ? ", " : "") + names[i];
    tt += (i ? ", " : "") + site_types[i].str();
  }
  fb.line(lhs + " = call(" + call_args + ") {callee = " + callee + "} : " + (names.size() == 1 ? tt : "(" + tt + ")"));
  for (size_t i = 0; i < names.size(); ++i) fb.add(names[i], site_types[i]);
  return true;
}

bool fam_random(Ctx& c, FnBuilder& fb, Rng& r) {
  const std::string seed = get(c, fb, r, VType::scalar(DType::U64));
  std::string ctr;
  Shape s;
  if (r.chance(0.2)) {
    ctr = get(c, fb, r, VType::scalar(DType::U64));
  } else if (auto v = pick(fb, r, [](const VType& t) { return t.rank() >= 1 && t.dt == DType::U64; }); v && r.chance(0.5)) {
    ctr = v->name;
    s = v->type.shape;
  } else {
    const Ext e = random_ext(c, fb, r);
    ctr = iota(c, fb, e);
    s = {e};
  }
  const bool bits = r.chance(0.5);
  const DType d = bits ? DType::U32 : random_dtype(c, r, is_float);
  const VType t = s.empty() ? VType::scalar(d) : VType::of(d, s);
  fb.def(std::string(bits ? "random.bits(" : "random.uniform(") + seed + ", " + ctr + ")", t);
  c.family(bits ? "random.bits" : "random.uniform");
  return true;
}

}  // namespace kir::fuzz
