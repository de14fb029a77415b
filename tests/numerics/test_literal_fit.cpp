// Exact float literals (L4.14): fit_float_literal reads decimal and hex-float text exactly (no
// trip through double) and names the nearest values of the dtype on each side; exact_float_text
// spells a value so that it reads back exactly. Expected encodings are worked out by hand from
// each format's layout (sign, exponent bias, mantissa bits).
#include <catch2/catch.hpp>

#include <limits>

#include "numerics/format.h"
#include "numerics/value_text.h"

using kir::DType;
using namespace kir::num;

namespace {

struct Near {
  std::optional<uint64_t> below, above;
};

// Not exact, with the given neighbours.
void check_near(const char* text, DType d, Near want) {
  INFO(text << " : " << name(d));
  LiteralFit f = fit_float_literal(text, d);
  CHECK(f.number);
  CHECK_FALSE(f.exact);
  CHECK(f.below == want.below);
  CHECK(f.above == want.above);
}

void check_exact(const char* text, DType d, uint64_t bits) {
  INFO(text << " : " << name(d));
  LiteralFit f = fit_float_literal(text, d);
  CHECK(f.number);
  CHECK(f.exact);
  CHECK(f.bits == bits);
}

}  // namespace

TEST_CASE("[L4.14] f64 literals are judged from their text", "[numerics][L4.14]") {
  // 1 + 10^-16 lies between 1 and 1 + 2^-52 (a double parse would say 1.0 and accept it).
  check_near("1.0000000000000001", DType::F64, {0x3FF0000000000000ull, 0x3FF0000000000001ull});
  // Below the smallest subnormal 2^-1074: between +0 and 2^-1074 (strtod underflows to 0).
  check_near("1e-400", DType::F64, {0x0ull, 0x1ull});
  check_near("-1e-400", DType::F64, {0x8000000000000001ull, 0x8000000000000000ull});
  // 0.1 is not dyadic: the double nearest 0.1 (…9A) lies above it.
  check_near("0.1", DType::F64, {0x3FB9999999999999ull, 0x3FB999999999999Aull});
  // 4.9406564584124654e-324 is a little below 2^-1074 = 4.94065645841246544...e-324.
  check_near("4.9406564584124654e-324", DType::F64, {0x0ull, 0x1ull});
  // 2^1024 is exact as a number but beyond the largest double: max and +inf.
  check_near("0x1p1024", DType::F64, {0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull});
  check_near("0x1p-1075", DType::F64, {0x0ull, 0x1ull});
  check_exact("0x1.8p3", DType::F64, 0x4028000000000000ull);  // 12
  check_exact("0x1p-1074", DType::F64, 0x1ull);
  check_exact("-0.0", DType::F64, 0x8000000000000000ull);
  check_exact("0.0", DType::F64, 0x0ull);
  check_exact("2.5e-1", DType::F64, 0x3FD0000000000000ull);  // 0.25
  check_exact("1e22", DType::F64, 0x4480F0CF064DD592ull);    // 10^22 = 2^22 * 5^22, 5^22 < 2^53
  check_near("1e23", DType::F64, {0x44B52D02C7E14AF6ull, 0x44B52D02C7E14AF7ull});
}

TEST_CASE("[L4.14] f32, f16 and bf16 literals", "[numerics][L4.14]") {
  check_near("1.00000000000000000001", DType::F32, {0x3F800000, 0x3F800001});
  check_near("0.1", DType::F32, {0x3DCCCCCC, 0x3DCCCCCD});
  check_near("16777217", DType::F32, {0x4B800000, 0x4B800001});  // 2^24 + 1
  check_near("3.4028235e38", DType::F32, {0x7F7FFFFF, 0x7F800000});  // just above the largest f32
  check_near("0x1.8p-149", DType::F32, {0x1, 0x2});
  check_exact("0x1p-149", DType::F32, 0x1);
  check_exact("16777216", DType::F32, 0x4B800000);
  check_exact("-2.5", DType::F32, 0xC0200000);
  check_near("0.1", DType::F16, {0x2E66, 0x2E67});  // 1638/16384 and 1639/16384
  check_near("2049", DType::F16, {0x6800, 0x6801});
  check_near("65520", DType::F16, {0x7BFF, 0x7C00});
  check_exact("65504", DType::F16, 0x7BFF);
  check_exact("0x1p-24", DType::F16, 0x0001);
  check_near("1.00390625", DType::BF16, {0x3F80, 0x3F81});  // 1 + 2^-8: bf16 steps by 2^-7 at 1
  check_exact("1.0078125", DType::BF16, 0x3F81);
}

TEST_CASE("[L4.14] storage-format literals: e4m3, e5m2, e2m1, e8m0", "[numerics][L4.14]") {
  check_exact("448", DType::E4M3, 0x7E);  // 1.75 * 2^8: exponent field 15, mantissa 110
  check_near("464", DType::E4M3, {0x7E, std::nullopt});  // no infinity: nothing above 448
  check_near("-500", DType::E4M3, {std::nullopt, 0xFE});
  check_exact("0x1p-9", DType::E4M3, 0x01);
  check_near("0.001", DType::E4M3, {0x00, 0x01});
  check_near("60000", DType::E5M2, {0x7B, 0x7C});  // 57344 and +inf
  check_exact("0x1p-16", DType::E5M2, 0x01);
  check_near("2.5", DType::E2M1, {0x4, 0x5});  // 2 and 3
  check_near("7", DType::E2M1, {0x7, std::nullopt});
  check_near("0.25", DType::E2M1, {0x0, 0x1});
  check_exact("-0.0", DType::E2M1, 0x8);
  check_exact("1.0", DType::E8M0, 0x7F);
  check_near("3.0", DType::E8M0, {0x80, 0x81});  // 2 and 4
  check_near("0.0", DType::E8M0, {std::nullopt, 0x00});  // e8m0 has no zero
  check_near("-1.0", DType::E8M0, {std::nullopt, 0x00});
  check_near("0x1p128", DType::E8M0, {0xFE, std::nullopt});
}

TEST_CASE("[L4.14] fit_float_literal only reads float literal text", "[numerics][L4.14]") {
  for (const char* t : {"", "-", "inf", "nan", "0x", "1.5x", "abc", "1e", "--1.0", "1.0.0"}) {
    INFO(t);
    CHECK_FALSE(fit_float_literal(t, DType::F32).number);
  }
  // An exponent far beyond MPFR's range still has neighbours.
  check_near("1e999999999999", DType::F64, {0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull});
  check_near("1e-999999999999", DType::F32, {0x0, 0x1});
}

TEST_CASE("[L4.14] exact_float_text reads back exactly", "[numerics][L4.14]") {
  CHECK(exact_float_text(0.5) == "0.5");
  CHECK(exact_float_text(1.0) == "1.0");
  CHECK(exact_float_text(-0.0) == "-0.0");
  CHECK(exact_float_text(1e20) == "1e+20");
  CHECK(exact_float_text(0.1) == "0x1.999999999999ap-4");
  CHECK(exact_float_text(1e23) == "0x1.52d02c7e14af6p+76");
  CHECK(exact_float_text(1.0000000000000002) == "0x1.0000000000001p+0");
  CHECK(exact_float_text(static_cast<double>(0.1f)) == "0x1.99999ap-4");
  CHECK(exact_float_text(-4.9406564584124654e-324) == "-0x1p-1074");
  CHECK(exact_float_text(-std::numeric_limits<double>::infinity()) == "-inf");
  // Every spelling is an exact literal of the value.
  for (double v : {0.1, 1e23, 3.0, -2.75, 5e-324, 1.7976931348623157e308, 6.103515625e-05}) {
    INFO(v);
    LiteralFit f = fit_float_literal(exact_float_text(v), DType::F64);
    REQUIRE(f.exact);
    CHECK(to_double(f.bits, DType::F64) == v);
  }
}
