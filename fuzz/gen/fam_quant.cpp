// Low-precision and counting families: sparse_contract (one_of_two / two_of_four with metadata
// computed to be legal), scaled_contract (e2m1/e4m3/e5m2 payloads in u8 with e8m0 scales),
// quantize to q8_k with an optional quantized_dot against a q4_k record, and histogram with
// out-of-range values masked off.
#include "fuzz/gen/families.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

DType acc_for(const Ctx& c, Rng& r, DType in) {
  DType acc = in;
  if (is_float(in)) acc = r.chance(0.7) ? DType::F32 : in;
  else if (r.chance(0.6)) acc = r.chance(0.5) ? DType::I32 : DType::I64;
  return c.allowed(acc) ? acc : in;
}

}  // namespace

bool fam_sparse_contract(Ctx& c, FnBuilder& fb, Rng& r) {
  const DType t = random_dtype(c, r, [](DType d) { return arith_ok(d) && d != DType::Index; });
  const Ext a = random_ext(c, fb, r), b = random_ext(c, fb, r);
  std::vector<Ext> even;
  for (const auto& e : fb.extents)
    if (c.value_of(fb, e) % 2 == 0) even.push_back(e);
  const bool four = !even.empty() && r.chance(0.6);
  const Ext kc = four ? r.pick(even) : random_ext(c, fb, r);
  const Shape cs = {a, kc}, rs = {Ext::constant(2) * kc, b};
  if (!c.fits(fb, cs) || !c.fits(fb, rs) || !c.fits(fb, {a, b})) return false;
  const std::string vals = get(c, fb, r, VType::of(t, cs));
  // Metadata: position (x & 1) in a one_of_two group; in a two_of_four group the first kept
  // value at (x & 1) and the second at 2 + (x & 1), so positions strictly increase.
  const VType mt = VType::of(random_dtype(c, r, [](DType d) { return is_integer(d); }), cs);
  const std::string x = get(c, fb, r, mt);
  std::string meta = fb.def("and(" + x + ", " + splat(fb, mt, int_bits(mt.dt, 1)) + ")", mt, false);
  if (four) {
    const VType it = VType::of(DType::Index, {kc});
    const std::string two = splat(fb, it, 2);
    const std::string par = fb.def("rem(" + iota(c, fb, kc) + ", " + two + ")", it, false);
    const std::string off = fb.def("mul(" + par + ", " + two + ")", it, false);
    const std::string offc = cast_to(c, fb, off, it, mt.dt);
    const std::string offb = fb.def("broadcast(" + offc + ") {dims = [1]}", mt, false);
    meta = fb.def("or(" + meta + ", " + offb + ")", mt, false);
  }
  const std::string rhs = get(c, fb, r, VType::of(t, rs));
  fb.def("sparse_contract(" + vals + ", " + meta + ", " + rhs + ") {batch = [], format = " + (four ? "two_of_four" : "one_of_two") +
             ", reduce = [[1, 0]]}",
         VType::of(acc_for(c, r, t), {a, b}));
  c.family(four ? "sparse.two_of_four" : "sparse.one_of_two");
  return true;
}

bool fam_scaled_contract(Ctx& c, FnBuilder& fb, Rng& r) {
  if (!c.allowed(DType::U8) || !c.allowed(DType::E8M0)) return false;
  const Ext m = random_ext(c, fb, r), n = random_ext(c, fb, r), g = random_ext(c, fb, r);
  const int64_t group = r.pick({2, 4, 8, 16, 32});
  const std::string lf = r.pick({"e2m1", "e4m3", "e5m2"}), rf = r.pick({"e2m1", "e4m3", "e5m2"});
  const Ext cl = Ext::constant(lf == "e2m1" ? group / 2 : group), cr = Ext::constant(rf == "e2m1" ? group / 2 : group);
  const Shape ls = {m, g, cl}, rs = {g, cr, n};
  if (!c.fits(fb, ls) || !c.fits(fb, rs) || !c.fits(fb, {m, n})) return false;
  const std::string l = get(c, fb, r, VType::of(DType::U8, ls)), lsc = get(c, fb, r, VType::of(DType::E8M0, {m, g}));
  const std::string rv = get(c, fb, r, VType::of(DType::U8, rs)), rsc = get(c, fb, r, VType::of(DType::E8M0, {n, g}));
  const DType out = random_dtype(c, r, is_float);
  const std::string gs = std::to_string(group);
  fb.def("scaled_contract(" + l + ", " + lsc + ", " + rv + ", " + rsc + ") {batch = [], lhs_format = " + lf + ", lhs_group_size = " + gs +
             ", reduce = [[1, 0], [2, 1]], rhs_format = " + rf + ", rhs_group_size = " + gs + "}",
         VType::of(out, {m, n}));
  return true;
}

bool fam_quantize(Ctx& c, FnBuilder& fb, Rng& r) {
  for (DType d : {DType::F32, DType::I8, DType::I16})
    if (!c.allowed(d)) return false;
  const int64_t nb = r.range(1, 2);
  const Ext K = Ext::constant(256 * nb), NB = Ext::constant(nb), K16 = Ext::constant(16 * nb);
  Shape lead;
  if (r.chance(0.7)) lead.push_back(random_ext(c, fb, r));
  auto with = [&](const Ext& last) {
    Shape s = lead;
    s.push_back(last);
    return s;
  };
  if (!c.fits(fb, with(K))) return false;
  // Mostly data from a new In view: a constant source (all zeros, say) quantizes to nothing.
  const VType vt = VType::of(DType::F32, with(K));
  const std::string v = r.chance(0.7) ? fb.def("view.load(" + new_view(c, vt, Access::In, &r) + ", " + ident_relation(c, fb, vt.shape) + ")", vt)
                                      : get(c, fb, r, vt);
  const VType d = VType::of(DType::F32, with(NB)), qs = VType::of(DType::I8, with(K)), bs = VType::of(DType::I16, with(K16));
  const std::string rt = "record<d: " + d.str() + ", qs: " + qs.str() + ", bsums: " + bs.str() + ">";
  const std::string q = fb.def_raw("quantize(" + v + ") {format = q8_k}", rt);
  fb.def("record.get(" + q + ") {field = d}", d);
  fb.def("record.get(" + q + ") {field = qs}", qs);
  fb.def("record.get(" + q + ") {field = bsums}", bs);
  if (r.chance(0.6) && c.allowed(DType::F16) && c.allowed(DType::U8)) {  // against a q4_k operand [L, NB]
    const Ext L = random_ext(c, fb, r);
    const VType ld = VType::of(DType::F16, {L, NB}), lsc = VType::of(DType::U8, {L, NB, Ext::constant(12)}),
                lqs = VType::of(DType::U8, {L, NB, Ext::constant(128)});
    if (!c.fits(fb, lqs.shape)) return true;
    const std::string a = get(c, fb, r, ld), b = get(c, fb, r, ld), s = get(c, fb, r, lsc), qq = get(c, fb, r, lqs);
    const std::string lt = "record<d: " + ld.str() + ", dmin: " + ld.str() + ", scales: " + lsc.str() + ", qs: " + lqs.str() + ">";
    const std::string lhs = fb.def_raw("record(" + a + ", " + b + ", " + s + ", " + qq + ")", lt);
    Shape os = {L};
    os.insert(os.end(), lead.begin(), lead.end());
    fb.def("quantized_dot(" + lhs + ", " + q + ") {lhs_format = q4_k, rhs_format = q8_k}", VType::of(DType::F32, os));
    c.family("quantized_dot");
  }
  return true;
}

bool fam_histogram(Ctx& c, FnBuilder& fb, Rng& r) {
  auto x = pick(fb, r, [](const VType& t) { return t.rank() >= 1 && is_integer(t.dt); });
  if (!x) {
    const VType t = random_tensor_type(c, fb, r, [](DType d) { return is_integer(d); });
    x = PoolValue{get(c, fb, r, t), t, 1};
  }
  const VType& t = x->type;
  const int64_t bins = r.range(1, 8);
  const VType bt = t.with(DType::Bool);
  const std::string lo = fb.def("cmp(" + x->name + ", " + splat(fb, t, 0) + ") {pred = ge}", bt, false);
  const std::string hi = fb.def("cmp(" + x->name + ", " + splat(fb, t, int_bits(t.dt, bins)) + ") {pred = lt}", bt, false);
  std::string valid = fb.def("and(" + lo + ", " + hi + ")", bt, false);
  if (r.chance(0.3)) valid = fb.def("and(" + valid + ", " + get(c, fb, r, bt) + ")", bt, false);
  const DType cd = random_dtype(c, r, [](DType d) { return is_integer(d) && d != DType::Index; });
  fb.def("histogram(" + x->name + ", " + const_index(fb, bins) + ", " + valid + ")", VType::of(cd, {Ext::constant(bins)}));
  return true;
}

}  // namespace kir::fuzz
