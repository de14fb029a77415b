// Float arithmetic against the Boost reference (exact or 400-bit results rounded by ref_float.h),
// NaN/±0 rules of min/max/compare, fdiv options, and integer rules (wrap, errors, shifts).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "numerics/arith.h"
#include "numerics/format.h"
#include "numerics/integer.h"
#include "ref_float.h"

using kir::DType;
using namespace kir::num;
using reftest::BF400;

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

double expected(BinaryOp op, double a, double b, const reftest::Fmt& f) {
  const bool simple = !std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0;
  if (simple) {  // results are exact (or NaN/Inf) in double
    double r = op == BinaryOp::Add ? a + b : op == BinaryOp::Sub ? a - b
             : op == BinaryOp::Mul ? a * b : a / b;
    return reftest::round(BF400(r), f) == 0 ? (std::signbit(r) ? -0.0 : 0.0)
                                            : reftest::round(BF400(r), f);
  }
  BF400 x(a), y(b), r;
  switch (op) {
    case BinaryOp::Add: r = x + y; break;
    case BinaryOp::Sub: r = x - y; break;
    case BinaryOp::Mul: r = x * y; break;
    default: r = x / y; break;
  }
  if (r == 0) return reftest::round(BF400(0), f);  // exact cancellation under RNE is +0
  return reftest::round(r, f);
}

uint64_t mask(DType d) {
  const int w = reftest::width(reftest::fmt(d));
  return w == 64 ? ~0ull : (1ull << w) - 1;
}

// Mostly finite operands with some specials and nearby exponents (so cancellation happens).
uint64_t pick(std::mt19937_64& rng, DType d) {
  const uint64_t r = rng();
  return r & mask(d);
}

}  // namespace

TEST_CASE("float + - * / correctly rounded in every float dtype (vs Boost)",
          "[numerics][arith][L4.14]") {
  std::mt19937_64 rng(2024);
  const BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div};
  long checks = 0, bad = 0;
  std::string first;
  auto check = [&](DType d, BinaryOp op, uint64_t a, uint64_t b) {
    const reftest::Fmt f = reftest::fmt(d);
    const double want = expected(op, reftest::decode(a, f), reftest::decode(b, f), f);
    auto r = float_binary(op, Scalar{d, a}, Scalar{d, b});
    ++checks;
    bool ok = r.ok() && reftest::same(reftest::decode(r->bits, f), want);
    if (ok && std::isnan(want) && d != DType::E2M1)
      ok = r->bits == float_format(d).canonical_nan || d == DType::E4M3;
    if (!ok && bad++ == 0)
      first = std::string(kir::name(d)) + " " + op_name(op) + " " + hex(a) + " " + hex(b) +
              " got " + (r.ok() ? hex(r->bits) : "error");
  };
  // every pair of the 8-bit and 4-bit formats
  for (DType d : {DType::E4M3, DType::E5M2, DType::E8M0, DType::E2M1}) {
    const uint32_t n = d == DType::E2M1 ? 16 : 256;
    for (BinaryOp op : ops)
      for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = 0; b < n; ++b) {
          if (d == DType::E2M1 && op == BinaryOp::Div && (a & 7) == 0 && (b & 7) == 0) {
            ++checks;  // 0/0: e2m1 has no NaN -> error
            if (float_binary(op, Scalar{d, a}, Scalar{d, b}).status() != Status::InvalidCast) ++bad;
            continue;
          }
          check(d, op, a, b);
        }
  }
  // random pairs in the wide formats; b is sometimes a close neighbour of a
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
    const int n = d == DType::F64 ? 60000 : 150000;
    for (BinaryOp op : ops)
      for (int i = 0; i < n; ++i) {
        const uint64_t a = pick(rng, d);
        uint64_t b = (i % 4 == 0) ? ((a + (rng() % 5)) & mask(d)) : pick(rng, d);
        if (i % 8 == 1) b ^= uint64_t{1} << (reftest::width(reftest::fmt(d)) - 1);
        check(d, op, a, b);
      }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
}

TEST_CASE("bf16 products and quotients in the subnormal range", "[numerics][arith][L4.14]") {
  // results below 2^-126 where an f32 detour could round twice; compared against Boost
  std::mt19937_64 rng(5);
  const reftest::Fmt f = reftest::fmt(DType::BF16);
  long checks = 0, bad = 0;
  std::string first;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t a = (rng() & 0x7FFF) % 0x3F00;          // below 1
    const uint64_t b = 0x3F00 + (rng() & 0x1FFF) % 0x2000;  // around 1..2^64
    const BinaryOp op = (i & 1) ? BinaryOp::Mul : BinaryOp::Div;
    const uint64_t bb = op == BinaryOp::Mul ? (rng() & 0x3FFF) % 0x3F00 : b;
    const double want = expected(op, reftest::decode(a, f), reftest::decode(bb, f), f);
    auto r = float_binary(op, Scalar{DType::BF16, a}, Scalar{DType::BF16, bb});
    ++checks;
    if (!(r.ok() && reftest::same(reftest::decode(r->bits, f), want)) && bad++ == 0)
      first = std::string(op_name(op)) + " " + hex(a) + " " + hex(bb);
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
}

TEST_CASE("sqrt correctly rounded (vs Boost)", "[numerics][arith][L4.14]") {
  std::mt19937_64 rng(3);
  long checks = 0, bad = 0;
  std::string first;
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::E4M3, DType::E5M2,
                  DType::E2M1, DType::E8M0}) {
    const reftest::Fmt f = reftest::fmt(d);
    const int n = reftest::width(f) <= 16 ? (1 << reftest::width(f)) : 100000;
    for (int i = 0; i < n; ++i) {
      const uint64_t a = reftest::width(f) <= 16 ? uint64_t(i) : pick(rng, d);
      const double v = reftest::decode(a, f);
      double want;
      if (std::isnan(v) || v < 0) want = NAN;
      else if (v == 0 || std::isinf(v)) want = v;
      else want = reftest::round(BF400(sqrt(BF400(v))), f);
      if (d == DType::E2M1 && std::isnan(want)) {
        ++checks;
        if (float_unary(UnaryOp::Sqrt, Scalar{d, a}).status() != Status::InvalidCast) ++bad;
        continue;
      }
      auto r = float_unary(UnaryOp::Sqrt, Scalar{d, a});
      ++checks;
      if (!(r.ok() && reftest::same(reftest::decode(r->bits, f), want)) && bad++ == 0)
        first = std::string(kir::name(d)) + " sqrt " + hex(a);
    }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
}

TEST_CASE("min/max propagate NaN, -0 < +0; compare is IEEE", "[numerics][arith][L4.14]") {
  const Scalar pz{DType::F32, 0}, nz{DType::F32, 0x80000000}, one{DType::F32, 0x3F800000},
      nan{DType::F32, 0x7FC00001}, ninf{DType::F32, 0xFF800000};
  CHECK(float_binary(BinaryOp::Min, pz, nz)->bits == 0x80000000);
  CHECK(float_binary(BinaryOp::Min, nz, pz)->bits == 0x80000000);
  CHECK(float_binary(BinaryOp::Max, nz, pz)->bits == 0);
  CHECK(float_binary(BinaryOp::Max, pz, nz)->bits == 0);
  CHECK(float_binary(BinaryOp::Max, one, nan)->bits == 0x7FC00000);
  CHECK(float_binary(BinaryOp::Min, nan, one)->bits == 0x7FC00000);
  CHECK(float_binary(BinaryOp::Min, ninf, one)->bits == 0xFF800000);
  CHECK(*float_compare(CompareOp::Eq, pz, nz));
  CHECK_FALSE(*float_compare(CompareOp::Lt, nz, pz));
  CHECK_FALSE(*float_compare(CompareOp::Eq, nan, nan));
  CHECK(*float_compare(CompareOp::Ne, nan, nan));
  CHECK_FALSE(*float_compare(CompareOp::Ge, nan, one));
  CHECK_FALSE(*float_compare(CompareOp::Lt, nan, one));
  CHECK(*float_compare(CompareOp::Lt, ninf, one));
  CHECK(select(true, one, pz)->bits == one.bits);
  CHECK(select(false, one, nan)->bits == 0x7FC00001);  // no canonicalisation in select
  CHECK(select(true, one, make_bool(true)).status() == Status::TypeMismatch);
  CHECK(float_unary(UnaryOp::Neg, pz)->bits == 0x80000000);
  CHECK(float_unary(UnaryOp::Abs, Scalar{DType::F16, 0xBC00})->bits == 0x3C00);
  CHECK(float_unary(UnaryOp::Floor, Scalar{DType::F32, 0xBF000000})->bits == 0xBF800000);
  CHECK(float_unary(UnaryOp::Floor, Scalar{DType::F32, 0x80000000})->bits == 0x80000000);
  CHECK(float_unary(UnaryOp::Sqrt, nz)->bits == 0x80000000);
  CHECK(float_binary(BinaryOp::Add, one, Scalar{DType::F16, 0}).status() == Status::TypeMismatch);
  // f16 overflow -> Inf, e4m3 overflow -> NaN, e2m1 saturates
  CHECK(float_binary(BinaryOp::Add, Scalar{DType::F16, 0x7BFF}, Scalar{DType::F16, 0x7BFF})->bits ==
        0x7C00);
  CHECK(float_binary(BinaryOp::Add, Scalar{DType::E4M3, 0x7E}, Scalar{DType::E4M3, 0x7E})->bits ==
        0x7F);
  CHECK(float_binary(BinaryOp::Mul, Scalar{DType::E2M1, 0x7}, Scalar{DType::E2M1, 0x7})->bits ==
        0x7);
}

TEST_CASE("fdiv options", "[numerics][arith][L4.14]") {
  const Scalar a{DType::F32, 0x00000010}, b{DType::F32, 0x40000000};  // tiny / 2
  CHECK(fdiv(a, b)->bits == 0x8);
  CHECK(fdiv(a, b, true, false)->bits == 0x8);
  CHECK(fdiv(a, b, true, true)->bits == 0);           // subnormal input read as 0
  CHECK(fdiv(Scalar{DType::F32, 0x00800000}, b, true, true)->bits == 0);  // result flushed
  CHECK(fdiv(Scalar{DType::F32, 0x80800000}, b, true, true)->bits == 0x80000000);
  CHECK(fdiv(a, b, false, true).status() == Status::TypeMismatch);
  CHECK(fdiv(Scalar{DType::F16, 0}, Scalar{DType::F16, 0}, true).status() == Status::TypeMismatch);
  CHECK(fdiv(Scalar{DType::F16, 0x3C00}, Scalar{DType::F16, 0x4200})->bits == 0x3555);  // 1/3
}

TEST_CASE("integer rules: wrap, division errors, shifts", "[numerics][integer][L4.14]") {
  auto i8 = [](int v) { return make_int(DType::I8, static_cast<uint64_t>(v)); };
  auto i64 = [](int64_t v) { return make_int(DType::I64, static_cast<uint64_t>(v)); };
  auto u8 = [](unsigned v) { return make_int(DType::U8, v); };
  CHECK(int_binary(BinaryOp::Add, i8(127), i8(1))->bits == 0x80);
  CHECK(int_binary(BinaryOp::Mul, i8(-128), i8(-1))->bits == 0x80);
  CHECK(int_binary(BinaryOp::Sub, u8(0), u8(1))->bits == 0xFF);
  CHECK(int_binary(BinaryOp::Mul, i64(INT64_MIN), i64(-1))->bits == 0x8000000000000000ull);
  CHECK(as_signed(*int_binary(BinaryOp::Div, i8(-7), i8(2))) == -3);
  CHECK(as_signed(*int_binary(BinaryOp::Rem, i8(-7), i8(2))) == -1);
  CHECK(as_signed(*int_binary(BinaryOp::Rem, i8(7), i8(-2))) == 1);
  CHECK(int_binary(BinaryOp::Div, u8(200), u8(7))->bits == 28);
  CHECK(int_binary(BinaryOp::Div, i8(1), i8(0)).status() == Status::DivideByZero);
  CHECK(int_binary(BinaryOp::Rem, u8(1), u8(0)).status() == Status::DivideByZero);
  CHECK(int_binary(BinaryOp::Div, i8(-128), i8(-1)).status() == Status::IntOverflow);
  CHECK(int_binary(BinaryOp::Rem, i8(-128), i8(-1)).status() == Status::IntOverflow);
  CHECK(int_binary(BinaryOp::Div, i64(INT64_MIN), i64(-1)).status() == Status::IntOverflow);
  CHECK(int_binary(BinaryOp::Div, make_int(DType::Index, 1ull << 63), make_int(DType::Index, ~0ull))
            .status() == Status::IntOverflow);
  CHECK(int_binary(BinaryOp::Shl, i8(1), i8(7))->bits == 0x80);
  CHECK(int_binary(BinaryOp::Shl, i8(1), i8(8)).status() == Status::ShiftOutOfRange);
  CHECK(int_binary(BinaryOp::Shl, i8(1), i8(-1)).status() == Status::ShiftOutOfRange);
  CHECK(int_binary(BinaryOp::Shr, i8(-128), i8(7))->bits == 0xFF);  // arithmetic
  CHECK(int_binary(BinaryOp::Shr, u8(0x80), u8(7))->bits == 0x01);  // logical
  CHECK(int_binary(BinaryOp::Shr, u8(1), u8(200)).status() == Status::ShiftOutOfRange);
  CHECK(int_binary(BinaryOp::Shl, i64(1), i64(63))->bits == 0x8000000000000000ull);
  CHECK(int_binary(BinaryOp::Shl, i64(1), i64(64)).status() == Status::ShiftOutOfRange);
  CHECK(int_binary(BinaryOp::And, u8(0xF0), u8(0x3C))->bits == 0x30);
  CHECK(int_binary(BinaryOp::Xor, make_bool(true), make_bool(true))->bits == 0);
  CHECK(int_binary(BinaryOp::Add, make_bool(true), make_bool(true)).status() ==
        Status::TypeMismatch);
  CHECK(int_binary(BinaryOp::Min, i8(-1), i8(1))->bits == 0xFF);
  CHECK(int_binary(BinaryOp::Max, u8(0xFF), u8(1))->bits == 0xFF);
  CHECK(int_binary(BinaryOp::Add, i8(1), u8(1)).status() == Status::TypeMismatch);
  CHECK(int_unary(UnaryOp::Neg, i8(-128))->bits == 0x80);
  CHECK(int_unary(UnaryOp::Abs, i8(-128))->bits == 0x80);
  CHECK(int_unary(UnaryOp::Abs, i8(-5))->bits == 5);
  CHECK(int_unary(UnaryOp::Not, u8(0x0F))->bits == 0xF0);
  CHECK(int_unary(UnaryOp::Not, make_bool(false))->bits == 1);
  CHECK(*int_compare(CompareOp::Lt, i8(-1), i8(0)));
  CHECK_FALSE(*int_compare(CompareOp::Lt, u8(0xFF), u8(0)));
  CHECK(*compare(CompareOp::Ge, i8(3), i8(3)));
}
