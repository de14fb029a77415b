// Text form of values used by the CLI: decimal parsing rounds once, 0x patterns are raw bits.
#include <catch2/catch.hpp>

#include "numerics/value_text.h"

using kir::DType;
using namespace kir::num;

TEST_CASE("parse_value / format_value", "[numerics][casts]") {
  CHECK(parse_value("0.1", DType::F32)->bits == 0x3DCCCCCD);
  CHECK(parse_value("0.1", DType::F64)->bits == 0x3FB999999999999Aull);
  // 1 + 2^-11 + 2^-60 is just above the f16 midpoint: rounds up (a double parse would tie to 1)
  CHECK(parse_value("1.00048828125000000086736173798840354720596", DType::F16)->bits == 0x3C01);
  CHECK(parse_value("1.00048828125", DType::F16)->bits == 0x3C00);
  CHECK(parse_value("65520", DType::F16)->bits == 0x7C00);
  CHECK(parse_value("-inf", DType::F32)->bits == 0xFF800000);
  CHECK(parse_value("nan", DType::E2M1).status() == Status::InvalidCast);
  CHECK(parse_value("0x7e", DType::E4M3)->bits == 0x7E);
  CHECK(parse_value("0x1ff", DType::E4M3).status() == Status::InvalidCast);
  CHECK(parse_value("-128", DType::I8)->bits == 0x80);
  CHECK(parse_value("128", DType::I8).status() == Status::InvalidCast);
  CHECK(parse_value("-1", DType::U8).status() == Status::TypeMismatch);
  CHECK(parse_value("18446744073709551615", DType::U64)->bits == ~0ull);
  CHECK(parse_value("1.5x", DType::F32).status() == Status::TypeMismatch);
  CHECK(parse_value("true", DType::Bool)->bits == 1);
  CHECK(format_value(Scalar{DType::F16, 0x2E66}) == "0.0999755859375");
  CHECK(format_value(Scalar{DType::F32, 0x80000000}) == "-0");
  CHECK(format_value(Scalar{DType::E4M3, 0x7F}) == "nan");
  CHECK(format_value(make_int(DType::I16, 0xFFFF)) == "-1");
  CHECK(format_bits(Scalar{DType::F16, 0x3C00}) == "0x3c00");
  CHECK(format_bits(Scalar{DType::E2M1, 0x7}) == "0x7");
}
