// Vectorizable math of the generated kernels: straight-line functions without calls, branches
// or indexed tables, so a loop applying them to every element compiles to SIMD code. Each one returns the
// correctly rounded f32 result — bit for bit what the numerics library (and so the interpreter)
// returns — which tests/backend/test_vmath.cpp checks over every f32 input (opt-in) and a sample
// of them in the default run.
//
// The f32 functions evaluate in double: the exact value times (1 + e) with |e| around 2^-50,
// rounded to f32 once. An f32 result is wrong only if the exact value lies within |e| of a
// rounding boundary of f32; the exhaustive checks found no such input for exp and tanh, and two
// each for exp2 and erf (x and -x), which those functions handle by input.
//
// exp2_core(t) = 2^t for |t| <= 1000: t = n + r with n = round(t) (adding and subtracting 1.5·2^52)
// and |r| <= 1/2, exact in double for an f32 t; 2^r = e^(r ln2) by its Taylor polynomial of degree
// 12 in r (coefficients (ln2)^k / k!, truncation below 2^-52 relative); times 2^n built from n's
// bits. exp_core(x) = e^x for |x| <= 700: n = round(x / ln2), r = x - n ln2 with ln2 in two parts
// whose high part times n is exact (|r| <= ln2/2), e^r by its degree-12 Taylor polynomial.
#pragma once
#include <bit>
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
  const float out = with_sign_of(x, static_cast<float>(pick(a < 4.0, r, 1.0)));
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
  const float out = with_sign_of(x, static_cast<float>(pick(a < 9.1, r, 1.0)));
  return nan_canonical(x, out);
}

}  // namespace kir_vmath
