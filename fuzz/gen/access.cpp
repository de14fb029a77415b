// See access.h.
#include "fuzz/gen/access.h"

#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

const VType kIndex = VType::scalar(DType::Index);

}  // namespace

std::string reversed_index(Ctx& c, FnBuilder& fb, const Ext& e) {
  const std::string key = "rev:" + e.str();
  if (auto n = fb.cached(key)) return *n;
  const VType t = VType::of(DType::Index, {e});
  const std::string em1 = fb.def("sub(" + ext_value(c, fb, e) + ", " + const_index(fb, 1) + ")", kIndex, false);
  const std::string b = fb.def("broadcast(" + em1 + ") {dims = []}", t, false);
  std::string n = fb.def("sub(" + b + ", " + iota(c, fb, e) + ")", t, false);
  fb.cache(key, n);
  return n;
}

namespace {

// Data-dependent coordinates of shape t into an axis of extent e (value ev). Sets `may_be_out`
// when a lane can be out of range (e == 0 at run time), which the caller must mask.
std::string data_coord(Ctx& c, FnBuilder& fb, Rng& r, const Shape& t, const Ext& e, int64_t ev, std::string& valid) {
  const VType it = VType::of(DType::Index, t);
  std::string x;
  if (auto v = pick(fb, r, [&](const VType& vt) { return vt.tensor && vt.shape == t && is_integer(vt.dt); }); v && r.chance(0.7))
    x = cast_to(c, fb, v->name, v->type, DType::Index);
  else {
    const VType src = VType::of(random_dtype(c, r, [](DType d) { return is_integer(d); }), t);
    x = cast_to(c, fb, get(c, fb, r, src), src, DType::Index);
  }
  const std::string es = fb.def("broadcast(" + ext_value(c, fb, e) + ") {dims = []}", it, false);
  if (ev > 0 && r.chance(0.5)) {  // wrap: ((x % e) + e) % e without the second rem
    const std::string m = fb.def("rem(" + x + ", " + es + ")", it, false);
    const std::string neg = fb.def("cmp(" + m + ", " + splat(fb, it, 0) + ") {pred = lt}", it.with(DType::Bool), false);
    const std::string up = fb.def("add(" + m + ", " + es + ")", it, false);
    return fb.def("select(" + neg + ", " + up + ", " + m + ")", it, false);
  }
  // clamp into [0, e - 1]; -1 when e == 0, so the lane is masked off
  const std::string em1 = fb.def("sub(" + es + ", " + splat(fb, it, 1) + ")", it, false);
  const std::string lo = fb.def("max(" + x + ", " + splat(fb, it, 0) + ")", it, false);
  const std::string cl = fb.def("min(" + lo + ", " + em1 + ")", it, false);
  if (ev == 0 || r.chance(0.3)) {
    const std::string ok = fb.def("cmp(" + cl + ", " + splat(fb, it, 0) + ") {pred = ge}", it.with(DType::Bool), false);
    valid = valid.empty() ? ok : fb.def("and(" + valid + ", " + ok + ")", it.with(DType::Bool), false);
  }
  return cl;
}

}  // namespace

ReadAccess read_relation(Ctx& c, FnBuilder& fb, Rng& r, const Shape& s) {
  ReadAccess a;
  const int n = static_cast<int>(s.size());
  std::vector<int64_t> ev;
  bool all_positive = true;
  for (const auto& e : s) ev.push_back(c.value_of(fb, e)), all_positive = all_positive && ev.back() > 0;
  const size_t k = r.below(s.size());
  std::vector<int> w = {3, n == 2 ? 2 : 0, 3, s[k].is_const() || s[k].atoms.size() == 1 ? 2 : 0, ev[k] > 0 ? 2 : 0, 4,
                        all_positive ? 1 : 0};
  const size_t variant = r.weighted(w);
  if (variant == 5) {  // data-dependent coordinates over a shape t
    Shape t = s;
    if (r.chance(0.4)) {
      if (auto v = pick(fb, r, [&](const VType& vt) { return vt.tensor && !vt.shape.empty() && is_integer(vt.dt); })) t = v->type.shape;
    }
    if (!c.fits(fb, t)) t = s;
    std::string valid, coords;
    for (int j = 0; j < n; ++j) coords += (j ? ", " : "") + data_coord(c, fb, r, t, s[static_cast<size_t>(j)], ev[static_cast<size_t>(j)], valid);
    // A mask that is not only the range guard: lanes the guard keeps may be inactive too.
    if (r.chance(valid.empty() ? 0.4 : 0.5)) {
      const std::string p = get(c, fb, r, VType::of(DType::Bool, t));
      valid = valid.empty() ? p : fb.def("and(" + valid + ", " + p + ")", VType::of(DType::Bool, t), false);
    }
    a.masked = !valid.empty();
    a.shape = t;
    a.rel = fb.def_raw("relation(" + coords + (a.masked ? ", " + valid : "") + ")", relation_type(n, t, a.masked));
    a.variant = a.masked ? "index.masked" : "index.data";
    return a;
  }
  if (variant == 6) {  // one element at constant coordinates
    std::string coords;
    for (int j = 0; j < n; ++j) coords += (j ? ", " : "") + const_index(fb, r.range(0, ev[static_cast<size_t>(j)] - 1));
    a.scalar = true;
    a.rel = fb.def_raw("relation(" + coords + ")", relation_type(n, {}, false));
    a.variant = "index.element";
    return a;
  }
  a.shape = s;
  std::vector<std::string> idx(s.size());  // per source axis: an index vector along it
  for (int j = 0; j < n; ++j) idx[static_cast<size_t>(j)] = iota(c, fb, s[static_cast<size_t>(j)]);
  std::vector<int> axis_of(s.size());  // result axis each source axis runs along
  for (int j = 0; j < n; ++j) axis_of[static_cast<size_t>(j)] = j;
  a.variant = "index.identity";
  if (variant == 1) {
    a.shape = {s[1], s[0]};
    axis_of = {1, 0};
    a.variant = "index.transpose";
  } else if (variant == 2) {
    idx[k] = reversed_index(c, fb, s[k]);
    a.variant = "index.reverse";
  } else if (variant == 3) {
    const int64_t step = r.range(2, 3);
    Ext f;
    if (s[k].is_const()) {
      f = Ext::constant((s[k].coeff + step - 1) / step);
    } else {
      f = Ext::atom("floordiv(" + s[k].str() + " + " + std::to_string(step - 1) + ", " + std::to_string(step) + ")");
      fb.atoms[f.atoms[0]] = (ev[k] + step - 1) / step;
    }
    const std::string d = fb.def_raw("domain(" + const_index(fb, 0) + ", " + ext_value(c, fb, s[k]) + ", " + const_index(fb, step) + ")",
                                     "domain<" + f.str() + ">");
    idx[k] = fb.def("indices(" + d + ")", VType::of(DType::Index, {f}), false);
    a.shape[k] = f;
    a.variant = "index.strided";
  } else if (variant == 4) {
    const int64_t len = r.range(1, std::min<int64_t>(4, ev[k]));
    const int64_t b = r.range(0, ev[k] - len);
    const std::string sub = fb.def_raw("subregion(" + domain_of(c, fb, s[k]) + ", " + const_index(fb, b) + ", " + const_index(fb, b + len) + ")",
                                       "subregion<" + std::to_string(len) + ">");
    idx[k] = fb.def("indices(" + sub + ")", VType::of(DType::Index, {Ext::constant(len)}), false);
    a.shape[k] = Ext::constant(len);
    a.variant = "index.window";
  }
  std::string coords;
  for (int j = 0; j < n; ++j) coords += (j ? ", " : "") + along(fb, idx[static_cast<size_t>(j)], a.shape, axis_of[static_cast<size_t>(j)]);
  a.rel = fb.def_raw("relation(" + coords + ")", relation_type(n, a.shape, false));
  return a;
}

std::string covering_relation(Ctx& c, FnBuilder& fb, Rng& r, const Shape& s, std::string* variant) {
  if (r.chance(0.5)) {
    if (variant) *variant = "index.identity";
    return ident_relation(c, fb, s);
  }
  const size_t k = r.below(s.size());
  std::string coords;
  for (size_t j = 0; j < s.size(); ++j)
    coords += (j ? ", " : "") + along(fb, j == k ? reversed_index(c, fb, s[j]) : iota(c, fb, s[j]), s, static_cast<int>(j));
  if (variant) *variant = "index.reverse";
  return fb.def_raw("relation(" + coords + ")", relation_type(static_cast<int>(s.size()), s, false));
}

VType block_type(DType d, const ReadAccess& a) { return a.scalar ? VType::scalar(d) : VType::of(d, a.shape); }

std::string fill_operand(FnBuilder& fb, Rng& r, DType d, const ReadAccess& a) {
  if (!a.masked) return "";
  return ", " + const_scalar(fb, d, r.chance(0.3) ? special_bits(d, r) : nice_bits(d, r));
}

}  // namespace kir::fuzz
