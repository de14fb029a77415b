// Control families: `for` over a static or dynamic domain with carries (sometimes leaving early
// through break/continue under an `if`), `while` with a counter and a carry, and `if` with
// results. Bodies are generated steps of their own; at most two regions deep.
#include "fuzz/gen/families.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

const VType kIndex = VType::scalar(DType::Index);

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

std::string types_text(const std::vector<VType>& ts) {
  if (ts.size() == 1) return ts[0].str();
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ts[i].str();
  return s + ")";
}

// The values a region yields for `types`: the newest value of each type defined in the current
// region (other than the region's own arguments when possible), else any value of the type.
std::vector<std::string> yields(Ctx& c, FnBuilder& fb, Rng& r, const std::vector<VType>& types) {
  std::vector<std::string> out;
  const auto here = fb.current_scope();
  for (const auto& t : types) {
    std::string v;
    for (const auto& p : here)
      if (p.type == t && r.chance(0.8)) v = p.name;
    if (v.empty()) v = get(c, fb, r, t);
    fb.use(v);
    out.push_back(v);
  }
  return out;
}

std::vector<VType> carry_types(Ctx& c, FnBuilder& fb, Rng& r, int n, std::vector<std::string>& inits) {
  std::vector<VType> ts;
  for (int i = 0; i < n; ++i) {
    auto v = pick(fb, r, [&](const VType& t) { return c.numel(fb, t.shape) <= 4096; });
    if (!v) {
      VType t = r.chance(0.5) ? VType::scalar(random_dtype(c, r, is_compute)) : random_tensor_type(c, fb, r, is_compute, 1);
      v = PoolValue{get(c, fb, r, t), t, 1};
    }
    ts.push_back(v->type);
    inits.push_back(v->name);
  }
  return ts;
}

// A branch computes its results from values of their types (most of the time).
void update(Ctx& c, FnBuilder& fb, Rng& r, const std::vector<VType>& ts) {
  for (const auto& t : ts)
    if (r.chance(0.6)) pointwise_on(c, fb, r, {get(c, fb, r, t), t, 0});
}

// A small trip count: a constant 0..4 or a dynamic extent of value <= 17.
Ext trip_extent(Ctx& c, FnBuilder& fb, Rng& r) {
  std::vector<Ext> dyn;
  for (const auto& e : fb.extents)
    if (!e.is_const() && c.value_of(fb, e) <= 17) dyn.push_back(e);
  if (!dyn.empty() && r.chance(0.5)) return r.pick(dyn);
  return Ext::constant(r.range(0, 4));
}

}  // namespace

bool fam_for(Ctx& c, FnBuilder& fb, Rng& r) {
  if (fb.depth() >= 2) return false;
  const Ext e = trip_extent(c, fb, r);
  const std::string dom = domain_of(c, fb, e);
  std::vector<std::string> inits;
  const std::vector<VType> ts = carry_types(c, fb, r, static_cast<int>(r.range(1, 2)), inits);
  std::vector<std::string> res, args;
  for (size_t i = 0; i < ts.size(); ++i) res.push_back(fb.fresh()), args.push_back(fb.fresh());
  const std::string iv = fb.fresh();
  std::string params = iv + ": index";
  for (size_t i = 0; i < ts.size(); ++i) params += ", " + args[i] + ": " + ts[i].str();
  fb.open(join_names(res) + " = for(" + dom + ", " + join_names(inits) + ") : " + types_text(ts) + " region(" + params + ") {",
          RegionKind::For);
  fb.add(iv, kIndex);
  for (size_t i = 0; i < ts.size(); ++i) fb.add(args[i], ts[i]);
  for (size_t i = 0; i < ts.size(); ++i)
    if (r.chance(0.8)) pointwise_on(c, fb, r, {args[i], ts[i], 0});
  run_steps(c, fb, r, static_cast<int>(r.range(1, 3)));
  if (r.chance(0.3)) {  // leave or skip early under a scalar condition
    const std::string cond = get(c, fb, r, VType::scalar(DType::Bool));
    const bool brk = r.chance(0.5);
    fb.open("if(" + cond + ") region() {", RegionKind::If);
    fb.line(std::string(brk ? "break(" : "continue(") + join_names(yields(c, fb, r, ts)) + ")");
    fb.next_region("region() {");
    fb.line("yield()");
    fb.close();
    c.family(brk ? "for.break" : "for.continue");
    run_steps(c, fb, r, static_cast<int>(r.range(0, 1)));
  }
  fb.line("yield(" + join_names(yields(c, fb, r, ts)) + ")");
  fb.close();
  for (size_t i = 0; i < ts.size(); ++i) fb.add(res[i], ts[i]);
  if (!e.is_const()) c.family("for.dynamic");
  return true;
}

bool fam_while(Ctx& c, FnBuilder& fb, Rng& r) {
  if (fb.depth() >= 2) return false;
  const Ext e = trip_extent(c, fb, r);
  const std::string bound = ext_value(c, fb, e), zero = const_index(fb, 0);
  std::vector<std::string> inits;
  const std::vector<VType> ts = carry_types(c, fb, r, 1, inits);
  const std::string k = fb.fresh(), w = fb.fresh(), ka = fb.fresh(), wa = fb.fresh(), kb = fb.fresh(), wb = fb.fresh();
  const std::string all = "(index, " + ts[0].str() + ")";
  fb.open(k + ", " + w + " = while(" + zero + ", " + inits[0] + ") : " + all + " region(" + ka + ": index, " + wa + ": " + ts[0].str() + ") {",
          RegionKind::While);
  const std::string more = fb.def("cmp(" + ka + ", " + bound + ") {pred = lt}", VType::scalar(DType::Bool), false);
  fb.line("condition(" + more + ", " + ka + ", " + wa + ")");
  fb.next_region("region(" + kb + ": index, " + wb + ": " + ts[0].str() + ") {");
  fb.add(kb, kIndex);
  fb.add(wb, ts[0]);
  if (r.chance(0.8)) pointwise_on(c, fb, r, {wb, ts[0], 0});
  run_steps(c, fb, r, static_cast<int>(r.range(1, 3)));
  const std::string next = fb.def("add(" + kb + ", " + const_index(fb, 1) + ")", kIndex, false);
  fb.line("yield(" + next + ", " + yields(c, fb, r, ts)[0] + ")");
  fb.close();
  fb.add(k, kIndex);
  fb.use(k);
  fb.add(w, ts[0]);
  return true;
}

bool fam_if(Ctx& c, FnBuilder& fb, Rng& r) {
  if (fb.depth() >= 2) return false;
  const std::string cond = get(c, fb, r, VType::scalar(DType::Bool));
  std::vector<std::string> unused;
  const std::vector<VType> ts = carry_types(c, fb, r, static_cast<int>(r.range(0, 2)), unused);
  std::vector<std::string> res;
  for (size_t i = 0; i < ts.size(); ++i) res.push_back(fb.fresh());
  fb.open(ts.empty() ? "if(" + cond + ") region() {" : join_names(res) + " = if(" + cond + ") : " + types_text(ts) + " region() {",
          RegionKind::If);
  run_steps(c, fb, r, static_cast<int>(r.range(1, 3)));
  update(c, fb, r, ts);
  fb.line("yield(" + join_names(yields(c, fb, r, ts)) + ")");
  fb.next_region("region() {");
  run_steps(c, fb, r, static_cast<int>(r.range(0, 2)));
  update(c, fb, r, ts);
  fb.line("yield(" + join_names(yields(c, fb, r, ts)) + ")");
  fb.close();
  for (size_t i = 0; i < ts.size(); ++i) fb.add(res[i], ts[i]);
  return true;
}

}  // namespace kir::fuzz
