// Implementations of the closed primitive set (see primitives.h and docs/manifests.md).
#include "specs/src/primitives.h"

#include <cmath>
#include <set>

#include "specs/src/dtypes.h"

namespace kir::specs {
namespace {

using Args = std::vector<Value>;

mpz_class need_int(const Value& v, const std::string& what) {
  if (!v.is_int()) throw EvalError(what + " must be an integer, got " + v.repr());
  return v.i;
}

std::vector<mpz_class> need_shape(const Value& v, const std::string& what) {
  auto xs = to_ints(v, what);
  for (const auto& x : xs)
    if (x < 0) throw EvalError(what + " has a negative axis in " + v.repr());
  return xs;
}

std::string need_dtype(const Value& v, const std::string& what) {
  if (v.t != Value::T::Str || !find_dtype(v.s)) throw EvalError(what + " must be a dtype name, got " + v.repr());
  return v.s;
}

// The list of axes of a dim argument: None → nullopt (all axes), int → [int], list → list.
std::optional<std::vector<mpz_class>> axes_of(const Value& dim) {
  if (dim.is_none()) return std::nullopt;
  if (dim.is_int()) return std::vector<mpz_class>{dim.i};
  if (dim.is_seq()) return to_ints(dim, "dim");
  throw EvalError("dim must be None, an integer or a list of integers, got " + dim.repr());
}

long rank_arg(const Value& v) {
  mpz_class r = need_int(v, "rank");
  if (r < 0) throw EvalError("rank must be non-negative, got " + r.get_str());
  return to_i64(r, "rank");
}

Value prim_broadcast(const Args& a) {
  if (a.empty()) throw EvalError("broadcast needs at least one shape");
  std::vector<std::vector<mpz_class>> shapes;
  size_t rank = 0;
  for (const auto& s : a) {
    shapes.push_back(need_shape(s, "broadcast argument"));
    rank = std::max(rank, shapes.back().size());
  }
  std::vector<mpz_class> out(rank, 1);
  for (size_t k = 0; k < rank; ++k) {
    std::optional<mpz_class> size;
    for (const auto& s : shapes) {
      if (k >= s.size()) continue;
      const mpz_class& d = s[s.size() - 1 - k];
      if (d == 1) continue;
      if (size && *size != d) {
        std::string msg = "shapes ";
        for (size_t j = 0; j < a.size(); ++j) msg += (j ? ", " : "") + a[j].repr();
        throw EvalError(msg + " are not broadcastable");
      }
      size = d;
    }
    out[rank - 1 - k] = size ? *size : mpz_class(1);
  }
  return Value::ints(out);
}

Value prim_reduced(const Args& a) {
  auto shape = need_shape(a[0], "reduced shape");
  const Value& keep = a[2];
  if (keep.t != Value::T::Bool) throw EvalError("keepdim must be a bool, got " + keep.repr());
  if (a[3].t != Value::T::Str) throw EvalError("mode must be 'full', 'noop' or 'reject', got " + a[3].repr());
  const std::string& mode = a[3].s;
  if (mode != "full" && mode != "noop" && mode != "reject")
    throw EvalError("mode " + a[3].repr() + " is not one of 'full', 'noop', 'reject'");
  long rank = static_cast<long>(shape.size());
  auto axes = axes_of(a[1]);
  std::set<long> red;
  if (!axes || (axes->empty() && mode == "full")) {
    for (long k = 0; k < rank; ++k) red.insert(k);
  } else if (axes->empty() && mode == "reject") {
    throw EvalError("reduced: an empty dim list is rejected (mode 'reject')");
  } else {
    for (const auto& ax : *axes) {
      long n;
      if (!normalize_axis(ax, rank, n))
        throw EvalError("reduced: axis " + ax.get_str() + " is outside the rank " + std::to_string(rank));
      red.insert(n);
    }
  }
  if (rank == 0) return Value::sequence({});
  std::vector<mpz_class> out;
  for (long k = 0; k < rank; ++k) {
    if (!red.count(k)) out.push_back(shape[static_cast<size_t>(k)]);
    else if (keep.b) out.push_back(1);
  }
  return Value::ints(out);
}

Value prim_valid_axes(const Args& a) {
  long rank = rank_arg(a[1]);
  auto axes = axes_of(a[0]);
  if (!axes) return Value::boolean(true);
  for (const auto& ax : *axes) {
    long n;
    if (!normalize_axis(ax, rank, n)) return Value::boolean(false);
  }
  return Value::boolean(true);
}

Value prim_unique_axes(const Args& a) {
  long rank = rank_arg(a[1]);
  if (a[0].is_none() || a[0].is_int()) return Value::boolean(true);
  auto axes = axes_of(a[0]);
  std::set<long> seen;
  for (const auto& ax : *axes) {
    long n;
    if (!normalize_axis(ax, rank, n)) return Value::boolean(false);
    if (!seen.insert(n).second) return Value::boolean(false);
  }
  return Value::boolean(true);
}

Value prim_per_axis(const Args& a) {
  mpz_class i = need_int(a[1], "per_axis index");
  mpz_class n = need_int(a[2], "per_axis count");
  if (n < 0) throw EvalError("per_axis: count must be non-negative");
  if (i < 0 || i >= n) throw EvalError("per_axis: index " + i.get_str() + " is outside [0, " + n.get_str() + ")");
  const Value& fb = a[3];
  auto fallback = [&]() -> Value {
    if (fb.is_none()) throw EvalError("per_axis: the value is None and there is no fallback");
    if (!fb.is_int()) throw EvalError("per_axis: fallback must be an integer, got " + fb.repr());
    return fb;
  };
  const Value& v = a[0];
  if (v.is_int()) return v;
  if (v.is_none()) return fallback();
  if (!v.is_seq()) throw EvalError("per_axis: expected an integer, None or a sequence, got " + v.repr());
  if (mpz_class(static_cast<unsigned long>(v.seq.size())) != n)
    throw EvalError("per_axis: sequence " + v.repr() + " has length " + std::to_string(v.seq.size()) +
                    ", expected " + n.get_str());
  const Value& item = v.seq[i.get_ui()];
  if (item.is_none()) return fallback();
  if (!item.is_int()) throw EvalError("per_axis: item must be an integer or None, got " + item.repr());
  return item;
}

Value prim_ceil_div(const Args& a) {
  mpz_class x = need_int(a[0], "ceil_div dividend"), y = need_int(a[1], "ceil_div divisor");
  if (y <= 0) throw EvalError("ceil_div: divisor must be > 0, got " + y.get_str());
  mpz_class q;
  mpz_cdiv_q(q.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  return Value::integer(q);
}

Value prim_len(const Args& a) {
  if (!a[0].is_seq()) throw EvalError("len: expected a sequence, got " + a[0].repr());
  return Value::integer(static_cast<long>(a[0].seq.size()));
}

Value prim_prod(const Args& a) {
  mpz_class p = 1;
  for (const auto& x : to_ints(a[0], "prod argument")) p *= x;
  return Value::integer(p);
}

Value prim_sum(const Args& a) {
  mpz_class s = 0;
  for (const auto& x : to_ints(a[0], "sum argument")) s += x;
  return Value::integer(s);
}

Value extreme(const Args& a, bool is_max) {
  if (!a[0].is_seq()) throw EvalError(std::string(is_max ? "max" : "min") + ": expected a sequence, got " + a[0].repr());
  if (a[0].seq.empty()) {
    if (a[1].is_none()) throw EvalError(std::string(is_max ? "max" : "min") + "() of an empty sequence without default");
    return a[1];
  }
  Value best = a[0].seq[0];
  for (const auto& x : a[0].seq) {
    int c = compare(x, best);
    if (is_max ? c > 0 : c < 0) best = x;
  }
  return best;
}

Value prim_all(const Args& a) {
  if (!a[0].is_seq()) throw EvalError("all: expected a sequence, got " + a[0].repr());
  for (const auto& x : a[0].seq)
    if (!x.truthy()) return Value::boolean(false);
  return Value::boolean(true);
}

Value prim_conv_out(const Args& a) {
  mpz_class L = need_int(a[0], "L"), k = need_int(a[1], "kernel"), s = need_int(a[2], "stride"),
            p = need_int(a[3], "padding"), d = need_int(a[4], "dilation");
  if (s <= 0) throw EvalError("conv.out: stride must be > 0, got " + s.get_str());
  if (k <= 0) throw EvalError("conv.out: kernel must be > 0, got " + k.get_str());
  if (d <= 0) throw EvalError("conv.out: dilation must be > 0, got " + d.get_str());
  mpz_class num = L + 2 * p - d * (k - 1) - 1, q;
  mpz_fdiv_q(q.get_mpz_t(), num.get_mpz_t(), s.get_mpz_t());
  return Value::integer(q + 1);
}

Value prim_pool_out(const Args& a) {
  mpz_class L = need_int(a[0], "L"), k = need_int(a[1], "kernel"), s = need_int(a[2], "stride"),
            p = need_int(a[3], "padding"), d = need_int(a[4], "dilation");
  if (a[5].t != Value::T::Bool) throw EvalError("pool.out: ceil_mode must be a bool, got " + a[5].repr());
  bool ceil = a[5].b;
  if (s <= 0) throw EvalError("pool.out: stride must be > 0, got " + s.get_str());
  if (k <= 0) throw EvalError("pool.out: kernel must be > 0, got " + k.get_str());
  if (d <= 0) throw EvalError("pool.out: dilation must be > 0, got " + d.get_str());
  if (p < 0) throw EvalError("pool.out: padding must be >= 0, got " + p.get_str());
  mpz_class span = d * (k - 1) + 1;
  mpz_class num = L + 2 * p - span + (ceil ? s - 1 : mpz_class(0)), q;
  mpz_fdiv_q(q.get_mpz_t(), num.get_mpz_t(), s.get_mpz_t());
  mpz_class out = q + 1;
  if (ceil && (out - 1) * s >= L + p) out -= 1;
  if (out < 0) out = 0;
  return Value::integer(out);
}

Value prim_moe_capacity(const Args& a) {
  if (a[0].t != Value::T::Adt) throw EvalError("moe.capacity: expected an MGroupedLayout, got " + a[0].repr());
  const AdtValue& l = *a[0].adt;
  mpz_class R = need_int(a[1], "R"), E = need_int(a[2], "E");
  if (R < 0 || E < 0) throw EvalError("moe.capacity: R and E must be >= 0");
  if (l.ctor == "masked") {
    const Value* m = l.field("max_m");
    if (!m || !m->is_int()) throw EvalError("moe.capacity: masked layout needs max_m");
    return Value::integer(E * m->i);
  }
  if (l.ctor == "contiguous") {
    const Value* pk = l.field("packing");
    const Value* al = l.field("alignment");
    if (!pk || !al || !al->is_int()) throw EvalError("moe.capacity: contiguous layout needs packing and alignment");
    if (pk->s == "aligned") {
      if (al->i <= 0) throw EvalError("moe.capacity: alignment must be > 0");
      mpz_class num = R + E * (al->i - 1), q;
      mpz_cdiv_q(q.get_mpz_t(), num.get_mpz_t(), al->i.get_mpz_t());
      return Value::integer(q * al->i);
    }
    return Value::integer(R);
  }
  throw EvalError("moe.capacity: unknown layout constructor '" + l.ctor + "'");
}

Value prim_mhc_expansion(const Args& a) {
  mpz_class Q = need_int(a[0], "Q");
  if (Q <= 0) throw EvalError("mhc.expansion: " + Q.get_str() + " is not n*n + 2*n for a positive n");
  mpz_class r = sqrt(mpz_class(Q + 1));
  if (r * r != Q + 1) throw EvalError("mhc.expansion: " + Q.get_str() + " is not n*n + 2*n for a positive n");
  return Value::integer(r - 1);
}

Value prim_promote(const Args& a) {
  std::string d = need_dtype(a[0], "promote_int_to_float argument");
  return Value::str(find_dtype(d)->category == "int" ? "float32" : d);
}

Value prim_coalesce(const Args& a) {
  if (a[0].is_none()) return Value::str(need_dtype(a[1], "coalesce_dtype default"));
  return Value::str(need_dtype(a[0], "coalesce_dtype argument"));
}

Value prim_balanced_sizes(const Args& a) {
  mpz_class total = need_int(a[0], "balanced_sizes total"), count = need_int(a[1], "balanced_sizes count");
  if (count <= 0) throw EvalError("balanced_sizes: count must be > 0, got " + count.get_str());
  if (total < 0) throw EvalError("balanced_sizes: total must be >= 0, got " + total.get_str());
  if (count > static_cast<unsigned long>(kMaxSeqLen)) throw EvalError("balanced_sizes: count " + count.get_str() + " is too large");
  mpz_class q, r;
  mpz_fdiv_qr(q.get_mpz_t(), r.get_mpz_t(), total.get_mpz_t(), count.get_mpz_t());
  std::vector<mpz_class> out;
  for (unsigned long k = 0; k < count.get_ui(); ++k) out.push_back(q + (r > k ? 1 : 0));
  return Value::ints(out);
}

Value prim_repeat(const Args& a) {
  mpz_class v = need_int(a[0], "repeat value"), count = need_int(a[1], "repeat count");
  if (count < 0) throw EvalError("repeat: count must be >= 0, got " + count.get_str());
  if (count > static_cast<unsigned long>(kMaxSeqLen)) throw EvalError("repeat: count " + count.get_str() + " is too large");
  return Value::ints(std::vector<mpz_class>(count.get_ui(), v));
}

Value prim_category(const Args& a) {
  const Value& v = a[0];
  switch (v.t) {
    case Value::T::Bool: return Value::str("bool");
    case Value::T::Int: return Value::str("int");
    case Value::T::Float: return Value::str("float");
    case Value::T::Str:
      if (const SpecDType* d = find_dtype(v.s)) return Value::str(std::string(d->category));
      break;
    default: break;
  }
  throw EvalError("category: expected a dtype or a number, got " + v.repr());
}

bool float_fits(const Value& v, const SpecDType& d) {
  if (v.t == Value::T::Float) {
    if (std::isnan(v.f)) return true;
    if (std::isinf(v.f)) return d.has_inf;
    return std::fabs(v.f) <= d.max_finite;
  }
  mpz_class x = abs(v.as_int());
  return cmp(x, d.max_finite) <= 0;
}

Value prim_representable(const Args& a) {
  const Value& v = a[0];
  std::string dn = need_dtype(a[1], "representable dtype");
  const SpecDType& d = *find_dtype(dn);
  if (!v.is_number()) throw EvalError("representable: expected a number, got " + v.repr());
  if (d.category == "bool") return Value::boolean(true);
  if (d.category == "complex") return Value::boolean(float_fits(v, *find_dtype(d.component)));
  if (d.category == "float") return Value::boolean(float_fits(v, d));
  long lo;
  unsigned long hi;
  int_range(d, lo, hi);
  mpz_class mlo(std::to_string(lo)), mhi(std::to_string(hi));
  if (v.t == Value::T::Float) {
    if (!std::isfinite(v.f)) return Value::boolean(false);
    return Value::boolean(cmp(mlo, v.f) <= 0 && cmp(mhi, v.f) >= 0);
  }
  mpz_class x = v.as_int();
  if (d.is_unsigned) return Value::boolean(x >= -mhi && x <= mhi);
  return Value::boolean(x >= mlo && x <= mhi);
}

std::vector<PrimitiveDef> make_table() {
  std::vector<PrimitiveDef> t;
  auto add = [&](std::string name, std::vector<std::string> params, size_t req, auto fn, std::string doc,
                 bool value_prim = false) {
    PrimitiveDef d;
    d.name = std::move(name);
    d.params = std::move(params);
    d.required = req;
    d.impl = fn;
    d.doc = std::move(doc);
    d.value_primitive = value_prim;
    t.push_back(std::move(d));
  };
  add("broadcast", {"shapes"}, 1, prim_broadcast, "right-aligned broadcasting of shapes");
  t.back().variadic = true;
  add("reduced", {"shape", "dim", "keepdim", "mode"}, 4, prim_reduced, "shape after reducing dim");
  add("valid_axes", {"dim", "rank"}, 2, prim_valid_axes, "every axis normalizes at that rank");
  add("unique_axes", {"dim", "rank"}, 2, prim_unique_axes, "normalized axes are distinct");
  add("per_axis", {"value", "i", "n", "fallback"}, 3, prim_per_axis, "item i of a per-axis parameter");
  add("ceil_div", {"a", "b"}, 2, prim_ceil_div, "ceiling division, divisor > 0");
  add("len", {"seq"}, 1, prim_len, "length");
  add("prod", {"seq"}, 1, prim_prod, "product, 1 for empty");
  add("sum", {"seq"}, 1, prim_sum, "sum, 0 for empty");
  add("max", {"seq", "default"}, 1, [](const Args& a) { return extreme(a, true); }, "maximum");
  add("min", {"seq", "default"}, 1, [](const Args& a) { return extreme(a, false); }, "minimum");
  add("all", {"seq"}, 1, prim_all, "all true");
  add("conv.out", {"L", "k", "s", "p", "d"}, 5, prim_conv_out, "convolution output length");
  add("pool.out", {"L", "k", "s", "p", "d", "ceil_mode"}, 6, prim_pool_out, "pooling output length");
  add("moe.capacity", {"layout", "R", "E"}, 3, prim_moe_capacity, "rows a layout materializes");
  add("mhc.expansion", {"Q"}, 1, prim_mhc_expansion, "the positive n with n*n + 2*n = Q");
  add("promote_int_to_float", {"dtype"}, 1, prim_promote, "float32 for integer dtypes");
  add("coalesce_dtype", {"maybe_dtype", "dtype"}, 2, prim_coalesce, "payload when present, else the second");
  add("balanced_sizes", {"total", "count"}, 2, prim_balanced_sizes, "count near-equal sizes summing to total", true);
  add("repeat", {"value", "count"}, 2, prim_repeat, "count copies of value", true);
  add("category", {"value"}, 1, prim_category, "'bool' | 'int' | 'float' | 'complex'");
  add("representable", {"value", "dtype"}, 2, prim_representable, "scalar converts to dtype without overflow");
  return t;
}

}  // namespace

const std::vector<PrimitiveDef>& all_primitives() {
  static const std::vector<PrimitiveDef> table = make_table();
  return table;
}

const PrimitiveDef* find_primitive(const std::string& name) {
  for (const auto& p : all_primitives())
    if (p.name == name) return &p;
  return nullptr;
}

bool normalize_axis(const mpz_class& axis, long rank, long& out) {
  if (rank == 0) {
    if (axis == 0 || axis == -1) { out = 0; return true; }
    return false;
  }
  if (axis < -rank || axis >= rank) return false;
  long a = axis.get_si();
  out = a < 0 ? a + rank : a;
  return true;
}

std::vector<Value> bind_args(const PrimitiveDef& def, const std::vector<Value>& positional,
                             const std::vector<std::pair<std::string, Value>>& keywords) {
  if (def.variadic) {
    if (!keywords.empty()) throw EvalError(def.name + "() has no keyword '" + keywords[0].first + "'");
    if (positional.size() < def.required) throw EvalError(def.name + "() misses argument 1");
    return positional;
  }
  if (positional.size() > def.params.size())
    throw EvalError(def.name + "() takes at most " + std::to_string(def.params.size()) + " arguments, got " +
                    std::to_string(positional.size()));
  std::vector<Value> slots(def.params.size());
  std::vector<bool> given(def.params.size(), false);
  for (size_t k = 0; k < positional.size(); ++k) { slots[k] = positional[k]; given[k] = true; }
  for (const auto& [kw, v] : keywords) {
    size_t k = 0;
    while (k < def.params.size() && def.params[k] != kw) ++k;
    if (k == def.params.size() || k < def.required) throw EvalError(def.name + "() has no keyword '" + kw + "'");
    if (given[k]) throw EvalError(def.name + "() got argument '" + kw + "' twice");
    slots[k] = v;
    given[k] = true;
  }
  for (size_t k = 0; k < def.required; ++k)
    if (!given[k]) throw EvalError(def.name + "() misses argument " + std::to_string(k + 1) + " (" + def.params[k] + ")");
  return slots;
}

Value call_primitive(const std::string& name, const std::vector<Value>& positional,
                     const std::vector<std::pair<std::string, Value>>& keywords) {
  const PrimitiveDef* def = find_primitive(name);
  if (!def) throw EvalError("'" + name + "' is not a built-in primitive");
  return def->impl(bind_args(*def, positional, keywords));
}

}  // namespace kir::specs
