// fnuz float8 formats (numerics/fnuz.h): every code decoded against a table computed here from
// the textbook formula, round trips of every non-NaN code, every midpoint between neighbours
// rounding to the even code, and the format's special rules (single NaN 0x80, no -0, no Inf,
// overflow to NaN). Known values are PyTorch's test_float8.py SPECIAL_NUMBERS.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "numerics/fnuz.h"

using kir::num::Fnuz;
using kir::num::fnuz_from_double;
using kir::num::fnuz_to_double;

namespace {

struct Fmt {
  Fnuz f;
  int e_bits, m_bits, bias;
  const char* name;
};
const Fmt kFormats[] = {{Fnuz::E4M3, 4, 3, 8, "e4m3fnuz"}, {Fnuz::E5M2, 5, 2, 16, "e5m2fnuz"}};

// (-1)^s * 2^(E - bias) * (1 + M / 2^m), subnormals 2^(1 - bias) * (M / 2^m); code 0x80 is NaN.
double formula(unsigned code, const Fmt& t) {
  unsigned s = code >> 7, E = (code >> t.m_bits) & ((1u << t.e_bits) - 1), M = code & ((1u << t.m_bits) - 1);
  double frac = M / std::pow(2.0, t.m_bits);
  double mag = E == 0 ? std::pow(2.0, 1 - t.bias) * frac : std::pow(2.0, static_cast<int>(E) - t.bias) * (1 + frac);
  return s ? -mag : mag;
}

}  // namespace

TEST_CASE("fnuz decode matches the formula on all 256 codes", "[numerics][formats][fnuz]") {
  for (const auto& t : kFormats) {
    for (unsigned c = 0; c < 256; ++c) {
      INFO(t.name << " code " << c);
      double v = fnuz_to_double(static_cast<uint8_t>(c), t.f);
      if (c == 0x80) CHECK(std::isnan(v));
      else CHECK(v == formula(c, t));
    }
  }
}

TEST_CASE("fnuz known values (PyTorch SPECIAL_NUMBERS)", "[numerics][formats][fnuz]") {
  CHECK(fnuz_to_double(0x7F, Fnuz::E4M3) == 240.0);
  CHECK(fnuz_to_double(0x08, Fnuz::E4M3) == std::ldexp(1.0, -7));
  CHECK(fnuz_to_double(0x01, Fnuz::E4M3) == 0.125 * std::ldexp(1.0, -7));
  CHECK(fnuz_to_double(0x7F, Fnuz::E5M2) == 57344.0);
  CHECK(fnuz_to_double(0x04, Fnuz::E5M2) == std::ldexp(1.0, -15));
  CHECK(fnuz_to_double(0x01, Fnuz::E5M2) == 0.25 * std::ldexp(1.0, -15));
  CHECK(kir::num::fnuz_max(Fnuz::E4M3) == 240.0);
  CHECK(kir::num::fnuz_max(Fnuz::E5M2) == 57344.0);
}

TEST_CASE("fnuz encode(decode(c)) == c for every non-NaN code", "[numerics][formats][fnuz]") {
  for (const auto& t : kFormats)
    for (unsigned c = 0; c < 256; ++c) {
      if (c == 0x80) continue;
      INFO(t.name << " code " << c);
      CHECK(fnuz_from_double(formula(c, t), t.f) == c);
    }
}

TEST_CASE("fnuz midpoints round to the even code, neighbours of midpoints to the nearer", "[numerics][formats][fnuz]") {
  for (const auto& t : kFormats)
    for (unsigned c = 0; c < 0x7F; ++c) {  // positive neighbours c, c + 1
      double lo = formula(c, t), hi = formula(c + 1, t), mid = (lo + hi) / 2;
      unsigned even = (c % 2 == 0) ? c : c + 1;
      INFO(t.name << " between codes " << c << " and " << c + 1);
      CHECK(fnuz_from_double(mid, t.f) == even);
      CHECK(fnuz_from_double(std::nextafter(mid, 0.0), t.f) == c);
      CHECK(fnuz_from_double(std::nextafter(mid, 1e9), t.f) == c + 1);
      // Negative side: same magnitude code with the sign bit, except that zero stays 0x00.
      unsigned neg = even == 0 ? 0x00 : (even | 0x80);
      CHECK(fnuz_from_double(-mid, t.f) == neg);
    }
}

TEST_CASE("fnuz overflow, Inf and NaN all become NaN 0x80", "[numerics][formats][fnuz]") {
  // e4m3fnuz: top binade 2^7, ulp 16: 240 + 8 = 248 is the tie with 256 (even) -> overflow.
  CHECK(fnuz_from_double(248.0, Fnuz::E4M3) == 0x80);
  CHECK(fnuz_from_double(std::nextafter(248.0, 0.0), Fnuz::E4M3) == 0x7F);
  CHECK(fnuz_from_double(-std::nextafter(248.0, 0.0), Fnuz::E4M3) == 0xFF);
  CHECK(fnuz_from_double(-248.0, Fnuz::E4M3) == 0x80);
  // e5m2fnuz: top binade 2^15, ulp 2^13: 57344 + 4096 = 61440 is the tie with 65536.
  CHECK(fnuz_from_double(61440.0, Fnuz::E5M2) == 0x80);
  CHECK(fnuz_from_double(std::nextafter(61440.0, 0.0), Fnuz::E5M2) == 0x7F);
  CHECK(fnuz_from_double(1e300, Fnuz::E5M2) == 0x80);
  for (const auto& t : kFormats) {
    CHECK(fnuz_from_double(std::numeric_limits<double>::infinity(), t.f) == 0x80);
    CHECK(fnuz_from_double(-std::numeric_limits<double>::infinity(), t.f) == 0x80);
    CHECK(fnuz_from_double(std::numeric_limits<double>::quiet_NaN(), t.f) == 0x80);
  }
}

TEST_CASE("fnuz has no negative zero", "[numerics][formats][fnuz]") {
  for (const auto& t : kFormats) {
    CHECK(fnuz_from_double(-0.0, t.f) == 0x00);
    CHECK(fnuz_from_double(-1e-300, t.f) == 0x00);
    CHECK(fnuz_from_double(std::numeric_limits<double>::denorm_min(), t.f) == 0x00);
  }
  // A quarter of the smallest subnormal rounds to zero; three quarters to the subnormal.
  CHECK(fnuz_from_double(-0.75 * std::ldexp(1.0, -10), Fnuz::E4M3) == 0x81);
  CHECK(fnuz_from_double(-0.25 * std::ldexp(1.0, -10), Fnuz::E4M3) == 0x00);
}
