// Vectorizable math of the generated kernels: straight-line functions without calls, branches
// or indexed tables, so a loop applying them to every element compiles to SIMD code. Each one returns the
// correctly rounded f32 result — bit for bit what the numerics library (and so the interpreter)
// returns — which tests/backend/test_vmath.cpp checks over every f32 input (opt-in) and a sample
// of them in the default run.
//
// The f32 functions (exp, exp2, erf, tanh, log, log1p, sin, cos, rsqrt) evaluate in double: the
// exact value times (1 + e) with |e| around 2^-50, rounded to f32 once. An f32 result is wrong
// only if the exact value lies within |e| of a rounding boundary of f32; the exhaustive checks
// found no such input for exp, tanh and rsqrt, two each for exp2, erf and sin (x and -x), five
// for log, six for cos (three pairs) and eight for log1p, which those functions handle by input.
// (sqrt is the hardware's, in kir_rt.h.)
//
// exp2_core(t) = 2^t for |t| <= 1000: t = n + r with n = round(t) (adding and subtracting 1.5·2^52)
// and |r| <= 1/2, exact in double for an f32 t; 2^r = e^(r ln2) by its Taylor polynomial of degree
// 12 in r (coefficients (ln2)^k / k!, truncation below 2^-52 relative); times 2^n built from n's
// bits. exp_core(x) = e^x for |x| <= 700: n = round(x / ln2), r = x - n ln2 with ln2 in two parts
// whose high part times n is exact (|r| <= ln2/2), e^r by its degree-12 Taylor polynomial.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

// Forced inline: a call left in a loop keeps the loop scalar, and erf's body is past GCC's
// inlining limits.
#define KIR_VMATH_INLINE inline __attribute__((always_inline))

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
#ifdef KIR_MUTANT_VMATH_EXP_COEFF_TRUNCATED  // seeded mutant (backends/cpu/mutants/mutants.h)
  p = p * r + 0x1.5555p-3;
#else
  p = p * r + 0x1.5555555555555p-3;
#endif
  p = p * r + 0.5;
  p = p * r + 1.0;
  return p * r + 1.0;
}

inline double exp_core(double x) {
  const double t = x * 0x1.71547652b82fep0 + kRoundMagic;  // x / ln2 + magic
  const double n = t - kRoundMagic;
#ifdef KIR_MUTANT_VMATH_EXP_LN2_LOW_DROPPED  // seeded mutant (backends/cpu/mutants/mutants.h)
  const double r = x - n * 0x1.62e42feep-1;
#else
  const double r = (x - n * 0x1.62e42feep-1) - n * 0x1.a39ef35793c76p-33;
#endif
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

// cond ? with : v (cond is 0 or 1) by masks, not a select: with a select the compiler would move
// the computation of v into a branch (a conversion there may trap, so the loop would not
// vectorize); a blend keeps it unconditional.
inline uint32_t blend(uint32_t v, uint32_t with, uint32_t cond) { return (v & (cond - 1u)) | (with & (0u - cond)); }

// The canonical NaN where x is NaN, else out.
inline float nan_canonical(float x, float out) {
  const uint32_t mag = std::bit_cast<uint32_t>(x) & 0x7fffffffu;
  return std::bit_cast<float>(blend(std::bit_cast<uint32_t>(out), 0x7fc00000u, static_cast<uint32_t>(mag > 0x7f800000u)));
}

// The f32 result `out`, replaced where the input x lies outside [lo, hi] (by `below` / `above`,
// bit patterns) and by the canonical NaN where x is NaN (masks on the input's bits).
inline float outside(float x, float out, float lo, float hi, uint32_t below, uint32_t above) {
  const uint32_t u = std::bit_cast<uint32_t>(x), mag = u & 0x7fffffffu, neg = u >> 31;
  uint32_t r = std::bit_cast<uint32_t>(out);
  r = blend(r, above, (neg ^ 1u) & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(hi)));  // also +Inf
  r = blend(r, below, neg & static_cast<uint32_t>(mag > std::bit_cast<uint32_t>(-lo)));        // also -Inf
  return nan_canonical(x, std::bit_cast<float>(r));
}

// e^x: below -104, e^x < 2^-150 rounds to +0; above 89, e^x exceeds the largest f32 by more
// than half an ulp and rounds to +Inf.
inline float exp_f32(float x) {
#ifdef KIR_MUTANT_VMATH_EXP_EARLY_OVERFLOW  // seeded mutant (backends/cpu/mutants/mutants.h)
  return outside(x, static_cast<float>(exp_core(x)), -104.0f, 88.0f, 0u, 0x7f800000u);
#else
  return outside(x, static_cast<float>(exp_core(x)), -104.0f, 89.0f, 0u, 0x7f800000u);
#endif
}

// 2^x: below -151, 2^x < 2^-151 rounds to +0; above 129, +Inf. Two inputs have 2^x closer to
// an f32 rounding boundary than the double evaluation resolves (the exhaustive check found
// exactly these): their correctly rounded results are set by input.
inline float exp2_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
#ifdef KIR_MUTANT_VMATH_EXP2_EARLY_UNDERFLOW  // seeded mutant (backends/cpu/mutants/mutants.h)
  uint32_t r = std::bit_cast<uint32_t>(outside(x, static_cast<float>(exp2_core(x)), -150.0f, 129.0f, 0u, 0x7f800000u));
#else
  uint32_t r = std::bit_cast<uint32_t>(outside(x, static_cast<float>(exp2_core(x)), -151.0f, 129.0f, 0u, 0x7f800000u));
#endif
  r = blend(r, 0x3f804385u, static_cast<uint32_t>(u == 0x3b429d37u));  // x = 0x1.853a6ep-9
  r = blend(r, 0x3f7ac6b1u, static_cast<uint32_t>(u == 0xbcf3a937u));  // x = -0x1.e7526ep-6
  return std::bit_cast<float>(r);
}

// c ? x : y as a blend of bits (see blend): both sides are computed, nothing branches.
KIR_VMATH_INLINE double pick(bool c, double x, double y) {
  const uint64_t m = 0 - static_cast<uint64_t>(c);
  return std::bit_cast<double>((std::bit_cast<uint64_t>(x) & m) | (std::bit_cast<uint64_t>(y) & ~m));
}

// erf(c + t) for the 7 centers c_j = 3/4 + j/2 of [1/2, 4): kErfTaylor[n][j] is the n-th Taylor
// coefficient at c_j — erf(c) for n = 0, else 2/sqrt(pi) (-1)^(n-1) H_(n-1)(c) e^(-c^2) / n!
// (H: the physicists' Hermite polynomials) — computed in 64-bit long double and rounded to
// double. Degree 14 with |t| <= 1/4 truncates below 2^-45 of the value. The interval's
// coefficients are chosen by blends, not by indexing: an indexed load in a loop needs a gather,
// which GCC's default tuning does not emit, and the loop would stay scalar.
alignas(64) inline constexpr double kErfTaylor[15][7] = {
    {0x1.6c1c9759d0e5fp-1, 0x1.d8865d98abe01p-1, 0x1.f92d077f8d56dp-1, 0x1.ff404760319b4p-1, 0x1.fff2cfb0453d9p-1, 0x1.ffff6f9f67e55p-1, 0x1.fffffc2f171e3p-1},
    {0x1.492e42d78d2c5p-1, 0x1.e4652fadcb6b2p-3, 0x1.b055303221015p-5, 0x1.d4143a9dfe965p-8, 0x1.3360ccd23db3ap-11, 0x1.e9b5e8d00ce77p-16, 0x1.d9371e2ff7c35p-21},
    {-0x1.edc5644353c27p-2, -0x1.2ebf3dcc9f22fp-2, -0x1.7a4a8a2bdce13p-4, -0x1.074b60f8df349p-6, -0x1.a6a519a114d7p-10, -0x1.8de3cd290a7cp-14, -0x1.bba3ac4cf8472p-19},
    {0x1.b6e8591f66e5bp-6, 0x1.571d01c5c56bep-3, 0x1.7148c3d57c312p-4, 0x1.63ef61e824425p-6, 0x1.69cf466ccdf62p-9, 0x1.9aa489e3cad21p-13, 0x1.0b6a7b0f1b586p-17},
    {0x1.349b5eaa14598p-3, -0x1.93a9a7bb7ed94p-8, -0x1.8a0da54306154p-5, -0x1.38a98327890e6p-6, -0x1.ab0c273ac263ep-9, -0x1.2c7d5ef053ebp-12, -0x1.d06f586093ea7p-17},
    {-0x1.b42a1890ce411p-5, -0x1.8281ce0b34fa4p-5, 0x1.b22257dd01249p-8, 0x1.5d3b17bbe0f22p-7, 0x1.6935960664d74p-9, 0x1.490a4d230eab9p-12, 0x1.3436bc9fc46f6p-16},
    {-0x1.b8477966b3381p-6, 0x1.5d0003af70568p-6, 0x1.25b378c92a6cp-7, -0x1.7cae0d45b1a6ap-9, -0x1.b2755bfd73556p-10, -0x1.145464ea2872bp-12, -0x1.4357b5546e9f3p-16},
    {0x1.2e0afb0bb961ep-6, 0x1.db43c97264485p-9, -0x1.8d10fb6b8006fp-8, -0x1.5f8313b6fdd59p-11, 0x1.52b6263f0c0e7p-11, 0x1.647f721c135ebp-13, 0x1.110de49c0acdp-16},
    {0x1.2db332f9e64d4p-9, -0x1.75672cebadac5p-8, 0x1.7ec1d1d8d3387p-11, 0x1.0602e33b9ef4ap-10, -0x1.7557726380065p-14, -0x1.567479c97cce7p-14, -0x1.7566beee1bb2fp-17},
    {-0x1.04105cd6d527ep-8, 0x1.cc22555d6cd4ep-11, 0x1.d4cf0ad2e6ca3p-11, -0x1.8352cd05696b8p-12, -0x1.2abb3cb37d67fp-14, 0x1.b2c3201a66dd9p-16, 0x1.99f5c54c5ea75p-18},
    {0x1.86234ec3372d9p-13, 0x1.a0074f860d925p-11, -0x1.d041eea2258aep-12, -0x1.80c1330a27b22p-17, 0x1.cd592454e7d28p-15, -0x1.38933c0f0c9fap-19, -0x1.5d6903bb02d1p-19},
    {0x1.4725abcb993b6p-11, -0x1.53b177f074426p-12, -0x1.6d70cffe71229p-18, 0x1.11321ce0dc8f3p-14, -0x1.09d09f8254931p-16, -0x1.8070948011d1bp-19, 0x1.a0431133a7b2dp-21},
    {-0x1.bd5eea735c608p-14, -0x1.ba66102895704p-15, 0x1.2007a6d7935c6p-14, -0x1.7ca5429a38511p-16, -0x1.1f87c15445595p-20, 0x1.ff3236f426a5p-20, -0x1.833324e429526p-24},
    {-0x1.3db33dbe2237ep-14, 0x1.d4520093cdd9ep-15, -0x1.294d49e1a631dp-16, -0x1.65937983af9a4p-20, 0x1.68b7ad440ba03p-19, -0x1.26552b63b3912p-21, -0x1.ec7d23a1cdfffp-25},
    {0x1.7313fb66f36f6p-16, -0x1.94a53c645ccdbp-19, -0x1.3668d56f09bp-18, 0x1.cb0718bc6dc96p-19, -0x1.eb027532f1e9dp-21, 0x1.d56060892daf5p-29, 0x1.6df3b136b9415p-25},
};

// The entry of row v for the interval of a: v[j] where j = the number of g1..g6 that hold.
KIR_VMATH_INLINE double erf_pick(const double (&v)[7], bool g1, bool g2, bool g3, bool g4, bool g5, bool g6) {
  double r = g1 ? v[1] : v[0];
  r = g2 ? v[2] : r;
  r = g3 ? v[3] : r;
  r = g4 ? v[4] : r;
  r = g5 ? v[5] : r;
  return g6 ? v[6] : r;
}

// erf(a) for 0 <= a < 4: below 1/2 the odd series a * sum b_n a^(2n), b_n = 2/sqrt(pi) (-1)^n /
// (n! (2n + 1)), 13 terms (relative accuracy down to the subnormals), above it the Taylor
// polynomial of the interval.
KIR_VMATH_INLINE double erf_core(double a) {
  const double s = a * a;
  double q = 0x1.9e6ad5e55a73p-34;
  q = q * s + -0x1.51d7181c5d36dp-30;
  q = q * s + 0x1.fcc5720624c1cp-27;
  q = q * s + -0x1.5f742ec43e71ap-23;
  q = q * s + 0x1.b9e6c9dc651a3p-20;
  q = q * s + -0x1.f4d25c3e0c2ebp-17;
  q = q * s + 0x1.f9a326f9b89b7p-14;
  q = q * s + -0x1.c02db40040b86p-11;
  q = q * s + 0x1.565bcd0e6a53fp-8;
  q = q * s + -0x1.b82ce31288b51p-6;
  q = q * s + 0x1.ce2f21a042be2p-4;
  q = q * s + -0x1.812746b0379e7p-2;
  q = q * s + 0x1.20dd750429b6dp+0;
  const bool g1 = a >= 1.0, g2 = a >= 1.5, g3 = a >= 2.0, g4 = a >= 2.5, g5 = a >= 3.0, g6 = a >= 3.5;
  static constexpr double kCenters[7] = {0.75, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75};
  const double t = a - erf_pick(kCenters, g1, g2, g3, g4, g5, g6);
  double p = erf_pick(kErfTaylor[14], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[13], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[12], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[11], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[10], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[9], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[8], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[7], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[6], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[5], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[4], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[3], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[2], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[1], g1, g2, g3, g4, g5, g6);
  p = p * t + erf_pick(kErfTaylor[0], g1, g2, g3, g4, g5, g6);
  return pick(a < 0.5, a * q, p);
}

// The sign of x on a non-negative f32 result r (erf and tanh are odd).
inline float with_sign_of(float x, float r) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(r) | (std::bit_cast<uint32_t>(x) & 0x80000000u));
}

// erf(x): from |x| >= 4, 1 - erf(x) < 2^-25 and erf rounds to +-1. One input pair has erf(x)
// closer to an f32 rounding boundary than the double evaluation resolves (the exhaustive check
// found exactly this one: 2.1e-8 ulp from the midpoint): its result is set by input.
KIR_VMATH_INLINE float erf_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x), mag = u & 0x7fffffffu;
  const double a = static_cast<double>(std::bit_cast<float>(mag));
  const double r = erf_core(pick(a < 4.0, a, 3.875));  // NaN takes 3.875 too; blended below
#ifdef KIR_MUTANT_VMATH_ERF_EARLY_SATURATION  // seeded mutant (backends/cpu/mutants/mutants.h)
  const float out = with_sign_of(x, static_cast<float>(pick(a < 3.5, r, 1.0)));
#else
  const float out = with_sign_of(x, static_cast<float>(pick(a < 4.0, r, 1.0)));
#endif
  const uint32_t fixed = blend(std::bit_cast<uint32_t>(out), (u & 0x80000000u) | 0x3f08eed3u,
                               static_cast<uint32_t>(mag == 0x3f043a75u));  // |x| = 0x1.0874eap-1
  return nan_canonical(x, std::bit_cast<float>(fixed));
}

// tanh(x): below |x| = 1/32 the odd series x - x^3/3 + 2x^5/15 - ... (six terms, relative error
// below 2^-60), above it (e - 1) / (e + 1) with e = e^(2|x|) (e - 1 >= 0.06 loses at most 5 bits
// of the double); from |x| >= 9.1, 1 - tanh(x) < 2^-25 and tanh rounds to +-1.
KIR_VMATH_INLINE float tanh_f32(float x) {
  const double a = static_cast<double>(std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu));
  const double ac = pick(a < 9.1, a, 9.1);  // NaN takes 9.1 too; blended below
  const double s = ac * ac;
  double q = -1382.0 / 155925.0;
  q = q * s + 62.0 / 2835.0;
  q = q * s - 17.0 / 315.0;
  q = q * s + 2.0 / 15.0;
  q = q * s - 1.0 / 3.0;
  const double small = ac + ac * (s * q);
  const double e = exp_core(2.0 * ac);
  const double r = pick(ac < 0.03125, small, (e - 1.0) / (e + 1.0));
#ifdef KIR_MUTANT_VMATH_TANH_EARLY_SATURATION  // seeded mutant (backends/cpu/mutants/mutants.h)
  const float out = with_sign_of(x, static_cast<float>(pick(a < 8.7, r, 1.0)));
#else
  const float out = with_sign_of(x, static_cast<float>(pick(a < 9.1, r, 1.0)));
#endif
  return nan_canonical(x, out);
}

// log(u) for a positive double u (+0, +Inf and NaN give garbage, which the callers blend away).
// u = 2^e m with m in [sqrt(1/2), sqrt(2)): subtracting sqrt(1/2)'s bits from u's leaves e (plus
// 1024, so that it stays positive) in the exponent field. log m = 2 atanh(s) = 2 (s + s^3/3 +
// s^5/5 + ...) with s = f / (f + 2), f = m - 1 (exact: Sterbenz); |s| <= 0.172, and eleven terms
// truncate below 2^-60. e ln2 with ln2 in two parts whose high part times e is exact. Where
// e = 0 the caller's f0 (u - 1 without the rounding of u) stands for f, and log m is returned
// as is (log1p keeps -0).
KIR_VMATH_INLINE double log_core(double u, double f0) {
  const uint64_t b = std::bit_cast<uint64_t>(u);
  const uint64_t k = (b + (uint64_t{1024} << 52) - std::bit_cast<uint64_t>(0x1.6a09e667f3bcdp-1)) >> 52;  // e + 1024
  const double m = std::bit_cast<double>(b - ((k - 1024) << 52));
  const double e = std::bit_cast<double>(std::bit_cast<uint64_t>(kRoundMagic) + k) - (kRoundMagic + 1024.0);
  const double f = pick(e == 0.0, f0, m - 1.0);
  const double s = f / (f + 2.0);
  const double z = s * s;
  double q = 2.0 / 21;
  q = q * z + 2.0 / 19;
  q = q * z + 2.0 / 17;
  q = q * z + 2.0 / 15;
  q = q * z + 2.0 / 13;
  q = q * z + 2.0 / 11;
  q = q * z + 2.0 / 9;
  q = q * z + 2.0 / 7;
  q = q * z + 2.0 / 5;
  q = q * z + 2.0 / 3;
  const double lm = 2.0 * s + s * (z * q);
  return pick(e == 0.0, lm, e * 0x1.62e42feep-1 + (e * 0x1.a39ef35793c76p-33 + lm));
}

// log(x): +-0 gives -Inf, a negative x (also -Inf) the canonical NaN, +Inf +Inf; subnormal x are
// normal doubles and need nothing else. Five inputs have log(x) closer to an f32 rounding
// boundary than the double evaluation resolves (the exhaustive check found exactly these): their
// correctly rounded results are set by input.
KIR_VMATH_INLINE float log_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x), mag = u & 0x7fffffffu;
  const double a = static_cast<double>(std::bit_cast<float>(mag));
  uint32_t r = std::bit_cast<uint32_t>(static_cast<float>(log_core(a, a - 1.0)));
  r = blend(r, 0xc08e158fu, static_cast<uint32_t>(u == 0x3c413d3au));  // x = 0x1.827a74p-7
  r = blend(r, 0x400fe5e7u, static_cast<uint32_t>(u == 0x41178febu));  // x = 0x1.2f1fd6p+3
  r = blend(r, 0x418f034bu, static_cast<uint32_t>(u == 0x4c5d65a5u));  // x = 0x1.bacb4ap+25
  r = blend(r, 0x4254d1f9u, static_cast<uint32_t>(u == 0x65d890d3u));  // x = 0x1.b121a6p+76
  r = blend(r, 0x42845a89u, static_cast<uint32_t>(u == 0x6f31a8ecu));  // x = 0x1.6351d8p+95
  r = blend(r, 0x7f800000u, static_cast<uint32_t>(u == 0x7f800000u));
  r = blend(r, 0xff800000u, static_cast<uint32_t>(mag == 0u));
  r = blend(r, 0x7fc00000u, static_cast<uint32_t>(u > 0x80000000u));
  return nan_canonical(x, std::bit_cast<float>(r));
}

// log(1 + x): 1 + x in double is exact where e != 0 in log_core (|x| >= 0.29, up to 2^29) or
// off by a relative 2^-53 (above 2^29, where the logarithm is larger than 20); where e = 0, f is
// x itself. -1 gives -Inf, below -1 (also -Inf) the canonical NaN, +Inf +Inf, +-0 itself. Eight
// inputs have log(1 + x) closer to an f32 rounding boundary than the double evaluation resolves
// (the exhaustive check found exactly these; three are log's, 1 + x rounding to them): their
// correctly rounded results are set by input.
KIR_VMATH_INLINE float log1p_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const double d = static_cast<double>(x);
  uint32_t r = std::bit_cast<uint32_t>(static_cast<float>(log_core(1.0 + d, d)));
  r = blend(r, 0x353fffffu, static_cast<uint32_t>(u == 0x35400003u));  // x = 0x1.800006p-21
  r = blend(r, 0x370ffff3u, static_cast<uint32_t>(u == 0x3710001bu));  // x = 0x1.200036p-17
  r = blend(r, 0x400fe5e7u, static_cast<uint32_t>(u == 0x41078febu));  // x = 0x1.0f1fd6p+3
  r = blend(r, 0x4254d1f9u, static_cast<uint32_t>(u == 0x65d890d3u));  // x = 0x1.b121a6p+76
  r = blend(r, 0x42845a89u, static_cast<uint32_t>(u == 0x6f31a8ecu));  // x = 0x1.6351d8p+95
  r = blend(r, 0xb5400001u, static_cast<uint32_t>(u == 0xb53ffffdu));  // x = -0x1.7ffffap-21
  r = blend(r, 0xb710000du, static_cast<uint32_t>(u == 0xb70fffe5u));  // x = -0x1.1fffcap-17
  r = blend(r, 0xbb0ef0a5u, static_cast<uint32_t>(u == 0xbb0ec8c4u));  // x = -0x1.1d9188p-9
  r = blend(r, 0x7f800000u, static_cast<uint32_t>(u == 0x7f800000u));
  r = blend(r, 0xff800000u, static_cast<uint32_t>(u == 0xbf800000u));
#ifdef KIR_MUTANT_VMATH_LOG1P_MINUS_ONE_NAN  // seeded mutant (backends/cpu/mutants/mutants.h)
  r = blend(r, 0x7fc00000u, static_cast<uint32_t>(u >= 0xbf800000u));
#else
  r = blend(r, 0x7fc00000u, static_cast<uint32_t>(u > 0xbf800000u));
#endif
  return nan_canonical(x, std::bit_cast<float>(r));
}

// The parts of 2/pi, 29 bits each: 2/pi is their sum plus less than 2^-232.
alignas(64) inline constexpr double kTwoOverPi[8] = {0x1.45f306dp-1,   0x1.9391054p-30,  0x1.4fe13abp-59, 0x1.d1f534dp-88,
                                                     0x1.b81b6c5p-117, 0x1.5993c4p-148, 0x1.c820ff2p-175, 0x1.163abdep-204};

// p minus the multiple of 8 nearest to it, exactly (adding and subtracting 1.5 2^55 rounds to a
// multiple of 8 below 2^54); from |p| >= 2^54, p is a multiple of 4 and 0 stands for it.
KIR_VMATH_INLINE double rem8(double p) {
  const double q = (p + 0x1.8p55) - 0x1.8p55;
  return pick(std::fabs(p) < 0x1p54, p - q, 0.0);
}

// (s, e) += p, with s + e the exact sum so far plus e's roundings (TwoSum: s's rounding error
// exactly).
KIR_VMATH_INLINE void add_exact(double& s, double& e, double p) {
  const double t = s + p, pp = t - s;
  e += (s - (t - pp)) + (p - pp);
  s = t;
}

// x (2/pi) reduced modulo 4, for every finite f32 x (as a double; NaN and +-Inf give 0): n + y
// with an integer n and |y| <= 1/2 (+ rounding); returns y, and n's bits in the low bits of
// `quadrant`. x times each 29-bit part of 2/pi is exact; its remainder modulo 8 (at most 4 in
// magnitude, exact) loses only multiples of 4; the eight remainders are summed with their
// rounding errors, the nearest integer is taken from the sum, and y is the rest, to a relative
// 2^-52 however close x lies to a multiple of pi/2 (the truncation of 2/pi times the largest
// f32 is below 2^-104, the error of the sum below 2^-95).
KIR_VMATH_INLINE double reduce_pio2(double x, uint64_t& quadrant) {
  double s = rem8(x * kTwoOverPi[0]), e = 0.0;
  add_exact(s, e, rem8(x * kTwoOverPi[1]));
  add_exact(s, e, rem8(x * kTwoOverPi[2]));
  add_exact(s, e, rem8(x * kTwoOverPi[3]));
  add_exact(s, e, rem8(x * kTwoOverPi[4]));
  add_exact(s, e, rem8(x * kTwoOverPi[5]));
  add_exact(s, e, rem8(x * kTwoOverPi[6]));
  add_exact(s, e, rem8(x * kTwoOverPi[7]));
  const double t = s + kRoundMagic;
  quadrant = std::bit_cast<uint64_t>(t);
  return (s - (t - kRoundMagic)) + e;
}

// sin(pi/2 y) and cos(pi/2 y) for |y| <= 1/2: Taylor polynomials in y (coefficients
// (pi/2)^k / k! with signs, computed at 600 bits and rounded to double), truncation below 2^-63.
KIR_VMATH_INLINE double sin_pio2(double y) {
  const double z = y * y;
  double p = 0x1.aaec32af93359p-38;
  p = p * z + -0x1.6fadb9f155744p-31;
  p = p * z + 0x1.e8f434d018d63p-25;
  p = p * z + -0x1.e3074fde8871fp-19;
  p = p * z + 0x1.50783487ee782p-13;
  p = p * z + -0x1.32d2cce62bd86p-8;
  p = p * z + 0x1.466bc6775aae2p-4;
  p = p * z + -0x1.4abbce625be53p-1;
  return y * 0x1.921fb54442d18p+0 + y * (z * p);
}

KIR_VMATH_INLINE double cos_pio2(double y) {
  const double z = y * y;
  double p = -0x1.2a0c591af8314p-41;
  p = p * z + 0x1.20c62c2f2d7f5p-34;
  p = p * z + -0x1.b6e24f44b128fp-28;
  p = p * z + 0x1.f9d38a3763cc3p-22;
  p = p * z + -0x1.a6d1f2a204a8cp-16;
  p = p * z + 0x1.e1f506891babbp-11;
  p = p * z + -0x1.55d3c7e3cbffap-6;
  p = p * z + 0x1.03c1f081b5ac4p-2;
  p = p * z + -0x1.3bd3cc9be45dep+0;
  return 1.0 + z * p;
}

// sin(x) (odd = 0) or cos(x) (odd = 1) = sin(pi/2 (n + odd + y)): by the quadrant n + odd,
// +-sin or +-cos of pi/2 y.
KIR_VMATH_INLINE float sincos_f32(float x, uint64_t odd) {
  const uint32_t mag = std::bit_cast<uint32_t>(x) & 0x7fffffffu;
  uint64_t n;
  const double y = reduce_pio2(static_cast<double>(x), n);
#ifdef KIR_MUTANT_VMATH_COS_QUADRANT_MINUS  // seeded mutant (backends/cpu/mutants/mutants.h)
  n -= odd;
#else
  n += odd;
#endif
  const double r = pick((n & 1u) != 0, cos_pio2(y), sin_pio2(y));
  const float out = static_cast<float>(std::bit_cast<double>(std::bit_cast<uint64_t>(r) ^ ((n & 2u) << 62)));
  return std::bit_cast<float>(blend(std::bit_cast<uint32_t>(out), 0x7fc00000u, static_cast<uint32_t>(mag >= 0x7f800000u)));
}

// sin(x): +-Inf and NaN give the canonical NaN, +-0 itself (the sum above loses -0's sign). One
// input pair has sin(x) closer to an f32 rounding boundary than the double evaluation resolves
// (the exhaustive check found exactly this one): its result is set by input.
KIR_VMATH_INLINE float sin_f32(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x), mag = u & 0x7fffffffu;
#ifdef KIR_MUTANT_VMATH_SIN_LOSES_NEG_ZERO  // seeded mutant (backends/cpu/mutants/mutants.h)
  uint32_t r = std::bit_cast<uint32_t>(sincos_f32(x, 0));
#else
  uint32_t r = blend(std::bit_cast<uint32_t>(sincos_f32(x, 0)), u, static_cast<uint32_t>(mag == 0u));
#endif
  r = blend(r, 0xbeb1fa5du ^ (u & 0x80000000u), static_cast<uint32_t>(mag == 0x46199998u));  // |x| = 0x1.33333p+13
  return std::bit_cast<float>(r);
}

// cos(x): +-Inf and NaN give the canonical NaN. Three input pairs have cos(x) closer to an f32
// rounding boundary than the double evaluation resolves (the exhaustive check found exactly
// these): their results are set by input.
KIR_VMATH_INLINE float cos_f32(float x) {
  const uint32_t mag = std::bit_cast<uint32_t>(x) & 0x7fffffffu;
  uint32_t r = std::bit_cast<uint32_t>(sincos_f32(x, 1));
  r = blend(r, 0x3f08aebfu, static_cast<uint32_t>(mag == 0x5922aa80u));  // |x| = 0x1.4555p+51
  r = blend(r, 0x3f7f14bbu, static_cast<uint32_t>(mag == 0x5f18b878u));  // |x| = 0x1.3170fp+63
  r = blend(r, 0x3f78142fu, static_cast<uint32_t>(mag == 0x6115cb11u));  // |x| = 0x1.2b9622p+67
  return std::bit_cast<float>(r);
}

// 1/sqrt(x): the square root and the quotient in double, each correctly rounded (relative error
// below 2^-52), rounded to f32 once. +-0 gives +-Inf (IEEE 754 rSqrt(-0) = -Inf), +Inf gives +0,
// a negative x the canonical NaN.
KIR_VMATH_INLINE float rsqrt_f32(float x) {
  const float r = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
  return nan_canonical(r, r);
}

}  // namespace kir_vmath
