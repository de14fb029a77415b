// Vectorizable math of the generated kernels: straight-line functions without calls or table
// lookups, so a loop applying them to every element compiles to SIMD code. Each one returns the
// correctly rounded result — bit for bit what the numerics library (and so the interpreter)
// returns — which tests/backend/test_vmath.cpp checks over every f32 input (opt-in) and a
// sample of them in the default run.
//
// exp_f32: evaluated in double for x in [-104, 89] (below, e^x < 2^-150 rounds to +0; above,
// e^x > the largest f32 + half an ulp rounds to +Inf), reduced as x = n ln2 + r with
// |r| <= ln2/2 (n by the round-to-nearest trick, ln2 in two parts whose high part times n is
// exact), e^r by its Taylor polynomial of degree 12 (truncation below 2^-52 relative), scaled by
// 2^n (exact: the result stays a normal double), and rounded to f32 once. The double result is
// within about 2^-50 of e^x; the exhaustive check shows no f32 input whose e^x lies that close
// to a rounding boundary of f32.
#pragma once
#include <bit>
#include <cstdint>

namespace kir_vmath {

inline float exp_f32(float xf) {
  const double x = xf;
  constexpr double kMagic = 0x1.8p52;                 // adding it rounds to an integer
  const double t = x * 0x1.71547652b82fep0 + kMagic;  // x / ln2 + magic
  const double n = t - kMagic;
  const double r = (x - n * 0x1.62e42feep-1) - n * 0x1.a39ef35793c76p-33;
  double p = 0x1.1eed8eff8d898p-29;
  p = p * r + 0x1.ae64567f544e4p-26;
  p = p * r + 0x1.27e4fb7789f5cp-22;
  p = p * r + 0x1.71de3a556c734p-19;
  p = p * r + 0x1.a01a01a01a01ap-16;
  p = p * r + 0x1.a01a01a01a01ap-13;
  p = p * r + 0x1.6c16c16c16c17p-10;
  p = p * r + 0x1.1111111111111p-7;
  p = p * r + 0x1.5555555555555p-5;
  p = p * r + 0x1.5555555555555p-3;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // t's low bits hold n: 2^n as the bits of a double (garbage outside [-104, 89], replaced below;
  // unsigned arithmetic, so garbage is never undefined behaviour).
  const uint64_t ni = std::bit_cast<uint64_t>(t) - std::bit_cast<uint64_t>(kMagic);
  const double scale = std::bit_cast<double>((ni + 1023) << 52);
  uint32_t out = std::bit_cast<uint32_t>(static_cast<float>(p * scale));
  // Outside [-104, 89] and NaN, chosen on the input's bits by masks: with a select the compiler
  // would move the computation above into a branch (a conversion there may trap, so the loop
  // would not vectorize); a blend keeps everything unconditional.
  const uint32_t u = std::bit_cast<uint32_t>(xf), mag = u & 0x7fffffffu, neg = u >> 31;
  const auto blend = [](uint32_t v, uint32_t with, uint32_t cond) { return (v & (cond - 1u)) | (with & (0u - cond)); };
  out = blend(out, 0x7f800000u, (neg ^ 1u) & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(89.0f)));  // +Inf
  out = blend(out, 0u, neg & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(104.0f)));          // +0
  out = blend(out, 0x7fc00000u, static_cast<uint32_t>(mag > 0x7f800000u));                        // canonical NaN
  return std::bit_cast<float>(out);
}

}  // namespace kir_vmath
