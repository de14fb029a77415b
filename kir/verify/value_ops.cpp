// Verifier rules for value ops (seed 000 §4, §19): constants, pointwise binary/unary/compare/
// select with identical operand types (broadcast is explicit, L4.1/L4.2), the fdiv/exp2/tanh
// numeric options (L4.4, L4.5), conversions, shape transforms (L4.6–L4.10) and tuple/record
// aggregates (L4.11, L4.12). Enum operands are checked in one place, core_enums.cpp (L2.6).
#include <cmath>
#include <set>

#include "kir/op_registry.h"
#include "kir/verify/context.h"
#include "kir/verify/core_util.h"
#include "numerics/format.h"
#include "numerics/value_text.h"

namespace kir::verify {

using namespace core;

namespace {

std::string dn(DType d) { return std::string(name(d)); }

bool basic_shape(const Operation& op, Context& cx, size_t nops, const std::string& rule) {
  bool ok_ops = cx.operands(op, nops, rule);
  bool ok_res = cx.results(op, 1, rule);
  return ok_ops && ok_res && has_operand_types(op) && static_cast<bool>(result_type(op));
}

// ---- const ---------------------------------------------------------------------------------

// A value of d as text that reads back exactly (a hex float also shown as an approximate decimal).
std::string exact_spelling(uint64_t bits, DType d) {
  double v = num::to_double(bits, d);
  std::string s = num::exact_float_text(v);
  if (s.find('x') != std::string::npos)
    s += " (about " + num::format_value(num::Scalar{DType::F64, num::from_double(v, DType::F64)}) + ")";
  return s;
}

// L4.14: a float literal is exactly a value of its dtype, judged from its text (decimal or hex)
// with no intermediate rounding; otherwise the message names the nearest values on both sides.
void check_float_literal(const Operation& op, Context& cx, const Attribute& a, DType d) {
  std::string text = a.text.empty() ? num::exact_float_text(a.f) : a.text;
  auto fit = num::fit_float_literal(text, d);
  if (!fit.number) return cx.error(op, "L4.14", "malformed float literal '" + text + "'");
  if (fit.exact) return;
  std::string msg = "literal " + text + " is not exactly representable in " + dn(d) + "; nearest: ";
  if (fit.below && fit.above) msg += exact_spelling(*fit.below, d) + " and " + exact_spelling(*fit.above, d);
  else if (fit.below) msg += exact_spelling(*fit.below, d) + ", the largest " + dn(d) + " value";
  else if (fit.above) msg += exact_spelling(*fit.above, d) + ", the smallest " + dn(d) + " value";
  cx.error(op, "L4.14", msg);
}

void check_const(const Operation& op, Context& cx) {
  if (!cx.operands(op, 0, "L4.14") || !cx.results(op, 1, "L4.14")) return;
  cx.only_attrs(op, {"value"}, "L4.14");
  Type t = result_type(op);
  const Attribute* a = op.attr("value");
  if (!a) return cx.error(op, "L4.14", "missing attribute 'value'");
  if (t.is(TypeKind::Enum)) {
    if (a->kind != Attribute::Kind::EnumMember)
      return cx.error(op, "L2.6", "an enum constant's value must be a member @" + t.enum_name() + "::m, got " + a->str());
    if (a->s != t.enum_name())
      return cx.error(op, "L2.6", "value " + a->str() + " is a member of @" + a->s + ", not of " + ty(t) +
                                      " (no conversion across enum types)");
    const EnumDecl* e = cx.module.find_enum(a->s);
    if (!e) return cx.error(op, "L2.6", "enum @" + a->s + " is not defined");
    for (const auto& m : e->members)
      if (m.first == a->member) return;
    return cx.error(op, "L2.6", "enum @" + a->s + " has no member '" + a->member + "'");
  }
  if (!t.is_scalar())
    return cx.error(op, "L4.14", "a constant is a scalar (use full(...) for a tensor), got " + ty(t));
  DType d = t.dtype();
  if (a->kind == Attribute::Kind::EnumMember)
    return cx.error(op, "L2.6", "enum member " + a->str() + " used as a " + dn(d) + " constant; enums are not integers");
  if (d == DType::Bool) {
    if (a->kind != Attribute::Kind::Bool) return cx.error(op, "L4.14", "a bool constant needs true/false, got " + a->str());
    return;
  }
  if (is_integer(d)) {
    if (a->kind != Attribute::Kind::Int)
      return cx.error(op, "L4.14", "an " + dn(d) + " constant needs an integer value, got " + a->str());
    int bits = info(d).bits;
    int128 lo, hi;
    if (is_unsigned_integer(d)) {
      lo = 0;
      hi = bits >= 64 ? static_cast<int128>(UINT64_MAX) : (static_cast<int128>(1) << bits) - 1;
    } else {
      lo = -(static_cast<int128>(1) << (bits - 1));
      hi = (static_cast<int128>(1) << (bits - 1)) - 1;
    }
    if (a->i < lo || a->i > hi)
      cx.error(op, "L4.14", "value " + a->str() + " is out of range for " + dn(d) + " [" + int128_str(lo) + ", " +
                                int128_str(hi) + "]");
    return;
  }
  // floating formats (small formats included: a constant is storage, not arithmetic)
  if (a->kind != Attribute::Kind::Float)
    return cx.error(op, "L4.14", "a " + dn(d) + " constant needs a floating value (e.g. 1.0), got " + a->str());
  if (a->f != a->f && !num::float_format(d).has_nan)
    return cx.error(op, "L4.14", dn(d) + " has no NaN");
  if ((a->f == INFINITY || a->f == -INFINITY) && !num::float_format(d).has_inf)
    return cx.error(op, "L4.14", dn(d) + " has no infinity");
  if (a->f == a->f && a->f != INFINITY && a->f != -INFINITY) check_float_literal(op, cx, *a, d);
}

// ---- pointwise -----------------------------------------------------------------------------

// Operands of identical type, scalar or tensor; returns false after reporting.
bool same_operand_types(const Operation& op, Context& cx, size_t first, size_t count) {
  Type a = operand_type(op, first);
  if (!a.is_shaped_or_scalar()) {
    cx.error(op, a.is(TypeKind::Tuple) || a.is(TypeKind::Record) ? "L4.13" : "L4.14",
             "operand " + std::to_string(first) + " must be a scalar or tensor, got " + ty(a));
    return false;
  }
  for (size_t i = first + 1; i < first + count; ++i) {
    Type b = operand_type(op, i);
    if (b == a) continue;
    if (!b.is_shaped_or_scalar()) {
      cx.error(op, b.is(TypeKind::Tuple) || b.is(TypeKind::Record) ? "L4.13" : "L4.14",
               "operand " + std::to_string(i) + " must be a scalar or tensor, got " + ty(b));
      return false;
    }
    std::string rule = difference_rule(a, b);
    std::string msg = "operands must have identical types, got " + ty(a) + " and " + ty(b) + " (" +
                      type_difference(a, b) + ")";
    if (rule != "L4.14") msg += "; broadcast explicitly with broadcast(x) {dims = [...]}";
    cx.error(op, rule, msg);
    return false;
  }
  return true;
}

bool result_is(const Operation& op, Context& cx, const Type& expected, const std::string& rule) {
  Type r = result_type(op);
  if (r == expected) return true;
  cx.error(op, rule, "result type must be " + ty(expected) + ", got " + ty(r));
  return false;
}

bool no_small_float(const Operation& op, Context& cx, DType d) {
  if (!is_small_float(d)) return true;
  cx.error(op, "L4.14", dn(d) + " is a storage format: no arithmetic on it (cast to f16/bf16/f32/f64 first)");
  return false;
}

// fdiv / exp2 / tanh options (L4.4, L4.5): constexpr bools, non-default only on f32, FTZ only
// together with approximate.
void check_numeric_options(const Operation& op, Context& cx, DType d, bool allow_ftz, const std::string& rule) {
  if (allow_ftz) cx.only_attrs(op, {"approximate", "flush_to_zero"}, rule);
  else cx.only_attrs(op, {"approximate"}, rule);
  auto approx = cx.bool_attr(op, "approximate", rule, false);
  std::optional<bool> ftz = false;
  if (allow_ftz) ftz = cx.bool_attr(op, "flush_to_zero", rule, false);
  if (!approx || !ftz) return;
  if ((*approx || *ftz) && d != DType::F32)
    cx.error(op, rule, "approximate/flush_to_zero modes are only available for f32, got " + dn(d));
  else if (*ftz && !*approx)
    cx.error(op, rule, "flush_to_zero requires approximate = true");
}

void check_binary(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 2, "L4.14") || any_enum_operand(op)) return;
  if (op.name != "div") cx.only_attrs(op, {}, "L4.14");  // div's options are checked below
  if (!same_operand_types(op, cx, 0, 2)) return;
  Type t = operand_type(op, 0);
  DType d = t.dtype();
  if (!no_small_float(op, cx, d)) return;
  const std::string& n = op.name;
  bool ok = true;
  std::string need;
  if (n == "and" || n == "or" || n == "xor") {
    ok = is_integer(d) || d == DType::Bool;
    need = "integer or bool";
  } else if (n == "shl" || n == "shr") {
    ok = is_integer(d);
    need = "integer";
  } else if (n == "pow") {
    ok = is_float(d);
    need = "floating (f16/bf16/f32/f64)";
  } else {  // add sub mul div rem min max
    ok = is_integer(d) || is_float(d);
    need = "integer or floating";
  }
  if (!ok) return cx.error(op, "L4.14", "operands must be " + need + ", got " + dn(d));
  if (n == "div") check_numeric_options(op, cx, d, true, "L4.4");
  result_is(op, cx, t, "L4.14");
}

void check_unary(const Operation& op, Context& cx) {
  const std::string& n = op.name;
  std::string rule = (n == "exp2" || n == "tanh") ? "L4.5" : is_unary_math(n) ? "L4.3" : "L4.14";
  if (!basic_shape(op, cx, 1, rule) || any_enum_operand(op)) return;
  if (n != "exp2" && n != "tanh") cx.only_attrs(op, {}, rule);
  Type t = operand_type(op, 0);
  if (!t.is_shaped_or_scalar())
    return cx.error(op, t.is(TypeKind::Tuple) || t.is(TypeKind::Record) ? "L4.13" : rule,
                    "operand must be a scalar or tensor, got " + ty(t));
  DType d = t.dtype();
  if (n == "not") {
    if (!(is_integer(d) || d == DType::Bool)) return cx.error(op, rule, "operand must be integer or bool, got " + dn(d));
  } else if (n == "neg") {
    if (!no_small_float(op, cx, d)) return;
    if (!(is_integer(d) || is_float(d))) return cx.error(op, rule, "operand must be integer or floating, got " + dn(d));
  } else {
    if (!is_float(d))
      return cx.error(op, rule, std::string(is_small_float(d) ? "storage format " : "") +
                                    "operand must be floating (f16, bf16, f32 or f64), got " + dn(d) +
                                    (is_small_float(d) ? "; cast first" : ""));
    if (n == "exp2") check_numeric_options(op, cx, d, true, "L4.5");
    if (n == "tanh") check_numeric_options(op, cx, d, false, "L4.5");
  }
  result_is(op, cx, t, rule);
}

void check_cmp(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 2, "L4.14") || any_enum_operand(op)) return;
  cx.only_attrs(op, {"pred"}, "L4.14");
  const Attribute* p = cx.attr(op, "pred", Attribute::Kind::Keyword, "L4.14");
  if (p && p->s != "eq" && p->s != "ne" && p->s != "lt" && p->s != "le" && p->s != "gt" && p->s != "ge")
    cx.error(op, "L4.14", "pred must be eq, ne, lt, le, gt or ge, got " + p->s);
  if (!same_operand_types(op, cx, 0, 2)) return;
  Type t = operand_type(op, 0);
  if (!no_small_float(op, cx, t.dtype())) return;
  result_is(op, cx, t.with_dtype(DType::Bool), "L4.14");
}

void check_select(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 3, "L4.14") || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.14");
  if (!same_operand_types(op, cx, 1, 2)) return;
  Type a = operand_type(op, 1);
  Type c = operand_type(op, 0);
  Type want = a.with_dtype(DType::Bool);
  if (c != want) {
    std::string rule = c.is_shaped_or_scalar() && c.dtype() == DType::Bool ? difference_rule(c, want) : "L4.14";
    return cx.error(op, rule, "condition must be " + ty(want) + " (bool with the values' shape), got " + ty(c));
  }
  result_is(op, cx, a, "L4.14");
}

// ---- conversions ---------------------------------------------------------------------------

void check_cast(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.14")) return;
  cx.only_attrs(op, {}, "L4.14");
  Type s = operand_type(op, 0), r = result_type(op);
  if (s.is(TypeKind::Enum) || r.is(TypeKind::Enum)) return;  // L2.6, core_enums.cpp
  if (!s.is_shaped_or_scalar() || !r.is_shaped_or_scalar())
    return cx.error(op, "L4.14", op.name + " converts a scalar or tensor, got " + ty(s) + " -> " + ty(r));
  if (s.is_scalar() != r.is_scalar())
    return cx.error(op, "L4.14", op.name + " keeps the kind: scalar -> scalar or tensor -> tensor, got " + ty(s) +
                                     " -> " + ty(r));
  if (s.is_tensor() && s.shape() != r.shape())
    return cx.error(op, difference_rule(s.with_dtype(r.dtype()), r),
                    op.name + " keeps the shape, got " + ty(s) + " -> " + ty(r));
  // A bool is a truth value, not a bit pattern (its storage width is not part of the language):
  // bool <-> integer is `cast` (false/true <-> 0/1, x != 0).
  if (op.name == "bitcast" && (s.dtype() == DType::Bool || r.dtype() == DType::Bool))
    return cx.error(op, "L4.14", "bitcast " + dn(s.dtype()) + " -> " + dn(r.dtype()) +
                                     ": bool has no bit pattern to reinterpret; use cast (false/true <-> 0/1)");
  if (op.name == "bitcast" && info(s.dtype()).bits != info(r.dtype()).bits)
    cx.error(op, "L4.14", "bitcast needs the same bit width per element: " + dn(s.dtype()) + " has " +
                              std::to_string(info(s.dtype()).bits) + " bits, " + dn(r.dtype()) + " has " +
                              std::to_string(info(r.dtype()).bits));
}

// ---- shape ---------------------------------------------------------------------------------

void check_broadcast(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.1") || any_enum_operand(op)) return;
  cx.only_attrs(op, {"dims"}, "L4.1");
  Type s = operand_type(op, 0), r = result_type(op);
  if (!s.is_shaped_or_scalar()) return cx.error(op, "L4.1", "operand must be a scalar or tensor, got " + ty(s));
  if (!r.is_tensor()) return cx.error(op, "L4.1", "result must be a tensor, got " + ty(r));
  if (r.dtype() != s.dtype())
    return cx.error(op, "L4.1", "broadcast keeps the dtype: " + dn(s.dtype()) + " -> " + dn(r.dtype()));
  auto dims = cx.int_list_attr(op, "dims", "L4.1");
  if (!dims) return;
  std::vector<Extent> in = value_shape(s);
  if (dims->size() != in.size())
    return cx.error(op, "L4.1", "dims has " + std::to_string(dims->size()) + " entries but the operand has rank " +
                                    std::to_string(in.size()));
  int64_t prev = -1;
  for (size_t i = 0; i < dims->size(); ++i) {
    int64_t d = (*dims)[i];
    if (d < 0 || d >= static_cast<int64_t>(r.rank()))
      return cx.error(op, "L4.1", "dims[" + std::to_string(i) + "] = " + std::to_string(d) +
                                      " is not an axis of the result (rank " + std::to_string(r.rank()) + ")");
    if (d <= prev) return cx.error(op, "L4.1", "dims must be strictly increasing");
    prev = d;
    const Extent& e = in[i];
    const Extent& o = r.shape()[static_cast<size_t>(d)];
    if (e != o && e != Extent::constant(1)) {
      bool dyn = !e.is_constant() && !o.is_constant();
      return cx.error(op, dyn ? "L4.2" : "L4.1",
                      "input axis " + std::to_string(i) + " has extent " + e.str() + ", which is neither 1 nor the result's " +
                          o.str() + (dyn ? " (dynamic extents are compatible only when provably equal)" : ""));
    }
  }
}

std::optional<Extent> element_count(const std::vector<Extent>& s) {
  try {
    Extent n = Extent::constant(1);
    for (const auto& e : s) n = n * e;
    return n;
  } catch (const ExtentOverflow&) {
    return std::nullopt;
  }
}

void check_reshape(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.6") || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.6");
  Type s = operand_type(op, 0), r = result_type(op);
  if (!s.is_tensor() || !r.is_tensor())
    return cx.error(op, "L4.6", "reshape maps a tensor to a tensor, got " + ty(s) + " -> " + ty(r));
  if (s.dtype() != r.dtype()) return cx.error(op, "L4.6", "reshape keeps the dtype: " + ty(s) + " -> " + ty(r));
  auto a = element_count(s.shape()), b = element_count(r.shape());
  if (!a || !b) return cx.error(op, "L4.6", "element count overflows");
  if (*a != *b)
    cx.error(op, "L4.6", "reshape keeps the element count: " + a->str() + " elements vs " + b->str() +
                             " (not provably equal)");
}

void check_transpose(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.7") || any_enum_operand(op)) return;
  cx.only_attrs(op, {"perm"}, "L4.7");
  Type s = operand_type(op, 0), r = result_type(op);
  if (!s.is_tensor()) return cx.error(op, "L4.7", "operand must be a tensor, got " + ty(s));
  size_t n = s.rank();
  std::vector<int64_t> perm;
  if (op.has_attr("perm")) {
    auto p = cx.int_list_attr(op, "perm", "L4.7");
    if (!p) return;
    perm = *p;
    if (perm.size() != n)
      return cx.error(op, "L4.7", "perm has " + std::to_string(perm.size()) + " entries but the operand has rank " +
                                      std::to_string(n));
    std::vector<bool> seen(n, false);
    for (int64_t a : perm) {
      if (a < 0 || a >= static_cast<int64_t>(n) || seen[static_cast<size_t>(a)])
        return cx.error(op, "L4.7", "perm " + op.attr("perm")->str() + " is not a permutation of 0.." +
                                        std::to_string(static_cast<int64_t>(n) - 1));
      seen[static_cast<size_t>(a)] = true;
    }
  } else {
    for (size_t i = 0; i < n; ++i) perm.push_back(static_cast<int64_t>(n - 1 - i));  // reverse all axes
  }
  std::vector<Extent> shape;
  for (int64_t a : perm) shape.push_back(s.shape()[static_cast<size_t>(a)]);
  result_is(op, cx, Type::tensor(s.dtype(), shape), "L4.7");
}

void check_full(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.9") || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.9");
  Type f = operand_type(op, 0), r = result_type(op);
  if (!r.is_tensor()) return cx.error(op, "L4.9", "result must be a ranked tensor (f32[] for rank 0), got " + ty(r));
  if (f != r.element()) return cx.error(op, "L4.9", "fill must be a scalar " + dn(r.dtype()) + ", got " + ty(f));
  for (size_t i = 0; i < r.rank(); ++i) {
    auto c = r.shape()[i].constant_value();
    if (c && *c < 0)
      return cx.error(op, "L4.9", "extent " + std::to_string(*c) + " of axis " + std::to_string(i) + " is negative");
  }
}

void check_join(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 2, "L4.10") || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.10");
  Type a = operand_type(op, 0), b = operand_type(op, 1);
  if (!a.is_shaped_or_scalar())
    return cx.error(op, "L4.10", "join stacks scalars or tensors (it is not a record), got " + ty(a));
  if (a != b) {
    std::string rule = b.is_shaped_or_scalar() && a.dtype() == b.dtype() && difference_rule(a, b) == "L4.2" ? "L4.2" : "L4.10";
    return cx.error(op, rule, "join needs the same dtype and shape, got " + ty(a) + " and " + ty(b) + " (" +
                                  type_difference(a, b) + ")");
  }
  std::vector<Extent> s = value_shape(a);
  s.push_back(Extent::constant(2));
  result_is(op, cx, Type::tensor(a.dtype(), s), "L4.10");
}

void check_dim(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.8")) return;
  cx.only_attrs(op, {"axis"}, "L4.8");
  Type x = operand_type(op, 0);
  if (!(x.is_tensor() || x.is(TypeKind::View) || x.is(TypeKind::Buffer)))
    return cx.error(op, "L4.8", "only ranked tensors, views and buffers have .shape; " + ty(x) + " has none");
  const Attribute* a = cx.attr(op, "axis", Attribute::Kind::Int, "L4.8");
  if (!a) return;
  if (a->i < 0 || a->i >= static_cast<int128>(x.rank()))
    return cx.error(op, "L4.8", "axis " + a->str() + " is out of range for rank " + std::to_string(x.rank()));
  result_is(op, cx, Type::scalar(DType::Index), "L4.8");
}

// ---- aggregates ----------------------------------------------------------------------------

bool component_ok(const Type& t) {
  return t.is_scalar() || t.is_tensor() || t.is(TypeKind::Tuple) || t.is(TypeKind::Record);
}

void check_tuple(const Operation& op, Context& cx) {
  if (!cx.results(op, 1, "L4.11") || !has_operand_types(op) || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.11");
  std::vector<Type> ts;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    Type t = operand_type(op, i);
    if (!component_ok(t))
      return cx.error(op, "L4.11", "component " + std::to_string(i) + " must be a scalar, tensor, tuple or record, got " + ty(t));
    ts.push_back(t);
  }
  result_is(op, cx, Type::tuple(ts), "L4.11");
}

void check_tuple_get(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.11")) return;
  cx.only_attrs(op, {"index"}, "L4.11");
  Type t = operand_type(op, 0);
  if (!t.is(TypeKind::Tuple)) return cx.error(op, "L4.11", "operand must be a tuple, got " + ty(t));
  const Attribute* a = cx.attr(op, "index", Attribute::Kind::Int, "L4.11");
  if (!a) return;
  if (a->i < 0 || a->i >= static_cast<int128>(t.elements().size()))
    return cx.error(op, "L4.11", "index " + a->str() + " is out of range for " + ty(t) + " (" +
                                     std::to_string(t.elements().size()) + " components)");
  result_is(op, cx, t.elements()[static_cast<size_t>(a->i)], "L4.11");
}

void check_record(const Operation& op, Context& cx) {
  if (!cx.results(op, 1, "L4.12") || !has_operand_types(op) || any_enum_operand(op)) return;
  cx.only_attrs(op, {}, "L4.12");
  Type r = result_type(op);
  if (!r.is(TypeKind::Record)) return cx.error(op, "L4.12", "result must be a record type, got " + ty(r));
  const auto& fs = r.fields();
  if (fs.empty()) return cx.error(op, "L4.12", "a record has at least one field");
  if (fs.size() != op.operands.size())
    return cx.error(op, "L4.12", ty(r) + " has " + std::to_string(fs.size()) + " fields but " +
                                     std::to_string(op.operands.size()) + " operands are given");
  std::set<std::string> names;
  for (size_t i = 0; i < fs.size(); ++i) {
    if (!names.insert(fs[i].first).second) return cx.error(op, "L4.12", "duplicate field name '" + fs[i].first + "'");
    Type t = operand_type(op, i);
    if (!component_ok(t))
      return cx.error(op, "L4.12", "field '" + fs[i].first + "' must be a scalar, tensor, tuple or record, got " + ty(t));
    if (t != fs[i].second)
      return cx.error(op, "L4.12", "field '" + fs[i].first + "' has type " + ty(fs[i].second) + " but operand " +
                                       std::to_string(i) + " is " + ty(t));
  }
}

void check_record_get(const Operation& op, Context& cx) {
  if (!basic_shape(op, cx, 1, "L4.12")) return;
  cx.only_attrs(op, {"field"}, "L4.12");
  Type t = operand_type(op, 0);
  if (!t.is(TypeKind::Record)) return cx.error(op, "L4.12", "operand must be a record, got " + ty(t));
  const Attribute* a = op.attr("field");
  if (!a || (a->kind != Attribute::Kind::Keyword && a->kind != Attribute::Kind::String))
    return cx.error(op, "L4.12", "needs a static field name: {field = name}");
  for (const auto& [n, ft] : t.fields())
    if (n == a->s) {
      result_is(op, cx, ft, "L4.12");
      return;
    }
  cx.error(op, "L4.12", ty(t) + " has no field '" + a->s + "'");
}

}  // namespace

void register_value_ops(OpTable& t) {
  t["const"] = check_const;
  for (const char* n : {"add", "sub", "mul", "div", "rem", "min", "max", "pow", "and", "or", "xor", "shl", "shr"})
    t[n] = check_binary;
  for (const auto& o : all_ops())
    if (o.status == OpStatus::Canonical && o.family == OpFamily::Unary) t[std::string(o.name)] = check_unary;
  t["cmp"] = check_cmp;
  t["select"] = check_select;
  t["cast"] = check_cast;
  t["bitcast"] = check_cast;
  t["broadcast"] = check_broadcast;
  t["reshape"] = check_reshape;
  t["transpose"] = check_transpose;
  t["full"] = check_full;
  t["join"] = check_join;
  t["dim"] = check_dim;
  t["tuple"] = check_tuple;
  t["tuple.get"] = check_tuple_get;
  t["record"] = check_record;
  t["record.get"] = check_record_get;
}

}  // namespace kir::verify
