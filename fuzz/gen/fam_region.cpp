// Region families: region_fold and region_scan over one rank-1 or rank-2 source along axis 0
// (sometimes a new source whose axis 0 is a constant 0 or 1), with generated helpers that pass
// L9.1–L9.5: summarize takes slices with a fresh symbol S that it never observes (no `dim`,
// domain or subregion of S), the summary mentions no S, and combine/apply are exact in any
// order (every integer and bool combine; only min/max for floats), so every segmentation the
// interpreter or a backend may choose gives the same bits. Fold summaries: a reduction (one op
// with its neutral identity), a (value, absolute position) argmax with the source's indices as
// a second source, a count of the elements passing a compare. Scan: the running reduction as
// state, emit writing each element's inclusive (and sometimes exclusive) prefix from the
// incoming state.
#include "fuzz/gen/families.h"
#include "fuzz/gen/helpers.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

bool region_dtype(DType d) { return arith_ok(d) || d == DType::Bool; }

// Combines whose result does not depend on how the source is segmented.
std::vector<std::string> exact_kinds(DType d) {
  if (is_float(d)) return {"min", "max"};
  return combine_kinds(d);
}

std::optional<PoolValue> region_source(Ctx& c, FnBuilder& fb, Rng& r) {
  auto v = pick(fb, r, [](const VType& t) { return t.rank() >= 1 && t.rank() <= 2 && region_dtype(t.dt); });
  if (v && r.chance(0.8)) return v;
  VType t = v ? v->type : random_tensor_type(c, fb, r, region_dtype, 2);
  t.shape[0] = Ext::constant(r.chance(0.5) ? 0 : 1);
  c.family("region.const_extent");
  return PoolValue{get(c, fb, r, t), t};
}

// The shapes of one region op: the source less axis 0 at the call site and in the helpers'
// own symbols, and the slice type dt[S, rest...].
struct Slicing {
  VType rest_site, rest;
  VType slice;
};

Slicing slicing(const FnBuilder& fb, const VType& t) {
  Slicing s;
  s.rest_site = t.rank() == 1 ? VType::scalar(t.dt) : VType::of(t.dt, {t.shape[1]});
  s.rest = generalize(fb, {s.rest_site}).types[0];
  Shape sh = {Ext::atom("S")};
  sh.insert(sh.end(), s.rest.shape.begin(), s.rest.shape.end());
  s.slice = VType::of(t.dt, sh);
  return s;
}

// The slice %x, times the operand %w (elementwise, so a summary stays a homomorphism).
std::string scaled(FnBuilder& h, const VType& slice, bool w) {
  if (!w) return "%x";
  const std::string wb = h.def("broadcast(%w) {dims = []}", slice, false);
  return h.def("mul(%x, " + wb + ")", slice, false);
}

std::string tuple_type(const VType& a, const VType& b) { return "tuple<" + a.str() + ", " + b.str() + ">"; }

}  // namespace

bool fam_region_fold(Ctx& c, FnBuilder& fb, Rng& r) {
  auto src = region_source(c, fb, r);
  if (!src) return false;
  const VType t = src->type;
  const Slicing s = slicing(fb, t);
  const bool arith = arith_ok(t.dt);
  const bool w = arith && r.chance(0.4);
  const std::string wv = w ? get(c, fb, r, VType::scalar(t.dt)) : "";
  const DType count_dt = c.allowed(DType::I32) ? DType::I32 : DType::I64;
  size_t form = arith ? r.weighted({5, 3, 2}) : 0;  // reduction, argmax, count
  if (form == 2 && !c.allowed(count_dt)) form = 0;
  std::vector<HelperParam> params = {{"%x", s.slice.str()}};
  std::string sources = src->name;
  FnBuilder h(false);
  std::string summary, comb, id, htype, rtype;  // htype/rtype: the summary in the helper / at the call
  VType site;                                   // rtype as a pool type (not for the tuple)
  if (form == 1) {
    const VType pos = s.slice.with(DType::Index), ri = s.rest.with(DType::Index);
    params.push_back({"%pos", pos.str()});
    sources += ", " + along(fb, iota(c, fb, t.shape[0]), t.shape, 0);
    comb = argmax_combine(c, s.rest);
    const std::string v = scaled(h, s.slice, w);
    const std::string tsrc = h.def_raw("tuple(" + v + ", %pos)", tuple_type(s.slice, pos));
    htype = tuple_type(s.rest, ri);
    const std::string hid = h.def_raw("tuple(" + splat(h, s.rest, neutral_bits(t.dt, "max")) + ", " + splat(h, ri, 0) + ")", htype);
    summary = h.def_raw("reduce(" + tsrc + ", " + hid + ") {axes = [0], combine = " + comb + "}", htype);
    const VType si = s.rest_site.with(DType::Index);
    rtype = tuple_type(s.rest_site, si);
    id = fb.def_raw("tuple(" + splat(fb, s.rest_site, neutral_bits(t.dt, "max")) + ", " + splat(fb, si, 0) + ")", rtype);
    c.family("region_fold.argmax");
  } else {
    // A reduction over axis 0 (rank 2: sometimes over both axes), of the slice or of a compare's count.
    const bool both = t.rank() == 2 && r.chance(0.3);
    DType dt = t.dt;
    std::string x, kind;
    if (form == 2) {
      dt = count_dt;
      const std::string rhs = w ? h.def("broadcast(%w) {dims = []}", s.slice, false) : splat(h, s.slice, 0);
      const std::string b = h.def("cmp(%x, " + rhs + ") {pred = " + r.pick({"eq", "ne", "lt", "le", "gt", "ge"}) + "}",
                                  s.slice.with(DType::Bool), false);
      x = h.def("cast(" + b + ")", s.slice.with(dt), false);
      kind = "add";
      c.family("region_fold.count");
    } else {
      x = scaled(h, s.slice, w);
      kind = r.pick(exact_kinds(dt));
    }
    const VType acc = both ? VType::scalar(dt) : s.rest.with(dt);
    site = both ? VType::scalar(dt) : s.rest_site.with(dt);
    comb = simple_combine(c, acc, kind);
    summary = h.def("reduce(" + x + ", " + splat(h, acc, neutral_bits(dt, kind)) + ") {axes = " +
                        std::string(both ? "[0, 1]" : "[0]") + ", combine = " + comb + "}",
                    acc, false);
    id = splat(fb, site, neutral_bits(dt, kind));
    htype = acc.str();
    rtype = site.str();
  }
  if (w) params.push_back({"%w", VType::scalar(t.dt).str()});
  const std::string summarize = c.helper_name("summarize");
  add_helper(c, summarize, params, {htype}, h.lines, {summary});
  const std::string call = "region_fold(" + sources + ", " + id + (w ? ", " + wv : "") + ") {axis = 0, combine = " + comb +
                           ", segments = [" + std::to_string(form == 1 ? 2 : 1) + ", 1, " + (w ? "1" : "0") +
                           "], summarize = " + summarize + "}";
  if (form == 1) {
    const std::string res = fb.def_raw(call, rtype);
    fb.def("tuple.get(" + res + ") {index = 0}", s.rest_site);
    fb.def("tuple.get(" + res + ") {index = 1}", s.rest_site.with(DType::Index));
  } else {
    fb.def(call, site);
  }
  return true;
}

bool fam_region_scan(Ctx& c, FnBuilder& fb, Rng& r) {
  auto src = region_source(c, fb, r);
  if (!src) return false;
  const VType t = src->type;
  const Slicing s = slicing(fb, t);
  const bool w = arith_ok(t.dt) && r.chance(0.4);
  const std::string wv = w ? get(c, fb, r, VType::scalar(t.dt)) : "";
  const std::string kind = r.pick(exact_kinds(t.dt));
  const uint64_t neutral = neutral_bits(t.dt, kind);
  // combine and apply are the same op: apply(t, state) = kind(t, state).
  const std::string comb = simple_combine(c, s.rest, kind);
  std::vector<HelperParam> sp = {{"%x", s.slice.str()}}, ep = {{"%x", s.slice.str()}, {"%state", s.rest.str()}};
  if (w) sp.push_back({"%w", VType::scalar(t.dt).str()}), ep.push_back(sp.back());

  FnBuilder hs(false);
  const std::string sum = hs.def("reduce(" + scaled(hs, s.slice, w) + ", " + splat(hs, s.rest, neutral) + ") {axes = [0], combine = " +
                                     comb + "}",
                                 s.rest, false);
  const std::string summarize = c.helper_name("summarize");
  add_helper(c, summarize, sp, {s.rest.str()}, hs.lines, {sum});

  FnBuilder he(false);
  const std::string x = scaled(he, s.slice, w), hid = splat(he, s.rest, neutral);
  const std::string sb = he.def("broadcast(%state) {dims = " + std::string(t.rank() == 1 ? "[]" : "[1]") + "}", s.slice, false);
  const bool two = r.chance(0.3);
  std::vector<std::string> outs, otypes;
  for (int k = 0; k < (two ? 2 : 1); ++k) {
    const std::string p = he.def("scan(" + x + ", " + hid + ") {axis = 0, combine = " + comb + (k ? ", inclusive = false" : "") + "}",
                                 s.slice, false);
    outs.push_back(he.def(kind + "(" + p + ", " + sb + ")", s.slice, false));
    otypes.push_back(s.slice.str());
  }
  const std::string emit = c.helper_name("emit");
  add_helper(c, emit, ep, otypes, he.lines, outs);
  if (two) c.family("region_scan.exclusive");

  const std::string id = splat(fb, s.rest_site, neutral);
  const std::string init = get(c, fb, r, s.rest_site);
  std::vector<std::string> names;
  std::string lhs, types;
  for (size_t k = 0; k <= outs.size(); ++k) {
    names.push_back(fb.fresh());
    lhs += (k ? ", " : "") + names.back();
    types += (k ? ", " : "") + (k < outs.size() ? t.str() : s.rest_site.str());
  }
  fb.line(lhs + " = region_scan(" + src->name + ", " + id + ", " + init + (w ? ", " + wv : "") + ") {apply = " + comb +
          ", axis = 0, combine = " + comb + ", emit = " + emit + ", segments = [1, 1, 1, " + (w ? "1" : "0") +
          "], summarize = " + summarize + "} : (" + types + ")");
  for (size_t k = 0; k < names.size(); ++k) fb.add(names[k], k < outs.size() ? t : s.rest_site);
  return true;
}

}  // namespace kir::fuzz
