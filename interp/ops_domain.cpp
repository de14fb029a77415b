// Domains, source-derived subregions, indices and index relations (seed 000 §3, §14, §15).
// A domain is the half-open sequence begin, begin+step, ... < end (step > 0, checked here when
// dynamic: L3.1); a subregion keeps its source's identity and bounds, never clamps (L3.3), and
// its indices are source coordinates (L3.4). A relation materializes one coordinate per source
// axis for every point of its result shape, plus the active-validity mask when masked.
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
    kir::int128 span = static_cast<kir::int128>(end) - begin;
    d.count = static_cast<int64_t>((span + step - 1) / step);
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

Flow op_indices(Engine& E, Frame& f, const Operation& op) {
  const DomainV& d = E.operand(f, op, 0).domain();
  Tensor t = make_tensor(DType::Index, {d.count});
  for (int64_t k = 0; k < d.count; ++k) t.bits[static_cast<size_t>(k)] = static_cast<uint64_t>(d.member(k));
  E.set(f, op, 0, std::move(t));
  return {};
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
  auto np = static_cast<size_t>(r.points);
  for (size_t a = 0; a < ncoords; ++a) {
    const Value& c = E.operand(f, op, a);
    std::vector<int64_t> v(np);
    if (c.is_scalar()) {
      std::fill(v.begin(), v.end(), index_of(c));
    } else {
      const Tensor& t = c.tensor();
      if (t.shape != r.shape)
        fail(op, ErrorKind::ShapeMismatch, "coordinate " + std::to_string(a) + " has shape " + shape_str(t.shape) +
                                               ", the relation " + shape_str(r.shape));
      if (t.dtype == DType::Index || t.dtype == DType::I64)  // 64-bit two's complement: the bits are the value
        v.assign(t.bits.begin(), t.bits.end());
      else
        for (size_t p = 0; p < np; ++p) v[p] = index_of(Value(t.at(static_cast<int64_t>(p))));
    }
    r.coords.push_back(std::move(v));
  }
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
