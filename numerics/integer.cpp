// Integer arithmetic done in uint64 (where wrap is defined) and masked to the dtype width.
#include "numerics/integer.h"

#include <string>

namespace kir::num {
namespace {

Error mismatch(const char* what, Scalar a, Scalar b) {
  return make_error(Status::TypeMismatch, std::string(what) + ": operands " +
                                              std::string(name(a.dtype)) + " and " +
                                              std::string(name(b.dtype)));
}
bool is_int_like(DType d) { return is_integer(d) || d == DType::Bool; }
int width(DType d) { return d == DType::Bool ? 1 : info(d).bits; }
uint64_t min_signed_bits(DType d) { return (uint64_t{1} << (width(d) - 1)); }

}  // namespace

const char* op_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
    case BinaryOp::Rem: return "rem";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
    case BinaryOp::And: return "and";
    case BinaryOp::Or: return "or";
    case BinaryOp::Xor: return "xor";
    case BinaryOp::Shl: return "shl";
    case BinaryOp::Shr: return "shr";
  }
  return "?";
}
std::optional<BinaryOp> parse_binary_op(std::string_view name) {
  for (BinaryOp op : kBinaryOps)
    if (name == op_name(op)) return op;
  return std::nullopt;
}
std::optional<UnaryOp> parse_unary_op(std::string_view name) {
  for (UnaryOp op : kUnaryOps)
    if (name == op_name(op)) return op;
  return std::nullopt;
}
const char* op_name(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "neg";
    case UnaryOp::Abs: return "abs";
    case UnaryOp::Not: return "not";
    case UnaryOp::Sqrt: return "sqrt";
    case UnaryOp::Floor: return "floor";
  }
  return "?";
}

Result<bool> int_compare(CompareOp op, Scalar a, Scalar b) {
  if (a.dtype != b.dtype || !is_int_like(a.dtype)) return mismatch("compare", a, b);
  const bool sgn = is_signed_integer(a.dtype);
  const bool lt = sgn ? as_signed(a) < as_signed(b) : a.bits < b.bits;
  const bool eq = a.bits == b.bits;
  switch (op) {
    case CompareOp::Eq: return eq;
    case CompareOp::Ne: return !eq;
    case CompareOp::Lt: return lt;
    case CompareOp::Le: return lt || eq;
    case CompareOp::Gt: return !lt && !eq;
    case CompareOp::Ge: return !lt;
  }
  return false;
}

Result<Scalar> int_binary(BinaryOp op, Scalar a, Scalar b) {
  const DType d = a.dtype;
  if (b.dtype != d || !is_int_like(d)) return mismatch(op_name(op), a, b);
  const bool boolean = d == DType::Bool;
  const bool sgn = is_signed_integer(d);
  const uint64_t x = a.bits, y = b.bits;
  auto out = [&](uint64_t v) -> Result<Scalar> { return make_int(d, v); };
  switch (op) {
    case BinaryOp::And: return out(x & y);
    case BinaryOp::Or: return out(x | y);
    case BinaryOp::Xor: return out(x ^ y);
    case BinaryOp::Min:
    case BinaryOp::Max: {
      const bool lt = *int_compare(CompareOp::Lt, a, b);
      return (op == BinaryOp::Min) == lt ? a : b;
    }
    default: break;
  }
  if (boolean)
    return make_error(Status::TypeMismatch, std::string(op_name(op)) + " is not defined on bool");
  switch (op) {
    case BinaryOp::Add: return out(x + y);
    case BinaryOp::Sub: return out(x - y);
    case BinaryOp::Mul: return out(x * y);
    case BinaryOp::Div:
    case BinaryOp::Rem: {
      if (y == 0)
        return make_error(Status::DivideByZero,
                          std::string(op_name(op)) + " by zero in " + std::string(name(d)));
      if (!sgn) return out(op == BinaryOp::Div ? x / y : x % y);
      if (x == min_signed_bits(d) && y == width_mask(d))
        return make_error(Status::IntOverflow, std::string(op_name(op)) + " of " +
                                                   std::string(name(d)) + " minimum by -1");
      const int64_t sx = as_signed(a), sy = as_signed(b);
      return out(static_cast<uint64_t>(op == BinaryOp::Div ? sx / sy : sx % sy));
    }
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      const int w = width(d);
      const bool neg_amount = sgn && as_signed(b) < 0;
      if (neg_amount || y >= static_cast<uint64_t>(w))
        return make_error(Status::ShiftOutOfRange,
                          std::string(op_name(op)) + " of " + std::string(name(d)) +
                              " by " + (sgn ? std::to_string(as_signed(b)) : std::to_string(y)) +
                              " (must be in [0, " +
                              std::to_string(w) + "))");
      if (op == BinaryOp::Shl) return out(x << y);
      if (sgn) return out(static_cast<uint64_t>(as_signed(a) >> y));
      return out(x >> y);
    }
    default: break;
  }
  return mismatch(op_name(op), a, b);
}

Result<Scalar> int_unary(UnaryOp op, Scalar a) {
  const DType d = a.dtype;
  if (!is_int_like(d))
    return make_error(Status::TypeMismatch,
                      std::string(op_name(op)) + ": operand " + std::string(name(d)));
  if (d == DType::Bool) {
    if (op == UnaryOp::Not) return make_bool(a.bits == 0);
    return make_error(Status::TypeMismatch, std::string(op_name(op)) + " is not defined on bool");
  }
  switch (op) {
    case UnaryOp::Neg: return make_int(d, 0 - a.bits);
    case UnaryOp::Abs:
      if (is_signed_integer(d) && as_signed(a) < 0) return make_int(d, 0 - a.bits);
      return a;
    case UnaryOp::Not: return make_int(d, ~a.bits);
    default: break;
  }
  return make_error(Status::TypeMismatch,
                    std::string(op_name(op)) + " is not defined on " + std::string(name(d)));
}

}  // namespace kir::num
