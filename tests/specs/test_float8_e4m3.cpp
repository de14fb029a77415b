// float8_e4m3 (IEEE-style, bias 7, with Inf) encoding: round to nearest even once, IEEE overflow
// to Inf, NaN 0x7C, signed zero; every finite code round-trips (specs/src/float8_e4m3.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "specs/src/float8_e4m3.h"

using namespace kir::specs;

TEST_CASE("float8_e4m3 encodes known values", "[M14]") {
  CHECK(float8_e4m3_from_double(1.0) == 0x38);
  CHECK(float8_e4m3_from_double(240.0) == 0x77);
  CHECK(float8_e4m3_from_double(247.99) == 0x77);
  CHECK(float8_e4m3_from_double(248.0) == 0x78);   // the tie past 240 rounds to even: Inf
  CHECK(float8_e4m3_from_double(-1e9) == 0xF8);
  CHECK(float8_e4m3_from_double(std::ldexp(1.0, -6)) == 0x08);   // smallest normal
  CHECK(float8_e4m3_from_double(std::ldexp(1.0, -9)) == 0x01);   // smallest subnormal
  CHECK(float8_e4m3_from_double(std::ldexp(1.0, -10)) == 0x00);  // tie with zero: even
  CHECK(float8_e4m3_from_double(std::ldexp(1.5, -10)) == 0x01);
  CHECK(float8_e4m3_from_double(0.1) == 0x1D);
  CHECK(float8_e4m3_from_double(-3.3) == 0xC5);
  CHECK(float8_e4m3_from_double(-0.0) == 0x80);
  CHECK(float8_e4m3_from_double(std::numeric_limits<double>::infinity()) == 0x78);
  CHECK(float8_e4m3_from_double(std::numeric_limits<double>::quiet_NaN()) == 0x7C);
}

TEST_CASE("float8_e4m3 finite codes round-trip, the all-ones exponent is Inf or NaN", "[M14]") {
  for (int c = 0; c < 256; ++c) {
    INFO(c);
    const double v = float8_e4m3_to_double(static_cast<uint8_t>(c));
    if ((c & 0x78) == 0x78) {
      CHECK(((c & 7) == 0 ? std::isinf(v) : std::isnan(v)));
      continue;
    }
    CHECK(float8_e4m3_from_double(v) == c);
  }
  CHECK(float8_e4m3_to_double(0x77) == 240.0);
  CHECK(float8_e4m3_to_double(0x01) == std::ldexp(1.0, -9));
}
