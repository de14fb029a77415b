// Value ops of seed 000 §4 (docs/kir-ops-core.md "Value ops"): const, the pointwise binary ops,
// cmp, select, neg/not and the correctly rounded math set, cast and bitcast. Every element goes
// through the numerics library (or a tight loop of fast_paths.h proven bit-identical to it for
// the common float/integer ops that cannot fail); a numerics error (integer division by zero, invalid cast, ...)
// is a run-time error naming the op, its location and the element's coordinates.
#include <algorithm>
#include <unordered_map>

#include "interp/engine.h"
#include "interp/fast_paths.h"
#include "numerics/float_extra.h"
#include "numerics/arith.h"
#include "numerics/cast.h"
#include "numerics/format.h"
#include "numerics/integer.h"
#include "numerics/math.h"

namespace kir::interp {
namespace {

// Element view of a scalar or tensor operand.
struct Elems {
  DType dtype;
  Shape shape;
  const uint64_t* data;
  int64_t n;
  bool scalar;
  uint64_t one = 0;
};

Elems elems(const Value& v) {
  if (v.is_scalar()) {
    Elems e{v.scalar().dtype, {}, nullptr, 1, true, v.scalar().bits};
    return e;
  }
  const Tensor& t = v.tensor();
  return Elems{t.dtype, t.shape, t.bits.data(), t.size(), false};
}
inline uint64_t el(const Elems& e, int64_t i) { return e.scalar ? e.one : e.data[i]; }
// Elems may point into a scalar's own copy: keep `one` addressable by storing it inline above.

std::string coords_of(const Elems& e, int64_t i) { return e.scalar ? "" : coord_str(unravel(i, e.shape)); }

void check_same(const Operation& op, const Elems& a, const Elems& b) {
  if (a.scalar != b.scalar || a.shape != b.shape)
    fail(op, ErrorKind::ShapeMismatch, "operand shapes " + shape_str(a.shape) + " and " + shape_str(b.shape) + " differ");
}

// ---- const ----
Flow op_const(Engine& E, Frame& f, const Operation& op) {
  const Attribute* a = op.attr("value");
  if (!a) fail(op, ErrorKind::InvalidValue, "const without value");
  const Type& t = op.result()->type;
  if (t.is(TypeKind::Enum)) {
    const EnumDecl* d = E.module.find_enum(a->s);
    EnumV ev{a->s, a->member, 0};
    if (d)
      for (const auto& [m, v] : d->members)
        if (m == a->member) ev.value = v;
    E.set(f, op, 0, ev);
    return {};
  }
  DType d = t.dtype();
  Scalar s{d, 0};
  if (a->kind == Attribute::Kind::Bool) s = num::make_bool(a->b);
  else if (a->kind == Attribute::Kind::Int) {
    if (is_any_float(d)) s = Scalar{d, num::from_double(static_cast<double>(a->i), d)};
    else if (d == DType::Bool) s = num::make_bool(a->i != 0);
    else s = num::make_int(d, static_cast<uint64_t>(a->i));
  } else if (a->kind == Attribute::Kind::Float) {
    if (!is_any_float(d)) fail(op, ErrorKind::InvalidValue, "float constant for an integer dtype");
    s = Scalar{d, num::from_double(a->f, d)};
  } else {
    fail(op, ErrorKind::InvalidValue, "unsupported constant " + a->str());
  }
  E.set(f, op, 0, s);
  return {};
}

// ---- binary ----
Flow op_binary(Engine& E, Frame& f, const Operation& op) {
  const Value &va = E.operand(f, op, 0), &vb = E.operand(f, op, 1);
  Elems a = elems(va), b = elems(vb);
  check_same(op, a, b);
  if (a.dtype != b.dtype) fail(op, ErrorKind::ShapeMismatch, "operand dtypes differ");
  const bool is_pow = op.name == "pow";
  num::BinaryOp bop = num::BinaryOp::Add;
  if (!is_pow) bop = *num::parse_binary_op(op.name);
  const bool approx = attr_bool(op, "approximate"), ftz = attr_bool(op, "flush_to_zero");
  if (!is_pow && !approx && !ftz && fast::binary_supported(bop, a.dtype) && !a.scalar) {
    // A dead operand's tensor takes the result in place (same dtype and shape; out[i] depends
    // only on a[i] and b[i], so overwriting element i after reading it is safe).
    for (size_t k = 0; k < 2; ++k) {
      if (Tensor* t = E.reusable_tensor(f, op, k)) {
        fast::binary(bop, a.dtype, a.data, 1, b.data, 1, t->bits.data(), a.n);
        E.set(f, op, 0, E.take_operand(f, op, k));
        return {};
      }
    }
  }
  std::vector<uint64_t> out(static_cast<size_t>(a.n));
  if (!is_pow && !approx && !ftz && fast::binary_supported(bop, a.dtype)) {
    fast::binary(bop, a.dtype, a.scalar ? &a.one : a.data, a.scalar ? 0 : 1, b.scalar ? &b.one : b.data,
                 b.scalar ? 0 : 1, out.data(), a.n);
    E.set(f, op, 0, make_shaped(a.dtype, a.shape, std::move(out), a.scalar));
    return {};
  }
  for (int64_t i = 0; i < a.n; ++i) {
    Scalar x{a.dtype, el(a, i)}, y{b.dtype, el(b, i)};
    num::Result<Scalar> r = num::pointwise_binary(bop, is_pow, x, y, approx, ftz);
    if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, coords_of(a, i));
    out[static_cast<size_t>(i)] = r->bits;
  }
  E.set(f, op, 0, make_shaped(a.dtype, a.shape, std::move(out), a.scalar));
  return {};
}

// ---- cmp / select ----
Flow op_cmp(Engine& E, Frame& f, const Operation& op) {
  const Value &va = E.operand(f, op, 0), &vb = E.operand(f, op, 1);
  const std::string pred = attr_keyword(op, "pred");
  static const std::unordered_map<std::string, num::CompareOp> preds = {
      {"eq", num::CompareOp::Eq}, {"ne", num::CompareOp::Ne}, {"lt", num::CompareOp::Lt},
      {"le", num::CompareOp::Le}, {"gt", num::CompareOp::Gt}, {"ge", num::CompareOp::Ge}};
  auto pit = preds.find(pred);
  if (pit == preds.end()) fail(op, ErrorKind::InvalidValue, "unknown predicate '" + pred + "'");
  if (va.is_enum() || vb.is_enum()) {
    bool eq = va.is_enum() && vb.is_enum() && va.enumv().enum_name == vb.enumv().enum_name &&
              va.enumv().member == vb.enumv().member;
    if (pit->second != num::CompareOp::Eq && pit->second != num::CompareOp::Ne)
      fail(op, ErrorKind::InvalidValue, "ordered comparison of enum values");
    E.set(f, op, 0, num::make_bool(pit->second == num::CompareOp::Eq ? eq : !eq));
    return {};
  }
  Elems a = elems(va), b = elems(vb);
  check_same(op, a, b);
  std::vector<uint64_t> out(static_cast<size_t>(a.n));
  if (a.dtype == b.dtype && fast::compare_supported(a.dtype)) {
    fast::compare(pit->second, a.dtype, a.scalar ? &a.one : a.data, a.scalar ? 0 : 1, b.scalar ? &b.one : b.data,
                  b.scalar ? 0 : 1, out.data(), a.n);
    E.set(f, op, 0, make_shaped(DType::Bool, a.shape, std::move(out), a.scalar));
    return {};
  }
  for (int64_t i = 0; i < a.n; ++i) {
    auto r = num::compare(pit->second, Scalar{a.dtype, el(a, i)}, Scalar{b.dtype, el(b, i)});
    if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, coords_of(a, i));
    out[static_cast<size_t>(i)] = *r ? 1 : 0;
  }
  E.set(f, op, 0, make_shaped(DType::Bool, a.shape, std::move(out), a.scalar));
  return {};
}

Flow op_select(Engine& E, Frame& f, const Operation& op) {
  Elems c = elems(E.operand(f, op, 0)), a = elems(E.operand(f, op, 1)), b = elems(E.operand(f, op, 2));
  check_same(op, a, b);
  check_same(op, c, a);
  std::vector<uint64_t> out(static_cast<size_t>(a.n));
  for (int64_t i = 0; i < a.n; ++i) out[static_cast<size_t>(i)] = el(c, i) ? el(a, i) : el(b, i);
  E.set(f, op, 0, make_shaped(a.dtype, a.shape, std::move(out), a.scalar));
  return {};
}

// ---- unary ----
Flow op_unary(Engine& E, Frame& f, const Operation& op) {
  Elems a = elems(E.operand(f, op, 0));
  std::vector<uint64_t> out(static_cast<size_t>(a.n));
  if (op.name == "neg" || op.name == "not") {
    num::UnaryOp u = op.name == "neg" ? num::UnaryOp::Neg : num::UnaryOp::Not;
    for (int64_t i = 0; i < a.n; ++i) {
      auto r = num::unary(u, Scalar{a.dtype, el(a, i)});
      if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, coords_of(a, i));
      out[static_cast<size_t>(i)] = r->bits;
    }
  } else {
    auto fn = num::parse_math_fn(op.name);
    if (!fn) fail(op, ErrorKind::NotImplemented, "not implemented: " + op.name);
    if (!is_float(a.dtype)) fail(op, ErrorKind::InvalidValue, op.name + " on " + std::string(name(a.dtype)));
    // approximate=True: the reference value is the correctly rounded one (numerics contract);
    // flush_to_zero flushes subnormal inputs and results.
    const bool ftz = attr_bool(op, "flush_to_zero");
    if (a.scalar) std::fill(out.begin(), out.end(), num::eval(*fn, a.dtype, a.one, ftz));
    else num::eval_n(*fn, a.dtype, a.data, out.data(), out.size(), ftz);  // one dispatch per tensor
  }
  E.set(f, op, 0, make_shaped(a.dtype, a.shape, std::move(out), a.scalar));
  return {};
}

// ---- cast / bitcast ----
Flow op_cast(Engine& E, Frame& f, const Operation& op) {
  Elems a = elems(E.operand(f, op, 0));
  const DType to = op.result()->type.dtype();
  const bool bit = op.name == "bitcast";
  // The verifier rejects these (L4.14); a module that skipped it gets a located error, not bits.
  if (bit && (a.dtype == DType::Bool || to == DType::Bool || info(a.dtype).bits != info(to).bits))
    fail(op, ErrorKind::InvalidValue,
         "bitcast " + std::string(name(a.dtype)) + " -> " + std::string(name(to)) +
             " is not in the language (bool has no bit pattern; widths must be equal; L4.14)");
  std::vector<uint64_t> out(static_cast<size_t>(a.n));
  for (int64_t i = 0; i < a.n; ++i) {
    Scalar x{a.dtype, el(a, i)};
    auto r = bit ? num::bitcast(x, to) : num::cast(x, to);
    if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, coords_of(a, i));
    out[static_cast<size_t>(i)] = r->bits;
  }
  E.set(f, op, 0, make_shaped(to, a.shape, std::move(out), a.scalar));
  return {};
}

}  // namespace

void register_pointwise_ops(HandlerTable& t) {
  t["const"] = op_const;
  for (num::BinaryOp b : num::kBinaryOps) t[num::op_name(b)] = op_binary;
  t["pow"] = op_binary;
  t["cmp"] = op_cmp;
  t["select"] = op_select;
  for (const char* n : {"neg", "not", "exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos", "tanh", "floor",
                        "erf", "erfc", "i0", "rsqrt", "sqrt", "sigmoid", "abs"})
    t[n] = op_unary;
  t["cast"] = op_cast;
  t["bitcast"] = op_cast;
}

}  // namespace kir::interp
