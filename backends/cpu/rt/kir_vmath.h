// Vectorizable math of the generated kernels: straight-line functions without calls or branches
// (erf reads a small coefficient table by index: a gather), so a loop applying them to every
// element compiles to SIMD code. Each one returns the
// correctly rounded f32 result — bit for bit what the numerics library (and so the interpreter)
// returns — which tests/backend/test_vmath.cpp checks over every f32 input (opt-in) and a sample
// of them in the default run.
//
// The f32 functions evaluate in double: the exact value times (1 + e) with |e| around 2^-50,
// rounded to f32 once. An f32 result is wrong only if the exact value lies within |e| of a
// rounding boundary of f32; the exhaustive checks found no such input for exp, erf and tanh and
// two for exp2, which exp2_f32 handles by input.
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

// erf(c + t) for the 32 centers c = (i + 1/2) / 8 of [0, 4): kErfTaylor[n][i] is the n-th
// Taylor coefficient at c_i — erf(c) for n = 0, else 2/sqrt(pi) (-1)^(n-1) H_(n-1)(c) e^(-c^2) / n!
// (H: the physicists' Hermite polynomials) — computed in 64-bit long double and rounded to
// double. Degree 9 with |t| <= 1/16 truncates below 2^-43 of the value.
alignas(64) inline constexpr double kErfTaylor[10][32] = {
    {0x1.207d480e90658p-4, 0x1.ac45e37fe2526p-3, 0x1.5da9f415ff23fp-2, 0x1.db081ce6e2a48p-2,
     0x1.25b8a88b6dd7fp-1, 0x1.569243d2b3a9bp-1, 0x1.7fb9bfaed8078p-1, 0x1.a1551a16aaeafp-1,
     0x1.bbef0fbde6221p-1, 0x1.d0580b2cfd249p-1, 0x1.df85ea8db188ep-1, 0x1.ea7730ed0bbb9p-1,
     0x1.f21c9f12f0677p-1, 0x1.f74a6d9a38383p-1, 0x1.fab0dd89d1309p-1, 0x1.fcdacca0bfb73p-1,
     0x1.fe307f2b503dp-1, 0x1.fefcce6813974p-1, 0x1.ff733814af88cp-1, 0x1.ffb5bdf67fe6fp-1,
     0x1.ffd9f78c7524ap-1, 0x1.ffed167b12ac2p-1, 0x1.fff6dee89352ep-1, 0x1.fffbb8f1049c6p-1,
     0x1.fffe0e0140857p-1, 0x1.ffff2436a21dcp-1, 0x1.ffffa1de8c582p-1, 0x1.ffffd8e1a2f22p-1,
     0x1.fffff039f9e8fp-1, 0x1.fffff9d446cccp-1, 0x1.fffffda86faa9p-1, 0x1.ffffff233ee1dp-1},
    {0x1.1fbd27cdc72d3p+0, 0x1.16e2d7093cd8cp+0, 0x1.05fd3ecbec298p+0, 0x1.dd167c4cf9d2ap-1,
     0x1.a5074e215762p-1, 0x1.681ff24b4ab04p-1, 0x1.2a8dcede3673bp-1, 0x1.dfca26f5bbf88p-2,
     0x1.75a91a7f4d2edp-2, 0x1.1a0dc51a9934dp-2, 0x1.9cb5bd549b111p-3, 0x1.24a7b84d38971p-3,
     0x1.92470a61b6965p-4, 0x1.0bf97e95f2a64p-4, 0x1.5a08e85af27ep-5, 0x1.b1160991ff737p-6,
     0x1.06ae13b0d3255p-6, 0x1.34d7dbc76d7e5p-7, 0x1.5ff2750fe782p-8, 0x1.84ba3004a50dp-9,
     0x1.a024365f771bdp-10, 0x1.afc85e0f82e12p-11, 0x1.b23a5a23e421p-12, 0x1.a740684026555p-13,
     0x1.8fdc1b2dcf7b9p-14, 0x1.6e2367dc27f95p-15, 0x1.44f21e49054f2p-16, 0x1.1783ceac2891p-17,
     0x1.d21397ead99cbp-19, 0x1.789fb715aae95p-20, 0x1.26f9df8519bd7p-21, 0x1.bfd7555a3bd68p-23},
    {-0x1.1fbd27cdc72d3p-4, -0x1.a254428ddb453p-3, -0x1.477c8e7ee733dp-2, -0x1.a173acc35a985p-2,
     -0x1.d9a837e5824e4p-2, -0x1.ef2bed2786b25p-2, -0x1.e5267029187cp-2, -0x1.c1cd84866038fp-2,
     -0x1.8d03ac274201cp-2, -0x1.4ef05a0f95eebp-2, -0x1.0ed7443f85c33p-2, -0x1.a4b118ef01593p-3,
     -0x1.3a47801c56a57p-3, -0x1.c435059d09788p-4, -0x1.399812926bc23p-4, -0x1.a38d59456f77dp-5,
     -0x1.0ee3844e59be7p-5, -0x1.51cc18621fc23p-6, -0x1.96f0575a63ae5p-7, -0x1.d9c2ea85a927dp-8,
     -0x1.0a9732d5284ddp-8, -0x1.221a9f326bef4p-9, -0x1.315107613c673p-10, -0x1.36d34c8f1c26ap-11,
     -0x1.322484cf12daap-12, -0x1.23c436c36fdabp-13, -0x1.0d18811478659p-14, -0x1.e06a8b37e5b93p-16,
     -0x1.9f19734d29cf9p-17, -0x1.5b333cc7f98f1p-18, -0x1.1926290adc888p-19, -0x1.b8d7f804d2e73p-21},
    {-0x1.7ca791fd8f7e7p-2, -0x1.59b3da8e1e176p-2, -0x1.1917b60acab73p-2, -0x1.889a80f4ad955p-3,
     -0x1.9c41d1d5fae55p-4, -0x1.a4254557d722fp-7, 0x1.fe0796bb9d05ap-5, 0x1.e4c9975da0987p-4,
     0x1.3954778d6a0dfp-3, 0x1.5648b5dc47417p-3, 0x1.5066cda84bba9p-3, 0x1.319c7a75f9187p-3,
     0x1.0453f90d3bd35p-3, 0x1.a3687c1eaf1adp-4, 0x1.4140efb719cbp-4, 0x1.d5bd91b6b0123p-5,
     0x1.48b127f8ed8a5p-5, 0x1.b925a99886bb7p-6, 0x1.1c5a643f04363p-6, 0x1.60898536e104ap-7,
     0x1.a4bf47a43042ap-8, 0x1.e3c9aab90bcf4p-9, 0x1.0c243329a9ca1p-9, 0x1.1eb6e14974a25p-10,
     0x1.27dc1bc6cfef5p-11, 0x1.26bf00867a835p-12, 0x1.1b964d438f622p-13, 0x1.07978c7b8496bp-14,
     0x1.d982bd41d8954p-16, 0x1.9b12fdbf90f62p-17, 0x1.5900c02d97304p-18, 0x1.17f93e5149289p-19},
    {0x1.1efd545de8a86p-5, 0x1.988648fe88219p-4, 0x1.322a728d4ed12p-3, 0x1.6c2eea0d17b39p-3,
     0x1.75bebc1b18d1cp-3, 0x1.532415c267962p-3, 0x1.0fa23021ad0acp-3, 0x1.747e31bf47af3p-4,
     0x1.88e0f7b183fc6p-5, 0x1.40fbaba44504cp-7, -0x1.419fa10b6ed7dp-6, -0x1.3db5bed47faf6p-5,
     -0x1.8a7c6a239217bp-5, -0x1.9647a30b16824p-5, -0x1.7535a61a4193dp-5, -0x1.3b35dcbc80146p-5,
     -0x1.f155b4e7d8c3bp-6, -0x1.71e7d408c8c6fp-6, -0x1.04f5caaf2196fp-6, -0x1.5eb1c899f0b7p-7,
     -0x1.c23802d8a5bb7p-8, -0x1.14b1b98141f21p-8, -0x1.4630116262084p-9, -0x1.714eb8cc0947fp-10,
     -0x1.9202f465eb421p-11, -0x1.a51fb50b15f22p-12, -0x1.a8d7851f26bfp-13, -0x1.9d039884f8be5p-14,
     -0x1.8320fc4836be5p-15, -0x1.5e06923144d7p-16, -0x1.3166de6a8c64p-17, -0x1.013b0457d08fap-18},
    {0x1.c532b7bbe615ap-4, 0x1.803427310d199p-4, 0x1.04c50a9cd2c12p-4, 0x1.b0645438e5d17p-6,
     -0x1.6410ad9332666p-7, -0x1.558b4c55a835cp-5, -0x1.fa21ebca76761p-5, -0x1.1d1f00109e42ap-4,
     -0x1.0f7c15f75ee13p-4, -0x1.c0db89d0a41a4p-5, -0x1.3f41761d5a941p-5, -0x1.7019bda6c2fddp-6,
     -0x1.075c088031ee3p-7, 0x1.6981061dfbb09p-9, 0x1.374c88c7e6abdp-7, 0x1.9d76b0a0535c7p-7,
     0x1.aa2c0753d569ap-7, 0x1.7ea58080a81efp-7, 0x1.382a146afb9d2p-7, 0x1.d854f73e74c87p-8,
     0x1.4f40070668329p-8, 0x1.c1c19b9e63d7p-9, 0x1.1e84d1022e8cbp-9, 0x1.5bec08c01b1d7p-10,
     0x1.93b4c9746835fp-11, 0x1.c0825378fda08p-12, 0x1.ddd6df9b6852dp-13, 0x1.e8d1145e94a54p-14,
     0x1.e0a1cb1d071f3p-15, 0x1.c6a071925631dp-16, 0x1.9dfcc328729ep-17, 0x1.6b245d7e1d829p-18},
    {-0x1.7da7bce15a3fcp-7, -0x1.09e7bce5592c9p-5, -0x1.7ce764eeddd86p-5, -0x1.a3fd9fcbb6d6dp-5,
     -0x1.7df8890b11fa7p-5, -0x1.1b7ad5b777f1bp-5, -0x1.31546d5c4edb4p-6, -0x1.47654175ceb42p-9,
     0x1.5e22cfa1aab51p-7, 0x1.388c3ec056942p-6, 0x1.6d1d724baaae4p-6, 0x1.59d3aa402c32ep-6,
     0x1.16f9c9c127b8p-6, 0x1.7e8755da4704p-7, 0x1.a40709e010e77p-8, 0x1.14c887a83a0e6p-9,
     -0x1.bbf7e2795837bp-11, -0x1.46eb9d203e071p-9, -0x1.95cab93aa68d2p-9, -0x1.897719a9d257ep-9,
     -0x1.4c9a2c9dccd04p-9, -0x1.feac3dbeb5124p-10, -0x1.6b41872716325p-10, -0x1.e4621d82dad12p-11,
     -0x1.30e9e6142fe9bp-11, -0x1.6c3dbfe0cbe4ap-12, -0x1.9e52b7aac1644p-13, -0x1.c1f7251172a87p-14,
     -0x1.d384223047b9cp-15, -0x1.d178cb0388a82p-16, -0x1.bcab1ed5ec38dp-17, -0x1.98077548c695p-18},
    {-0x1.ac35a97d212dfp-6, -0x1.516b205318414p-6, -0x1.68aac5801171dp-7, 0x1.060b78c935b8ep-13,
     0x1.4a54816d3608ap-7, 0x1.1201d3bd0e758p-6, 0x1.37e5469efb7a6p-6, 0x1.1a817c594b8cbp-6,
     0x1.9ad28c5557c22p-7, 0x1.aecb7463cf446p-8, 0x1.e377f5703f7ffp-11, -0x1.b324eab9c87a9p-9,
     -0x1.74c2fc9bdfe97p-8, -0x1.9be731fdab95dp-8, -0x1.6dc078888efa7p-8, -0x1.117f42cc6e9f4p-8,
     -0x1.5478d784d271cp-9, -0x1.403333682fa5ep-10, -0x1.d2fd90fe62928p-13, 0x1.88cdc8b807c97p-12,
     0x1.4f7a50b5bc019p-11, 0x1.63e88178b0e49p-11, 0x1.36edde582b265p-11, 0x1.e1b7b564b0e79p-12,
     0x1.555b9d5fb4825p-12, 0x1.c1dd1438378dfp-13, 0x1.165b2034fcab2p-13, 0x1.458b9e0854d68p-14,
     0x1.696daf6422bd4p-15, 0x1.7e29d33ac92b6p-16, 0x1.81cd74a57ce17p-17, 0x1.7492048ab3cebp-18},
    {0x1.7ca8c4cc3aa58p-9, 0x1.038d3f3a16b57p-7, 0x1.62aa895f51cd3p-7, 0x1.678b51a9c4b0ap-7,
     0x1.18f36eb18f3d7p-7, 0x1.2995e3a88a89p-8, 0x1.097966e2e87e3p-13, -0x1.cb8acd699cca6p-9,
     -0x1.704ec5d29fc83p-8, -0x1.8bca53327e075p-8, -0x1.4cc916ad63c27p-8, -0x1.b4774d37d0dd7p-9,
     -0x1.760c522bd5bebp-10, 0x1.3a95ae0a75546p-13, 0x1.2ee6d200993afp-10, 0x1.9b477bdad8e0bp-10,
     0x1.8eae08cdf9547p-10, 0x1.3b37d5bd14a4p-10, 0x1.9f50fb94c0b82p-11, 0x1.b325a11c1f45ap-12,
     0x1.18b04eb90c73ap-13, -0x1.4441c86c93f7ap-15, -0x1.f7870ebc38e66p-14, -0x1.24564b69716ap-13,
     -0x1.055983c4ac7abp-13, -0x1.94c36a9d7c0f6p-14, -0x1.1b75c33326751p-14, -0x1.6eb05572453f5p-15,
     -0x1.bb6e2d311a919p-16, -0x1.f9203429ba9ffp-17, -0x1.106e95b6bf43dp-17, -0x1.17506c7b39df8p-18},
    {0x1.4a6890ae20829p-8, 0x1.e19d52695ad58p-9, 0x1.6c003c3cedb0dp-10, -0x1.1e03bfc8eebb3p-10,
     -0x1.8d661c030e173p-9, -0x1.0294c3e93cdbp-8, -0x1.e82ab020887a7p-9, -0x1.57b72bf874db6p-9,
     -0x1.23360304f19bap-10, 0x1.4add4a8239f4bp-12, 0x1.553ef0d12719fp-10, 0x1.c01377485a844p-10,
     0x1.a3cdb656adb43p-10, 0x1.319f780e962d7p-10, 0x1.44f175e22a161p-11, 0x1.1d219fb0e1bc9p-13,
     -0x1.92946556037e5p-13, -0x1.6be130822dbdfp-12, -0x1.7d7378074399bp-12, -0x1.381548f69274p-12,
     -0x1.a4c3880c0ea6ap-13, -0x1.c8ceebc5fc50cp-14, -0x1.51ecfdc37801ep-15, 0x1.bf8e3b47f3cc9p-20,
     0x1.68e6c75a5d068p-16, 0x1.bf0aab116ca42p-16, 0x1.91a253c42f4e8p-16, 0x1.33045cf65279ep-16,
     0x1.a4fcb0ea87efbp-17, 0x1.094dadeee395cp-17, 0x1.379625a71385fp-18, 0x1.57e94a4c5f5a5p-19},
};

// erf(a) for 0 <= a < 4: below 1/8 the odd series a * sum b_n a^(2n), b_n = 2/sqrt(pi) (-1)^n /
// (n! (2n + 1)) (relative accuracy down to the subnormals, where the Taylor form around 1/16
// would cancel), above it the Taylor polynomial of the interval.
inline double erf_core(double a) {
  const double s = a * a;
  double q = -0x1.f4d25c3e0c2ebp-17;
  q = q * s + 0x1.f9a326f9b89b7p-14;
  q = q * s + -0x1.c02db40040b86p-11;
  q = q * s + 0x1.565bcd0e6a53fp-8;
  q = q * s + -0x1.b82ce31288b51p-6;
  q = q * s + 0x1.ce2f21a042be2p-4;
  q = q * s + -0x1.812746b0379e7p-2;
  q = q * s + 0x1.20dd750429b6dp+0;
  const int i = static_cast<int>(a * 8.0);
  const double t = a - (i + 0.5) * 0.125;
  double p = kErfTaylor[9][i];
  for (int n = 8; n >= 0; --n) p = p * t + kErfTaylor[n][i];
  return a < 0.125 ? a * q : p;
}

// The canonical NaN where x is NaN, else out.
inline float nan_canonical(float x, float out) {
  const uint32_t mag = std::bit_cast<uint32_t>(x) & 0x7fffffffu;
  return std::bit_cast<float>(blend(std::bit_cast<uint32_t>(out), 0x7fc00000u, static_cast<uint32_t>(mag > 0x7f800000u)));
}

// The sign of x on a non-negative f32 result r (erf and tanh are odd).
inline float with_sign_of(float x, float r) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(r) | (std::bit_cast<uint32_t>(x) & 0x80000000u));
}

// erf(x): from |x| >= 4, 1 - erf(x) < 2^-25 and erf rounds to +-1.
inline float erf_f32(float x) {
  const double a = static_cast<double>(std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu));
  const double r = erf_core(a < 4.0 ? a : 3.875);  // NaN takes 3.875 too; blended below
  const float out = with_sign_of(x, static_cast<float>(a < 4.0 ? r : 1.0));
  return nan_canonical(x, out);
}

// tanh(x): below |x| = 1/32 the odd series x - x^3/3 + 2x^5/15 - ... (six terms, relative error
// below 2^-60), above it (e - 1) / (e + 1) with e = e^(2|x|) (e - 1 >= 0.06 loses at most 5 bits
// of the double); from |x| >= 9.1, 1 - tanh(x) < 2^-25 and tanh rounds to +-1.
inline float tanh_f32(float x) {
  const double a = static_cast<double>(std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0x7fffffffu));
  const double ac = a < 9.1 ? a : 9.1;  // NaN takes 9.1 too; blended below
  const double s = ac * ac;
  double q = -1382.0 / 155925.0;
  q = q * s + 62.0 / 2835.0;
  q = q * s - 17.0 / 315.0;
  q = q * s + 2.0 / 15.0;
  q = q * s - 1.0 / 3.0;
  const double small = ac + ac * (s * q);
  const double e = exp_core(2.0 * ac);
  const double r = ac < 0.03125 ? small : (e - 1.0) / (e + 1.0);
  const float out = with_sign_of(x, static_cast<float>(a < 9.1 ? r : 1.0));
  return nan_canonical(x, out);
}

}  // namespace kir_vmath
