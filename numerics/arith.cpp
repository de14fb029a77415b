// Float arithmetic. f32/f64 use the hardware operations (IEEE-754 RNE, identical results: the
// build uses SSE2 with the default rounding mode, no FTZ/DAZ, no contraction). f16 and bf16
// compute in f32 and round once more: innocuous because 24 >= 2p + 2 for +, -, *, /, sqrt
// (Figueroa), as long as the f32 result is a normal number — bf16 products and quotients that
// land in f32's subnormal range take the exact MPFR path instead. Other formats always use MPFR
// at 128 bits rounded toward zero plus the inexact flag (round-to-odd information), then one RNE.
#include "numerics/arith.h"

#include <bit>
#include <cmath>
#include <string>

#include "numerics/float_extra.h"
#include "numerics/format.h"
#include "numerics/integer.h"

namespace kir::num {
namespace {

Error mismatch(const char* what, Scalar a, Scalar b) {
  return make_error(Status::TypeMismatch, std::string(what) + ": operands " +
                                              std::string(name(a.dtype)) + " and " +
                                              std::string(name(b.dtype)));
}

float as_f32(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
uint64_t f32_bits(float f) {
  if (std::isnan(f)) return float_format(DType::F32).canonical_nan;
  return std::bit_cast<uint32_t>(f);
}
double as_f64(uint64_t b) { return std::bit_cast<double>(b); }
uint64_t f64_bits(double f) {
  if (std::isnan(f)) return float_format(DType::F64).canonical_nan;
  return std::bit_cast<uint64_t>(f);
}

// Exact MPFR path: operands decoded exactly, result truncated at 128 bits + inexact flag.
uint64_t mpfr_binary(BinaryOp op, DType d, uint64_t a, uint64_t b, bool ftz) {
  mpfr_t x, y, r;
  mpfr_inits2(64, x, y, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(r, 128);
  decode(x, a, d);
  decode(y, b, d);
  int t = 0;
  switch (op) {
    case BinaryOp::Add: t = mpfr_add(r, x, y, MPFR_RNDZ); break;
    case BinaryOp::Sub: t = mpfr_sub(r, x, y, MPFR_RNDZ); break;
    case BinaryOp::Mul: t = mpfr_mul(r, x, y, MPFR_RNDZ); break;
    default: t = mpfr_div(r, x, y, MPFR_RNDZ); break;
  }
  const uint64_t out = round_to_truncated(r, t != 0, d, ftz);
  mpfr_clears(x, y, r, static_cast<mpfr_ptr>(nullptr));
  return out;
}

uint64_t mpfr_sqrt_bits(DType d, uint64_t a) {
  mpfr_t x, r;
  mpfr_init2(x, 64);
  mpfr_init2(r, 128);
  decode(x, a, d);
  const int t = mpfr_sqrt(r, x, MPFR_RNDZ);
  const uint64_t out = round_to_truncated(r, t != 0, d);
  mpfr_clear(x);
  mpfr_clear(r);
  return out;
}

float native_f32(BinaryOp op, float x, float y) {
  switch (op) {
    case BinaryOp::Add: return x + y;
    case BinaryOp::Sub: return x - y;
    case BinaryOp::Mul: return x * y;
    default: return x / y;
  }
}
double native_f64(BinaryOp op, double x, double y) {
  switch (op) {
    case BinaryOp::Add: return x + y;
    case BinaryOp::Sub: return x - y;
    case BinaryOp::Mul: return x * y;
    default: return x / y;
  }
}

// + - * / rounded once into d.
uint64_t rounded_op(BinaryOp op, DType d, uint64_t a, uint64_t b, bool ftz) {
  if (ftz) {
    a = flush_subnormal(a, d);
    b = flush_subnormal(b, d);
  }
  switch (d) {
    case DType::F32: {
      uint64_t r = f32_bits(native_f32(op, as_f32(a), as_f32(b)));
      return ftz ? flush_subnormal(r, d) : r;
    }
    case DType::F64: {
      uint64_t r = f64_bits(native_f64(op, as_f64(a), as_f64(b)));
      return ftz ? flush_subnormal(r, d) : r;
    }
    case DType::F16:
    case DType::BF16: {
      const float x = static_cast<float>(to_double(a, d)), y = static_cast<float>(to_double(b, d));
      const float r = native_f32(op, x, y);
      const bool exact_range = std::isnormal(r) || std::isinf(r) || std::isnan(r) ||
                               op == BinaryOp::Add || op == BinaryOp::Sub;
      if (d == DType::F16 || exact_range) return from_double(r, d, ftz);
      return mpfr_binary(op, d, a, b, ftz);
    }
    default: return mpfr_binary(op, d, a, b, ftz);
  }
}

uint64_t min_max(bool is_min, DType d, uint64_t a, uint64_t b) {
  const FloatFormat& f = float_format(d);
  if (is_nan(a, d) || is_nan(b, d)) return f.canonical_nan;
  const double x = to_double(a, d), y = to_double(b, d);
  if (x == y) {  // equal values: only ±0 can differ; -0 < +0
    const bool sa = sign_bit(a, d);
    return (is_min == sa) ? a : b;
  }
  return (is_min == (x < y)) ? a : b;
}

// Whether the exact operation yields NaN (decided on exact double images of the operands).
bool nan_result(BinaryOp op, Scalar a, Scalar b) {
  const double x = to_double(a.bits, a.dtype), y = to_double(b.bits, b.dtype);
  const double r = op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y
                 : op == BinaryOp::Mul ? x * y : op == BinaryOp::Rem ? std::fmod(x, y) : x / y;
  return std::isnan(r);
}

}  // namespace

Result<Scalar> float_binary(BinaryOp op, Scalar a, Scalar b) {
  const DType d = a.dtype;
  if (b.dtype != d || !is_any_float(d)) return mismatch(op_name(op), a, b);
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
      if (d == DType::E2M1 && nan_result(op, a, b))
        return make_error(Status::InvalidCast, std::string(op_name(op)) +
                                                   " produces NaN, which e2m1 cannot represent");
      return Scalar{d, rounded_op(op, d, a.bits, b.bits, false)};
    case BinaryOp::Min:
    case BinaryOp::Max: return Scalar{d, min_max(op == BinaryOp::Min, d, a.bits, b.bits)};
    case BinaryOp::Rem:
      if (d == DType::E2M1 && nan_result(op, a, b))
        return make_error(Status::InvalidCast, "rem produces NaN, which e2m1 cannot represent");
      return float_fmod(a, b);
    default: break;
  }
  return make_error(Status::TypeMismatch,
                    std::string(op_name(op)) + " is not defined on " + std::string(name(d)));
}

Result<Scalar> fdiv(Scalar a, Scalar b, bool approximate, bool flush_to_zero) {
  if (a.dtype != b.dtype || !is_any_float(a.dtype)) return mismatch("fdiv", a, b);
  if ((approximate || flush_to_zero) && a.dtype != DType::F32)
    return make_error(Status::TypeMismatch, "fdiv: approximate/flush_to_zero require f32");
  if (flush_to_zero && !approximate)
    return make_error(Status::TypeMismatch, "fdiv: flush_to_zero requires approximate=True");
  return Scalar{a.dtype, rounded_op(BinaryOp::Div, a.dtype, a.bits, b.bits, flush_to_zero)};
}

Result<Scalar> float_unary(UnaryOp op, Scalar a) {
  const DType d = a.dtype;
  if (!is_any_float(d))
    return make_error(Status::TypeMismatch,
                      std::string(op_name(op)) + ": operand " + std::string(name(d)));
  const FloatFormat& f = float_format(d);
  if (is_nan(a.bits, d)) return Scalar{d, f.canonical_nan};
  switch (op) {
    case UnaryOp::Neg:
      if (!f.has_sign) return Scalar{d, f.canonical_nan};  // e8m0: no negative values
      return Scalar{d, a.bits ^ (uint64_t{1} << (f.bits - 1))};
    case UnaryOp::Abs:
      if (!f.has_sign) return a;
      return Scalar{d, a.bits & ~(uint64_t{1} << (f.bits - 1))};
    case UnaryOp::Floor: return Scalar{d, from_double(std::floor(to_double(a.bits, d)), d)};
    case UnaryOp::Sqrt:
      if (d == DType::E2M1 && sign_bit(a.bits, d) && classify(a.bits, d) != FpClass::Zero)
        return make_error(Status::InvalidCast, "sqrt of a negative e2m1 value produces NaN");
      switch (d) {
        case DType::F32: return Scalar{d, f32_bits(std::sqrt(as_f32(a.bits)))};
        case DType::F64: return Scalar{d, f64_bits(std::sqrt(as_f64(a.bits)))};
        case DType::F16:
        case DType::BF16:  // sqrt results are never subnormal: the f32 detour is innocuous
          return Scalar{d, from_double(std::sqrt(static_cast<float>(to_double(a.bits, d))), d)};
        default: return Scalar{d, mpfr_sqrt_bits(d, a.bits)};
      }
    case UnaryOp::Not: break;
  }
  return make_error(Status::TypeMismatch,
                    std::string(op_name(op)) + " is not defined on " + std::string(name(d)));
}

Result<bool> float_compare(CompareOp op, Scalar a, Scalar b) {
  if (a.dtype != b.dtype || !is_any_float(a.dtype)) return mismatch("compare", a, b);
  const double x = to_double(a.bits, a.dtype), y = to_double(b.bits, b.dtype);
  switch (op) {
    case CompareOp::Eq: return x == y;
    case CompareOp::Ne: return !(x == y);
    case CompareOp::Lt: return x < y;
    case CompareOp::Le: return x <= y;
    case CompareOp::Gt: return x > y;
    case CompareOp::Ge: return x >= y;
  }
  return false;
}

Result<Scalar> binary(BinaryOp op, Scalar a, Scalar b) {
  if (is_any_float(a.dtype)) return float_binary(op, a, b);
  return int_binary(op, a, b);
}
Result<Scalar> unary(UnaryOp op, Scalar a) {
  if (is_any_float(a.dtype)) return float_unary(op, a);
  return int_unary(op, a);
}
Result<bool> compare(CompareOp op, Scalar a, Scalar b) {
  if (is_any_float(a.dtype)) return float_compare(op, a, b);
  return int_compare(op, a, b);
}
Result<Scalar> select(bool cond, Scalar a, Scalar b) {
  if (a.dtype != b.dtype) return mismatch("select", a, b);
  return cond ? a : b;
}

}  // namespace kir::num
