// Construction of the value ops (seed 000 §4): constants, pointwise arithmetic / compare /
// select / cast / bitcast / math in every dtype, broadcast, reshape, transpose, full, join, dim,
// tuples and records. Scalars become expressions (Let-bound), tensors Compute statements whose
// value is the same expression at a coordinate; fusion decides later what is materialized.
#include <cmath>
#include <cstring>

#include "backends/cpu/construct/builder.h"
#include "backends/cpu/mutants/mutants.h"
#include "kir/op_registry.h"
#include "numerics/format.h"

namespace kir::cpu {
namespace {

const Type& result_type(const Operation& op) { return op.result()->type; }

// The bits of a constant attribute in dtype d (exact: the verifier checked representability).
uint64_t const_bits(Builder& B, const Operation& op, const Attribute& a, DType d) {
  if (a.kind == Attribute::Kind::Bool) return a.b ? 1 : 0;
  if (a.kind == Attribute::Kind::Int) {
    if (is_any_float(d)) return num::from_double(static_cast<double>(static_cast<int64_t>(a.i)), d);
    uint64_t v = static_cast<uint64_t>(a.i);
    int w = info(d).bits;
    if (w < 64) v &= (uint64_t{1} << w) - 1;
    return v;
  }
  if (a.kind == Attribute::Kind::Float) return num::from_double(a.f, d);
  B.fail(op, "unsupported constant attribute " + a.str());
}

// Applies `f` element-wise: a scalar result when every operand is scalar (or in scalar mode),
// otherwise a Compute over the result type's shape.
void pointwise(Builder& B, const Operation& op, DType d, const std::function<ExprP(const std::vector<ExprP>&)>& f) {
  bool all_scalar = true;
  for (const auto* v : op.operands) {
    const CValue& c = B.get(v);
    if (c.kind != CValue::Kind::Scalar && c.kind != CValue::Kind::Enum) all_scalar = false;
  }
  if (all_scalar || B.scalar_mode()) {
    std::vector<ExprP> args;
    for (const auto* v : op.operands) {
      const CValue& c = B.get(v);
      if (c.kind != CValue::Kind::Scalar && c.kind != CValue::Kind::Enum)
        B.not_implemented(op, "a combine helper whose `" + op.name + "` is not element-wise");
      args.push_back(c.scalar);
    }
    B.set(op.result(), B.let(op.result()->name, f(args)));
    return;
  }
  auto shape = B.shape_of(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>& c) {
    std::vector<ExprP> args;
    for (const auto* v : op.operands) args.push_back(B.element(B.get(v), c));
    return f(args);
  }));
}

void op_const(Builder& B, const Operation& op) {
  const Attribute* a = op.attr("value");
  if (!a) B.fail(op, "const without value");
  const Type& t = result_type(op);
  if (t.is(TypeKind::Enum)) {
    const EnumDecl* e = B.module().find_enum(t.enum_name());
    int64_t val = 0;
    for (const auto& [n, v] : e ? e->members : std::vector<std::pair<std::string, int64_t>>{})
      if (n == a->member) val = v;
    CValue c = CValue::of_scalar(make_const(DType::I64, static_cast<uint64_t>(val)));
    c.kind = CValue::Kind::Enum;
    B.set(op.result(), c);
    return;
  }
  if (!t.is_scalar()) B.not_implemented(op, "a non-scalar const");
  B.set(op.result(), CValue::of_scalar(make_const(t.dtype(), const_bits(B, op, *a, t.dtype()))));
}

// flush_to_zero = true (f32, with approximate): subnormal operands and results read as zero of
// the same sign — the interpreter's evaluation of that freedom, so that results agree bitwise.
bool flushes(const Operation& op) {
  const Attribute* a = op.attr("flush_to_zero");
  return a && a->kind == Attribute::Kind::Bool && a->b;
}

ExprP ftz(ExprP e) { return make_unary("ftz", std::move(e)); }

void op_binary(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  int32_t id = B.origin(op);
  const bool flush = flushes(op);
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) {
    if (flush) return ftz(make_binary(op.name, ftz(a[0]), ftz(a[1]), id));
    return make_binary(op.name, a[0], a[1], id);
  });
}

void op_unary(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) { return make_unary(op.name, a[0]); });
}

void op_math(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  // approximate only widens what is allowed: the correctly rounded value is legal.
  const bool flush = flushes(op);
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) {
    return flush ? ftz(make_math(op.name, ftz(a[0]))) : make_math(op.name, a[0]);
  });
}

void op_cmp(Builder& B, const Operation& op) {
  const Attribute* p = op.attr("pred");
  if (!p) B.fail(op, "cmp without pred");
  pointwise(B, op, DType::Bool, [&](const std::vector<ExprP>& a) { return make_compare(p->s, a[0], a[1]); });
}

void op_select(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  const int32_t id = B.origin(op);
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) {
    if (mutant_active(MutantId::SelectSwapped)) return make_select(a[0], a[2], a[1], id);
    return make_select(a[0], a[1], a[2], id);
  });
}

void op_cast(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  int32_t id = B.origin(op);
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) { return make_cast(a[0], d, id); });
}

void op_bitcast(Builder& B, const Operation& op) {
  DType d = value_dtype(result_type(op));
  pointwise(B, op, d, [&](const std::vector<ExprP>& a) { return make_bitcast(a[0], d); });
}

void op_full(Builder& B, const Operation& op) {
  const CValue& fill = B.get(op.operands[0]);
  if (B.scalar_mode()) {
    B.set(op.result(), fill);
    return;
  }
  DType d = value_dtype(result_type(op));
  auto shape = B.runtime_shape(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>&) { return fill.scalar; }));
}

void op_broadcast(Builder& B, const Operation& op) {
  const CValue& x = B.get(op.operands[0]);
  if (B.scalar_mode() && x.is_scalar()) {
    B.set(op.result(), x);
    return;
  }
  if (B.scalar_mode()) B.not_implemented(op, "broadcast of a tensor inside a combine helper");
  auto dims = op.attr("dims") ? op.attr("dims")->ints() : std::vector<int64_t>{};
  const Type& xt = op.operands[0]->type;
  DType d = value_dtype(result_type(op));
  auto shape = B.runtime_shape(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>& c) {
    if (x.is_scalar() || x.kind == CValue::Kind::Enum) return x.scalar;
    std::vector<ExprP> idx;
    for (size_t i = 0; i < dims.size(); ++i) {
      auto one = xt.shape()[i].constant_value();
      auto res = result_type(op).shape()[static_cast<size_t>(dims[i])].constant_value();
      bool stretched = one && *one == 1 && !(res && *res == 1) && !mutant_active(MutantId::BroadcastNoStretch);
      idx.push_back(stretched ? make_index(0) : c[static_cast<size_t>(dims[i])]);
    }
    return make_load(x.buf, d, idx);
  }));
}

void op_transpose(Builder& B, const Operation& op) {
  if (B.scalar_mode()) B.not_implemented(op, "transpose inside a combine helper");
  const CValue& x = B.get(op.operands[0]);
  size_t r = op.operands[0]->type.rank();
  std::vector<int64_t> perm;
  if (op.attr("perm")) {
    perm = op.attr("perm")->ints();
  } else {
    for (size_t i = 0; i < r; ++i) perm.push_back(static_cast<int64_t>(r - 1 - i));
  }
  DType d = value_dtype(result_type(op));
  auto shape = B.shape_of(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>& c) {
    // result[i] = x[perm[i]]: x's axis perm[i] takes result coordinate i.
    std::vector<ExprP> idx(r);
    for (size_t i = 0; i < r; ++i) idx[static_cast<size_t>(perm[i])] = c[i];
    if (mutant_active(MutantId::TransposeInversePerm))
      for (size_t i = 0; i < r; ++i) idx[i] = c[static_cast<size_t>(perm[i])];
    return make_load(x.buf, d, idx);
  }));
}

void op_reshape(Builder& B, const Operation& op) {
  // In a combine helper's element-wise lowering a tensor is one scalar element: a reshape is
  // not element-wise (the general fold takes the combine).
  if (B.scalar_mode()) B.not_implemented(op, "reshape inside a combine helper");
  const CValue& x = B.get(op.operands[0]);
  const std::vector<ExprP> xs = B.program().buf(x.buf).shape;  // a copy: compute() adds buffers
  DType d = value_dtype(result_type(op));
  auto shape = B.runtime_shape(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>& c) {
    // Row-major: the linear position of c in the result, unravelled in x's shape.
    ExprP lin = make_index(0);
    for (size_t k = 0; k < c.size(); ++k) lin = index_add(index_mul(lin, shape[k]), c[k]);
    std::vector<ExprP> idx(xs.size());
    for (size_t k = xs.size(); k-- > 0;) {
      if (k == 0) {
        idx[k] = lin;
      } else {
        idx[k] = make_binary("rem", lin, xs[k]);
        lin = make_binary("div", lin, xs[k]);
      }
    }
    return make_load(x.buf, d, idx);
  }));
}

void op_join(Builder& B, const Operation& op) {
  const CValue& a = B.get(op.operands[0]);
  const CValue& b = B.get(op.operands[1]);
  DType d = value_dtype(result_type(op));
  auto shape = B.shape_of(op, result_type(op));
  B.set(op.result(), B.compute(op, op.result()->name, d, shape, [&](const std::vector<ExprP>& c) {
    std::vector<ExprP> inner(c.begin(), c.end() - 1);
    return make_select(make_compare("eq", c.back(), make_index(0)), B.element(a, inner), B.element(b, inner));
  }));
}

void op_dim(Builder& B, const Operation& op) {
  const CValue& x = B.get(op.operands[0]);
  int64_t axis = op.attr("axis") ? static_cast<int64_t>(op.attr("axis")->i) : 0;
  if (x.kind != CValue::Kind::Tensor && x.kind != CValue::Kind::View && x.kind != CValue::Kind::LogicalBuffer)
    B.fail(op, "dim of a value without a shape");
  B.set(op.result(), B.let(op.result()->name, B.program().buf(x.buf).shape.at(static_cast<size_t>(axis))));
}

void op_tuple(Builder& B, const Operation& op) {
  CValue v;
  v.kind = CValue::Kind::Tuple;
  for (const auto* o : op.operands) v.elems.push_back(B.get(o));
  B.set(op.result(), v);
}

void op_record(Builder& B, const Operation& op) {
  CValue v;
  v.kind = CValue::Kind::Record;
  for (const auto& [n, t] : result_type(op).fields()) v.names.push_back(n);
  for (const auto* o : op.operands) v.elems.push_back(B.get(o));
  B.set(op.result(), v);
}

void op_tuple_get(Builder& B, const Operation& op) {
  const CValue& t = B.get(op.operands[0]);
  auto i = static_cast<size_t>(op.attr("index")->i);
  if (t.kind != CValue::Kind::Tuple || i >= t.elems.size()) B.fail(op, "tuple.get of a non-tuple or out of range");
  B.set(op.result(), t.elems[i]);
}

void op_record_get(Builder& B, const Operation& op) {
  const CValue& r = B.get(op.operands[0]);
  const std::string& f = op.attr("field")->s;
  for (size_t i = 0; i < r.names.size(); ++i)
    if (r.names[i] == f) {
      B.set(op.result(), r.elems[i]);
      return;
    }
  B.fail(op, "record.get of an unknown field `" + f + "`");
}

}  // namespace

void register_value_ops(std::map<std::string, OpHandler>& t) {
  t["const"] = op_const;
  for (const char* n : {"add", "sub", "mul", "div", "rem", "min", "max", "pow", "and", "or", "xor", "shl", "shr"})
    t[n] = op_binary;
  for (const char* n : {"neg", "not", "abs", "sqrt", "floor"}) t[n] = op_unary;
  for (const char* n : {"exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos", "tanh", "erf", "erfc", "i0",
                        "rsqrt", "sigmoid"})
    t[n] = op_math;
  t["cmp"] = op_cmp;
  t["select"] = op_select;
  t["cast"] = op_cast;
  t["bitcast"] = op_bitcast;
  t["full"] = op_full;
  t["broadcast"] = op_broadcast;
  t["transpose"] = op_transpose;
  t["reshape"] = op_reshape;
  t["join"] = op_join;
  t["dim"] = op_dim;
  t["tuple"] = op_tuple;
  t["record"] = op_record;
  t["tuple.get"] = op_tuple_get;
  t["record.get"] = op_record_get;
}

}  // namespace kir::cpu
