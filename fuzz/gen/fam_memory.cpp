// Memory families: gather from tensors and view.load from In/InOut views through the index
// relations of access.h; stores into new Out views (identity, unique_store, reversed,
// transposed, masked) and read-modify-write of a new InOut view; buffers (alloc with or without
// init, store, load).
#include "fuzz/gen/access.h"
#include "fuzz/gen/families.h"
#include "fuzz/gen/numbers.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {

bool fam_gather(Ctx& c, FnBuilder& fb, Rng& r) {
  auto src = pick(fb, r, [](const VType& t) { return t.rank() >= 1; });
  if (!src) return false;
  ReadAccess a = read_relation(c, fb, r, src->type.shape);
  c.family(a.variant);
  fb.def("gather(" + src->name + ", " + a.rel + fill_operand(fb, r, src->type.dt, a) + ")", block_type(src->type.dt, a));
  return true;
}

bool fam_view_load(Ctx& c, FnBuilder& fb, Rng& r) {
  std::vector<const ViewParam*> readable;
  for (const auto& v : c.views)
    if (v.access != Access::Out) readable.push_back(&v);
  ViewParam view;
  if (readable.empty() || r.chance(0.5)) {
    const VType t = random_tensor_type(c, fb, r, [](DType) { return true; });
    view = {new_view(c, t, Access::In, &r), Access::In, t};
  } else {
    view = *r.pick(readable);
  }
  ReadAccess a = read_relation(c, fb, r, view.type.shape);
  c.family(a.variant);
  fb.def("view.load(" + view.name + ", " + a.rel + fill_operand(fb, r, view.type.dt, a) + ")", block_type(view.type.dt, a));
  return true;
}

bool fam_view_store(Ctx& c, FnBuilder& fb, Rng& r) {
  auto v = pick(fb, r, [](const VType&) { return true; });
  if (!v) return false;
  const VType& t = v->type;
  const size_t how = t.rank() == 0 ? 0 : r.weighted({4, 2, 2, t.rank() == 2 ? 2 : 0, 2, is_compute(t.dt) ? 3 : 0});
  if (how == 0) {
    store_out(c, fb, r, v->name, t);
    return true;
  }
  if (how == 5) {  // read-modify-write of a new InOut view: io = op(io, v)
    const std::string io = new_view(c, t, Access::InOut, &r);
    const std::string rel = ident_relation(c, fb, t.shape);
    const std::string old = fb.def("view.load(" + io + ", " + rel + ")", t);
    const std::string op = t.dt == DType::Bool ? r.pick({"or", "xor"}) : r.pick({"add", "sub", "max", "min", "mul"});
    const std::string upd = fb.def(op + "(" + old + ", " + v->name + ")", t);
    fb.line("view.store(" + io + ", " + rel + ", " + upd + ")");
    c.family("store.inout");
    return true;
  }
  const Shape& s = t.shape;
  std::vector<std::string> coords;
  Shape out = s;
  for (size_t j = 0; j < s.size(); ++j) coords.push_back(along(fb, iota(c, fb, s[j]), s, static_cast<int>(j)));
  std::string valid, op = "view.store";
  bool keep = false;  // a masked store into an InOut view
  if (how == 1) {
    op = "unique_store";
    c.family("store.unique");
  } else if (how == 2) {  // one axis reversed
    const size_t k = r.below(s.size());
    coords[k] = along(fb, reversed_index(c, fb, s[k]), s, static_cast<int>(k));
    c.family("store.reverse");
  } else if (how == 3) {  // transposed into an Out of shape [s1, s0]
    out = {s[1], s[0]};
    std::swap(coords[0], coords[1]);
    c.family("store.transpose");
  } else {
    // Half the time into an InOut view under a mask read from a new In view: the inactive
    // elements must keep the data they came with (in a new Out view they would be unspecified
    // and not compared), and the mask is data, not a constant.
    keep = r.chance(0.5);
    if (keep) {
      const std::string mv = new_view(c, t.with(DType::Bool), Access::In, &r);
      valid = fb.def("view.load(" + mv + ", " + ident_relation(c, fb, s) + ")", t.with(DType::Bool));
      c.family("store.masked.inout");
    } else {
      valid = get(c, fb, r, t.with(DType::Bool));
    }
    c.family("store.masked");
  }
  const std::string view = new_view(c, VType::of(t.dt, out), keep ? Access::InOut : Access::Out, keep ? &r : nullptr);
  std::string args;
  for (size_t j = 0; j < coords.size(); ++j) args += (j ? ", " : "") + coords[j];
  if (!valid.empty()) args += ", " + valid;
  const std::string rel = fb.def_raw("relation(" + args + ")", relation_type(static_cast<int>(out.size()), s, !valid.empty()));
  fb.line(op + "(" + view + ", " + rel + ", " + v->name + ")");
  return true;
}

bool fam_buffer(Ctx& c, FnBuilder& fb, Rng& r) {
  auto v = pick(fb, r, [](const VType& t) { return t.rank() >= 1; });
  if (!v) return false;
  const VType& t = v->type;
  const std::string btype = "buffer<" + t.str() + ">";
  const size_t init = r.below(3);
  std::string b;
  if (init == 0) b = fb.def_raw("buffer.alloc(" + const_scalar(fb, t.dt, nice_bits(t.dt, r)) + ")", btype);
  else if (init == 1) b = fb.def_raw("buffer.alloc(" + v->name + ")", btype);
  else b = fb.def_raw("buffer.alloc()", btype);
  // Store a same-typed value through a relation covering every element, so nothing is read
  // before it is written.
  const std::string w = get(c, fb, r, t);
  fb.line("buffer.store(" + b + ", " + covering_relation(c, fb, r, t.shape) + ", " + w + ")");
  ReadAccess ld = read_relation(c, fb, r, t.shape);
  c.family(ld.variant);
  fb.def("buffer.load(" + b + ", " + ld.rel + fill_operand(fb, r, t.dt, ld) + ")", block_type(t.dt, ld));
  return true;
}

}  // namespace kir::fuzz
