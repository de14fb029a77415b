// Vectorizable math of the generated kernels: straight-line functions without calls, tables or
// branches, so a loop applying them to every element compiles to SIMD code. Each one returns the
// correctly rounded f32 result — bit for bit what the numerics library (and so the interpreter)
// returns — which tests/backend/test_vmath.cpp checks over every f32 input (opt-in) and a sample
// of them in the default run.
//
// The f32 functions evaluate in double: the exact value times (1 + e) with |e| around 2^-50,
// rounded to f32 once. An f32 result is wrong only if the exact value lies within |e| of a
// rounding boundary of f32; the exhaustive checks found no such input for exp and two for exp2,
// which exp2_f32 handles by input.
//
// exp2_core(t) = 2^t for |t| <= 1000: t = n + r with n = round(t) (adding and subtracting 1.5·2^52)
// and |r| <= 1/2, exact in double for an f32 t; 2^r = e^(r ln2) by its Taylor polynomial of degree
// 12 in r (coefficients (ln2)^k / k!, truncation below 2^-52 relative); times 2^n built from n's
// bits. exp_core(x) = e^x for |x| <= 700: n = round(x / ln2), r = x - n ln2 with ln2 in two parts
// whose high part times n is exact (|r| <= ln2/2), e^r by its degree-12 Taylor polynomial.
#pragma once
#include <bit>
#include <cstdint>

namespace kir_vmath {

inline constexpr double kRoundMagic = 0x1.8p52;  // adding it rounds a double below 2^51 to an integer

// 2^n for an integer-valued double n = t - kRoundMagic, from the low bits of t (unsigned
// arithmetic: a garbage n outside the caller's range is never undefined behaviour).
inline double pow2_from_rounded(double t) {
  const uint64_t n = std::bit_cast<uint64_t>(t) - std::bit_cast<uint64_t>(kRoundMagic);
  return std::bit_cast<double>((n + 1023) << 52);
}

// e^r for |r| <= ln2/2 (Horner in the Taylor coefficients 1/k!).
inline double exp_poly(double r) {
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
  return p * r + 1.0;
}

inline double exp_core(double x) {
  const double t = x * 0x1.71547652b82fep0 + kRoundMagic;  // x / ln2 + magic
  const double n = t - kRoundMagic;
  const double r = (x - n * 0x1.62e42feep-1) - n * 0x1.a39ef35793c76p-33;
  return exp_poly(r) * pow2_from_rounded(t);
}

inline double exp2_core(double t) {
  const double tm = t + kRoundMagic;
  const double r = t - (tm - kRoundMagic);  // exact
  double p = 0x1.c3bd650fc2986p-36;         // 2^r = sum (r ln2)^k / k!
  p = p * r + 0x1.e8cac7351bb25p-32;
  p = p * r + 0x1.e4cf5158b8ecap-28;
  p = p * r + 0x1.b5253d395e7c4p-24;
  p = p * r + 0x1.62c0223a5c824p-20;
  p = p * r + 0x1.ffcbfc588b0c7p-17;
  p = p * r + 0x1.430912f86c787p-13;
  p = p * r + 0x1.5d87fe78a6731p-10;
  p = p * r + 0x1.3b2ab6fba4e77p-7;
  p = p * r + 0x1.c6b08d704a0c0p-5;
  p = p * r + 0x1.ebfbdff82c58fp-3;
  p = p * r + 0x1.62e42fefa39efp-1;
  p = p * r + 1.0;
  return p * pow2_from_rounded(tm);
}

// The f32 result `out`, replaced where the input x lies outside [lo, hi] (by `below` / `above`,
// bit patterns) and by the canonical NaN where x is NaN. Masks on the input's bits, not
// selects: with a select the compiler would move the computation of `out` into a branch (a
// conversion there may trap, so the loop would not vectorize); a blend keeps it unconditional.
inline uint32_t blend(uint32_t v, uint32_t with, uint32_t cond) { return (v & (cond - 1u)) | (with & (0u - cond)); }

inline float outside(float x, float out, float lo, float hi, uint32_t below, uint32_t above) {
  const uint32_t u = std::bit_cast<uint32_t>(x), mag = u & 0x7fffffffu, neg = u >> 31;
  uint32_t r = std::bit_cast<uint32_t>(out);
  r = blend(r, above, (neg ^ 1u) & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(hi)));  // also +Inf
  r = blend(r, below, neg & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(-lo)));        // also -Inf
  r = blend(r, 0x7fc00000u, static_cast<uint32_t>(mag > 0x7f800000u));
  return std::bit_cast<float>(r);
}

// e^x: below -104, e^x < 2^-150 rounds to +0; above 89, e^x exceeds the largest f32 by more
// than half an ulp and rounds to +Inf.
inline float exp_f32(float x) {
  return outside(x, static_cast<float>(exp_core(x)), -104.0f, 89.0f, 0u, 0x7f800000u);
}

// 2^x: below -151, 2^x < 2^-151 rounds to +0; above 129, +Inf. Two inputs have 2^x closer to
// an f32 rounding boundary than the double evaluation resolves (the exhaustive check found
// exactly these): their correctly rounded results are set by input.
inline float exp2_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  uint32_t r = std::bit_cast<uint32_t>(outside(x, static_cast<float>(exp2_core(x)), -151.0f, 129.0f, 0u, 0x7f800000u));
  r = blend(r, 0x3f804385u, static_cast<uint32_t>(u == 0x3b429d37u));  // x = 0x1.853a6ep-9
  r = blend(r, 0x3f7ac6b1u, static_cast<uint32_t>(u == 0xbcf3a937u));  // x = -0x1.e7526ep-6
  return std::bit_cast<float>(r);
}

}  // namespace kir_vmath
