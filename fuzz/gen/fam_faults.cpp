// The faults family: programs an optimizing backend gets wrong at the edges, each with the input
// data that makes it happen (recipes, inputs.h).
//  - Partial reads of a faulting value: integer div/rem by zero, a shift out of range, an
//    out-of-bounds view load or a float->int cast out of range, faulting at one element the data
//    chooses (often the last or a middle one) and read only partly: one element gathered, a
//    masked store, a masked scatter_reduce, a masked gather, under an untaken `if`, inside a
//    zero-trip `for` or `parallel`, a reduce over a prefix. The interpreter evaluates the value
//    whole and reports the fault; a backend computing it only where it is read must too.
//  - Two faults, the later op's at an earlier element: the error is the first in program order.
//  - A subregion or a loop's domain whose runtime end (an index scalar, 2^31 .. INT64_MAX) is far
//    outside the view it reads: an out-of-bounds error at once, not a run of 2^40 iterations.
//  - Stepped domains whose begin, end and step sit at the int64 edges, in `for` and `indices`.
//  - Contended float atomics: many points add floats into a few counters.
// One step per program: the first fault ends the run, so a second one would never be seen.
#include <algorithm>
#include <optional>

#include "fuzz/gen/families.h"
#include "fuzz/gen/helpers.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {
namespace {

const VType kIndex = VType::scalar(DType::Index);

// A runtime scalar parameter kept out of the pool: its value is a recipe's, not other ops'.
std::string scalar_param(Ctx& c, DType d) {
  const std::string n = c.param_name("s");
  c.params.push_back(n + ": " + std::string(name(d)));
  GeneratedCase::Input in;
  in.name = n.substr(1);
  in.dtype = d;
  in.scalar = true;
  c.inputs.push_back(in);
  return n;
}

// A new In view of type t loaded whole (not a pool value); `view` gets its name.
std::string load_view(Ctx& c, FnBuilder& fb, Rng& r, const VType& t, std::string& view) {
  view = new_view(c, t, Access::In, &r);
  return fb.def("view.load(" + view + ", " + ident_relation(c, fb, t.shape) + ")", t, false);
}

std::optional<DType> dtype_where(const Ctx& c, Rng& r, const std::function<bool(DType)>& ok) {
  const DType d = random_dtype(c, r, ok);
  if (!ok(d) || !c.allowed(d)) return std::nullopt;
  return d;
}

bool plain_int(DType d) { return is_integer(d) && d != DType::Index; }
bool plain_arith(DType d) { return arith_ok(d) && d != DType::Index; }

// An extent of value in [lo, 64]: mostly a dynamic one when there is one.
Ext extent_at_least(Ctx& c, FnBuilder& fb, Rng& r, int64_t lo) {
  std::vector<Ext> dyn, fixed;
  for (const auto& e : fb.extents) {
    const int64_t v = c.value_of(fb, e);
    if (v >= lo && v <= 64) (e.is_const() ? fixed : dyn).push_back(e);
  }
  if (!dyn.empty() && (fixed.empty() || r.chance(0.7))) return r.pick(dyn);
  if (!fixed.empty()) return r.pick(fixed);
  return Ext::constant(std::max<int64_t>(lo, 8));
}

std::string reduce_of(Ctx& c, FnBuilder& fb, const std::string& v, DType t, const std::string& kind, bool pool) {
  const VType st = VType::scalar(t);
  const std::string init = const_scalar(fb, t, neutral_bits(t, kind));
  return fb.def("reduce(" + v + ", " + init + ") {axes = [0], combine = " + simple_combine(c, st, kind) + "}", st, pool);
}

std::string fold_kind(DType t, Rng& r) { return is_float(t) ? r.pick({"max", "min", "add"}) : r.pick({"add", "xor", "max", "min"}); }

// A rank-1 value of extent e that faults at one element only: the one `write` is given.
using FaultWriter = std::function<void(Inputs&, Rng&, int64_t)>;
struct Fault {
  std::string value;
  VType type;
  FaultWriter write;
};

std::optional<Fault> faulting_value(Ctx& c, FnBuilder& fb, Rng& r, const Ext& e) {
  std::string kind = r.pick({"div", "rem", "shl", "load", "cast", "div", "load"});
  std::optional<DType> t, from;
  if (kind == "cast") {
    from = dtype_where(c, r, is_float);
    t = dtype_where(c, r, plain_int);
  } else if (kind != "load") {
    t = dtype_where(c, r, plain_int);
  }
  if (!t || (kind == "cast" && !from)) {  // not in the case's dtypes: a load of any arithmetic one
    kind = "load";
    t = dtype_where(c, r, plain_arith);
    if (!t) return std::nullopt;
  }
  Fault f;
  f.type = VType::of(*t, {e});
  std::string view;
  if (kind == "load") {
    const Ext n = extent_at_least(c, fb, r, 1);
    const std::string x = new_view(c, VType::of(*t, {n}), Access::In, &r);
    const std::string idx = load_view(c, fb, r, VType::of(DType::Index, {e}), view);
    const std::string rel = fb.def_raw("relation(" + idx + ")", relation_type(1, {e}, false));
    f.value = fb.def("view.load(" + x + ", " + rel + ")", f.type, false);
    const int64_t bound = c.value_of(fb, n);
    f.write = [view, bound](Inputs& in, Rng& r2, int64_t k) {
      write_fault_data(input_named(in, view), FaultData::Coordinate, k, r2, bound);
    };
  } else if (kind == "cast") {
    const std::string src = load_view(c, fb, r, VType::of(*from, {e}), view);
    f.value = fb.def("cast(" + src + ")", f.type, false);
    const DType to = *t;
    f.write = [view, to](Inputs& in, Rng& r2, int64_t k) {
      write_fault_data(input_named(in, view), FaultData::CastSource, k, r2, 0, to);
    };
  } else {
    std::string a_view;
    const std::string a = load_view(c, fb, r, f.type, a_view);
    const std::string b = load_view(c, fb, r, f.type, view);
    f.value = fb.def(kind + "(" + a + ", " + b + ")", f.type, false);
    const FaultData what = kind == "shl" ? FaultData::ShiftAmount : FaultData::Divisor;
    f.write = [view, what](Inputs& in, Rng& r2, int64_t k) { write_fault_data(input_named(in, view), what, k, r2); };
  }
  c.family("faults.source." + kind);
  return f;
}

// The faulting value read only partly; the fault is where the read does not go.
bool read_partly(Ctx& c, FnBuilder& fb, Rng& r) {
  static const char* const kReads[] = {"element", "masked_store", "masked_scatter", "masked_gather",
                                       "if",      "for",          "parallel",       "prefix"};
  const size_t how = r.weighted({3, 3, c.opt.allow_atomics ? 2 : 0, 2, 3, 3, 3, 3});
  const Ext e = extent_at_least(c, fb, r, how == 0 ? 2 : 1);
  const int64_t n = c.value_of(fb, e);
  const auto f = faulting_value(c, fb, r, e);
  if (!f) return false;
  const DType t = f->type.dt;
  const VType st = VType::scalar(t);
  const FaultWriter write = f->write;
  c.family(std::string("faults.partial.") + kReads[how]);
  switch (how) {
    case 0: {  // one element gathered
      const int64_t at = r.range(0, n - 1);
      const std::string rel = fb.def_raw("relation(" + const_index(fb, at) + ")", relation_type(1, {}, false));
      fb.def("gather(" + f->value + ", " + rel + ")", st);
      c.recipes.push_back([write, n, at](Inputs& in, Rng& r2) { write(in, r2, fault_position(r2, n, at)); });
      return true;
    }
    case 1: case 2: case 3: {  // under a mask read from an In view that skips the fault
      std::string mask_view;
      const std::string m = load_view(c, fb, r, VType::of(DType::Bool, {e}), mask_view);
      std::string coord = iota(c, fb, e);
      const int64_t bins = r.range(1, 4);
      if (how == 2) {
        const VType it = VType::of(DType::Index, {e});
        coord = fb.def("rem(" + coord + ", " + splat(fb, it, static_cast<uint64_t>(bins)) + ")", it, false);
      }
      const std::string rel = fb.def_raw("relation(" + coord + ", " + m + ")", relation_type(1, {e}, true));
      if (how == 1) {
        fb.line("view.store(" + new_view(c, f->type, Access::Out) + ", " + rel + ", " + f->value + ")");
      } else if (how == 2) {
        const std::string dest = new_view(c, VType::of(t, {Ext::constant(bins)}), Access::InOut);
        const std::string kind = is_float(t) ? r.pick({"max", "min"}) : r.pick({"add", "max", "min", "and", "or", "xor"});
        fb.line("scatter_reduce(" + dest + ", " + rel + ", " + f->value + ") {combine = " + simple_combine(c, st, kind) + "}");
      } else {
        fb.def("gather(" + f->value + ", " + rel + ", " + const_scalar(fb, t, nice_bits(t, r)) + ")", f->type);
      }
      c.recipes.push_back([write, n, mask_view](Inputs& in, Rng& r2) {
        const int64_t k = fault_position(r2, n);
        write_mask_skipping(input_named(in, mask_view), k, r2);
        write(in, r2, k);
      });
      return true;
    }
    case 4: {  // under an `if` whose condition (a runtime scalar) is false
      const std::string cond = scalar_param(c, DType::Bool);
      const std::string y = fb.fresh();
      fb.open(y + " = if(" + cond + ") : " + st.str() + " region() {", RegionKind::If);
      std::string g;
      if (r.chance(0.5)) {
        const std::string rel = fb.def_raw("relation(" + const_index(fb, r.range(0, n - 1)) + ")", relation_type(1, {}, false));
        g = fb.def("gather(" + f->value + ", " + rel + ")", st, false);
      } else {
        g = reduce_of(c, fb, f->value, t, fold_kind(t, r), false);
      }
      fb.line("yield(" + g + ")");
      fb.next_region("region() {");
      fb.line("yield(" + const_scalar(fb, t, nice_bits(t, r)) + ")");
      fb.close();
      fb.add(y, st);
      c.recipes.push_back([write, n, cond](Inputs& in, Rng& r2) {
        element(input_named(in, cond), 0) = 0;
        write(in, r2, fault_position(r2, n));
      });
      return true;
    }
    case 5: case 6: {  // inside a loop or parallel over [0, z): z is 0 (or stops short of the fault)
      const std::string z = scalar_param(c, DType::Index);
      const std::string dom = fb.def_raw("domain(" + const_index(fb, 0) + ", " + z + ")", "domain<" + z + ">");
      const std::string p = fb.fresh();
      if (how == 5) {
        const std::string init = const_scalar(fb, t, nice_bits(t, r)), res = fb.fresh(), acc = fb.fresh();
        fb.open(res + " = for(" + dom + ", " + init + ") : " + st.str() + " region(" + p + ": index, " + acc + ": " + st.str() + ") {",
                RegionKind::For);
        const std::string rel = fb.def_raw("relation(" + p + ")", relation_type(1, {}, false));
        const std::string g = fb.def("gather(" + f->value + ", " + rel + ")", st, false);
        fb.line("yield(" + fb.def(fold_kind(t, r) + "(" + acc + ", " + g + ")", st, false) + ")");
        fb.close();
        fb.add(res, st);
      } else {
        const std::string out = new_view(c, f->type, Access::Out);
        fb.open("parallel(" + dom + ") region(" + p + ": index) {", RegionKind::Parallel);
        const std::string rel = fb.def_raw("relation(" + p + ")", relation_type(1, {}, false));
        fb.line("view.store(" + out + ", " + rel + ", " + fb.def("gather(" + f->value + ", " + rel + ")", st, false) + ")");
        fb.line("yield()");
        fb.close();
      }
      c.recipes.push_back([write, n, z](Inputs& in, Rng& r2) {
        const int64_t k = fault_position(r2, n);
        element(input_named(in, z), 0) = static_cast<uint64_t>(r2.chance(0.7) ? 0 : r2.range(0, k));
        write(in, r2, k);
      });
      return true;
    }
    default: {  // a reduce over the prefix [0, m) of a subregion, m <= the fault's position
      const std::string m = scalar_param(c, DType::Index);
      const Ext me = Ext::atom(m);
      const std::string sub =
          fb.def_raw("subregion(" + domain_of(c, fb, e) + ", " + const_index(fb, 0) + ", " + m + ")", "subregion<" + m + ">");
      const std::string ix = fb.def("indices(" + sub + ")", VType::of(DType::Index, {me}), false);
      const std::string rel = fb.def_raw("relation(" + ix + ")", relation_type(1, {me}, false));
      const std::string g = fb.def("gather(" + f->value + ", " + rel + ")", VType::of(t, {me}), false);
      reduce_of(c, fb, g, t, fold_kind(t, r), true);
      c.recipes.push_back([write, n, m](Inputs& in, Rng& r2) {
        const int64_t k = fault_position(r2, n);
        element(input_named(in, m), 0) = static_cast<uint64_t>(r2.chance(0.5) ? k : r2.range(0, k));
        write(in, r2, k);
      });
      return true;
    }
  }
}

// Two faulting values stored whole; the second (in program order) faults at an earlier element.
bool two_faults(Ctx& c, FnBuilder& fb, Rng& r) {
  const Ext e = extent_at_least(c, fb, r, 2);
  const int64_t n = c.value_of(fb, e);
  const auto first = faulting_value(c, fb, r, e);
  if (!first) return false;
  const auto second = faulting_value(c, fb, r, e);
  store_out(c, fb, r, first->value, first->type);
  if (second) store_out(c, fb, r, second->value, second->type);
  c.recipes.push_back([w1 = first->write, w2 = second ? second->write : FaultWriter(), n](Inputs& in, Rng& r2) {
    int64_t late = fault_position(r2, n);
    if (late == 0) late = n - 1;
    w1(in, r2, late);
    if (w2) w2(in, r2, r2.chance(0.5) ? 0 : r2.range(0, late - 1));
  });
  c.family("faults.two");
  return true;
}

// A read of a view through a subregion of it, or in a `for` over a domain, whose end is an index
// scalar far beyond it. (Not `indices` of such a domain: the interpreter's element limit would
// stop it before the read faults.)
bool huge_extent_read(Ctx& c, FnBuilder& fb, Rng& r) {
  const auto t = dtype_where(c, r, plain_arith);
  if (!t) return false;
  const VType st = VType::scalar(*t);
  const Ext n = extent_at_least(c, fb, r, 0);
  const std::string x = new_view(c, VType::of(*t, {n}), Access::In, &r);
  const std::string e = scalar_param(c, DType::Index), zero = const_index(fb, 0);
  const bool loop = r.chance(1.0 / 3);
  const std::string fold = fold_kind(*t, r);
  if (loop) {
    const std::string dom = fb.def_raw("domain(" + zero + ", " + e + ")", "domain<" + e + ">");
    const std::string init = const_scalar(fb, *t, neutral_bits(*t, fold)), res = fb.fresh(), i = fb.fresh(), acc = fb.fresh();
    fb.open(res + " = for(" + dom + ", " + init + ") : " + st.str() + " region(" + i + ": index, " + acc + ": " + st.str() + ") {",
            RegionKind::For);
    const std::string rel = fb.def_raw("relation(" + i + ")", relation_type(1, {}, false));
    const std::string v = fb.def("view.load(" + x + ", " + rel + ")", st, false);
    fb.line("yield(" + fb.def(fold + "(" + acc + ", " + v + ")", st, false) + ")");
    fb.close();
    fb.add(res, st);
  } else {
    const std::string part = fb.def_raw("subregion(" + domain_of(c, fb, n) + ", " + zero + ", " + e + ")", "subregion<" + e + ">");
    const Shape s = {Ext::atom(e)};
    const std::string idx = fb.def("indices(" + part + ")", VType::of(DType::Index, s), false);
    const std::string rel = fb.def_raw("relation(" + idx + ")", relation_type(1, s, false));
    const std::string v = fb.def("view.load(" + x + ", " + rel + ")", VType::of(*t, s), false);
    reduce_of(c, fb, v, *t, fold, true);
  }
  c.recipes.push_back([e](Inputs& in, Rng& r2) { element(input_named(in, e), 0) = static_cast<uint64_t>(huge_extent(r2)); });
  c.family(loop ? "faults.huge.for" : "faults.huge.subregion");
  return true;
}

// domain(b, e, st) with b, e, st at the int64 edges: a `for` counting its points (and their xor
// and the last one), or `indices` reduced to their count, maximum and minimum.
bool edge_domain_use(Ctx& c, FnBuilder& fb, Rng& r) {
  const std::string b = scalar_param(c, DType::Index), e = scalar_param(c, DType::Index), step = scalar_param(c, DType::Index);
  const std::string extent = "floordiv(" + e + " - " + b + " + " + step + " - 1, " + step + ")";
  const std::string dom = fb.def_raw("domain(" + b + ", " + e + ", " + step + ")", "domain<" + extent + ">");
  const std::string zero = const_index(fb, 0), one = const_index(fb, 1);
  const bool loop = r.chance(0.5);
  if (loop) {
    const std::string n = fb.fresh(), last = fb.fresh(), x = fb.fresh(), i = fb.fresh(), na = fb.fresh(), la = fb.fresh(),
                      xa = fb.fresh();
    fb.open(n + ", " + last + ", " + x + " = for(" + dom + ", " + zero + ", " + zero + ", " + zero +
                ") : (index, index, index) region(" + i + ": index, " + na + ": index, " + la + ": index, " + xa + ": index) {",
            RegionKind::For);
    const std::string n1 = fb.def("add(" + na + ", " + one + ")", kIndex, false);
    const std::string x1 = fb.def("xor(" + xa + ", " + i + ")", kIndex, false);
    fb.line("yield(" + n1 + ", " + i + ", " + x1 + ")");
    fb.close();
    for (const auto& v : {n, last, x}) fb.add(v, kIndex);
  } else {
    const Shape s = {Ext::atom(extent)};
    const std::string iv = fb.def("indices(" + dom + ")", VType::of(DType::Index, s), false);
    const std::string ones = fb.def("broadcast(" + one + ") {dims = []}", VType::of(DType::Index, s), false);
    reduce_of(c, fb, ones, DType::Index, "add", true);
    reduce_of(c, fb, iv, DType::Index, "max", true);
    reduce_of(c, fb, iv, DType::Index, "min", true);
  }
  c.recipes.push_back([b, e, step](Inputs& in, Rng& r2) {
    const auto d = edge_domain(r2);
    element(input_named(in, b), 0) = static_cast<uint64_t>(d[0]);
    element(input_named(in, e), 0) = static_cast<uint64_t>(d[1]);
    element(input_named(in, step), 0) = static_cast<uint64_t>(d[2]);
  });
  c.family(loop ? "faults.edge.for" : "faults.edge.indices");
  return true;
}

// A parallel whose points add floats into a few counters with atomic.rmw: every order of the
// additions is a legal result. The kernel gets no other atomics (the verdict accepts any order
// of the adds only where all the kernel's atomics commute; interpreter schedules cannot explain
// contended float adds).
bool contended_float_atomics(Ctx& c, FnBuilder& fb, Rng& r) {
  for (const char* f : {"atomic", "scatter"})
    if (std::find(c.families.begin(), c.families.end(), f) != c.families.end()) return false;
  const auto t = dtype_where(c, r, is_float);
  std::vector<int64_t> lens;
  for (int64_t l : {256, 1024, 4096})
    if (l <= c.opt.max_elements) lens.push_back(l);
  if (!t || lens.empty()) return false;
  c.weights["atomic"] = c.weights["scatter"] = 0;
  const VType st = VType::scalar(*t);
  // Up to 16384 points (each element of x added by several): enough for the threads to overlap
  // (a third of the runs), few enough for the interpreter's interleaved schedules (a second each).
  const int64_t len = r.pick(lens), points = std::min<int64_t>(16384, len * r.pick<int64_t>({1, 4, 16}));
  const int64_t counters = r.range(1, 3);
  const std::string x = new_view(c, VType::of(*t, {Ext::constant(len)}), Access::In, &r);
  const std::string dest = new_view(c, VType::of(*t, {Ext::constant(counters)}), Access::InOut);
  const std::string dom = domain_of(c, fb, Ext::constant(points)), ck = const_index(fb, counters);
  const std::string p = fb.fresh();
  fb.open("parallel(" + dom + ") region(" + p + ": index) {", RegionKind::Parallel);
  const std::string at = points == len ? p : fb.def("rem(" + p + ", " + const_index(fb, len) + ")", kIndex, false);
  const std::string v = fb.def("view.load(" + x + ", " + fb.def_raw("relation(" + at + ")", relation_type(1, {}, false)) + ")", st, false);
  const std::string bucket = fb.def("rem(" + p + ", " + ck + ")", kIndex, false);
  const std::string rel = fb.def_raw("relation(" + bucket + ")", relation_type(1, {}, false));
  fb.def_raw("atomic.rmw(" + dest + ", " + rel + ", " + v + ") {kind = add, order = " + r.pick({"relaxed", "acq_rel"}) + "}", st.str());
  fb.line("yield()");
  fb.close();
  c.recipes.push_back([x](Inputs& in, Rng& r2) { write_order_sensitive(input_named(in, x), r2); });
  c.family("faults.atomic.float_add");
  return true;
}

}  // namespace

bool fam_faults(Ctx& c, FnBuilder& fb, Rng& r) {
  if (std::find(c.families.begin(), c.families.end(), "faults") != c.families.end()) return false;
  switch (r.weighted({10, 2, 2, 3, c.opt.allow_atomics ? 3 : 0})) {
    case 0: return read_partly(c, fb, r);
    case 1: return two_faults(c, fb, r);
    case 2: return huge_extent_read(c, fb, r);
    case 3: return edge_domain_use(c, fb, r);
    default: return contended_float_atomics(c, fb, r);
  }
}

}  // namespace kir::fuzz
