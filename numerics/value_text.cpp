// Parsing/printing of scalar values; float text is converted exactly with MPFR then rounded once.
#include "numerics/value_text.h"

#include <mpfr.h>

#include <cctype>
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

namespace {

// Holds one MPFR number at 64 bits (every value of every format is exact there).
struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 64); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// Reads a decimal or (0x-prefixed) hex float rounded in direction `rnd` at 64 bits; returns the
// ternary value, or nullopt if `t` is not entirely such a number.
std::optional<int> read_number(const std::string& t, mpfr_t out, mpfr_rnd_t rnd) {
  const size_t i = !t.empty() && t[0] == '-' ? 1 : 0;
  if (i >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i]))) return std::nullopt;
  const bool hex = t.size() > i + 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X');
  for (size_t k = i; k < t.size(); ++k) {  // the characters of the KIR float token, nothing else
    const char c = t[k];
    const bool ok = std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' ||
                    (hex ? (std::isxdigit(static_cast<unsigned char>(c)) || c == 'x' || c == 'X' || c == 'p' ||
                            c == 'P')
                         : (c == 'e' || c == 'E'));
    if (!ok) return std::nullopt;
  }
  char* end = nullptr;
  const int tern = mpfr_strtofr(out, t.c_str(), &end, hex ? 16 : 10, rnd);
  if (end != t.c_str() + t.size() || mpfr_nan_p(out)) return std::nullopt;
  return tern;
}

}  // namespace

LiteralFit fit_float_literal(std::string_view text, DType d) {
  LiteralFit r;
  const std::string t(text);
  Mp lo, hi;
  auto tl = read_number(t, lo.v, MPFR_RNDD);
  auto th = read_number(t, hi.v, MPFR_RNDU);
  if (!tl || !th) return r;
  r.number = true;
  // lo <= value <= hi; equal (and the value) when the literal has at most 64 significant bits.
  // Every value of d has at most 53, so for such a v: v < value <=> v <= lo when inexact.
  const bool exact64 = *tl == 0;
  Mp y;
  auto value_of = [&](uint64_t bits) {
    decode(y.v, bits, d);
    return !mpfr_nan_p(y.v);
  };
  if (exact64) {
    const uint64_t bits = round_to(lo.v, d);
    if (value_of(bits) && mpfr_equal_p(y.v, lo.v) && mpfr_signbit(y.v) == mpfr_signbit(lo.v)) {
      r.exact = true;
      r.bits = bits;
      return r;
    }
  }
  auto less = [&](uint64_t b) {
    return value_of(b) && (exact64 ? mpfr_cmp(y.v, lo.v) < 0 : mpfr_cmp(y.v, lo.v) <= 0);
  };
  auto greater = [&](uint64_t b) {
    return value_of(b) && (exact64 ? mpfr_cmp(y.v, hi.v) > 0 : mpfr_cmp(y.v, hi.v) >= 0);
  };
  const FloatFormat& f = float_format(d);
  const uint64_t top = d == DType::E8M0 ? 0xFE : f.has_inf ? inf_bits(d) : max_finite(d);
  const uint64_t bottom = d == DType::E8M0 ? 0x00 : f.has_inf ? inf_bits(d, true) : max_finite(d, true);
  uint64_t start = round_to(lo.v, d);  // within a step of the value, or at an end of the format
  if (is_nan(start, d)) start = mpfr_sgn(lo.v) > 0 ? top : bottom;
  // below: the largest value < the literal
  uint64_t c = start;
  bool found = true;
  for (int guard = 0; found && !less(c); ++guard) {
    if (c == bottom || guard > 64) found = false;
    else c = next_down(c, d);
  }
  if (found) {
    for (uint64_t n = next_up(c, d); n != c && less(n); n = next_up(c, d)) c = n;
    r.below = c;
  }
  // above: the smallest value > the literal
  c = start;
  found = true;
  for (int guard = 0; found && !greater(c); ++guard) {
    if (c == top || guard > 64) found = false;
    else c = next_up(c, d);
  }
  if (found) {
    for (uint64_t n = next_down(c, d); n != c && greater(n); n = next_down(c, d)) c = n;
    r.above = c;
  }
  return r;
}

std::string exact_float_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  Mp x;
  char* end = nullptr;
  if (mpfr_strtofr(x.v, s.c_str(), &end, 10, MPFR_RNDN) == 0 && mpfr_cmp_d(x.v, v) == 0) {
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }
  // C99 hex float: 0x1.<fraction>p<exponent>, the fraction without trailing zeros.
  int e = 0;
  const double m = std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
  auto frac = static_cast<uint64_t>(std::ldexp(2 * m - 1, 52));
  std::string digits;
  for (int k = 12; k >= 0; --k) digits += "0123456789abcdef"[(frac >> (4 * k)) & 0xf];
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  const int p = e - 1;
  return std::string(v < 0 ? "-" : "") + "0x1" + (digits.empty() ? "" : "." + digits) + "p" + (p < 0 ? "-" : "+") +
         std::to_string(p < 0 ? -p : p);
}

std::string format_bits(Scalar v) {
  const int digits = (info(v.dtype).bits + 3) / 4;
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v.bits));
  return buf;
}

}  // namespace kir::num
