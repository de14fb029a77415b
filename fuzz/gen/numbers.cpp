// See numbers.h.
#include "fuzz/gen/numbers.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "numerics/format.h"
#include "numerics/scalar.h"

namespace kir::fuzz {
namespace {

int ibits(DType d) { return info(d).bits; }

}  // namespace

uint64_t int_bits(DType d, int64_t x) {
  if (d == DType::Bool) return x != 0 ? 1 : 0;
  return num::make_int(d, static_cast<uint64_t>(x)).bits;
}

uint64_t int_min_bits(DType d) {
  if (d == DType::Bool || is_unsigned_integer(d)) return 0;
  return uint64_t{1} << (ibits(d) - 1);
}

uint64_t int_max_bits(DType d) {
  if (d == DType::Bool) return 1;
  if (is_unsigned_integer(d)) return num::width_mask(d);
  return (uint64_t{1} << (ibits(d) - 1)) - 1;
}

uint64_t all_ones_bits(DType d) { return d == DType::Bool ? 1 : num::width_mask(d); }

uint64_t value_bits(DType d, double x) {
  if (is_any_float(d)) {
    if (d == DType::E2M1 && std::isnan(x)) return 0;
    return num::from_double(x, d);
  }
  if (d == DType::Bool) return x != 0.0 ? 1 : 0;
  return int_bits(d, static_cast<int64_t>(x));
}

std::string literal(DType d, uint64_t bits) {
  if (d == DType::Bool) return bits ? "true" : "false";
  if (is_integer(d)) {
    if (is_unsigned_integer(d)) return std::to_string(bits);
    const int64_t v = num::as_signed(num::Scalar{d, bits});
    if (v == INT64_MIN) return "-0x8000000000000000";
    return std::to_string(v);
  }
  const auto c = num::classify(bits, d);
  if (c == num::FpClass::NaN) return "nan";
  const double x = num::to_double(bits, d);
  if (c == num::FpClass::Infinite) return x < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

uint64_t random_bits(DType d, Rng& r) {
  if (d == DType::Bool) return r.below(2);
  if (is_integer(d)) {
    if (r.chance(0.75)) return int_bits(d, is_unsigned_integer(d) ? r.range(0, 40) : r.range(-20, 20));
    return r.next() & num::width_mask(d);
  }
  if (is_small_float(d) || r.chance(0.08)) {
    uint64_t b = r.next() & num::width_mask(d);
    return d == DType::E2M1 ? (b & 0xF) : b;
  }
  // Now and then ±0 (the sign of zero is what abs, neg, min/max and sums get wrong).
  if (r.chance(0.03)) return r.chance(0.5) ? uint64_t{1} << (info(d).bits - 1) : 0;
  // A moderate value: random sign, 2^[-6, 6] magnitude, full random significand.
  const double m = 1.0 + static_cast<double>(r.next() >> 11) * 0x1.0p-53;
  const double x = std::ldexp(m, static_cast<int>(r.range(-6, 6))) * (r.chance(0.5) ? -1.0 : 1.0);
  return value_bits(d, x);
}

uint64_t special_bits(DType d, Rng& r) {
  if (d == DType::Bool) return r.below(2);
  if (is_integer(d)) {
    const int w = ibits(d);
    if (w == 64 && d != DType::Index && r.chance(0.2)) {
      // Just above a rounding midpoint of f32 (2^62 + 2^38 + 1) or bf16 (2^62 + 2^54 + 1) that
      // rounding to f64 first would land on exactly (then ties-to-even rounds the wrong way).
      const uint64_t v = (uint64_t{1} << 62) + (uint64_t{1} << (r.chance(0.5) ? 38 : 54)) + 1;
      return r.chance(0.5) && is_signed_integer(d) ? ~v + 1 : v;
    }
    switch (r.below(9)) {
      case 0: return 0;
      case 1: return int_bits(d, 1);
      case 2: return all_ones_bits(d);
      case 3: return int_min_bits(d);
      case 4: return int_max_bits(d);
      case 5: return int_min_bits(d) + 1;
      case 6: return int_max_bits(d) - 1;
      case 7: return int_bits(d, w - 1);
      default: return int_bits(d, int64_t{1} << r.below(static_cast<size_t>(w - 1)));
    }
  }
  const auto& f = num::float_format(d);
  const bool neg = f.has_sign && r.chance(0.5);
  switch (r.below(12)) {
    case 0: return f.has_zero ? num::zero_bits(d, neg) : value_bits(d, 1.0);
    case 1: return f.has_inf ? num::inf_bits(d, neg) : num::max_finite(d, neg);
    case 2: return f.has_nan ? f.canonical_nan : num::max_finite(d, neg);
    case 3:  // a NaN with the sign bit set, or a signalling NaN (payload 1)
      if (!f.has_nan) return num::max_finite(d, neg);
      if (f.has_inf && r.chance(0.5)) return num::inf_bits(d, neg) | 1;
      return f.has_sign ? f.canonical_nan | (uint64_t{1} << (f.bits - 1)) : f.canonical_nan;
    case 4: return num::max_finite(d, neg);
    case 5: return f.has_subnormals ? (neg ? (uint64_t{1} << (f.bits - 1)) | 1 : 1) : 1;  // smallest subnormal
    case 6:  // largest subnormal / smallest normal
      return f.has_subnormals ? ((uint64_t{1} << f.man_bits) - (r.chance(0.5) ? 1 : 0)) : 2;
    case 7: return value_bits(d, neg ? -1.0 : 1.0);
    default: {
      // Rounding midpoints of the narrower formats and of integer conversion.
      static const std::vector<double> mids = {1.0 + 0x1p-11, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-8, 1.0 + 3 * 0x1p-8,
                                               1.0 + 0x1p-24, 1.0 + 0x1p-23, 0.5, 1.5, 2.5, -0.5, 65504.0, 65520.0,
                                               448.0, 464.0, 57344.0, 6.0, 0x1p-14, 0x1p-126, 0x1.fffffep127,
                                               2147483647.0, 2147483648.0, 4294967296.0, 0x1p63};
      const double x = r.pick(mids);
      return value_bits(d, neg ? -x : x);
    }
  }
}

uint64_t nice_bits(DType d, Rng& r) {
  if (d == DType::Bool) return r.below(2);
  if (is_integer(d)) return int_bits(d, is_unsigned_integer(d) ? r.range(0, 9) : r.range(-4, 9));
  static const std::vector<double> xs = {0.0, 1.0, 2.0, 0.5, -1.0, 3.0, -2.5, 0.25, 10.0, 0.1, -0.0};
  return value_bits(d, r.pick(xs));
}

uint64_t neutral_bits(DType d, const std::string& kind) {
  if (kind == "add" || kind == "or" || kind == "xor") return is_float(d) ? num::zero_bits(d, kind == "add") : 0;
  if (kind == "mul") return value_bits(d, 1.0);
  if (kind == "and") return all_ones_bits(d);
  if (kind == "min") return is_float(d) ? num::inf_bits(d, false) : int_max_bits(d);
  if (kind == "max") return is_float(d) ? num::inf_bits(d, true) : int_min_bits(d);
  return 0;
}

}  // namespace kir::fuzz
