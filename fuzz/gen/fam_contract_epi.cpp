// The contract_epilogue family: a dense matrix product whose result goes through exactly one
// pointwise op (a bias add, an activation, a scale or a cast) straight to its store, the shape
// the CPU backend's epilogue pass hands to a packed contract implementation. Shapes and dtypes
// aim at the packed forms and their branches, which the general contract family reaches only by
// chance: tiles of at most four rows (the gemv kernel), f32/f64 operands read in place,
// f16/bf16 operands converted while packing, bf16 pairs, i8/u8 into i32, batch pairs and two
// reduce pairs; now and then one extent just above a default block size (KC 512 or 256, MC 144)
// with the others small, so that the case stays fast.
#include "fuzz/gen/families.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

// Operand and accumulator dtypes, weighted: each packed form and its paths.
struct Form {
  DType in, acc;
  int weight;
};
const Form kForms[] = {
    {DType::F32, DType::F32, 5},   // contract.packed: gemv reads in place (few rows)
    {DType::F64, DType::F64, 2},   // the same in f64
    {DType::F32, DType::F64, 2},   // packed, converted while packing
    {DType::F16, DType::F32, 2},   // packed, converted while packing
    {DType::BF16, DType::F32, 3},  // contract.packed_bf16
    {DType::BF16, DType::F64, 1},  // contract.packed, converted
    {DType::I8, DType::I32, 2},    // contract.packed_i8
    {DType::U8, DType::I32, 2},    // contract.packed_i8 (u8)
};

// An extent of a value in [lo, hi]: a dynamic extent of this function with such a value now and
// then, else a constant.
Ext extent_in(Ctx& c, FnBuilder& fb, Rng& r, int64_t lo, int64_t hi) {
  std::vector<Ext> ok;
  for (const Ext& e : fb.extents) {
    const int64_t v = c.value_of(fb, e);
    if (!e.is_const() && v >= lo && v <= hi) ok.push_back(e);
  }
  if (!ok.empty() && r.chance(0.4)) return r.pick(ok);
  return Ext::constant(r.range(lo, hi));
}

std::string pair_text(size_t a, size_t b) { return "[" + std::to_string(a) + ", " + std::to_string(b) + "]"; }

// A value of type t used here (not stored again at the end as a value nothing consumed): mostly
// a new In view (data the inputs choose), sometimes whatever `get` makes.
std::string operand(Ctx& c, FnBuilder& fb, Rng& r, const VType& t, bool any = true) {
  const std::string v = any && r.chance(0.25) ? get(c, fb, r, t) : new_input(c, fb, r, t);
  fb.use(v);
  return v;
}

// `x` (of type t) broadcast from a vector along axis `axis` of t, or from a scalar (axis < 0).
std::string spread(FnBuilder& fb, const std::string& x, const VType& t, int axis) {
  return fb.def("broadcast(" + x + ") {dims = [" + (axis < 0 ? "" : std::to_string(axis)) + "]}", t, false);
}

// The one pointwise op on the contract result `x` of type t; returns its result and type.
std::pair<std::string, VType> epilogue(Ctx& c, FnBuilder& fb, Rng& r, const std::string& x, const VType& t) {
  const bool flt = is_float(t.dt);
  const int rank = t.rank();
  switch (r.weighted({4, 4, 3, 3})) {
    case 0: {  // bias: a vector along the columns (or the rows), or a runtime scalar
      const int axis = r.chance(0.7) ? rank - 1 : r.chance(0.7) ? rank - 2 : -1;
      const std::string v = operand(c, fb, r, axis < 0 ? VType::scalar(t.dt) : VType::of(t.dt, {t.shape[static_cast<size_t>(axis)]}), false);
      c.family("contract_epilogue.bias");
      return {fb.def(std::string(r.chance(0.8) ? "add" : "sub") + "(" + x + ", " + spread(fb, v, t, axis) + ")", t, false), t};
    }
    case 1: {  // activation
      c.family("contract_epilogue.activation");
      if (flt) {
        const std::string op = r.pick({"relu", "tanh", "exp", "sigmoid", "abs", "sqrt", "erf"});
        if (op == "relu") return {fb.def("max(" + x + ", " + splat(fb, t, value_bits(t.dt, 0.0)) + ")", t, false), t};
        return {fb.def(op + "(" + x + ")", t, false), t};
      }
      const std::string op = r.pick({"relu", "clamp", "neg", "not"});
      if (op == "relu") return {fb.def("max(" + x + ", " + splat(fb, t, 0) + ")", t, false), t};
      if (op == "clamp") return {fb.def("min(" + x + ", " + splat(fb, t, int_bits(t.dt, r.range(-300, 300))) + ")", t, false), t};
      return {fb.def(op + "(" + x + ")", t, false), t};
    }
    case 2: {  // scale: a constant or a runtime scalar
      c.family("contract_epilogue.scale");
      const std::string s = r.chance(0.5) ? splat(fb, t, nice_bits(t.dt, r)) : spread(fb, operand(c, fb, r, VType::scalar(t.dt), false), t, -1);
      return {fb.def("mul(" + x + ", " + s + ")", t, false), t};
    }
    default: {  // cast to another dtype that cannot fault (never float -> integer)
      c.family("contract_epilogue.cast");
      std::vector<DType> to;
      for (DType d : flt ? std::vector<DType>{DType::F16, DType::BF16, DType::F32, DType::F64}
                         : std::vector<DType>{DType::F32, DType::F64, DType::I64, DType::I16, DType::I8, DType::U8})
        if (d != t.dt && c.allowed(d)) to.push_back(d);
      if (to.empty()) return {fb.def("neg(" + x + ")", t, false), t};
      const VType u = t.with(r.pick(to));
      return {fb.def("cast(" + x + ")", u, false), u};
    }
  }
}

}  // namespace

bool fam_contract_epilogue(Ctx& c, FnBuilder& fb, Rng& r) {
  if (!fb.kernel) return false;
  std::vector<const Form*> forms;
  std::vector<int> w;
  for (const Form& f : kForms)
    if (c.allowed(f.in) && c.allowed(f.acc)) forms.push_back(&f), w.push_back(f.weight);
  if (forms.empty()) return false;
  const Form& form = *forms[r.weighted(w)];

  // Extents: rows 1..4 about half the time; one in eight cases one extent just above a default
  // block size with the others small.
  enum { kNone, kK512, kK256, kM144 };
  const int big = r.chance(0.125) ? static_cast<int>(r.range(kK512, kM144)) : kNone;
  Ext M, N;
  std::vector<Ext> ks;  // the reduced extents, one per reduce pair
  if (big == kNone) {
    M = r.chance(0.5) ? extent_in(c, fb, r, 1, 4) : extent_in(c, fb, r, 5, 40);
    N = extent_in(c, fb, r, 1, 33);
    const bool two = r.chance(0.15) && form.acc != DType::I32 && !(form.in == DType::BF16 && form.acc == DType::F32);
    const int64_t klo = r.chance(0.05) ? 0 : 1;
    ks.push_back(two ? extent_in(c, fb, r, klo, 8) : extent_in(c, fb, r, klo, 40));
    if (two) ks.push_back(extent_in(c, fb, r, 1, 8));
  } else if (big == kM144) {
    M = Ext::constant(r.range(145, 150));
    N = Ext::constant(r.range(1, 16));
    ks.push_back(Ext::constant(r.range(1, 16)));
  } else {
    M = Ext::constant(r.chance(0.5) ? r.range(1, 4) : r.range(5, 20));
    N = Ext::constant(r.range(1, 8));
    ks.push_back(Ext::constant(big == kK512 ? r.range(513, 530) : r.range(257, 270)));
  }
  if (big != kNone) c.family("contract_epilogue.block_edge");
  const bool batched = r.chance(0.15);
  const Ext B = batched ? extent_in(c, fb, r, 1, 3) : Ext::constant(1);

  // lhs: [batch,] M and the reduced axes (M first, or last: a transposed operand); rhs: [batch,]
  // the reduced axes and N (N last, or first).
  Shape ls, rs;
  std::string bpairs, rpairs;
  if (batched) {
    ls.push_back(B), rs.push_back(B);
    bpairs = pair_text(0, 0);
  }
  const bool m_first = r.chance(0.8), n_last = r.chance(0.8);
  if (m_first) ls.push_back(M);
  if (!n_last) rs.push_back(N);
  for (const Ext& k : ks) {
    rpairs += (rpairs.empty() ? "" : ", ") + pair_text(ls.size(), rs.size());
    ls.push_back(k), rs.push_back(k);
  }
  if (!m_first) ls.push_back(M);
  if (n_last) rs.push_back(N);
  Shape res;
  if (batched) res.push_back(B);
  res.push_back(M), res.push_back(N);
  if (!c.fits(fb, ls) || !c.fits(fb, rs) || !c.fits(fb, res)) return false;

  const std::string lhs = operand(c, fb, r, VType::of(form.in, ls)), rhs = operand(c, fb, r, VType::of(form.in, rs));
  const VType rt = VType::of(form.acc, res);
  const std::string prod = fb.def("contract(" + lhs + ", " + rhs + ") {batch = [" + bpairs + "], reduce = [" + rpairs + "]}", rt, false);
  fb.use(prod);
  const auto [out, ot] = epilogue(c, fb, r, prod, rt);
  store_out(c, fb, r, out, ot);
  if (batched) c.family("contract.batch");
  if (ks.size() > 1) c.family("contract.multi");
  return true;
}

}  // namespace kir::fuzz
