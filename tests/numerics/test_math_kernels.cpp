// The own f32 kernels (numerics/math_f32.cpp) and the other fast paths at their seams, against the
// tests' Boost reference: consecutive f32 encodings around every split point of a kernel (range
// cut-offs, reduction steps, table intervals, the switch between two formulas), f16/bf16 inputs
// whose f32 result is itself a rounding boundary of the narrower format (the double rounding the
// f32 route must catch), lgamma's reflection near its zeros at negative x, and the f64 long double
// path on inputs where it must hand over to MPFR. The whole f32 range is covered by the opt-in
// exhaustive run (scripts/verify-f32-exhaustive.sh).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <vector>

#include "numerics/math.h"
#include "tests/numerics/math_reference.h"

using namespace kir;
using num::MathFn;

namespace {

uint32_t f32_bits(float x) { return std::bit_cast<uint32_t>(x); }

// Mismatches of eval against the reference over the `radius` encodings on each side of x and -x.
int check_around(MathFn f, float x, int radius) {
  int bad = 0;
  for (float s : {x, -x})
    for (int i = -radius; i <= radius; ++i) {
      const auto b = static_cast<uint32_t>(static_cast<int64_t>(f32_bits(s)) + i);
      const uint64_t got = num::eval(f, DType::F32, b), want = test::reference(f, DType::F32, b);
      if (got != want && bad++ < 3)
        UNSCOPED_INFO(num::name(f) << "(" << std::hexfloat << std::bit_cast<float>(b) << "): got 0x" << std::hex << got
                                   << ", want 0x" << want);
    }
  return bad;
}

}  // namespace

TEST_CASE("exp and exp2 f32 kernels at their cut-offs and reduction steps [L4.3]", "[L4.3][math][kernels]") {
  for (float x : {104.0f, 103.97f, 89.0f, 88.7228f, 0.0054156f, 0.0108f, 0.5f, 1.0f, 20.0f, 0x1p-20f, 0x1p-126f})
    CHECK(check_around(MathFn::Exp, x, 40) == 0);
  for (float x : {151.0f, 150.0f, 149.0f, 128.0f, 127.99f, 0.0078125f, 0.015625f, 1.0f, 0x1p-30f, 0x1p-140f})
    CHECK(check_around(MathFn::Exp2, x, 40) == 0);
}

TEST_CASE("log f32 kernel around 1, its table intervals and the subnormals [L4.3]", "[L4.3][math][kernels]") {
  // each side of 1 (no cancellation: the table term is exactly 0 there), the ends of the intervals
  // next to it, the switch at m = 1.5 (E = e + 1), powers of two, subnormals, the largest f32
  for (float x : {1.0f, 1.0078125f, 0.99609375f, 1.015625f, 0.9921875f, 1.5f, 0.75f, 2.0f, 0.5f, 3.0f,
                  0x1p-126f, 0x1p-149f, 0x1.8p-140f, 3.4e38f, 0x1.fffffep127f}) {
    const int bad = check_around(MathFn::Log, x, 48);
    CHECK(bad == 0);
  }
}

TEST_CASE("sin and cos f32 kernels near multiples of pi/64 and at the reduction limit [L4.3]", "[L4.3][math][kernels]") {
  std::vector<float> xs = {0x1p-149f, 0x1p-30f, 0.049f, 1e-3f, 0x1.fffffep19f, 0x1p20f, 3.0e6f};
  for (int k = 1; k <= 64; ++k) xs.push_back(static_cast<float>(k * 3.141592653589793 / 64));  // split points, zeros
  xs.push_back(static_cast<float>(1000 * 3.141592653589793));  // near a zero of sin, k = 32000
  xs.push_back(static_cast<float>(999.5 * 3.141592653589793)); // near a zero of cos
  for (float x : xs) {
    CHECK(check_around(MathFn::Sin, x, 12) == 0);
    CHECK(check_around(MathFn::Cos, x, 12) == 0);
  }
}

TEST_CASE("tanh and erf f32 kernels at their switches and saturation points [L4.3]", "[L4.3][math][kernels]") {
  for (float x : {0.125f, 9.1f, 8.7f, 0x1p-12f, 0x1p-149f, 1.0f, 3.0f})  // u = 2|x| = 1/4; ±1 from 9.1
    CHECK(check_around(MathFn::Tanh, x, 40) == 0);
  std::vector<float> xs = {4.0f, 3.92f, 0x1p-149f, 0x1p-20f};
  for (int j = 1; j <= 32; ++j) xs.push_back(j / 8.0f);  // interval ends, the 1/8 switch, 4
  for (int j = 1; j < 32; ++j) xs.push_back((j + 0.5f) / 8);  // interval centres (t = 0)
  for (float x : xs) CHECK(check_around(MathFn::Erf, x, 16) == 0);
}

TEST_CASE("lgamma f32 by reflection near its zeros and poles at negative x [L4.3]", "[L4.3][math][kernels]") {
  // lgamma's negative zeros (to f32 precision) and points next to the poles, where the absolute
  // bound of the reflection formula cannot decide and MPFR must take over
  for (float x : {-2.4570248f, -2.7476826f, -3.1435474f, -3.9552925f, -4.0390544f, -4.9991617f, -5.0008986f,
                  -1.0000001f, -0.9999999f, -0x1p-30f, -0x1p-149f, -0.5f, -100.5f, -0x1.fffffep22f})
    CHECK(check_around(MathFn::Lgamma, x, 24) == 0);
}

TEST_CASE("f16 and bf16 through the f32 kernels: f32 results on a rounding boundary [L4.3]", "[L4.3][math][kernels]") {
  // Every input whose correctly rounded f32 result lies exactly on a rounding boundary of the
  // narrower format must still round correctly; the exhaustive 16-bit tests cover every input,
  // this one checks that such inputs exist for the functions here and are handled.
  int boundary_cases = 0;
  for (MathFn f : {MathFn::Exp, MathFn::Exp2, MathFn::Log, MathFn::Sin, MathFn::Cos, MathFn::Tanh, MathFn::Erf})
    for (DType d : {DType::F16, DType::BF16}) {
      const int drop = d == DType::BF16 ? 16 : 13;  // f32 fraction bits the narrower format lacks
      for (uint32_t b = 0; b < 0x10000; b += 1) {
        const double x = test::decode_bits(b, test::fmt_of(d));
        if (!std::isfinite(x) || x == 0) continue;
        const auto r32 = static_cast<uint32_t>(num::eval(f, DType::F32, f32_bits(static_cast<float>(x))));
        if ((r32 & ((1u << drop) - 1)) != (1u << (drop - 1))) continue;  // not a midpoint (normal range)
        ++boundary_cases;
        CHECK(num::eval(f, d, b) == test::reference(f, d, b));
      }
    }
  CHECK(boundary_cases > 0);
}

TEST_CASE("f64 long double path agrees with the reference where it decides and where it must not [L4.3]",
          "[L4.3][math][kernels]") {
  // exp2 of integers (exact, including the subnormal midpoint 2^-1075 that rounds to 0), sqrt
  // (the hardware's), rsqrt, sigmoid at the f64 underflow edge, lgamma at 3 (the path's lower end)
  struct C { MathFn f; double x; };
  const C cases[] = {{MathFn::Exp2, 3},          {MathFn::Exp2, -1074},      {MathFn::Exp2, -1075},
                     {MathFn::Exp2, 1023.5},     {MathFn::Exp, 709.78},      {MathFn::Exp, -745.1},
                     {MathFn::Sqrt, 2},          {MathFn::Rsqrt, 3},         {MathFn::Sigmoid, -744},
                     {MathFn::Lgamma, 3},        {MathFn::Lgamma, 2.999},    {MathFn::Erfc, 27.2},
                     {MathFn::Sin, 1e22},        {MathFn::Tanh, 1e-300},     {MathFn::Log1p, -0.999999}};
  for (const C& c : cases) {
    const uint64_t b = std::bit_cast<uint64_t>(c.x);
    CHECK(num::eval(c.f, DType::F64, b) == test::reference(c.f, DType::F64, b));
  }
}
