// Structured families: reduce and scan with builtin-like combines (one add/mul/min/max/and/
// or/xor helper, usually with its neutral identity) and with user combines (random pure bodies
// with captures, or the tuple argmax), and contract (matmul, matvec, dot, batched, several
// reduce pairs) with an explicit accumulator dtype.
#include <algorithm>

#include "fuzz/gen/families.h"
#include "fuzz/gen/helpers.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

std::string ints(const std::vector<size_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

VType less_axes(const VType& t, const std::vector<size_t>& axes) {
  Shape s;
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) s.push_back(t.shape[i]);
  return s.empty() ? VType::scalar(t.dt) : VType::of(t.dt, s);
}

std::optional<PoolValue> reducible(FnBuilder& fb, Rng& r) {
  return pick(fb, r, [](const VType& t) { return t.rank() >= 1 && is_compute(t.dt); });
}

// Identity: the neutral element (sometimes another constant: a canonical-only fold).
std::string identity(Ctx& c, FnBuilder& fb, Rng& r, const VType& acc, const std::string& kind) {
  uint64_t bits = neutral_bits(acc.dt, kind);
  if (r.chance(0.1)) {
    bits = nice_bits(acc.dt, r);
    c.family("identity.other");
  }
  return splat(fb, acc, bits);
}

// reduce / scan with a builtin-like or user combine. scan: one axis, result = source type.
bool structured(Ctx& c, FnBuilder& fb, Rng& r, bool scan, bool user) {
  auto src = reducible(fb, r);
  if (!src) return false;
  if (fb.kernel && is_float(src->type.dt) && r.chance(0.3)) {
    // Input data straight in (kernel bodies have views): an input that is all -0 or all negative
    // reaches the combine as it is (a sum or max started from the wrong identity shows only there).
    const VType vt = src->type;
    const std::string v = fb.def("view.load(" + new_view(c, vt, Access::In, &r) + ", " + ident_relation(c, fb, vt.shape) + ")", vt);
    src = PoolValue{v, vt};
  }
  const VType& t = src->type;
  std::vector<size_t> axes;
  if (scan) {
    axes.push_back(r.below(t.shape.size()));
  } else {
    for (size_t i = 0; i < t.shape.size(); ++i)
      if (r.chance(0.5)) axes.push_back(i);
    if (axes.empty()) axes.push_back(r.below(t.shape.size()));
  }
  const VType acc = less_axes(t, axes);
  std::string attrs = scan ? "{axis = " + std::to_string(axes[0]) : "{axes = " + ints(axes);
  if (user && r.chance(0.35) && arith_ok(t.dt)) {  // tuple (value, position) argmax
    const size_t k = axes[0];
    if (!scan) axes = {k}, attrs = "{axes = " + ints(axes);
    const VType vacc = less_axes(t, axes);
    const Generalized g = generalize(fb, {vacc});
    const std::string comb = argmax_combine(c, g.types[0]);
    const VType pos_t = t.with(DType::Index);
    const std::string pos = along(fb, iota(c, fb, t.shape[k]), t.shape, static_cast<int>(k));
    const std::string tsrc = fb.def_raw("tuple(" + src->name + ", " + pos + ")", "tuple<" + t.str() + ", " + pos_t.str() + ">");
    const VType iacc = vacc.with(DType::Index);
    const std::string id = fb.def_raw("tuple(" + splat(fb, vacc, neutral_bits(t.dt, "max")) + ", " + splat(fb, iacc, 0) + ")",
                                      "tuple<" + vacc.str() + ", " + iacc.str() + ">");
    const VType rv = scan ? t : vacc, ri = scan ? pos_t : iacc;
    const std::string rt = "tuple<" + rv.str() + ", " + ri.str() + ">";
    attrs += ", combine = " + comb + "}";
    const std::string res = fb.def_raw(std::string(scan ? "scan" : "reduce") + "(" + tsrc + ", " + id + ") " + attrs, rt);
    fb.def("tuple.get(" + res + ") {index = 0}", rv);
    fb.def("tuple.get(" + res + ") {index = 1}", ri);
    c.family(scan ? "scan.tuple" : "reduce.tuple");
    return true;
  }
  std::string comb, captures;
  const auto kinds = combine_kinds(t.dt);
  const std::string kind = r.pick(kinds);
  if (user) {
    std::vector<VType> types = {acc};
    std::vector<std::string> names;
    for (int i = 0, n = static_cast<int>(r.range(0, 2)); i < n; ++i) {
      const VType k = r.chance(0.5) ? VType::scalar(t.dt) : acc;
      names.push_back(get(c, fb, r, k));
      types.push_back(k);
    }
    comb = user_combine(c, r, generalize(fb, types));
    for (const auto& n : names) captures += ", " + n;
    if (!names.empty()) c.family("combine.captures");
  } else {
    comb = simple_combine(c, generalize(fb, {acc}).types[0], kind);
  }
  const std::string id = identity(c, fb, r, acc, kind);
  attrs += ", combine = " + comb;
  if (scan) {
    if (r.chance(0.5)) attrs += std::string(", inclusive = ") + (r.chance(0.5) ? "true" : "false");
    if (r.chance(0.5)) attrs += std::string(", reverse = ") + (r.chance(0.5) ? "true" : "false");
  }
  attrs += "}";
  fb.def(std::string(scan ? "scan" : "reduce") + "(" + src->name + ", " + id + captures + ") " + attrs, scan ? t : acc);
  return true;
}

}  // namespace

bool fam_reduce(Ctx& c, FnBuilder& fb, Rng& r) { return structured(c, fb, r, false, false); }
bool fam_reduce_user(Ctx& c, FnBuilder& fb, Rng& r) { return structured(c, fb, r, false, true); }
bool fam_scan(Ctx& c, FnBuilder& fb, Rng& r) { return structured(c, fb, r, true, false); }
bool fam_scan_user(Ctx& c, FnBuilder& fb, Rng& r) { return structured(c, fb, r, true, true); }

bool fam_contract(Ctx& c, FnBuilder& fb, Rng& r) {
  auto ok_in = [](DType d) { return arith_ok(d) && d != DType::Index; };
  std::optional<PoolValue> lhs = pick(fb, r, [&](const VType& t) { return t.rank() >= 1 && t.rank() <= 3 && ok_in(t.dt); });
  if (!lhs || r.chance(0.3)) {
    const VType t = random_tensor_type(c, fb, r, ok_in, 3);
    lhs = PoolValue{get(c, fb, r, t), t, 1};
  }
  const VType& lt = lhs->type;
  const size_t n = lt.shape.size();
  // Reduce pairs: one or two lhs axes; a batch axis sometimes.
  std::vector<size_t> red = {r.below(n)};
  if (n >= 3 && r.chance(0.3)) {
    size_t k2 = r.below(n);
    if (k2 != red[0]) red.push_back(k2);
  }
  std::vector<size_t> batch;
  for (size_t i = 0; i < n && batch.empty(); ++i)
    if (std::find(red.begin(), red.end(), i) == red.end() && r.chance(0.3)) batch.push_back(i);
  // rhs: batch axes, then the reduced extents, then 0..1 free axes.
  Shape rs;
  std::string bpairs, rpairs;
  for (size_t b : batch) {
    bpairs += (bpairs.empty() ? "[" : ", [") + std::to_string(b) + ", " + std::to_string(rs.size()) + "]";
    rs.push_back(lt.shape[b]);
  }
  std::vector<size_t> order = red;
  if (order.size() == 2 && r.chance(0.5)) std::swap(order[0], order[1]);
  for (size_t k : order) {
    rpairs += (rpairs.empty() ? "[" : ", [") + std::to_string(k) + ", " + std::to_string(rs.size()) + "]";
    rs.push_back(lt.shape[k]);
  }
  const size_t nfree = r.below(2);
  for (size_t i = 0; i < nfree; ++i) rs.push_back(random_ext(c, fb, r));
  // Result: lhs axes not reduced (batch included), then rhs free axes.
  Shape res;
  for (size_t i = 0; i < n; ++i)
    if (std::find(red.begin(), red.end(), i) == red.end()) res.push_back(lt.shape[i]);
  for (size_t i = rs.size() - nfree; i < rs.size(); ++i) res.push_back(rs[i]);
  if (!c.fits(fb, rs) || !c.fits(fb, res)) return false;
  DType acc = lt.dt;
  if (lt.dt == DType::F16 || lt.dt == DType::BF16) acc = r.chance(0.7) ? DType::F32 : lt.dt;
  else if (lt.dt == DType::F32) acc = r.chance(0.2) ? DType::F64 : DType::F32;
  else if (is_integer(lt.dt) && r.chance(0.5)) acc = r.chance(0.5) ? DType::I32 : DType::I64;
  if (!c.allowed(acc)) acc = lt.dt;
  const std::string rhs = get(c, fb, r, VType::of(lt.dt, rs));
  fb.def("contract(" + lhs->name + ", " + rhs + ") {batch = [" + bpairs + "], reduce = [" + rpairs + "]}",
         VType::of(acc, res));
  if (!batch.empty()) c.family("contract.batch");
  if (red.size() > 1) c.family("contract.multi");
  return true;
}

}  // namespace kir::fuzz
