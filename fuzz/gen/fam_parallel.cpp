// Parallel families: `parallel` over the rows (or elements) of a tensor or view where each point
// computes and stores its own row of a new Out view (unique writes); atomics into a new InOut
// view (order-independent atomic.rmw kinds across points, a hot counter many points add to, or
// sequential load/store/compare_exchange); scatter_reduce with order-independent combines into an InOut view.
#include "fuzz/gen/families.h"
#include "fuzz/gen/helpers.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

struct Source {
  std::string name;
  VType type;
  bool view = false;
};

// A rank-1 or rank-2 tensor from the pool or a readable view.
Source row_source(Ctx& c, FnBuilder& fb, Rng& r, bool rank1_only) {
  auto ok = [&](const VType& t) { return t.rank() == 1 || (!rank1_only && t.rank() == 2); };
  std::vector<const ViewParam*> views;
  for (const auto& v : c.views)
    if (v.access != Access::Out && ok(v.type)) views.push_back(&v);
  if (!views.empty() && r.chance(0.3)) {
    const ViewParam* v = r.pick(views);
    return {v->name, v->type, true};
  }
  if (auto v = pick(fb, r, ok)) return {v->name, v->type, false};
  const VType t = random_tensor_type(c, fb, r, [](DType) { return true; }, rank1_only ? 1 : 2);
  return {get(c, fb, r, t), t, false};
}

// Row p of the source (a scalar for rank 1) and the relation that addresses it.
std::pair<std::string, std::string> read_row(Ctx& c, FnBuilder& fb, const Source& s, const std::string& p, VType& block) {
  std::string rel;
  if (s.type.rank() == 1) {
    rel = fb.def_raw("relation(" + p + ")", relation_type(1, {}, false));
    block = VType::scalar(s.type.dt);
  } else {
    const Ext& b = s.type.shape[1];
    const VType it = VType::of(DType::Index, {b});
    const std::string pb = fb.def("broadcast(" + p + ") {dims = []}", it, false);
    rel = fb.def_raw("relation(" + pb + ", " + iota(c, fb, b) + ")", relation_type(2, {b}, false));
    block = VType::of(s.type.dt, {b});
  }
  const std::string v = fb.def(std::string(s.view ? "view.load(" : "gather(") + s.name + ", " + rel + ")", block);
  return {v, rel};
}

DType atomic_dtype(const Ctx& c, Rng& r) {
  return random_dtype(c, r, [](DType d) { return (is_integer(d) && d != DType::Index) || is_float(d); });
}

}  // namespace

bool fam_parallel(Ctx& c, FnBuilder& fb, Rng& r) {
  const Source s = row_source(c, fb, r, false);
  const std::string dom = domain_of(c, fb, s.type.shape[0]);
  const std::string p = fb.fresh();
  fb.open("parallel(" + dom + ") region(" + p + ": index) {", RegionKind::Parallel);
  fb.add(p, VType::scalar(DType::Index));
  VType block;
  auto [row, rel] = read_row(c, fb, s, p, block);
  if (r.chance(0.8)) pointwise_on(c, fb, r, {row, block, 0});
  run_steps(c, fb, r, static_cast<int>(r.range(1, 3)));
  // The newest value of the row's shape computed here is the point's result.
  PoolValue res{row, block, 0};
  for (const auto& v : fb.current_scope())
    if (v.type.tensor == block.tensor && v.type.shape == block.shape) res = v;
  fb.use(res.name);
  Shape out = s.type.shape;
  const std::string view = new_view(c, VType::of(res.type.dt, out), Access::Out);
  fb.line("view.store(" + view + ", " + rel + ", " + res.name + ")");
  fb.line("yield()");
  fb.close();
  if (s.view) c.family("parallel.view");
  return true;
}

bool fam_atomic(Ctx& c, FnBuilder& fb, Rng& r) {
  const DType t = atomic_dtype(c, r);
  const int64_t k = r.range(1, 4);
  const VType st = VType::scalar(t);
  if (is_integer(t) && r.chance(0.2)) {
    // A hot counter: thousands of points add 1 to one element, so the backend's threads update
    // it at the same time (an rmw that is not atomic loses updates).
    const int64_t n = r.chance(0.5) ? 1024 : 4096;
    const std::string dest = new_view(c, VType::of(t, {Ext::constant(1)}), Access::InOut);
    const std::string dom = domain_of(c, fb, Ext::constant(n));
    const std::string p = fb.fresh();
    fb.open("parallel(" + dom + ") region(" + p + ": index) {", RegionKind::Parallel);
    const std::string rel = fb.def_raw("relation(" + const_index(fb, 0) + ")", relation_type(1, {}, false));
    const std::string one = splat(fb, st, int_bits(t, 1));
    fb.def_raw("atomic.rmw(" + dest + ", " + rel + ", " + one + ") {kind = add, order = relaxed}", st.str());
    fb.line("yield()");
    fb.close();
    c.family("atomic.hot");
    return true;
  }
  if (r.chance(0.75)) {
    // The source is chosen first: points never read the view they update atomically.
    const Source s = row_source(c, fb, r, true);
    const std::string dest = new_view(c, VType::of(t, {Ext::constant(k)}), Access::InOut);
    const std::string dom = domain_of(c, fb, s.type.shape[0]);
    const std::string ck = const_index(fb, k);
    const std::string p = fb.fresh();
    fb.open("parallel(" + dom + ") region(" + p + ": index) {", RegionKind::Parallel);
    VType block;
    const std::string e = read_row(c, fb, s, p, block).first;
    const std::string v = cast_to(c, fb, e, block, t);
    const std::string bucket = fb.def("rem(" + p + ", " + ck + ")", VType::scalar(DType::Index), false);
    const std::string rel = fb.def_raw("relation(" + bucket + ")", relation_type(1, {}, false));
    const std::string kind = is_float(t) ? r.pick({"max", "min"}) : r.pick({"add", "max", "min", "and", "or", "xor", "add"});
    const std::string order = r.pick({"relaxed", "acquire", "release", "acq_rel"});
    fb.def_raw("atomic.rmw(" + dest + ", " + rel + ", " + v + ") {kind = " + kind + ", order = " + order + "}", st.str());
    fb.line("yield()");
    fb.close();
    c.family("atomic.rmw." + kind);
    return true;
  }
  // Sequential atomics on one element.
  const std::string dest = new_view(c, VType::of(t, {Ext::constant(k)}), Access::InOut);
  const std::string rel = fb.def_raw("relation(" + const_index(fb, r.range(0, k - 1)) + ")", relation_type(1, {}, false));
  const std::string ld = fb.def("atomic.load(" + dest + ", " + rel + ") {order = " + r.pick({"relaxed", "acquire"}) + "}", st);
  const std::string nv = get(c, fb, r, st);
  if (r.chance(0.5)) {
    fb.line("atomic.store(" + dest + ", " + rel + ", " + nv + ") {order = " + r.pick({"relaxed", "release"}) + "}");
  } else {
    const std::string cas = fb.def_raw("atomic.compare_exchange(" + dest + ", " + rel + ", " + ld + ", " + nv + ") {order = acq_rel}",
                                       "record<old_value: " + st.str() + ", success: bool>");
    fb.def("record.get(" + cas + ") {field = success}", VType::scalar(DType::Bool));
    fb.def("record.get(" + cas + ") {field = old_value}", st);
    c.family("atomic.cas");
  }
  fb.def("atomic.rmw(" + dest + ", " + rel + ", " + nv + ") {kind = exchange, order = acq_rel}", st);
  c.family("atomic.sequential");
  return true;
}

bool fam_scatter(Ctx& c, FnBuilder& fb, Rng& r) {
  const DType t = atomic_dtype(c, r);
  const int64_t k = r.range(1, 8);
  const std::string dest = new_view(c, VType::of(t, {Ext::constant(k)}), Access::InOut);
  const Source s = row_source(c, fb, r, true);
  const Ext a = s.type.shape[0];
  std::string vals = s.name;
  if (s.view) vals = fb.def("view.load(" + s.name + ", " + ident_relation(c, fb, {a}) + ")", s.type);
  vals = cast_to(c, fb, vals, s.type, t);
  // Bins in [0, k): an integer tensor of the values' shape (or the positions) wrapped into range.
  const VType it = VType::of(DType::Index, {a});
  std::string x;
  if (auto v = pick(fb, r, [&](const VType& vt) { return vt.tensor && vt.shape == it.shape && is_integer(vt.dt); }))
    x = cast_to(c, fb, v->name, v->type, DType::Index);
  else
    x = iota(c, fb, a);
  const std::string ck = splat(fb, it, static_cast<uint64_t>(k));
  const std::string m = fb.def("rem(" + x + ", " + ck + ")", it, false);
  const std::string neg = fb.def("cmp(" + m + ", " + splat(fb, it, 0) + ") {pred = lt}", it.with(DType::Bool), false);
  const std::string up = fb.def("add(" + m + ", " + ck + ")", it, false);
  const std::string bins = fb.def("select(" + neg + ", " + up + ", " + m + ")", it, false);
  std::string valid;
  if (r.chance(0.3)) {
    valid = ", " + get(c, fb, r, it.with(DType::Bool));
    c.family("scatter.masked");
  }
  const std::string rel = fb.def_raw("relation(" + bins + valid + ")", relation_type(1, {a}, !valid.empty()));
  const std::string kind = is_float(t) ? r.pick({"max", "min"}) : r.pick({"add", "max", "min", "and", "or", "xor"});
  const std::string comb = simple_combine(c, VType::scalar(t), kind);
  fb.line("scatter_reduce(" + dest + ", " + rel + ", " + vals + ") {combine = " + comb + "}");
  return true;
}

}  // namespace kir::fuzz
