// Casts through an exact intermediate value (ExactValue), so no cast rounds twice.
#include "numerics/cast.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "numerics/format.h"

namespace kir::num {
namespace {

std::string describe(Scalar x) {
  return std::string(name(x.dtype)) + " bits 0x" + [&] {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(x.bits));
    return std::string(buf);
  }();
}

Result<Scalar> to_integer(const ExactValue& v, Scalar src, DType to) {
  if (v.kind != ExactValue::Finite)
    return make_error(Status::InvalidCast, "cast of " + describe(src) + " (NaN or Inf) to " +
                                               std::string(name(to)));
  // integer part of m * 2^e, or "too big" when it needs more than 64 bits
  uint64_t mag = 0;
  bool too_big = false;
  if (v.m != 0) {
    if (v.e >= 0) {
      const int len = 64 - std::countl_zero(v.m);
      if (len + v.e > 64) too_big = true;
      else mag = v.m << v.e;
    } else if (v.e > -64) {
      mag = v.m >> -v.e;
    }
  }
  const int w = info(to).bits;
  bool in_range;
  uint64_t bits;
  if (is_signed_integer(to)) {
    const uint64_t lim = uint64_t{1} << (w - 1);  // |INT_MIN|
    in_range = !too_big && (v.neg ? mag <= lim : mag < lim);
    bits = v.neg ? (0 - mag) : mag;
  } else {
    const uint64_t maxv = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    in_range = !too_big && (v.neg ? mag == 0 : mag <= maxv);
    bits = mag;
  }
  if (!in_range)
    return make_error(Status::InvalidCast, "cast of " + describe(src) + " to " +
                                               std::string(name(to)) + ": value out of range");
  return make_int(to, bits);
}

}  // namespace

ExactValue exact_value(Scalar x) {
  const DType d = x.dtype;
  if (d == DType::Bool) return {ExactValue::Finite, false, x.bits & 1, 0};
  if (is_integer(d)) {
    if (is_signed_integer(d)) {
      const int64_t s = as_signed(x);
      const uint64_t mag = s < 0 ? 0 - static_cast<uint64_t>(s) : static_cast<uint64_t>(s);
      return {ExactValue::Finite, s < 0, mag, 0};
    }
    return {ExactValue::Finite, false, x.bits & width_mask(d), 0};
  }
  const double v = to_double(x.bits, d);
  if (std::isnan(v)) return {ExactValue::NaN, false, 0, 0};
  if (std::isinf(v)) return {ExactValue::Inf, std::signbit(v), 0, 0};
  const bool neg = std::signbit(v);
  const uint64_t b = std::bit_cast<uint64_t>(v);
  const uint64_t ef = (b >> 52) & 0x7FF;
  uint64_t m = b & ((uint64_t{1} << 52) - 1);
  if (ef == 0) return {ExactValue::Finite, neg, m, -1074};
  m |= uint64_t{1} << 52;
  return {ExactValue::Finite, neg, m, int(ef) - 1075};
}

Result<Scalar> cast(Scalar x, DType to) {
  const ExactValue v = exact_value(x);
  if (to == DType::Bool) return make_bool(v.kind != ExactValue::Finite || v.m != 0);
  if (is_integer(to)) {
    if (is_integer(x.dtype) || x.dtype == DType::Bool) {
      // wrap: the two's-complement bits of the source value, truncated to the target width
      const uint64_t bits = v.neg ? 0 - v.m : v.m;
      return make_int(to, bits);
    }
    return to_integer(v, x, to);
  }
  // float target
  const FloatFormat& f = float_format(to);
  switch (v.kind) {
    case ExactValue::NaN:
      if (!f.has_nan)
        return make_error(Status::InvalidCast,
                          "cast of NaN (" + describe(x) + ") to " + std::string(name(to)) +
                              ", which has no NaN");
      return Scalar{to, f.canonical_nan};
    case ExactValue::Inf:
      return Scalar{to, from_double(v.neg ? -HUGE_VAL : HUGE_VAL, to)};
    case ExactValue::Finite: break;
  }
  if (v.m == 0) return Scalar{to, from_double(v.neg ? -0.0 : 0.0, to)};
  return Scalar{to, round_exact(v.neg, v.m, v.e, false, to)};
}

Result<Scalar> bitcast(Scalar x, DType to) {
  if (x.dtype == DType::Bool || to == DType::Bool || info(x.dtype).bits != info(to).bits)
    return make_error(Status::TypeMismatch, "bitcast from " + std::string(name(x.dtype)) +
                                                " to " + std::string(name(to)) +
                                                " needs two non-bool dtypes of equal bit width");
  return Scalar{to, x.bits & width_mask(to)};
}

}  // namespace kir::num
