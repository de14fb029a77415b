// Parsing/printing of scalar values; float text is converted exactly with MPFR then rounded once.
#include "numerics/value_text.h"

#include <mpfr.h>

#include <charconv>
#include <cmath>
#include <cstdio>

#include "numerics/format.h"

namespace kir::num {

Result<Scalar> parse_value(std::string_view text, DType d) {
  const std::string t(text);
  auto bad = [&] {
    return make_error(Status::TypeMismatch,
                      "cannot parse '" + t + "' as a " + std::string(name(d)) + " value");
  };
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    uint64_t bits = 0;
    auto [p, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), bits, 16);
    if (ec != std::errc() || p != t.data() + t.size()) return bad();
    if ((bits & ~width_mask(d)) != 0 || (d == DType::Bool && bits > 1))
      return make_error(Status::InvalidCast, "bit pattern " + t + " does not fit " +
                                                 std::string(name(d)));
    return Scalar{d, bits};
  }
  if (d == DType::Bool) {
    if (t == "true" || t == "1") return make_bool(true);
    if (t == "false" || t == "0") return make_bool(false);
    return bad();
  }
  if (is_integer(d)) {
    const int w = info(d).bits;
    if (is_signed_integer(d)) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec == std::errc::result_out_of_range)
        return make_error(Status::InvalidCast, t + " is out of range for " + std::string(name(d)));
      if (ec != std::errc() || p != t.data() + t.size()) return bad();
      const int64_t lo = w == 64 ? INT64_MIN : -(int64_t{1} << (w - 1));
      const int64_t hi = w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
      if (v < lo || v > hi)
        return make_error(Status::InvalidCast, t + " is out of range for " + std::string(name(d)));
      return make_int(d, static_cast<uint64_t>(v));
    }
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && v > width_mask(d)))
      return make_error(Status::InvalidCast, t + " is out of range for " + std::string(name(d)));
    if (ec != std::errc() || p != t.data() + t.size()) return bad();
    return make_int(d, v);
  }
  // float: exact decimal -> MPFR (rounded toward zero at 256 bits + inexact flag), then one RNE
  mpfr_t x;
  mpfr_init2(x, 256);
  char* end = nullptr;
  const int tern = mpfr_strtofr(x, t.c_str(), &end, 10, MPFR_RNDZ);
  const bool ok = !t.empty() && end == t.c_str() + t.size();
  uint64_t bits = 0;
  if (ok) {
    if (mpfr_nan_p(x) && !float_format(d).has_nan) {
      mpfr_clear(x);
      return make_error(Status::InvalidCast, std::string(name(d)) + " has no NaN");
    }
    bits = round_to_truncated(x, tern != 0, d);
  }
  mpfr_clear(x);
  if (!ok) return bad();
  return Scalar{d, bits};
}

std::string format_value(Scalar v) {
  if (v.dtype == DType::Bool) return v.bits ? "true" : "false";
  if (is_integer(v.dtype))
    return is_signed_integer(v.dtype) ? std::to_string(as_signed(v)) : std::to_string(v.bits);
  const double x = to_double(v.bits, v.dtype);
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  // shortest text that reads back as the same double: every format's values are exact doubles
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

std::string format_bits(Scalar v) {
  const int digits = (info(v.dtype).bits + 3) / 4;
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v.bits));
  return buf;
}

}  // namespace kir::num
