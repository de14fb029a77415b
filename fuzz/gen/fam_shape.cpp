// Shape families: broadcast (new axes, size-1 expansion, scalars), reshape (merge, split,
// reorder, unit axes, rank 0), transpose (explicit or default permutation), join, and the
// aggregates (tuple/record construction and projection).
#include <algorithm>
#include <numeric>

#include "fuzz/gen/families.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

std::string ints(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The factors of an extent that can be split off: (first, rest) with first * rest == e.
std::vector<std::pair<Ext, Ext>> splits(const Ext& e) {
  std::vector<std::pair<Ext, Ext>> r;
  if (e.is_const()) {
    for (int64_t d = 2; d < e.coeff; ++d)
      if (e.coeff % d == 0) r.push_back({Ext::constant(d), Ext::constant(e.coeff / d)});
    return r;
  }
  if (e.coeff > 1) {
    Ext rest = e;
    rest.coeff = 1;
    r.push_back({Ext::constant(e.coeff), rest});
  }
  if (e.atoms.size() >= 2) {
    Ext rest = e;
    rest.atoms.erase(rest.atoms.begin());
    r.push_back({Ext::atom(e.atoms[0]), rest});
  }
  return r;
}

}  // namespace

bool fam_broadcast(Ctx& c, FnBuilder& fb, Rng& r) {
  auto x = pick(fb, r, [](const VType& t) { return t.rank() <= 2 && !(t.tensor && t.shape.empty()); });
  if (!x) return false;
  Shape s;
  std::vector<int> dims;
  const auto& xs = x->type.shape;
  auto unit = std::find(xs.begin(), xs.end(), Ext::constant(1));
  if (!x->type.tensor) {
    s = random_shape(c, fb, r, static_cast<int>(r.range(1, 2)));
  } else if (unit != xs.end() && r.chance(0.4)) {  // expand a size-1 axis
    s = xs;
    s[static_cast<size_t>(unit - xs.begin())] = random_ext(c, fb, r);
    dims.resize(xs.size());
    std::iota(dims.begin(), dims.end(), 0);
    c.family("broadcast.unit");
  } else {
    const size_t p = r.below(xs.size() + 1);
    s = xs;
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(p), random_ext(c, fb, r));
    for (size_t i = 0; i < s.size(); ++i)
      if (i != p) dims.push_back(static_cast<int>(i));
  }
  if (!c.fits(fb, s)) return false;
  fb.def("broadcast(" + x->name + ") {dims = " + ints(dims) + "}", VType::of(x->type.dt, s));
  return true;
}

bool fam_reshape(Ctx&, FnBuilder& fb, Rng& r) {
  auto x = pick(fb, r, [](const VType& t) { return t.tensor; });
  if (!x) return false;
  const Shape& s = x->type.shape;
  std::vector<Shape> outs;
  for (size_t i = 0; i + 1 < s.size(); ++i) {  // merge two adjacent axes
    Shape o = s;
    o[i] = s[i] * s[i + 1];
    o.erase(o.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    outs.push_back(o);
  }
  for (size_t i = 0; i < s.size() && s.size() < 3; ++i)  // split an axis
    for (const auto& [a, b] : splits(s[i])) {
      Shape o = s;
      o[i] = b;
      o.insert(o.begin() + static_cast<std::ptrdiff_t>(i), a);
      outs.push_back(o);
    }
  if (s.size() == 2) outs.push_back({s[1], s[0]});  // same elements, other row length
  if (s.size() < 3) {                               // a unit axis
    Shape o = s;
    o.insert(o.begin() + static_cast<std::ptrdiff_t>(r.below(s.size() + 1)), Ext::constant(1));
    outs.push_back(o);
  }
  for (size_t i = 0; i < s.size(); ++i)  // drop a unit axis (to rank 0 too)
    if (s[i] == Ext::constant(1)) {
      Shape o = s;
      o.erase(o.begin() + static_cast<std::ptrdiff_t>(i));
      outs.push_back(o);
    }
  if (s.empty()) outs.push_back({Ext::constant(1)});
  if (outs.empty()) return false;
  fb.def("reshape(" + x->name + ")", VType::of(x->type.dt, r.pick(outs)));
  return true;
}

bool fam_transpose(Ctx& c, FnBuilder& fb, Rng& r) {
  auto x = pick(fb, r, [](const VType& t) { return t.rank() >= 2; });
  // Rank 3 now and then (a new value if the pool has none): its permutations include 3-cycles,
  // the only ones that tell a permutation from its inverse.
  if (!x || (x->type.rank() < 3 && r.chance(0.5))) {
    const VType t = VType::of(random_dtype(c, r, [](DType) { return true; }), random_shape(c, fb, r, 3));
    // In a kernel, data from a new In view: elements that differ (a splat transposes to itself).
    if (c.fits(fb, t.shape))
      x = PoolValue{fb.kernel ? fb.def("view.load(" + new_view(c, t, Access::In, &r) + ", " + ident_relation(c, fb, t.shape) + ")", t)
                              : get(c, fb, r, t),
                    t, 0};
  }
  if (!x) return false;
  const Shape& s = x->type.shape;
  std::vector<int> perm(s.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::string attrs;
  if (perm.size() == 3 && r.chance(0.5)) {
    perm = r.chance(0.5) ? std::vector<int>{1, 2, 0} : std::vector<int>{2, 0, 1};
    attrs = " {perm = " + ints(perm) + "}";
  } else if (r.chance(0.3)) {
    std::reverse(perm.begin(), perm.end());
  } else {
    for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[r.below(i)]);
    attrs = " {perm = " + ints(perm) + "}";
  }
  if (perm.size() == 3 && perm[0] != 0 && perm[1] != 1 && perm[2] != 2) c.family("transpose.cycle3");
  Shape o;
  for (int p : perm) o.push_back(s[static_cast<size_t>(p)]);
  fb.def("transpose(" + x->name + ")" + attrs, VType::of(x->type.dt, o));
  return true;
}

bool fam_join(Ctx& c, FnBuilder& fb, Rng& r) {
  auto a = pick(fb, r, [](const VType& t) { return t.rank() <= 2 && is_compute(t.dt); });
  if (!a) return false;
  const std::string b = get(c, fb, r, a->type);
  Shape s = a->type.shape;
  s.push_back(Ext::constant(2));
  if (!c.fits(fb, s)) return false;
  fb.def("join(" + a->name + ", " + b + ")", VType::of(a->type.dt, s));
  return true;
}

bool fam_aggregate(Ctx&, FnBuilder& fb, Rng& r) {
  std::vector<PoolValue> parts;
  for (int i = 0, n = static_cast<int>(r.range(1, 3)); i < n; ++i)
    if (auto v = pick(fb, r, [](const VType&) { return true; })) parts.push_back(*v);
  if (parts.empty()) return false;
  const size_t k = r.below(parts.size());
  std::string ops, types;
  for (size_t i = 0; i < parts.size(); ++i) {
    ops += (i ? ", " : "") + parts[i].name;
    types += (i ? ", " : "") + parts[i].type.str();
  }
  if (r.chance(0.5)) {
    const std::string t = fb.def_raw("tuple(" + ops + ")", "tuple<" + types + ">");
    fb.def("tuple.get(" + t + ") {index = " + std::to_string(k) + "}", parts[k].type);
  } else {
    std::string fields;
    for (size_t i = 0; i < parts.size(); ++i) fields += (i ? ", f" : "f") + std::to_string(i) + ": " + parts[i].type.str();
    const std::string t = fb.def_raw("record(" + ops + ")", "record<" + fields + ">");
    fb.def("record.get(" + t + ") {field = f" + std::to_string(k) + "}", parts[k].type);
  }
  return true;
}

}  // namespace kir::fuzz
