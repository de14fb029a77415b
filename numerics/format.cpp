// Format table, bit-level decode/classify/neighbours, and the one correctly rounded encoder.
// Rounding works on an exact integer significand (m * 2^e plus a sticky bit), so it has no
// double rounding whatever the source precision; MPFR is only used to truncate wide inputs.
#include "numerics/format.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace kir::num {
namespace {

constexpr uint64_t bit(int k) { return uint64_t{1} << k; }

// The overflow rule of each format is chosen here and nowhere else (docs/numerics.md).
const FloatFormat kF16{DType::F16, 11, -14, 15, 15, 5, 10, true, true, true, true, true,
                       OverflowRule::ToInf, 0x7FF, 0x7E00, 16};
const FloatFormat kBF16{DType::BF16, 8, -126, 127, 127, 8, 7, true, true, true, true, true,
                        OverflowRule::ToInf, 0xFF, 0x7FC0, 16};
const FloatFormat kF32{DType::F32, 24, -126, 127, 127, 8, 23, true, true, true, true, true,
                       OverflowRule::ToInf, 0xFFFFFF, 0x7FC00000, 32};
const FloatFormat kF64{DType::F64, 53, -1022, 1023, 1023, 11, 52, true, true, true, true, true,
                       OverflowRule::ToInf, 0x1FFFFFFFFFFFFF, 0x7FF8000000000000, 64};
const FloatFormat kE4M3{DType::E4M3, 4, -6, 8, 7, 4, 3, false, true, true, true, true,
                        OverflowRule::ToNaN, 0xE, 0x7F, 8};
const FloatFormat kE5M2{DType::E5M2, 3, -14, 15, 15, 5, 2, true, true, true, true, true,
                        OverflowRule::ToInf, 0x7, 0x7E, 8};
const FloatFormat kE2M1{DType::E2M1, 2, 0, 2, 1, 2, 1, false, false, true, true, true,
                        OverflowRule::Saturate, 0x3, 0x0, 4};
const FloatFormat kE8M0{DType::E8M0, 1, -127, 127, 127, 8, 0, false, true, false, false, false,
                        OverflowRule::ToNaN, 0x1, 0xFF, 8};

uint64_t sign_mask(const FloatFormat& f) { return f.has_sign ? bit(f.bits - 1) : 0; }
uint64_t exp_field(const FloatFormat& f, uint64_t b) {
  return (b >> f.man_bits) & (bit(f.exp_bits) - 1);
}
uint64_t man_field(const FloatFormat& f, uint64_t b) { return b & (bit(f.man_bits) - 1); }
uint64_t width_mask(const FloatFormat& f) { return f.bits == 64 ? ~uint64_t{0} : bit(f.bits) - 1; }
uint64_t magnitude(const FloatFormat& f, uint64_t b) { return b & ~sign_mask(f) & width_mask(f); }
uint64_t max_finite_mag(const FloatFormat& f) {
  return (uint64_t(f.emax + f.bias) << f.man_bits) | (f.max_significand & (bit(f.man_bits) - 1));
}

// e8m0: nearest power of two of a positive finite value 2^(floor) * (1.xxx), ties (1.5) up.
uint64_t encode_e8m0(bool neg, uint64_t m, int e, bool sticky) {
  if (neg) return 0xFF;
  const int top = 63 - std::countl_zero(m);
  int k = e + top;  // floor(log2 value)
  // second-highest bit set -> fraction >= 0.5 -> round up (tie rounds up too, see format.h)
  if (top >= 1 && ((m >> (top - 1)) & 1)) ++k;
  (void)sticky;  // fraction >= 0.5 is decided by that bit alone; below it never matters
  if (k > 127) return 0xFF;
  if (k < -127) return 0x00;
  return static_cast<uint64_t>(k + 127);
}

uint64_t overflow_result(const FloatFormat& f, bool neg) {
  const uint64_t s = neg ? sign_mask(f) : 0;
  switch (f.overflow) {
    case OverflowRule::ToInf: return s | (uint64_t(bit(f.exp_bits) - 1) << f.man_bits);
    case OverflowRule::ToNaN: return s | f.canonical_nan;
    case OverflowRule::Saturate: return s | max_finite_mag(f);
  }
  return f.canonical_nan;
}

uint64_t special_result(const FloatFormat& f, bool is_nan_value, bool neg) {
  if (f.dtype == DType::E8M0) return 0xFF;
  if (is_nan_value) return f.canonical_nan;
  // infinity: IEEE formats keep it; others apply their overflow rule
  return overflow_result(f, neg);
}

}  // namespace

const FloatFormat& float_format(DType d) {
  switch (d) {
    case DType::F16: return kF16;
    case DType::BF16: return kBF16;
    case DType::F32: return kF32;
    case DType::F64: return kF64;
    case DType::E4M3: return kE4M3;
    case DType::E5M2: return kE5M2;
    case DType::E2M1: return kE2M1;
    case DType::E8M0: return kE8M0;
    default: break;
  }
  // Programming error: callers check is_any_float first. Return f64 rather than UB.
  return kF64;
}

uint64_t round_exact(bool neg, uint64_t m, int e, bool sticky, DType d, bool ftz) {
  const FloatFormat& f = float_format(d);
  const uint64_t s = neg ? sign_mask(f) : 0;
  if (m == 0) {
    // only a sticky remainder: a positive amount below any representable step -> zero
    if (d == DType::E8M0) return (sticky && !neg) ? 0x00 : 0xFF;
    return s;
  }
  // normalize so bit 63 is set (sticky stays below bit 0)
  const int lz = std::countl_zero(m);
  m <<= lz;
  e -= lz;
  if (d == DType::E8M0) return encode_e8m0(neg, m, e, sticky);
  const int p = f.precision;
  const int expo = e + 63;  // floor(log2 |value|)
  int q = (expo > f.emin ? expo : f.emin) - (p - 1);  // exponent of the result's last bit
  const long shift = long(q) - e;                     // >= 64 - p > 0
  uint64_t n, rem, half;  // value / quantum = n + rem / (2 * half)
  if (shift >= 65) {
    n = 0;
    rem = 1;
    half = 2;  // value < half a quantum: rounds to 0
  } else if (shift == 64) {
    n = 0;
    rem = m;
    half = bit(63);
  } else {
    n = m >> shift;
    rem = m & (bit(int(shift)) - 1);
    half = bit(int(shift) - 1);
  }
  const bool up = rem > half || (rem == half && (sticky || (n & 1)));
  n += up ? 1 : 0;
  if (n == 0) return s;  // underflow to signed zero
  if (n == bit(p)) {
    n >>= 1;
    ++q;
  }
  const int top_q = f.emax - (p - 1);
  if (q > top_q || (q == top_q && n > f.max_significand)) return overflow_result(f, neg);
  if (n < bit(p - 1)) {  // subnormal (q == emin - (p-1))
    if (ftz) return s;
    return s | n;
  }
  const uint64_t biased = uint64_t(q + (p - 1) + f.bias);
  return s | (biased << f.man_bits) | (n - bit(p - 1));
}

uint64_t round_to_truncated(const mpfr_t x, bool inexact, DType d, bool ftz) {
  const FloatFormat& f = float_format(d);
  if (mpfr_nan_p(x)) return special_result(f, true, false);
  const bool neg = mpfr_signbit(x) != 0;
  if (mpfr_inf_p(x)) return special_result(f, false, neg);
  if (mpfr_zero_p(x)) {
    if (inexact) return round_exact(neg, 0, 0, true, d, ftz);
    return d == DType::E8M0 ? 0xFF : (neg ? sign_mask(f) : 0);
  }
  // Truncate to 64 significant bits; the lost part only matters as a sticky bit because every
  // format has at most 53 significand bits (64 >= 53 + 2).
  mpfr_t t;
  mpfr_init2(t, 64);
  const int tern = mpfr_set(t, x, MPFR_RNDZ);
  mpz_t z;
  mpz_init(z);
  const mpfr_exp_t e = mpfr_get_z_2exp(z, t);
  mpz_abs(z, z);
  const uint64_t m = mpz_get_ui(z);
  mpz_clear(z);
  mpfr_clear(t);
  // exponents far outside every format: clamp so int arithmetic cannot overflow
  long ee = long(e);
  if (ee > 100000) return overflow_result(f, neg);
  if (ee < -100000) return round_exact(neg, 0, 0, true, d, ftz);
  return round_exact(neg, m, int(ee), inexact || tern != 0, d, ftz);
}

uint64_t round_to(const mpfr_t x, DType d, bool ftz) { return round_to_truncated(x, false, d, ftz); }

uint64_t from_double(double x, DType d, bool ftz) {
  const FloatFormat& f = float_format(d);
  if (std::isnan(x)) return special_result(f, true, false);
  const bool neg = std::signbit(x);
  if (std::isinf(x)) return special_result(f, false, neg);
  const uint64_t b = std::bit_cast<uint64_t>(x);
  const uint64_t ef = (b >> 52) & 0x7FF;
  uint64_t m = b & (bit(52) - 1);
  int e;
  if (ef == 0) {
    e = -1074;
  } else {
    m |= bit(52);
    e = int(ef) - 1075;
  }
  if (m == 0) return d == DType::E8M0 ? 0xFF : (neg ? sign_mask(f) : 0);
  return round_exact(neg, m, e, false, d, ftz);
}

double to_double(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  bits &= width_mask(f);
  if (d == DType::F64) return std::bit_cast<double>(bits);
  if (d == DType::F32) return double(std::bit_cast<float>(uint32_t(bits)));
  if (d == DType::E8M0) {
    if (bits == 0xFF) return std::numeric_limits<double>::quiet_NaN();
    return std::ldexp(1.0, int(bits) - 127);
  }
  const bool neg = (bits & sign_mask(f)) != 0;
  const uint64_t ef = exp_field(f, bits), mf = man_field(f, bits);
  double v;
  switch (classify(bits, d)) {
    case FpClass::NaN: return std::numeric_limits<double>::quiet_NaN();
    case FpClass::Infinite: v = std::numeric_limits<double>::infinity(); break;
    case FpClass::Zero: v = 0.0; break;
    case FpClass::Subnormal: v = std::ldexp(double(mf), f.emin - f.man_bits); break;
    default: v = std::ldexp(double(mf | bit(f.man_bits)), int(ef) - f.bias - f.man_bits); break;
  }
  return neg ? -v : v;
}

void decode(mpfr_t out, uint64_t bits, DType d) {
  if (mpfr_get_prec(out) < 64) mpfr_set_prec(out, 64);
  const double v = to_double(bits, d);
  if (std::isnan(v)) {
    mpfr_set_nan(out);
    return;
  }
  mpfr_set_d(out, v, MPFR_RNDN);  // exact: precision >= 53
}

FpClass classify(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  if (d == DType::E8M0) return (bits & 0xFF) == 0xFF ? FpClass::NaN : FpClass::Normal;
  const uint64_t mag = magnitude(f, bits);
  const uint64_t ef = exp_field(f, mag), mf = man_field(f, mag);
  const uint64_t all1 = bit(f.exp_bits) - 1;
  if (d == DType::E4M3) {
    if (mag == 0x7F) return FpClass::NaN;
  } else if (f.has_inf && ef == all1) {
    return mf == 0 ? FpClass::Infinite : FpClass::NaN;
  }
  if (ef == 0) return mf == 0 ? FpClass::Zero : FpClass::Subnormal;
  return FpClass::Normal;
}

bool sign_bit(uint64_t bits, DType d) { return (bits & sign_mask(float_format(d))) != 0; }

uint64_t max_finite(DType d, bool negative) {
  const FloatFormat& f = float_format(d);
  return max_finite_mag(f) | (negative ? sign_mask(f) : 0);
}
uint64_t zero_bits(DType d, bool negative) {
  const FloatFormat& f = float_format(d);
  return negative ? sign_mask(f) : 0;
}
uint64_t inf_bits(DType d, bool negative) {
  const FloatFormat& f = float_format(d);
  return (uint64_t(bit(f.exp_bits) - 1) << f.man_bits) | (negative ? sign_mask(f) : 0);
}
uint64_t flush_subnormal(uint64_t bits, DType d) {
  if (d == DType::E8M0 || classify(bits, d) != FpClass::Subnormal) return bits;
  return bits & sign_mask(float_format(d));
}

int64_t ordered_key(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  const uint64_t mag = magnitude(f, bits);
  // mag < 2^63 for every format, so the conversion and negation are exact
  const int64_t m = int64_t(mag);
  return (bits & sign_mask(f)) ? -m - 1 : m;
}

namespace {
// Signed magnitude position where -0 and +0 coincide: used for stepping and distances.
int64_t value_index(uint64_t bits, const FloatFormat& f) {
  const int64_t m = int64_t(magnitude(f, bits));
  return (bits & sign_mask(f)) ? -m : m;
}
uint64_t from_value_index(int64_t k, const FloatFormat& f) {
  if (k < 0) return uint64_t(-k) | sign_mask(f);
  return uint64_t(k);
}
}  // namespace

uint64_t next_up(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  const FpClass c = classify(bits, d);
  if (c == FpClass::NaN) return f.canonical_nan;
  if (d == DType::E8M0) return bits >= 0xFE ? 0xFE : bits + 1;
  const int64_t top = int64_t(f.has_inf ? max_finite_mag(f) + 1 : max_finite_mag(f));
  int64_t k = value_index(bits, f);
  if (k < top) ++k;
  if (k == 0) return sign_mask(f);  // nextUp(-min) = -0
  return from_value_index(k, f);
}

uint64_t next_down(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  const FpClass c = classify(bits, d);
  if (c == FpClass::NaN) return f.canonical_nan;
  if (d == DType::E8M0) return bits == 0 ? 0 : bits - 1;
  const int64_t top = int64_t(f.has_inf ? max_finite_mag(f) + 1 : max_finite_mag(f));
  int64_t k = value_index(bits, f);
  if (k == 0 && !(bits & sign_mask(f))) return from_value_index(-1, f);  // +0 -> -min
  if (k > -top) --k;
  if (k == 0) return 0;  // nextDown(+min) = +0
  return from_value_index(k, f);
}

uint64_t ulp_distance(uint64_t a, uint64_t b, DType d) {
  const FloatFormat& f = float_format(d);
  if (classify(a, d) == FpClass::NaN || classify(b, d) == FpClass::NaN)
    return std::numeric_limits<uint64_t>::max();
  const int64_t ka = value_index(a, f), kb = value_index(b, f);
  // |ka|,|kb| < 2^63: the difference fits in uint64 when computed as unsigned
  return ka >= kb ? uint64_t(ka) - uint64_t(kb) : uint64_t(kb) - uint64_t(ka);
}

int ulp_exponent(uint64_t bits, DType d) {
  const FloatFormat& f = float_format(d);
  if (d == DType::E8M0) return int(bits & 0xFF) - 127;
  const uint64_t ef = exp_field(f, magnitude(f, bits));
  const int e = ef == 0 ? f.emin : int(ef) - f.bias;
  return e - (f.precision - 1);
}

double ulp_value(uint64_t bits, DType d) {
  if (!is_finite(bits, d)) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, ulp_exponent(bits, d));
}

}  // namespace kir::num
