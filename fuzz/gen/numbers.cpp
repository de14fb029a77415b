// See numbers.h.
#include "fuzz/gen/numbers.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "backends/cpu/impl/vmath_breakpoints.h"
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

namespace {

// The catalogue's points by function (parsed once).
const std::map<std::string, std::vector<float>>& breakpoints_by_fn() {
  static const std::map<std::string, std::vector<float>> m = [] {
    std::map<std::string, std::vector<float>> r;
    for (const auto& p : cpu::vmath_breakpoints()) r[p.function].push_back(p.x);
    return r;
  }();
  return m;
}

}  // namespace

bool has_breakpoints(const std::string& fn) { return breakpoints_by_fn().count(fn) != 0; }

size_t breakpoint_count(const std::string& fn) {
  const auto it = breakpoints_by_fn().find(fn);
  return it == breakpoints_by_fn().end() ? 0 : it->second.size();
}

uint32_t f32_step(uint32_t u, int64_t ulps) {
  // Value order: +0 is 0, +Inf 0x7f800000; -0 is -1, -Inf -1 - 0x7f800000.
  const int64_t o = u >> 31 ? -1 - static_cast<int64_t>(u & 0x7fffffffu) : static_cast<int64_t>(u);
  const int64_t k = std::clamp<int64_t>(o + ulps, -1 - int64_t{0x7f800000}, int64_t{0x7f800000});
  return k >= 0 ? static_cast<uint32_t>(k) : 0x80000000u | static_cast<uint32_t>(-1 - k);
}

uint64_t breakpoint_bits(DType d, const std::string& fn, Rng& r, bool negate, int64_t which) {
  const auto it = breakpoints_by_fn().find(fn);
  if (it == breakpoints_by_fn().end() || !is_any_float(d)) return random_bits(d, r);
  const auto& pts = it->second;
  const float q = which >= 0 ? pts[static_cast<size_t>(which) % pts.size()] : r.pick(pts);
  const float p = negate ? -q : q;
  if (d == DType::F32 || d == DType::F64) {
    int64_t k = 0;
    switch (r.weighted({30, 35, 20, 15})) {
      case 0: break;
      case 1: k = r.range(1, 4); break;
      case 2: k = r.range(5, 16); break;
      default: k = r.range(17, 4096);
    }
    if (r.chance(0.5)) k = -k;
    const float x = std::bit_cast<float>(f32_step(std::bit_cast<uint32_t>(p), k));
    return value_bits(d, static_cast<double>(x));
  }
  // The nearest values of d below and above p, and a few steps beyond.
  const auto& f = num::float_format(d);
  const double x = static_cast<double>(p);
  uint64_t b = num::from_double(x, d);
  if (num::classify(b, d) == num::FpClass::NaN) b = num::max_finite(d, x < 0 && f.has_sign);  // no Inf in d
  const double v = num::to_double(b, d);
  const bool up = r.chance(0.5);
  if (up && v < x) b = num::next_up(b, d);
  if (!up && v > x) b = num::next_down(b, d);
  const int64_t steps = r.chance(0.6) ? 0 : r.range(1, 3);
  for (int64_t i = 0; i < steps; ++i) b = up ? num::next_up(b, d) : num::next_down(b, d);
  return b;
}

}  // namespace kir::fuzz
