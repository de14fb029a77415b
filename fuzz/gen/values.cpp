// See values.h.
#include "fuzz/gen/values.h"

#include <stdexcept>

#include "fuzz/gen/numbers.h"
#include "numerics/format.h"

namespace kir::fuzz {

// --- constants -------------------------------------------------------------------------------

std::string const_scalar(FnBuilder& fb, DType d, uint64_t bits) {
  const std::string key = "c:" + std::string(name(d)) + ":" + std::to_string(bits);
  if (auto n = fb.cached(key)) return *n;
  std::string n = fb.def("const() {value = " + literal(d, bits) + "}", VType::scalar(d), false);
  fb.cache(key, n);
  return n;
}

std::string const_index(FnBuilder& fb, int64_t v) { return const_scalar(fb, DType::Index, static_cast<uint64_t>(v)); }

std::string splat(FnBuilder& fb, const VType& t, uint64_t bits) {
  if (!t.tensor) return const_scalar(fb, t.dt, bits);
  const std::string key = "s:" + t.str() + ":" + std::to_string(bits);
  if (auto n = fb.cached(key)) return *n;
  std::string c = const_scalar(fb, t.dt, bits);
  std::string n = fb.def("broadcast(" + c + ") {dims = []}", t, false);
  fb.cache(key, n);
  return n;
}

// --- extents and indices ---------------------------------------------------------------------

std::string ext_value(Ctx& c, FnBuilder& fb, const Ext& e) {
  if (e.is_const()) return const_index(fb, e.coeff);
  const std::string key = "e:" + e.str();
  if (auto n = fb.cached(key)) return *n;
  std::string src;
  int axis = 0;
  if (fb.kernel)
    for (const auto& v : c.views)
      for (size_t i = 0; i < v.type.shape.size() && src.empty(); ++i)
        if (v.type.shape[i] == e) src = v.name, axis = static_cast<int>(i);
  if (src.empty())
    for (const auto& v : fb.visible())
      for (size_t i = 0; v.type.tensor && i < v.type.shape.size() && src.empty(); ++i)
        if (v.type.shape[i] == e) src = v.name, axis = static_cast<int>(i);
  std::string n;
  if (!src.empty()) {
    n = fb.def("dim(" + src + ") {axis = " + std::to_string(axis) + "}", VType::scalar(DType::Index), false);
  } else if (e.atoms.size() + (e.coeff != 1 ? 1 : 0) >= 2) {
    Ext first = e.coeff != 1 ? Ext::constant(e.coeff) : Ext::atom(e.atoms[0]);
    Ext rest = e;
    if (e.coeff != 1) rest.coeff = 1;
    else rest.atoms.erase(rest.atoms.begin());
    const std::string a = ext_value(c, fb, first), b = ext_value(c, fb, rest);
    n = fb.def("mul(" + a + ", " + b + ")", VType::scalar(DType::Index), false);
  } else {
    throw std::logic_error("generator: no value has extent " + e.str());
  }
  fb.cache(key, n);
  return n;
}

std::string domain_of(Ctx& c, FnBuilder& fb, const Ext& e) {
  const std::string key = "d:" + e.str();
  if (auto n = fb.cached(key)) return *n;
  const std::string z = const_index(fb, 0), end = ext_value(c, fb, e);
  std::string n = fb.def_raw("domain(" + z + ", " + end + ")", "domain<" + e.str() + ">");
  fb.cache(key, n);
  return n;
}

std::string iota(Ctx& c, FnBuilder& fb, const Ext& e) {
  const std::string key = "i:" + e.str();
  if (auto n = fb.cached(key)) return *n;
  const std::string d = domain_of(c, fb, e);
  std::string n = fb.def("indices(" + d + ")", VType::of(DType::Index, {e}));
  fb.use(n);  // plumbing: never a sink
  fb.cache(key, n);
  return n;
}

std::string along(FnBuilder& fb, const std::string& idx, const Shape& s, int axis) {
  if (s.size() == 1) return idx;
  const std::string key = "a:" + idx + ":" + shape_str(s) + ":" + std::to_string(axis);
  if (auto n = fb.cached(key)) return *n;
  std::string n = fb.def("broadcast(" + idx + ") {dims = [" + std::to_string(axis) + "]}", VType::of(DType::Index, s), false);
  fb.cache(key, n);
  return n;
}

std::string relation_type(int source_rank, const Shape& s, bool masked) {
  return "relation<" + std::to_string(source_rank) + " -> " + shape_str(s) + (masked ? ", masked>" : ">");
}

std::string ident_relation(Ctx& c, FnBuilder& fb, const Shape& s) {
  const std::string key = "r:" + shape_str(s);
  if (auto n = fb.cached(key)) return *n;
  std::string args;
  for (size_t j = 0; j < s.size(); ++j) args += (j ? ", " : "") + along(fb, iota(c, fb, s[j]), s, static_cast<int>(j));
  std::string n = fb.def_raw("relation(" + args + ")", relation_type(static_cast<int>(s.size()), s, false));
  fb.cache(key, n);
  return n;
}

// --- choosing --------------------------------------------------------------------------------

std::optional<PoolValue> pick(FnBuilder& fb, Rng& r, const Pred& p) {
  std::vector<PoolValue> ok;
  for (const auto& v : fb.visible())
    if (p(v.type)) ok.push_back(v);
  if (ok.empty()) return std::nullopt;
  PoolValue v = ok[r.recent(ok.size())];
  fb.use(v.name);
  return v;
}

namespace {

int dtype_weight(DType d) {
  switch (d) {
    case DType::F32: return 8;
    case DType::F16: case DType::BF16: case DType::F64: case DType::I32: return 4;
    case DType::I8: case DType::I64: case DType::U8: case DType::U32: case DType::Index: case DType::Bool: return 3;
    case DType::I16: case DType::U16: case DType::U64: return 2;
    default: return 1;
  }
}

}  // namespace

DType random_dtype(const Ctx& c, Rng& r, const std::function<bool(DType)>& ok) {
  std::vector<DType> ds;
  std::vector<int> w;
  for (DType d : c.dtypes)
    if (ok(d)) ds.push_back(d), w.push_back(dtype_weight(d));
  if (ds.empty())
    for (DType d : all_dtypes())
      if (ok(d)) ds.push_back(d), w.push_back(dtype_weight(d));
  if (ds.empty()) return DType::F32;
  return ds[r.weighted(w)];
}

Ext random_ext(Ctx&, FnBuilder& fb, Rng& r) {
  if (fb.extents.empty()) return Ext::constant(static_cast<int64_t>(r.range(1, 4)));
  return r.pick(fb.extents);
}

Shape random_shape(Ctx& c, FnBuilder& fb, Rng& r, int rank) {
  for (int attempt = 0; attempt < 6; ++attempt) {
    Shape s;
    for (int i = 0; i < rank; ++i) s.push_back(random_ext(c, fb, r));
    if (c.fits(fb, s)) return s;
  }
  return Shape(static_cast<size_t>(rank), Ext::constant(2));
}

VType random_tensor_type(Ctx& c, FnBuilder& fb, Rng& r, const std::function<bool(DType)>& ok, int max_rank) {
  const int rank = max_rank <= 1 ? 1 : static_cast<int>(r.weighted({9, 9, max_rank >= 3 ? 2 : 0})) + 1;
  return VType::of(random_dtype(c, r, ok), random_shape(c, fb, r, rank));
}

// --- values ----------------------------------------------------------------------------------

namespace {

// Broadcast dims mapping a value of type v into shape s (input axes matching or of extent 1).
std::optional<std::vector<int>> embed(const VType& v, const Shape& s) {
  if (!v.tensor) return std::vector<int>{};
  if (v.shape.size() > s.size() || v.shape == s || v.shape.empty()) return std::nullopt;
  std::vector<int> dims;
  size_t j = 0;
  for (const auto& e : v.shape) {
    while (j < s.size() && !(e == s[j] || e == Ext::constant(1))) ++j;
    if (j == s.size()) return std::nullopt;
    dims.push_back(static_cast<int>(j++));
  }
  return dims;
}

std::string dims_str(const std::vector<int>& d) {
  std::string r = "[";
  for (size_t i = 0; i < d.size(); ++i) r += (i ? ", " : "") + std::to_string(d[i]);
  return r + "]";
}

}  // namespace

std::string get(Ctx& c, FnBuilder& fb, Rng& r, const VType& t) {
  std::vector<PoolValue> exact, same_shape, embeddable;
  for (const auto& v : fb.visible()) {
    if (v.type == t) exact.push_back(v);
    else if (v.type.tensor == t.tensor && v.type.shape == t.shape) same_shape.push_back(v);
    else if (t.tensor && v.type.dt == t.dt && embed(v.type, t.shape)) embeddable.push_back(v);
  }
  auto take = [&](const std::vector<PoolValue>& vs) {
    const PoolValue& v = vs[r.recent(vs.size())];
    fb.use(v.name);
    return v;
  };
  if (!exact.empty() && r.chance(0.75)) return take(exact).name;
  const bool can_input = fb.kernel && c.params.size() < 16;
  const size_t how = r.weighted({exact.empty() ? 0 : 2, same_shape.empty() ? 0 : 3, embeddable.empty() ? 0 : 3,
                                 can_input ? 3 : 0, 1});
  switch (how) {
    case 0: return take(exact).name;
    case 1: {
      PoolValue v = take(same_shape);
      return cast_to(c, fb, v.name, v.type, t.dt);
    }
    case 2: {
      PoolValue v = take(embeddable);
      return fb.def("broadcast(" + v.name + ") {dims = " + dims_str(*embed(v.type, t.shape)) + "}", t);
    }
    case 3: return new_input(c, fb, r, t);
    default: {
      const uint64_t bits = r.chance(0.2) ? special_bits(t.dt, r) : nice_bits(t.dt, r);
      const std::string k = const_scalar(fb, t.dt, bits);
      if (!t.tensor) {
        // A pool copy of the constant (the cached one stays plumbing).
        return fb.def("const() {value = " + literal(t.dt, bits) + "}", t);
      }
      return fb.def("full(" + k + ")", t);
    }
  }
}

std::string new_view(Ctx& c, const VType& t, Access access, Rng* layout) {
  const char* base = access == Access::In ? "in" : access == Access::Out ? "out" : "io";
  const std::string n = c.param_name(base);
  std::string decl = n + ": " + std::string(access_name(access)) + "<" + t.str();
  GeneratedCase::Input in;
  in.name = n.substr(1);
  in.dtype = t.dt;
  for (const auto& e : t.shape) in.shape.push_back(e.eval(c.kernel.atoms));
  if (layout && access == Access::In && c.opt.allow_strided_views && !t.shape.empty() && t.shape.size() <= 2 &&
      layout->chance(0.2)) {
    const int64_t off = layout->range(0, 5);
    if (t.shape.size() == 2 && layout->chance(0.5)) {  // column-major
      decl += ", strides = [1, " + t.shape[0].str() + "]";
      in.strides = {1, in.shape[0]};
    } else if (t.shape.size() == 2) {  // padded rows
      const int64_t pad = layout->range(1, 3);
      decl += ", strides = [" + t.shape[1].str() + " + " + std::to_string(pad) + ", 1]";
      in.strides = {in.shape[1] + pad, 1};
    } else {
      const int64_t s = layout->range(2, 3);
      decl += ", strides = [" + std::to_string(s) + "]";
      in.strides = {s};
    }
    decl += ", offset = " + std::to_string(off);
    in.offset = off;
    c.family("view.strided");
  }
  decl += ">";
  c.params.push_back(decl);
  c.views.push_back({n, access, t});
  if (access != Access::Out) c.inputs.push_back(in);
  return n;
}

std::string new_input(Ctx& c, FnBuilder& fb, Rng& r, const VType& t) {
  if (!fb.kernel) throw std::logic_error("generator: a helper has no inputs");
  if (!t.tensor) {
    const std::string n = c.param_name("s");
    c.params.push_back(n + ": " + std::string(name(t.dt)));
    GeneratedCase::Input in;
    in.name = n.substr(1);
    in.dtype = t.dt;
    in.scalar = true;
    c.inputs.push_back(in);
    fb.add(n, t, true);
    fb.use(n);
    return n;
  }
  if (t.shape.empty()) {  // rank 0: load a [1] view and reshape
    const std::string one = new_input(c, fb, r, VType::of(t.dt, {Ext::constant(1)}));
    return fb.def("reshape(" + one + ")", t);
  }
  const std::string view = new_view(c, t, Access::In, &r);
  const std::string rel = ident_relation(c, fb, t.shape);
  std::string v = fb.def("view.load(" + view + ", " + rel + ")", t);
  return v;
}

std::string cast_to(Ctx& c, FnBuilder& fb, const std::string& x, const VType& from, DType to) {
  (void)c;
  if (from.dt == to) return x;
  std::string v = x;
  VType ft = from;
  const bool guarded = is_integer(to) || to == DType::E2M1;
  if (is_small_float(ft.dt) && guarded) {
    v = fb.def("cast(" + v + ")", ft.with(DType::F32), false);
    ft = ft.with(DType::F32);
  }
  if (is_float(ft.dt) && guarded) {
    const std::string ok = fb.def("cmp(" + v + ", " + v + ") {pred = eq}", ft.with(DType::Bool), false);
    v = fb.def("select(" + ok + ", " + v + ", " + splat(fb, ft, value_bits(ft.dt, 0.0)) + ")", ft, false);
    if (is_integer(to)) {
      const int w = info(to).bits;
      const long double lo = is_unsigned_integer(to) ? 0.0L : -std::ldexp(1.0L, w - 1);
      const long double hi = is_unsigned_integer(to) ? std::ldexp(1.0L, w) - 1 : std::ldexp(1.0L, w - 1) - 1;
      uint64_t hb = num::from_double(static_cast<double>(hi), ft.dt);
      if (!num::is_finite(hb, ft.dt) || static_cast<long double>(num::to_double(hb, ft.dt)) > hi) hb = num::next_down(hb, ft.dt);
      uint64_t lb = num::from_double(static_cast<double>(lo), ft.dt);
      if (!num::is_finite(lb, ft.dt) || static_cast<long double>(num::to_double(lb, ft.dt)) < lo) lb = num::next_up(lb, ft.dt);
      v = fb.def("max(" + v + ", " + splat(fb, ft, lb) + ")", ft, false);
      v = fb.def("min(" + v + ", " + splat(fb, ft, hb) + ")", ft, false);
    }
  }
  return fb.def("cast(" + v + ")", from.with(to));
}

std::string store_out(Ctx& c, FnBuilder& fb, Rng& r, const std::string& v, const VType& t) {
  (void)r;
  fb.use(v);
  if (t.tensor && t.shape.empty()) {
    const VType one = VType::of(t.dt, {Ext::constant(1)});
    const std::string w = fb.def("reshape(" + v + ")", one, false);
    return store_out(c, fb, r, w, one);
  }
  const VType ot = t.tensor ? t : VType::of(t.dt, {Ext::constant(1)});
  const std::string view = new_view(c, ot, Access::Out);
  std::string rel;
  if (t.tensor) {
    rel = ident_relation(c, fb, t.shape);
  } else {
    rel = fb.def_raw("relation(" + const_index(fb, 0) + ")", relation_type(1, {}, false));
  }
  fb.line("view.store(" + view + ", " + rel + ", " + v + ")");
  return view;
}

}  // namespace kir::fuzz
