// Shape and aggregate ops (seed 000 §4): broadcast (explicit relation, input axis extent equal or
// 1), reshape (row-major order kept), transpose, full, join (new trailing axis of 2), dim
// (.shape), tuple/record construction and static selection.
#include <algorithm>

#include "interp/engine.h"

namespace kir::interp {
namespace {

// out[c] = in[sum c[k] * in_strides[k]] for every c of out_shape (row-major odometer).
void strided_gather(const Shape& out_shape, const Shape& in_strides, const std::vector<uint64_t>& in,
                    std::vector<uint64_t>& out) {
  const size_t r = out_shape.size();
  Shape c(r, 0);
  int64_t src = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = in[static_cast<size_t>(src)];
    for (size_t k = r; k-- > 0;) {
      if (++c[k] < out_shape[k]) { src += in_strides[k]; break; }
      src -= in_strides[k] * (out_shape[k] - 1);
      c[k] = 0;
    }
  }
}

// Broadcast of an index scalar or of a lazy index tensor stays lazy: the result's affine
// strides are the input's along mapped axes and 0 along new or extent-1 axes.
Flow op_broadcast(Engine& E, Frame& f, const Operation& op) {
  const Value& x = E.operand(f, op, 0);
  Shape rs = E.eval_shape(f, op.result()->type.shape(), op);
  std::vector<int64_t> dims = attr_ints(op, "dims");
  const DType rd = op.result()->type.dtype();
  if (x.is_scalar()) {
    if (rd == DType::Index && x.scalar().dtype == DType::Index) {
      Tensor out;
      out.dtype = rd;
      out.shape = rs;
      out.affine = std::make_shared<AffineIndex>(AffineIndex{static_cast<int64_t>(x.scalar().bits), Shape(rs.size(), 0)});
      E.set(f, op, 0, std::move(out));
      return {};
    }
    Tensor out = make_tensor(rd, rs);
    std::fill(out.bits.begin(), out.bits.end(), x.scalar().bits);
    E.set(f, op, 0, std::move(out));
    return {};
  }
  const Tensor& lt = x.lazy_tensor();
  if (dims.size() != lt.shape.size()) fail(op, ErrorKind::ShapeMismatch, "dims do not match the input rank");
  const AffineIndex* af = rd == lt.dtype ? x.lazy_affine() : nullptr;
  Shape in_strides = af ? af->strides : row_major_strides(lt.shape), st(rs.size(), 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    auto d = static_cast<size_t>(dims[i]);
    if (d >= rs.size()) fail(op, ErrorKind::ShapeMismatch, "dims entry out of range");
    if (lt.shape[i] == rs[d]) st[d] = in_strides[i];
    else if (lt.shape[i] != 1)
      fail(op, ErrorKind::ShapeMismatch,
           "input axis " + std::to_string(i) + " has extent " + std::to_string(lt.shape[i]) + " but result axis " +
               std::to_string(d) + " has " + std::to_string(rs[d]) + " (dynamic broadcast needs extent 1 or equal)");
  }
  if (af) {
    Tensor out;
    out.dtype = rd;
    out.shape = rs;
    checked_numel(rs);
    out.affine = std::make_shared<AffineIndex>(AffineIndex{af->base, st});
    E.set(f, op, 0, std::move(out));
    return {};
  }
  Tensor out = make_tensor(rd, rs);
  const Tensor& t = x.tensor();
  if (!out.bits.empty()) strided_gather(rs, st, t.bits, out.bits);
  E.set(f, op, 0, std::move(out));
  return {};
}

Flow op_reshape(Engine& E, Frame& f, const Operation& op) {
  const Tensor& t = E.operand(f, op, 0).tensor();
  Shape rs = E.eval_shape(f, op.result()->type.shape(), op);
  if (checked_numel(rs) != t.size())
    fail(op, ErrorKind::ShapeMismatch, "reshape of " + shape_str(t.shape) + " to " + shape_str(rs) + " changes the element count");
  Tensor out = t;
  out.shape = rs;
  E.set(f, op, 0, std::move(out));
  return {};
}

Flow op_transpose(Engine& E, Frame& f, const Operation& op) {
  const Tensor& t = E.operand(f, op, 0).tensor();
  const size_t r = t.shape.size();
  std::vector<int64_t> perm = attr_ints(op, "perm");
  if (!op.attr("perm"))
    for (size_t i = 0; i < r; ++i) perm.push_back(static_cast<int64_t>(r - 1 - i));
  if (perm.size() != r) fail(op, ErrorKind::ShapeMismatch, "perm does not match the rank");
  Shape rs(r), st(r), in_strides = row_major_strides(t.shape);
  for (size_t i = 0; i < r; ++i) {
    rs[i] = t.shape[static_cast<size_t>(perm[i])];
    st[i] = in_strides[static_cast<size_t>(perm[i])];
  }
  Tensor out = make_tensor(t.dtype, rs);
  if (!out.bits.empty()) strided_gather(rs, st, t.bits, out.bits);
  E.set(f, op, 0, std::move(out));
  return {};
}

Flow op_full(Engine& E, Frame& f, const Operation& op) {
  Scalar s = E.operand(f, op, 0).scalar();
  Tensor out = make_tensor(s.dtype, E.eval_shape(f, op.result()->type.shape(), op));
  std::fill(out.bits.begin(), out.bits.end(), s.bits);
  E.set(f, op, 0, std::move(out));
  return {};
}

Flow op_join(Engine& E, Frame& f, const Operation& op) {
  const Value &a = E.operand(f, op, 0), &b = E.operand(f, op, 1);
  if (a.is_scalar()) {
    Tensor out = make_tensor(a.scalar().dtype, {2});
    out.bits = {a.scalar().bits, b.scalar().bits};
    E.set(f, op, 0, std::move(out));
    return {};
  }
  const Tensor &ta = a.tensor(), &tb = b.tensor();
  if (ta.shape != tb.shape) fail(op, ErrorKind::ShapeMismatch, "join of " + shape_str(ta.shape) + " and " + shape_str(tb.shape));
  Shape rs = ta.shape;
  rs.push_back(2);
  Tensor out = make_tensor(ta.dtype, rs);
  for (int64_t i = 0; i < ta.size(); ++i) {
    out.bits[static_cast<size_t>(2 * i)] = ta.bits[static_cast<size_t>(i)];
    out.bits[static_cast<size_t>(2 * i + 1)] = tb.bits[static_cast<size_t>(i)];
  }
  E.set(f, op, 0, std::move(out));
  return {};
}

Flow op_dim(Engine& E, Frame& f, const Operation& op) {
  const Value& x = E.operand(f, op, 0);
  const Shape& s = x.is_view() ? x.view().shape : x.tensor().shape;
  int64_t axis = attr_int(op, "axis");
  if (axis < 0 || static_cast<size_t>(axis) >= s.size()) fail(op, ErrorKind::InvalidValue, "axis out of range");
  E.set(f, op, 0, Scalar{DType::Index, static_cast<uint64_t>(s[static_cast<size_t>(axis)])});
  return {};
}

Flow op_tuple(Engine& E, Frame& f, const Operation& op) {
  TupleV t;
  for (size_t i = 0; i < op.operands.size(); ++i) t.elems.push_back(E.operand(f, op, i));
  E.set(f, op, 0, std::move(t));
  return {};
}

Flow op_tuple_get(Engine& E, Frame& f, const Operation& op) {
  const TupleV& t = E.operand(f, op, 0).tuple();
  int64_t i = attr_int(op, "index", -1);
  if (i < 0 || static_cast<size_t>(i) >= t.elems.size()) fail(op, ErrorKind::InvalidValue, "tuple index out of range");
  E.set(f, op, 0, t.elems[static_cast<size_t>(i)]);
  return {};
}

Flow op_record(Engine& E, Frame& f, const Operation& op) {
  RecordV r;
  const Type& t = op.result()->type;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    r.names.push_back(i < t.fields().size() ? t.fields()[i].first : std::to_string(i));
    r.elems.push_back(E.operand(f, op, i));
  }
  E.set(f, op, 0, std::move(r));
  return {};
}

Flow op_record_get(Engine& E, Frame& f, const Operation& op) {
  const RecordV& r = E.operand(f, op, 0).record();
  const std::string field = attr_keyword(op, "field");
  for (size_t i = 0; i < r.names.size(); ++i)
    if (r.names[i] == field) {
      E.set(f, op, 0, r.elems[i]);
      return {};
    }
  fail(op, ErrorKind::InvalidValue, "record has no field '" + field + "'");
}

}  // namespace

void register_shape_ops(HandlerTable& t) {
  t["broadcast"] = op_broadcast;
  t["reshape"] = op_reshape;
  t["transpose"] = op_transpose;
  t["full"] = op_full;
  t["join"] = op_join;
  t["dim"] = op_dim;
  t["tuple"] = op_tuple;
  t["tuple.get"] = op_tuple_get;
  t["record"] = op_record;
  t["record.get"] = op_record_get;
}

}  // namespace kir::interp
