// Domains, source-derived subregions, indices and index relations (seed 000 §3, §14, §15).
// A domain is the half-open sequence begin, begin+step, ... < end (step > 0, checked here when
// dynamic: L3.1); a subregion keeps its source's identity and bounds, never clamps (L3.3; offsets-derived ragged groups, L14.1), and
// its indices are source coordinates (L3.4). A relation holds one coordinate per source axis for
// every point of its result shape (affine in the point, or the index tensor's elements shared
// without a copy), plus the active-validity mask when masked.
#include "interp/engine.h"

namespace kir::interp {
namespace {

Flow op_domain(Engine& E, Frame& f, const Operation& op) {
  int64_t begin = index_of(E.operand(f, op, 0)), end = index_of(E.operand(f, op, 1));
  int64_t step = op.operands.size() > 2 ? index_of(E.operand(f, op, 2)) : 1;
  if (step <= 0) fail(op, ErrorKind::InvalidValue, "domain step must be positive, got " + std::to_string(step));
  DomainV d;
  d.root_id = E.next_domain_id++;
  d.root_begin = begin;
  d.step = step;
  d.first = 0;
  if (end > begin) {
    const kir::int128 span = static_cast<kir::int128>(end) - begin;
    const kir::int128 count = (span + step - 1) / step;
    if (count > INT64_MAX)  // only with step 1: begin < 0 <= end, end - begin > INT64_MAX
      fail(op, ErrorKind::Limit,
           "domain [" + std::to_string(begin) + ", " + std::to_string(end) + ") has more points than the 64-bit index range holds");
    d.count = static_cast<int64_t>(count);
  }
  E.set(f, op, 0, d);
  return {};
}

Flow op_subregion(Engine& E, Frame& f, const Operation& op) {
  const DomainV& src = E.operand(f, op, 0).domain();
  int64_t b = index_of(E.operand(f, op, 1)), e = index_of(E.operand(f, op, 2));
  if (b < 0 || b > e || e > src.count)
    fail(op, ErrorKind::OutOfBounds,
         "subregion bounds [" + std::to_string(b) + ", " + std::to_string(e) + ") are outside the source's [0, " +
             std::to_string(src.count) + ") (no implicit clamp)");
  DomainV d = src;
  d.first = src.first + b;
  d.count = e - b;
  d.subregion = true;
  E.set(f, op, 0, d);
  return {};
}

// Lazy: the elements d.member(k) = (root_begin + first * step) + k * step are written only when
// a consumer other than relation/broadcast needs them (Value::tensor()).
Flow op_indices(Engine& E, Frame& f, const Operation& op) {
  const DomainV& d = E.operand(f, op, 0).domain();
  Tensor t;
  t.dtype = DType::Index;
  t.shape = {d.count};
  checked_numel(t.shape);
  auto a = std::make_shared<AffineIndex>();
  a->base = static_cast<int64_t>(static_cast<uint64_t>(d.root_begin) + static_cast<uint64_t>(d.first) * static_cast<uint64_t>(d.step));
  a->strides = {d.step};
  t.affine = std::move(a);
  E.set(f, op, 0, std::move(t));
  return {};
}

// A relation axis from a coordinate operand: a scalar is affine with zero strides, a lazy index
// tensor keeps its affine form, an index/i64 tensor is shared without a copy (64-bit two's
// complement: the bits are the value), other integer dtypes are converted.
RelationAxis relation_axis(const Operation& op, const Value& c, const RelationV& r, size_t a) {
  RelationAxis x;
  if (c.is_scalar()) {
    auto af = std::make_shared<AffineIndex>();
    af->base = index_of(c);
    af->strides.assign(r.shape.size(), 0);
    x.affine = std::move(af);
    return x;
  }
  const Tensor& lt = c.lazy_tensor();
  if (lt.shape != r.shape)
    fail(op, ErrorKind::ShapeMismatch, "coordinate " + std::to_string(a) + " has shape " + shape_str(lt.shape) +
                                           ", the relation " + shape_str(r.shape));
  if (c.lazy_affine()) {
    x.affine = lt.affine;
    return x;
  }
  const auto& owner = c.tensor_ptr();
  const Tensor& t = *owner;
  if (t.dtype == DType::Index || t.dtype == DType::I64) {
    x.data = reinterpret_cast<const int64_t*>(t.bits.data());
    x.owner = owner;
    return x;
  }
  auto v = std::make_shared<std::vector<int64_t>>(t.bits.size());
  for (size_t p = 0; p < v->size(); ++p) (*v)[p] = index_of(Value(t.at(static_cast<int64_t>(p))));
  x.data = v->data();
  x.owner = std::move(v);
  return x;
}

// Writes the coordinates of an affine axis (a relation mixing affine and materialized axes
// keeps them all materialized, so the fast paths see one form).
void materialize_axis(RelationAxis& x, const RelationV& r) {
  Tensor t;
  t.dtype = DType::Index;
  t.shape = r.shape;
  t.affine = x.affine;
  t.materialize();
  auto v = std::make_shared<std::vector<int64_t>>(t.bits.begin(), t.bits.end());
  x.affine.reset();
  x.data = v->data();
  x.owner = std::move(v);
}

Flow op_relation(Engine& E, Frame& f, const Operation& op) {
  const Type& rt = op.result()->type;
  RelationV r;
  r.source_rank = rt.source_rank();
  r.masked = rt.masked();
  r.shape = E.eval_shape(f, rt.shape(), op);
  r.points = checked_numel(r.shape);
  const size_t ncoords = static_cast<size_t>(r.source_rank);
  if (op.operands.size() != ncoords + (r.masked ? 1 : 0)) fail(op, ErrorKind::InvalidValue, "relation operand count");
  r.affine = true;
  for (size_t a = 0; a < ncoords; ++a) {
    r.coords.push_back(relation_axis(op, E.operand(f, op, a), r, a));
    r.affine = r.affine && r.coords.back().affine;
  }
  if (!r.affine)
    for (auto& x : r.coords)
      if (x.affine) materialize_axis(x, r);
  const auto np = static_cast<size_t>(r.points);
  if (r.masked) {
    const Value& c = E.operand(f, op, ncoords);
    r.valid.assign(np, 0);
    if (c.is_scalar()) {
      std::fill(r.valid.begin(), r.valid.end(), static_cast<uint8_t>(c.scalar().bits != 0));
    } else {
      const Tensor& t = c.tensor();
      if (t.shape != r.shape) fail(op, ErrorKind::ShapeMismatch, "validity has shape " + shape_str(t.shape) + ", the relation " + shape_str(r.shape));
      for (size_t p = 0; p < np; ++p) r.valid[p] = t.bits[p] != 0;
    }
  }
  E.set(f, op, 0, std::move(r));
  return {};
}

}  // namespace

void register_domain_ops(HandlerTable& t) {
  t["domain"] = op_domain;
  t["subregion"] = op_subregion;
  t["indices"] = op_indices;
  t["relation"] = op_relation;
}

}  // namespace kir::interp
