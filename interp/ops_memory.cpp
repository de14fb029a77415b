// Indexed access through index relations (seed 000 §15-§16): pure gather, external view and
// logical-buffer load/store (recorded for parallel conflict detection, parallel_check.cpp; the
// atomics and scatter_reduce element updates are recorded as atomic accesses), unique_store
// (injectivity checked: a collision is an error naming
// both points), scatter_reduce (the typed combine applied in canonical point order), and the
// atomics, each one indivisible step (the Interleaved schedule may switch points before each). Invalid lanes
// of a masked relation read the explicit fill and never touch the source; invalid writes have no
// effect. Active coordinates outside the source, and reads of never-written Out/buffer elements,
// are errors naming the op, its location, the point and the coordinates.
#include "interp/affine_access.h"
#include "interp/engine.h"
#include "numerics/arith.h"

namespace kir::interp {
namespace {

Shape point_coord(const RelationV& r, int64_t p) {
  Shape c(static_cast<size_t>(r.source_rank));
  if (r.affine) {
    const Shape q = unravel(p, r.shape);
    for (size_t a = 0; a < c.size(); ++a) c[a] = r.coords[a].affine->at(q);
  } else {
    for (size_t a = 0; a < c.size(); ++a) c[a] = r.coords[a].data[p];
  }
  return c;
}

std::string where(const RelationV& r, int64_t p) {
  std::string s = "source coordinate " + coord_str(point_coord(r, p));
  if (!r.shape.empty()) s += " (relation point " + coord_str(unravel(p, r.shape)) + ")";
  return s;
}

void check_bounds(const Operation& op, const RelationV& r, int64_t p, const Shape& shape, const std::string& what) {
  if (shape.size() != static_cast<size_t>(r.source_rank))
    fail(op, ErrorKind::ShapeMismatch, "relation of source rank " + std::to_string(r.source_rank) + " on " + what);
  const Shape pc = point_coord(r, p);
  for (size_t a = 0; a < shape.size(); ++a) {
    int64_t c = pc[a];
    if (c < 0 || c >= shape[a])
      fail(op, ErrorKind::OutOfBounds, "coordinate " + std::to_string(c) + " on axis " + std::to_string(a) + " is outside " + what +
                                           " of shape " + shape_str(shape), where(r, p));
  }
}

std::string view_what(const ViewV& v) { return (v.is_buffer ? "buffer %" : "view %") + v.name; }

// Reads one element of a view/buffer at relation point p (bounds and definedness checked).
uint64_t read_elem(const Operation& op, const ViewV& v, const RelationV& r, int64_t p) {
  check_bounds(op, r, p, v.shape, view_what(v));
  int64_t idx = v.storage_index(point_coord(r, p));
  if (idx < 0 || idx >= static_cast<int64_t>(v.storage->bits.size()))
    fail(op, ErrorKind::OutOfBounds, "element lies outside the storage of " + view_what(v), where(r, p));
  if (!v.storage->is_defined(idx))
    fail(op, ErrorKind::UndefinedRead,
         v.access == Access::Out || v.is_buffer
             ? std::string("read of ") + (v.is_buffer ? "buffer" : "Out view") + " %" + v.name + " element that was never written"
             : "read of %" + v.name + ", an omitted optional input (it has no elements to read)",
         where(r, p));
  return v.storage->bits[static_cast<size_t>(idx)];
}

// Storage index of a write at point p, with the collision check of one store op (unique writes,
// L5.2 and L15.3).
int64_t write_index(Engine& E, const Operation& op, const ViewV& v, const RelationV& r, int64_t p, uint64_t epoch) {
  check_bounds(op, r, p, v.shape, view_what(v));
  int64_t idx = v.storage_index(point_coord(r, p));
  Storage& s = *v.storage;
  if (idx < 0 || idx >= static_cast<int64_t>(s.bits.size()))
    fail(op, ErrorKind::OutOfBounds, "element lies outside the storage of " + view_what(v), where(r, p));
  if (s.mark.size() != s.bits.size()) s.mark.assign(s.bits.size(), 0);
  uint64_t& m = s.mark[static_cast<size_t>(idx)];
  if ((m >> 32) == epoch) {
    int64_t other = static_cast<int64_t>(m & 0xffffffffu) - 1;
    fail(op, ErrorKind::UniqueCollision,
         "points " + coord_str(unravel(other, r.shape)) + " and " + coord_str(unravel(p, r.shape)) + " both write element " +
             coord_str(point_coord(r, p)) + " of " + view_what(v) + (op.name == "unique_store" ? " (relation not injective)" : ""),
         where(r, p));
  }
  m = (epoch << 32) | static_cast<uint64_t>(p + 1);
  (void)E;
  return idx;
}

Value assemble(DType d, const RelationV& r, std::vector<uint64_t> bits) {
  return make_shaped(d, r.shape, std::move(bits), r.shape.empty());
}

uint64_t fill_of(Engine& E, Frame& f, const Operation& op, size_t i, const RelationV& r) {
  if (!r.masked) return 0;
  if (op.operands.size() <= i) fail(op, ErrorKind::InvalidValue, "masked read without a fill");
  return E.operand(f, op, i).scalar().bits;
}

Flow op_gather(Engine& E, Frame& f, const Operation& op) {
  const Tensor& src = E.operand(f, op, 0).tensor();
  const RelationV& r = E.operand(f, op, 1).relation();
  uint64_t fill = fill_of(E, f, op, 2, r);
  Shape strides = row_major_strides(src.shape);
  std::vector<uint64_t> out(static_cast<size_t>(r.points));
  for (int64_t p = 0; p < r.points; ++p) {
    if (!r.active(p)) { out[static_cast<size_t>(p)] = fill; continue; }
    check_bounds(op, r, p, src.shape, "the gathered tensor");
    const Shape pc = point_coord(r, p);
    int64_t idx = 0;
    for (size_t a = 0; a < strides.size(); ++a) idx += pc[a] * strides[a];
    out[static_cast<size_t>(p)] = src.bits[static_cast<size_t>(idx)];
  }
  E.set(f, op, 0, assemble(src.dtype, r, std::move(out)));
  return {};
}

// Fast path of load/store (no parallel tracking active): storage indices of relation points
// computed from hoisted pointers, without building a coordinate vector per point. index(p) is
// -1 when any bounds check of read_elem/write_index would fail (the caller then reruns the
// general loop, which reports it). Views of rank > 8 take the general path.
struct Addresser {
  static constexpr size_t kMaxRank = 8;
  size_t rank = 0;
  const int64_t* coords[kMaxRank] = {};
  int64_t shape[kMaxRank] = {}, strides[kMaxRank] = {};
  int64_t offset = 0, size = 0;
  const uint8_t* valid = nullptr;  // masked relations
  bool init(const ViewV& v, const RelationV& r) {
    rank = v.shape.size();
    if (r.affine || rank != static_cast<size_t>(r.source_rank) || rank > kMaxRank) return false;
    for (size_t a = 0; a < rank; ++a) {
      coords[a] = r.coords[a].data;
      shape[a] = v.shape[a];
      strides[a] = v.strides[a];
    }
    offset = v.offset;
    size = static_cast<int64_t>(v.storage->bits.size());
    valid = r.masked ? r.valid.data() : nullptr;
    return true;
  }
  bool active(int64_t p) const { return !valid || valid[p] != 0; }
  int64_t index(int64_t p) const {
    int64_t idx = offset;
    for (size_t a = 0; a < rank; ++a) {
      const int64_t c = coords[a][p];
      if (c < 0 || c >= shape[a]) return -1;
      idx += c * strides[a];
    }
    return idx >= 0 && idx < size ? idx : -1;
  }
};

// A load of defined, in-bounds elements only; false otherwise.
bool fast_load(const ViewV& v, const RelationV& r, uint64_t fill, std::vector<uint64_t>& out) {
  Addresser ad;
  if (!ad.init(v, r)) return false;
  const uint64_t* bits = v.storage->bits.data();
  const uint8_t* def = v.storage->defined.empty() ? nullptr : v.storage->defined.data();
  for (int64_t p = 0; p < r.points; ++p) {
    if (!ad.active(p)) { out[static_cast<size_t>(p)] = fill; continue; }
    const int64_t idx = ad.index(p);
    if (idx < 0 || (def && !def[idx])) return false;
    out[static_cast<size_t>(p)] = bits[idx];
  }
  return true;
}

Flow op_load(Engine& E, Frame& f, const Operation& op) {
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = E.operand(f, op, 1).relation();
  uint64_t fill = fill_of(E, f, op, 2, r);
  std::vector<uint64_t> out;
  if (E.parallels.empty() && affine_load(v, r, fill, out)) {
    E.set(f, op, 0, assemble(v.storage->dtype, r, std::move(out)));
    return {};
  }
  out.assign(static_cast<size_t>(r.points), 0);
  if (E.parallels.empty() && fast_load(v, r, fill, out)) {
    E.set(f, op, 0, assemble(v.storage->dtype, r, std::move(out)));
    return {};
  }
  for (int64_t p = 0; p < r.points; ++p) {
    if (!r.active(p)) { out[static_cast<size_t>(p)] = fill; continue; }
    out[static_cast<size_t>(p)] = read_elem(op, v, r, p);
    if (!E.parallels.empty()) {
      const Shape c = point_coord(r, p);
      E.note_access(op, v, v.storage_index(c), c, false);
    }
  }
  E.set(f, op, 0, assemble(v.storage->dtype, r, std::move(out)));
  return {};
}

// The value of point p of a stored block (scalar for a rank-0 relation).
uint64_t block_elem(const Operation& op, const Value& val, const RelationV& r, int64_t p) {
  if (val.is_scalar()) return val.scalar().bits;
  const Tensor& t = val.tensor();
  if (t.shape != r.shape) fail(op, ErrorKind::ShapeMismatch, "stored value has shape " + shape_str(t.shape) + ", the relation " + shape_str(r.shape));
  return t.bits[static_cast<size_t>(p)];
}

// A store whose active points are in bounds and address strictly increasing storage indices
// in point order (hence injective: no collision is possible, so the write marks are not
// needed). Writes as it checks; on the first point that fails returns false, having written
// exactly what the general loop writes for the earlier points (same elements, same values),
// so rerunning the general loop from the start gives the same storage and the same error.
bool fast_store(const ViewV& v, const RelationV& r, const Value& val) {
  Addresser ad;
  if (!ad.init(v, r)) return false;
  const uint64_t* data = nullptr;
  uint64_t one = 0;
  if (val.is_scalar()) one = val.scalar().bits;
  else if (val.tensor().shape == r.shape) data = val.tensor().bits.data();
  else return false;
  Storage& s = *v.storage;
  uint64_t* bits = s.bits.data();
  uint8_t* def = s.defined.empty() ? nullptr : s.defined.data();
  int64_t prev = -1;
  for (int64_t p = 0; p < r.points; ++p) {
    if (!ad.active(p)) continue;
    const int64_t idx = ad.index(p);
    if (idx <= prev) return false;  // also idx < 0
    prev = idx;
    bits[idx] = data ? data[p] : one;
    if (def) def[idx] = 1;
  }
  return true;
}

Flow op_store(Engine& E, Frame& f, const Operation& op) {
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = E.operand(f, op, 1).relation();
  const Value& val = E.operand(f, op, 2);
  if (!v.is_buffer && v.access == Access::In) fail(op, ErrorKind::InvalidValue, "store to In view %" + v.name);
  E.charge(op, static_cast<uint64_t>(r.points));  // element work: each point stored
  const uint64_t epoch = ++E.write_epoch;
  if (E.parallels.empty() && (r.affine ? affine_store(v, r, val) : fast_store(v, r, val))) return {};
  for (int64_t p = 0; p < r.points; ++p) {
    if (!r.active(p)) continue;
    int64_t idx = write_index(E, op, v, r, p, epoch);
    if (!E.parallels.empty()) E.note_access(op, v, idx, point_coord(r, p), true);
    v.storage->bits[static_cast<size_t>(idx)] = block_elem(op, val, r, p);
    v.storage->set_defined(idx);
  }
  return {};
}

Flow op_buffer_alloc(Engine& E, Frame& f, const Operation& op) {
  const Type& bt = op.result()->type;
  auto v = std::make_shared<ViewV>();
  v->is_buffer = true;
  v->name = op.result()->name;
  v->access = Access::InOut;
  v->shape = E.eval_shape(f, bt.shape(), op);
  v->strides = row_major_strides(v->shape);
  v->storage = std::make_shared<Storage>();
  v->storage->dtype = bt.dtype();
  const int64_t n = checked_numel(v->shape);
  v->storage->bits.assign(static_cast<size_t>(n), 0);
  if (op.operands.empty()) {
    v->storage->defined.assign(static_cast<size_t>(n), 0);
  } else {
    const Value& init = E.operand(f, op, 0);
    if (init.is_scalar()) std::fill(v->storage->bits.begin(), v->storage->bits.end(), init.scalar().bits);
    else {
      if (init.tensor().shape != v->shape) fail(op, ErrorKind::ShapeMismatch, "initial value has shape " + shape_str(init.tensor().shape));
      v->storage->bits = init.tensor().bits;
    }
  }
  E.set(f, op, 0, Value(std::shared_ptr<const ViewV>(v)));
  return {};
}

Flow op_scatter_reduce(Engine& E, Frame& f, const Operation& op) {
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = E.operand(f, op, 1).relation();
  const Value& val = E.operand(f, op, 2);
  const Function& combine = E.helper(op, "combine");
  std::vector<Value> args(2);
  for (size_t i = 3; i < op.operands.size(); ++i) args.push_back(E.operand(f, op, i));
  const DType d = v.storage->dtype;
  // Canonical order: points in row-major order, each combine(old, value) applied in turn.
  for (int64_t p = 0; p < r.points; ++p) {
    if (!r.active(p)) continue;
    uint64_t old = read_elem(op, v, r, p);
    const Shape c = point_coord(r, p);
    const int64_t idx = v.storage_index(c);
    E.note_atomic(op, v, idx, c, true);  // each element update is atomic with respect to other points
    args[0] = Scalar{d, old};
    args[1] = Scalar{d, block_elem(op, val, r, p)};
    auto res = E.call_function(combine, args, op);
    v.storage->bits[static_cast<size_t>(idx)] = res.at(0).scalar().bits;
    v.storage->set_defined(idx);
  }
  return {};
}

const RelationV& atomic_rel(const Operation& op, const Value& rv) {
  const RelationV& r = rv.relation();
  if (r.points != 1 || r.masked) fail(op, ErrorKind::InvalidValue, "an atomic addresses one element");
  return r;
}

// Records the atomic's element (bounds already checked) for parallel conflict detection;
// `update`: the op may write (store, rmw, and compare-exchange whether or not it succeeds).
void note_atomic_elem(Engine& E, const Operation& op, const ViewV& v, const RelationV& r, bool update) {
  if (E.parallels.empty()) return;
  const Shape c = point_coord(r, 0);
  E.note_atomic(op, v, v.storage_index(c), c, update);
}

Flow op_atomic_load(Engine& E, Frame& f, const Operation& op) {
  E.before_atomic();  // a switch point of the Interleaved schedule
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = atomic_rel(op, E.operand(f, op, 1));
  const uint64_t bits = read_elem(op, v, r, 0);
  note_atomic_elem(E, op, v, r, false);
  E.set(f, op, 0, Scalar{v.storage->dtype, bits});
  return {};
}

int64_t atomic_write(Engine& E, const Operation& op, const ViewV& v, const RelationV& r, uint64_t bits) {
  int64_t idx = write_index(E, op, v, r, 0, ++E.write_epoch);
  v.storage->bits[static_cast<size_t>(idx)] = bits;
  v.storage->set_defined(idx);
  return idx;
}

Flow op_atomic_store(Engine& E, Frame& f, const Operation& op) {
  E.before_atomic();  // a switch point of the Interleaved schedule
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = atomic_rel(op, E.operand(f, op, 1));
  check_bounds(op, r, 0, v.shape, view_what(v));
  note_atomic_elem(E, op, v, r, true);
  atomic_write(E, op, v, r, E.operand(f, op, 2).scalar().bits);
  return {};
}

Flow op_atomic_rmw(Engine& E, Frame& f, const Operation& op) {
  E.before_atomic();  // a switch point of the Interleaved schedule
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = atomic_rel(op, E.operand(f, op, 1));
  Scalar x = E.operand(f, op, 2).scalar();
  Scalar old{v.storage->dtype, read_elem(op, v, r, 0)};
  note_atomic_elem(E, op, v, r, true);
  const std::string kind = attr_keyword(op, "kind");
  Scalar nw = x;
  if (kind != "exchange") {
    num::BinaryOp b;
    if (kind == "add") b = num::BinaryOp::Add;
    else if (kind == "max") b = num::BinaryOp::Max;
    else if (kind == "min") b = num::BinaryOp::Min;
    else if (kind == "and") b = num::BinaryOp::And;
    else if (kind == "or") b = num::BinaryOp::Or;
    else if (kind == "xor") b = num::BinaryOp::Xor;
    else fail(op, ErrorKind::InvalidValue, "unknown atomic kind '" + kind + "'");
    auto res = num::binary(b, old, x);
    if (!res) numeric_fail(op, static_cast<int>(res.status()), res.error().message, coord_str(point_coord(r, 0)));
    nw = *res;
  }
  const int64_t idx = atomic_write(E, op, v, r, nw.bits);
  if (E.opts.on_atomic_rmw) E.opts.on_atomic_rmw(op, *v.storage, idx, x);
  E.set(f, op, 0, old);
  return {};
}

Flow op_atomic_cas(Engine& E, Frame& f, const Operation& op) {
  E.before_atomic();  // a switch point of the Interleaved schedule
  const ViewV& v = E.operand(f, op, 0).view();
  const RelationV& r = atomic_rel(op, E.operand(f, op, 1));
  Scalar expected = E.operand(f, op, 2).scalar(), desired = E.operand(f, op, 3).scalar();
  Scalar old{v.storage->dtype, read_elem(op, v, r, 0)};
  note_atomic_elem(E, op, v, r, true);  // an update even when it fails: success depends on the schedule
  // Compare-exchange compares representations (bit patterns), as hardware CAS does.
  const bool ok = old.bits == expected.bits;
  if (ok) atomic_write(E, op, v, r, desired.bits);
  RecordV rec;
  rec.names = {"old_value", "success"};
  rec.elems = {Value(old), Value(num::make_bool(ok))};
  E.set(f, op, 0, std::move(rec));
  return {};
}

}  // namespace

void register_memory_ops(HandlerTable& t) {
  t["gather"] = op_gather;
  t["view.load"] = op_load;
  t["buffer.load"] = op_load;
  t["view.store"] = op_store;
  t["buffer.store"] = op_store;
  t["unique_store"] = op_store;
  t["buffer.alloc"] = op_buffer_alloc;
  t["scatter_reduce"] = op_scatter_reduce;
  t["atomic.load"] = op_atomic_load;
  t["atomic.store"] = op_atomic_store;
  t["atomic.rmw"] = op_atomic_rmw;
  t["atomic.compare_exchange"] = op_atomic_cas;
}

}  // namespace kir::interp
