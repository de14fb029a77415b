// Filling the envelope log (envelope_log.h) from executed structured ops. Per result component:
//  * reduce / scan: the combine helper is inspected; a component whose combine is exactly
//    `add(a.c, b.c)` of the two accumulator parameters' component c is a sum: floating ->
//    envelope of the source elements (already converted to the accumulator dtype by the
//    normalizer: TermKind::AccValues); integer -> unique (wrapping). min/max/and/or/xor and
//    integer mul are exactly associative and commutative -> unique. Anything else (a floating
//    mul, an arbitrary helper) -> canonical-only. A non-neutral identity of add/xor/mul makes the
//    result depend on how often the identity is used -> canonical-only.
//  * contract / sparse_contract: float acc -> dot_envelope of the (kept) operand pairs, exact
//    products; integer acc -> unique. scaled_contract: envelope of the exact scaled products.
//  * quantized_dot: unique (bitwise-defined order).
// The result-element -> operand mapping is written out here independently of the handlers, so a
// handler that used the wrong operands shows up as "canonical inside envelope: no".
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "interp/engine.h"
#include "interp/envelope_log.h"
#include "numerics/format.h"

namespace kir::interp {
namespace {

// ---- leaves of structured values ----

struct Leaf {
  std::vector<size_t> path;
  std::string path_str;
  const Value* v;
};

void flatten(const Value& v, std::vector<size_t>& path, const std::string& ps, std::vector<Leaf>& out) {
  if (v.is_tuple() || v.is_record()) {
    const auto& elems = v.is_tuple() ? v.tuple().elems : v.record().elems;
    for (size_t i = 0; i < elems.size(); ++i) {
      path.push_back(i);
      flatten(elems[i], path, ps + "." + (v.is_tuple() ? std::to_string(i) : v.record().names[i]), out);
      path.pop_back();
    }
    return;
  }
  out.push_back({path, ps, &v});
}

std::vector<Leaf> leaves(const Value& v) {
  std::vector<Leaf> out;
  std::vector<size_t> path;
  flatten(v, path, "", out);
  return out;
}

DType leaf_dtype(const Value& v) { return v.is_scalar() ? v.scalar().dtype : v.tensor().dtype; }
Shape leaf_shape(const Value& v) { return v.is_scalar() ? Shape{} : v.tensor().shape; }
uint64_t leaf_bits(const Value& v, int64_t i) {
  return v.is_scalar() ? v.scalar().bits : v.tensor().bits.at(static_cast<size_t>(i));
}

// The value of an element as an exact double, if it has one (floats always; integers up to 2^53).
std::optional<double> exact_double(DType d, uint64_t bits) {
  if (is_any_float(d)) return num::to_double(bits, d);
  if (d == DType::Bool) return bits ? 1.0 : 0.0;
  const double v = is_signed_integer(d) ? static_cast<double>(num::as_signed(Scalar{d, bits})) : static_cast<double>(bits);
  if (std::fabs(v) > 9007199254740992.0) return std::nullopt;
  return v;
}

// The degenerate envelope of a value that is the only legal result.
ElementEnvelope exact_element(DType d, uint64_t bits) {
  ElementEnvelope e;
  e.canonical = bits;
  e.env.acc = d;
  const double v = exact_double(d, bits).value_or(std::nan(""));
  e.env.exact_rounded = e.env.lo = e.env.hi = v;
  e.env.bound = 0;
  e.env.is_nan = is_any_float(d) && num::is_nan(bits, d);
  return e;
}

// ---- combine recognition ----

struct Classified {
  Uniqueness kind;
  std::string reason;
  std::string op;  // the pointwise op of a recognized combine
};

// Whether `v` is component `path[0..n)` of `param` (a chain of tuple.get / record.get).
bool is_component_of(const kir::Value* v, const kir::Value* param, const std::vector<size_t>& path, size_t n) {
  if (n == 0) return v == param;
  const Operation* d = v->def;
  if (!d || d->operands.size() != 1) return false;
  size_t idx;
  if (d->name == "tuple.get") {
    const Attribute* a = d->attr("index");
    if (!a || !a->is_int()) return false;
    idx = static_cast<size_t>(a->i);
  } else if (d->name == "record.get") {
    const Attribute* a = d->attr("field");
    const Type& t = d->operands[0]->type;
    if (!a || !t.is(TypeKind::Record)) return false;
    const auto& fs = t.fields();
    auto it = std::find_if(fs.begin(), fs.end(), [&](const auto& fl) { return fl.first == a->s; });
    if (it == fs.end()) return false;
    idx = static_cast<size_t>(it - fs.begin());
  } else {
    return false;
  }
  return idx == path[n - 1] && is_component_of(d->operands[0], param, path, n - 1);
}

Classified canonical_only(const std::string& why) {
  return {Uniqueness::CanonicalOnly, why + ": only the canonical left fold is defined", ""};
}

// What the combine does to the accumulator component at `path` (of dtype d).
Classified classify(const Function& fn, const std::vector<size_t>& path, DType d) {
  const auto& args = fn.body.args;
  const Operation* ret = fn.body.ops.empty() ? nullptr : fn.body.ops.back().get();
  if (args.size() < 2 || !ret || ret->name != "return" || ret->operands.size() != 1)
    return canonical_only("combine @" + fn.name + " is not a single-result helper");
  const kir::Value* v = ret->operands[0];
  for (size_t i : path) {  // follow the tuple/record construction down to the component
    const Operation* d0 = v->def;
    if (!d0 || (d0->name != "tuple" && d0->name != "record") || i >= d0->operands.size())
      return canonical_only("combine @" + fn.name + " builds component " + std::to_string(i) + " opaquely");
    v = d0->operands[i];
  }
  const Operation* op = v->def;
  const std::string what = "combine @" + fn.name;
  if (!op || op->operands.size() != 2) return canonical_only(what + " is not one binary op of its accumulators");
  const kir::Value *a = args[0].get(), *b = args[1].get();
  const auto& x = op->operands;
  const bool direct = is_component_of(x[0], a, path, path.size()) && is_component_of(x[1], b, path, path.size());
  const bool swapped = is_component_of(x[0], b, path, path.size()) && is_component_of(x[1], a, path, path.size());
  if (!direct && !swapped) return canonical_only(what + " applies " + op->name + " to other values than its two accumulators");
  const std::string& n = op->name;
  const bool fl = is_any_float(d);
  if (n == "min" || n == "max") return {Uniqueness::Unique, n + " is exactly associative and commutative", n};
  if ((n == "and" || n == "or" || n == "xor") && !fl) return {Uniqueness::Unique, n + " is exactly associative and commutative", n};
  if ((n == "add" || n == "mul") && !fl)
    return {Uniqueness::Unique, "integer " + n + " wraps modulo 2^width: exactly associative and commutative", n};
  if (n == "add") return {Uniqueness::Envelope, "floating add: any order lies in the reassociation envelope", n};
  if (n == "mul") return canonical_only("floating mul is not associative");
  return canonical_only(what + " applies " + n + ", not a recognized associative operation");
}

// Whether the identity element (bits of dtype d) is neutral for the recognized op.
bool identity_neutral(const std::string& op, DType d, uint64_t bits) {
  if (op == "add" || op == "xor") return is_any_float(d) ? num::classify(bits, d) == num::FpClass::Zero : bits == 0;
  if (op == "mul") return exact_double(d, bits) == 1.0;
  return true;  // min/max/and/or are idempotent: the identity may be used any number of times
}

// ---- row-major offsets ----

// For `shape`, the flat offsets of every point of the `inner` axes (row-major over them) and the
// base offsets of every point of the other axes (row-major).
struct Split {
  std::vector<int64_t> outer, inner;
};
Split split_offsets(const Shape& shape, const std::vector<int64_t>& inner_axes) {
  const Shape st = row_major_strides(shape);
  Shape os, ost, is, ist;
  for (size_t a = 0; a < shape.size(); ++a) {
    const bool in = std::find(inner_axes.begin(), inner_axes.end(), static_cast<int64_t>(a)) != inner_axes.end();
    (in ? is : os).push_back(shape[a]);
    (in ? ist : ost).push_back(st[a]);
  }
  auto offsets = [](const Shape& s, const Shape& strides) {
    std::vector<int64_t> out(static_cast<size_t>(checked_numel(s)));
    for (size_t k = 0; k < out.size(); ++k) {
      Shape c = unravel(static_cast<int64_t>(k), s);
      int64_t o = 0;
      for (size_t i = 0; i < c.size(); ++i) o += c[i] * strides[i];
      out[k] = o;
    }
    return out;
  };
  return {offsets(os, ost), offsets(is, ist)};
}

EnvelopeRecord new_record(const Operation& op) {
  EnvelopeRecord r;
  r.op = &op;
  r.location = op.loc.str();
  r.op_name = op.name;
  r.result_name = op.results.empty() ? "" : op.result()->name;
  return r;
}

EnvelopeComponent new_component(const Leaf& res) {
  EnvelopeComponent c;
  c.path = res.path_str;
  c.dtype = leaf_dtype(*res.v);
  c.shape = leaf_shape(*res.v);
  return c;
}

void finish(EnvelopeComponent& c) {
  for (auto& e : c.elements) e.inside = accepts(e, c.kind, c.dtype, e.canonical);
}

// The envelope of a sum; an empty sum is the identity itself.
num::Envelope sum_or_identity(const std::vector<double>& terms, DType acc, double identity) {
  if (terms.empty()) return num::sum_envelope(std::vector<double>{identity}, acc);
  return num::sum_envelope(terms, acc);
}

// ---- reduce and scan ----

void log_reduce_scan(Engine& E, Frame& f, const Operation& op, bool scan) {
  const Value& src = E.operand(f, op, 0);
  const Value& id = E.operand(f, op, 1);
  const Value& res = f.env.at(op.result());
  const Function& combine = E.helper(op, "combine");
  std::vector<int64_t> axes = scan ? std::vector<int64_t>{attr_int(op, "axis")} : attr_ints(op, "axes");
  std::sort(axes.begin(), axes.end());
  const bool inclusive = attr_bool(op, "inclusive", true), reverse = attr_bool(op, "reverse", false);
  auto sl = leaves(src), il = leaves(id), rl = leaves(res);
  EnvelopeRecord rec = new_record(op);
  for (size_t li = 0; li < rl.size(); ++li) {
    EnvelopeComponent c = new_component(rl[li]);
    const int64_t nres = checked_numel(c.shape);
    Classified k = li < sl.size() && li < il.size() && sl[li].v->is_tensor()
                       ? classify(combine, rl[li].path, c.dtype)
                       : canonical_only("source and result structures differ");
    if (k.kind != Uniqueness::CanonicalOnly) {
      const int64_t nid = checked_numel(leaf_shape(*il[li].v));
      for (int64_t e = 0; e < nid; ++e)
        if (!identity_neutral(k.op, c.dtype, leaf_bits(*il[li].v, e))) {
          k = canonical_only("identity is not the neutral element of " + k.op);
          break;
        }
    }
    c.kind = k.kind;
    c.reason = k.reason;
    c.elements.reserve(static_cast<size_t>(nres));
    for (int64_t e = 0; e < nres; ++e) c.elements.push_back(exact_element(c.dtype, leaf_bits(*rl[li].v, e)));
    if (c.kind == Uniqueness::Envelope) {
      try {
        const Tensor& s = sl[li].v->tensor();
        const Value& idl = *il[li].v;
        const Split sp = split_offsets(s.shape, axes);
        auto term = [&](size_t at) { return num::to_double(s.bits[at], s.dtype); };
        for (size_t o = 0; o < sp.outer.size(); ++o) {
          const uint64_t idb = leaf_bits(idl, static_cast<int64_t>(o));
          const double idv = num::to_double(idb, c.dtype);
          const bool id_pos_zero = idv == 0 && !std::signbit(idv);
          std::vector<double> terms;
          for (int64_t in : sp.inner) terms.push_back(term(static_cast<size_t>(sp.outer[o] + in)));
          if (!scan) {
            auto& el = c.elements[o];
            el.env = sum_or_identity(terms, c.dtype, idv);
            el.any_zero_sign = !terms.empty() && id_pos_zero && el.env.all_negative_zero;
            continue;
          }
          // scan lane o: step j processes position pos(j); inclusive prefixes in processing order
          const size_t n = terms.size();
          std::vector<double> ordered(n);
          for (size_t j = 0; j < n; ++j) ordered[j] = terms[reverse ? n - 1 - j : j];
          const auto pre = num::scan_envelope(ordered, c.dtype);
          for (size_t j = 0; j < n; ++j) {
            const size_t pos = reverse ? n - 1 - j : j;
            auto& el = c.elements[static_cast<size_t>(sp.outer[o] + sp.inner[pos])];
            const bool none = !inclusive && j == 0;
            el.env = none ? sum_or_identity({}, c.dtype, idv) : pre[inclusive ? j : j - 1];
            el.any_zero_sign = !none && id_pos_zero && el.env.all_negative_zero;
          }
        }
      } catch (const std::invalid_argument& ex) {  // no envelope for this dtype (small formats)
        c.kind = Uniqueness::CanonicalOnly;
        c.reason = std::string(ex.what()) + ": only the canonical left fold is defined";
        for (int64_t e = 0; e < nres; ++e) c.elements[static_cast<size_t>(e)] = exact_element(c.dtype, leaf_bits(*rl[li].v, e));
      }
    }
    finish(c);
    rec.components.push_back(std::move(c));
  }
  E.opts.envelopes->records.push_back(std::move(rec));
}

// ---- contract family ----

// Per result element the operand offset pairs that multiply into it (seed 000 §10.2 axis order:
// lhs axes not reduced, in order, batch pairs represented by the lhs axis; then rhs axes neither
// reduced nor batch members).
struct PairMap {
  Shape out_shape;
  std::vector<int64_t> out_l, out_r, red_l, red_r;  // base offsets per result element / per reduce point
};
PairMap pair_map(const Operation& op, const Shape& ls, const Shape& rs) {
  const auto reduce = attr_pairs(op, "reduce"), batch = attr_pairs(op, "batch");
  const Shape lst = row_major_strides(ls), rst = row_major_strides(rs);
  std::vector<int64_t> lpartner(ls.size(), -1);
  std::vector<bool> lred(ls.size(), false), rskip(rs.size(), false);
  Shape red_shape, rl, rr, ol, orr;
  for (auto [l, r] : reduce) {
    lred.at(static_cast<size_t>(l)) = true;
    rskip.at(static_cast<size_t>(r)) = true;
    red_shape.push_back(ls[static_cast<size_t>(l)]);
    rl.push_back(lst[static_cast<size_t>(l)]);
    rr.push_back(rst[static_cast<size_t>(r)]);
  }
  for (auto [l, r] : batch) {
    lpartner.at(static_cast<size_t>(l)) = r;
    rskip.at(static_cast<size_t>(r)) = true;
  }
  PairMap m;
  for (size_t a = 0; a < ls.size(); ++a) {
    if (lred[a]) continue;
    m.out_shape.push_back(ls[a]);
    ol.push_back(lst[a]);
    orr.push_back(lpartner[a] >= 0 ? rst[static_cast<size_t>(lpartner[a])] : 0);
  }
  for (size_t a = 0; a < rs.size(); ++a) {
    if (rskip[a]) continue;
    m.out_shape.push_back(rs[a]);
    ol.push_back(0);
    orr.push_back(rst[a]);
  }
  auto fill = [](const Shape& s, const Shape& s1, const Shape& s2, std::vector<int64_t>& o1, std::vector<int64_t>& o2) {
    const int64_t n = checked_numel(s);
    for (int64_t k = 0; k < n; ++k) {
      Shape c = unravel(k, s);
      int64_t a = 0, b = 0;
      for (size_t i = 0; i < c.size(); ++i) { a += c[i] * s1[i]; b += c[i] * s2[i]; }
      o1.push_back(a);
      o2.push_back(b);
    }
  };
  fill(m.out_shape, ol, orr, m.out_l, m.out_r);
  fill(red_shape, rl, rr, m.red_l, m.red_r);
  return m;
}

EnvelopeComponent result_component(const Value& res) {
  EnvelopeComponent c = new_component(Leaf{{}, "", &res});
  const int64_t n = checked_numel(c.shape);
  for (int64_t e = 0; e < n; ++e) c.elements.push_back(exact_element(c.dtype, leaf_bits(res, e)));
  return c;
}

void push_single(Engine& E, const Operation& op, EnvelopeComponent c) {
  finish(c);
  EnvelopeRecord rec = new_record(op);
  rec.components.push_back(std::move(c));
  E.opts.envelopes->records.push_back(std::move(rec));
}

void log_contract(Engine& E, Frame& f, const Operation& op, const Tensor& l, const Tensor& r, const std::vector<uint8_t>* mask) {
  EnvelopeComponent c = result_component(f.env.at(op.result()));
  if (!is_any_float(c.dtype)) {
    c.kind = Uniqueness::Unique;
    c.reason = "integer accumulator wraps modulo 2^width: order-independent";
    return push_single(E, op, std::move(c));
  }
  c.kind = Uniqueness::Envelope;
  c.reason = "floating multiply-add: exact products summed in any order lie in the envelope";
  const PairMap m = pair_map(op, l.shape, r.shape);
  std::vector<double> a, b;
  for (size_t o = 0; o < m.out_l.size() && c.kind == Uniqueness::Envelope; ++o) {
    a.clear();
    b.clear();
    for (size_t k = 0; k < m.red_l.size(); ++k) {
      const int64_t lo = m.out_l[o] + m.red_l[k], ro = m.out_r[o] + m.red_r[k];
      if (mask && !(*mask)[static_cast<size_t>(lo)]) continue;
      auto x = exact_double(l.dtype, l.bits[static_cast<size_t>(lo)]), y = exact_double(r.dtype, r.bits[static_cast<size_t>(ro)]);
      if (!x || !y) {
        c.kind = Uniqueness::CanonicalOnly;
        c.reason = "integer operands beyond 2^53: no envelope computed, only the canonical value is reported";
        break;
      }
      a.push_back(*x);
      b.push_back(*y);
    }
    if (c.kind == Uniqueness::Envelope) {
      try {
        c.elements[o].env = num::dot_envelope(a, b, c.dtype);
      } catch (const std::invalid_argument& ex) {
        c.kind = Uniqueness::CanonicalOnly;
        c.reason = ex.what();
      }
    }
  }
  if (c.kind != Uniqueness::Envelope)
    for (auto& e : c.elements) e = exact_element(c.dtype, e.canonical);
  push_single(E, op, std::move(c));
}

DType scaled_format(const Operation& op, const char* key) {
  const std::string s = attr_keyword(op, key);
  return s == "e2m1" ? DType::E2M1 : s == "e4m3" ? DType::E4M3 : DType::E5M2;  // validated by the handler
}

// Logical element k of a scaled_contract carrier group starting at `base` (elements `stride` apart;
// e2m1 packs two per byte, low nibble first).
double scaled_value(const Tensor& t, int64_t base, int64_t stride, int64_t k, DType fmt) {
  const uint64_t byte = t.bits.at(static_cast<size_t>(base + (fmt == DType::E2M1 ? k / 2 : k) * stride)) & 0xff;
  return num::to_double(fmt == DType::E2M1 ? ((k % 2) ? byte >> 4 : byte & 0xf) : byte, fmt);
}

void log_scaled_contract(Engine& E, Frame& f, const Operation& op) {
  const Tensor &l = E.operand(f, op, 0).tensor(), &ls = E.operand(f, op, 1).tensor();
  const Tensor &r = E.operand(f, op, 2).tensor(), &rs = E.operand(f, op, 3).tensor();
  const DType lf = scaled_format(op, "lhs_format"), rf = scaled_format(op, "rhs_format");
  const int64_t group = attr_int(op, "lhs_group_size");
  const int64_t M = l.shape[0], G = l.shape[1], N = r.shape[2];
  const int64_t cl = lf == DType::E2M1 ? group / 2 : group, cr = rf == DType::E2M1 ? group / 2 : group;
  EnvelopeComponent c = result_component(f.env.at(op.result()));
  c.kind = Uniqueness::Envelope;
  c.reason = "scaled products (exact, times exact power-of-two scales) summed in any order lie in the envelope";
  std::vector<double> terms;
  try {
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        terms.clear();
        for (int64_t g = 0; g < G; ++g) {
          const uint64_t sl = ls.bits[static_cast<size_t>(m * G + g)] & 0xff, sr = rs.bits[static_cast<size_t>(n * G + g)] & 0xff;
          if (sl == 0xff || sr == 0xff) { terms.push_back(std::nan("")); continue; }  // NaN scale: NaN block
          const int sexp = static_cast<int>(sl) + static_cast<int>(sr) - 254;
          for (int64_t k = 0; k < group; ++k)  // |a·b| has <= 8 significant bits: exact in double
            terms.push_back(std::ldexp(scaled_value(l, (m * G + g) * cl, 1, k, lf) * scaled_value(r, g * cr * N + n, N, k, rf), sexp));
        }
        c.elements[static_cast<size_t>(m * N + n)].env = num::sum_envelope(terms, c.dtype, num::TermKind::ExactProducts);
      }
  } catch (const std::invalid_argument& ex) {
    c.kind = Uniqueness::CanonicalOnly;
    c.reason = ex.what();
    for (auto& e : c.elements) e = exact_element(c.dtype, e.canonical);
  }
  push_single(E, op, std::move(c));
}

}  // namespace

void log_envelopes(Engine& E, Frame& f, const Operation& op) {
  if (op.name == "reduce" || op.name == "scan") return log_reduce_scan(E, f, op, op.name == "scan");
  if (op.name == "contract") return log_contract(E, f, op, E.operand(f, op, 0).tensor(), E.operand(f, op, 1).tensor(), nullptr);
  if (op.name == "scaled_contract") return log_scaled_contract(E, f, op);
  if (op.name == "quantized_dot") {
    EnvelopeComponent c = result_component(f.env.at(op.result()));
    c.kind = Uniqueness::Unique;
    c.reason = "bitwise-defined: integer block sums and a fixed float order (q4_K x q8_K reference)";
    return push_single(E, op, std::move(c));
  }
}

void log_sparse_envelopes(Engine& E, Frame& f, const Operation& op, const Tensor& dense, const Tensor& rhs,
                          const std::vector<uint8_t>& mask) {
  log_contract(E, f, op, dense, rhs, &mask);
}

}  // namespace kir::interp
