// Own double-precision kernels for the f32 (and, through it, f16/bf16) math functions exp, exp2,
// log, sin, cos, tanh and erf: table-driven argument reduction and short polynomials, each with an
// error bound argued in docs/numerics.md "Fast path" ("Own f32 kernels"). A kernel returns the
// double y and the bound; the result is accepted only if every value within the bound rounds to
// the same f32 (decide_f32), otherwise the caller falls back to MPFR. Tables and split constants
// are computed once with MPFR (every entry the double nearest to the exact value). Typed in by
// hand are only the Taylor coefficients 1/k (as quotients), ln2 and π rounded to double where
// they just pick the reduction's k (any nearby value works), ln2 in exp2's r·ln2 (its rounding
// is in the bound), the degrees and the range cut-offs (each argued where it is used).
//
// These kernels deliberately share nothing with the backend's vector math (rt/kir_vmath.h,
// branch-free Taylor polynomials without tables): the oracle compares the two, so they must be
// independent evaluations.
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <mpfr.h>

#include "numerics/format.h"
#include "numerics/math_detail.h"

namespace kir::num::detail {
namespace {

constexpr double kRoundMagic = 0x1.8p52;  // x + magic - magic rounds |x| < 2^51 to an integer
constexpr int kErfDeg = 13;
// 1/n! rounded to double (n! is exact in double up to n = 18).
constexpr std::array<double, 13> kInvFactorial = [] {
  std::array<double, 13> a{};
  double f = 1;
  for (int n = 0; n < 13; ++n) {
    if (n > 0) f *= n;
    a[n] = 1.0 / f;
  }
  return a;
}();                // degree of erf's Taylor polynomials on [1/8, 4)

struct Tables {
  double exp2_j[64];                  // 2^(j/64)
  double ln2_64_hi, ln2_64_lo;        // ln2/64: 37 significant bits + the rest
  double ln2;                         // ln2 rounded
  double log_c[128], log_l[128];      // log: c_i ≈ 1/m (9 bits), -log(c_i) or -log(2 c_i)
  double sin_k[64], cos_k[64];        // sin(kπ/32), cos(kπ/32)
  double pi32_1, pi32_2, pi32_3;      // π/32 = p1 + p2 + p3 (29, 29, 53 bits) for |x| < 2^20
  double pi32_a1, pi32_a2;            // π/32 = a1 + a2 (39, 53 bits) for |x| < 2^10
  double erf_small[7];                // erf(x) = x Σ erf_small[n] x^(2n) for |x| < 1/8
  double erf_poly[32][kErfDeg + 1];   // erf(c_j + t) = Σ erf_poly[j][n] t^n, c_j = (j + 1/2)/8
};

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 256); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
  double d() const { return mpfr_get_d(v, MPFR_RNDN); }
};

// x with all but its `bits` leading significand bits cleared (x normal).
double truncate_bits(double x, int bits) {
  const uint64_t mask = ~((uint64_t{1} << (53 - bits)) - 1);
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) & mask);
}

// hi = `bits` leading bits of c, lo = RN(c - hi).
void split(const Mp& c, int bits, double* hi, double* lo) {
  *hi = truncate_bits(c.d(), bits);
  Mp rest;
  mpfr_sub_d(rest.v, c.v, *hi, MPFR_RNDN);
  *lo = rest.d();
}

__attribute__((noinline, cold)) Tables build_tables() {
  Tables t{};
  Mp a, b, c;
  for (int j = 0; j < 64; ++j) {  // 2^(j/64)
    mpfr_set_si(a.v, j, MPFR_RNDN);
    mpfr_div_ui(a.v, a.v, 64, MPFR_RNDN);
    mpfr_exp2(b.v, a.v, MPFR_RNDN);
    t.exp2_j[j] = b.d();
  }
  mpfr_const_log2(a.v, MPFR_RNDN);
  t.ln2 = a.d();
  mpfr_div_ui(a.v, a.v, 64, MPFR_RNDN);
  split(a, 37, &t.ln2_64_hi, &t.ln2_64_lo);

  for (int i = 0; i < 128; ++i) {  // m in [1 + i/128, 1 + (i+1)/128)
    double ci = i == 0 ? 1.0 : i == 127 ? 0.5 : 1.0 / (1.0 + (i + 0.5) / 128);
    ci = std::bit_cast<double>((std::bit_cast<uint64_t>(ci) + (uint64_t{1} << 43)) & ~((uint64_t{1} << 44) - 1));  // RN to 9 bits
    t.log_c[i] = ci;
    mpfr_set_d(a.v, i >= 64 ? 2 * ci : ci, MPFR_RNDN);
    mpfr_log(b.v, a.v, MPFR_RNDN);
    mpfr_neg(b.v, b.v, MPFR_RNDN);
    t.log_l[i] = b.d();
  }

  for (int k = 0; k < 64; ++k) {  // sin(2π k/64) exactly rounded, exact zeros and ones included
    mpfr_set_si(a.v, k, MPFR_RNDN);
    mpfr_sinu(b.v, a.v, 64, MPFR_RNDN);
    mpfr_cosu(c.v, a.v, 64, MPFR_RNDN);
    t.sin_k[k] = b.d();
    t.cos_k[k] = c.d();
  }
  mpfr_const_pi(a.v, MPFR_RNDN);
  mpfr_div_ui(a.v, a.v, 32, MPFR_RNDN);
  split(a, 39, &t.pi32_a1, &t.pi32_a2);
  t.pi32_1 = truncate_bits(a.d(), 29);
  mpfr_sub_d(a.v, a.v, t.pi32_1, MPFR_RNDN);
  t.pi32_2 = truncate_bits(a.d(), 29);
  mpfr_sub_d(a.v, a.v, t.pi32_2, MPFR_RNDN);
  t.pi32_3 = a.d();

  // 2/√π
  Mp two_rsqrt_pi;
  mpfr_const_pi(a.v, MPFR_RNDN);
  mpfr_rec_sqrt(two_rsqrt_pi.v, a.v, MPFR_RNDN);
  mpfr_mul_ui(two_rsqrt_pi.v, two_rsqrt_pi.v, 2, MPFR_RNDN);
  // erf(x) = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
  mpfr_set(a.v, two_rsqrt_pi.v, MPFR_RNDN);  // 2/√π (-1)^n / n!
  for (int n = 0; n < 7; ++n) {
    if (n > 0) mpfr_div_si(a.v, a.v, -n, MPFR_RNDN);
    mpfr_div_ui(b.v, a.v, 2 * n + 1, MPFR_RNDN);
    t.erf_small[n] = b.d();
  }
  // Taylor coefficients at c: a_0 = erf(c), a_n = 2/√π e^(-c²) (-1)^(n-1) H_(n-1)(c) / n!
  // with the Hermite polynomials H_0 = 1, H_1 = 2c, H_(k+1) = 2c H_k - 2k H_(k-1).
  for (int j = 1; j < 32; ++j) {
    Mp cc, g, h0, h1, h2, term;
    mpfr_set_d(cc.v, (j + 0.5) / 8, MPFR_RNDN);
    mpfr_erf(term.v, cc.v, MPFR_RNDN);
    t.erf_poly[j][0] = term.d();
    mpfr_sqr(g.v, cc.v, MPFR_RNDN);
    mpfr_neg(g.v, g.v, MPFR_RNDN);
    mpfr_exp(g.v, g.v, MPFR_RNDN);
    mpfr_mul(g.v, g.v, two_rsqrt_pi.v, MPFR_RNDN);  // f'(c), divided by n! as n grows
    mpfr_set_ui(h0.v, 1, MPFR_RNDN);                 // H_(n-1)
    mpfr_mul_ui(h1.v, cc.v, 2, MPFR_RNDN);           // H_n
    for (int n = 1; n <= kErfDeg; ++n) {
      if (n > 1) mpfr_div_si(g.v, g.v, -n, MPFR_RNDN);
      mpfr_mul(term.v, g.v, h0.v, MPFR_RNDN);
      t.erf_poly[j][n] = term.d();
      mpfr_mul(h2.v, h1.v, cc.v, MPFR_RNDN);  // H_(n+1) = 2c H_n - 2n H_(n-1)
      mpfr_mul_ui(h2.v, h2.v, 2, MPFR_RNDN);
      mpfr_mul_ui(term.v, h0.v, 2 * n, MPFR_RNDN);
      mpfr_sub(h2.v, h2.v, term.v, MPFR_RNDN);
      mpfr_swap(h0.v, h1.v);
      mpfr_swap(h1.v, h2.v);
    }
  }
  mpfr_free_cache();
  return t;
}

inline __attribute__((always_inline)) const Tables& tables() {
  static const Tables t = build_tables();
  return t;
}

// Kernels are inlined into both the one-value entry points and the loops of f32_batch. Each is
// a template on F: with F, a·b + c is one fused multiply-add (the variant compiled for CPUs that
// have it), without, a product and a sum. Every bound below holds for both, since a fused
// operation only removes a rounding, and every step claimed exact stays exact.
#define KIR_KERNEL inline __attribute__((always_inline))

template <bool F>
KIR_KERNEL double mad(double a, double b, double c) {
  if constexpr (F) return __builtin_fma(a, b, c);
  else return a * b + c;
}

// 2^e for an integer |e| < 1000.
KIR_KERNEL double pow2i(int64_t e) { return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52); }

// e^r for |r| <= 0.00542 by its Taylor polynomial of degree 5, in Estrin's form (a shorter
// dependency chain than Horner's; the same few roundings, each of a term far below 1).
template <bool F>
KIR_KERNEL double exp_small(double r) {
  const double r2 = r * r;
  return mad<F>(r2, mad<F>(r2, mad<F>(r, 1.0 / 120, 1.0 / 24), mad<F>(r, 1.0 / 6, 0.5)), 1.0 + r);
}

// e^x for |x| <= 104, as 2^(k/64) e^r; relative error <= 2^-49.
template <bool F>
KIR_KERNEL double exp_core(const Tables& t, double x) {
  const double kf = mad<F>(x, 64 / 0.6931471805599453, kRoundMagic) - kRoundMagic;
  const auto k = static_cast<int64_t>(kf);
  const double r = mad<F>(-kf, t.ln2_64_lo, mad<F>(-kf, t.ln2_64_hi, x));  // the inner one is exact
  return t.exp2_j[k & 63] * exp_small<F>(r) * pow2i(k >> 6);
}

// y accepted when y(1 - eps) - abs and y(1 + eps) + abs round to the same f32 (the hardware
// double -> float conversion is RNE with gradual underflow and overflow to Inf). The factor
// 1 + 2^-50 covers the rounding of forming the two ends.
template <bool F>
KIR_KERNEL uint64_t decide_f32(double y, double eps, double abs = 0) {
  const double d = mad<F>(std::fabs(y), eps + 0x1p-50, abs);
  const auto lo = std::bit_cast<uint32_t>(static_cast<float>(y - d));
  const auto hi = std::bit_cast<uint32_t>(static_cast<float>(y + d));
  return lo == hi ? lo : kUndecided;
}

constexpr uint32_t kOneF = 0x3f800000u;

template <bool F>
KIR_KERNEL uint64_t exp_f32(const Tables& t, float xf) {
  const double x = xf;
  if (x < -104) return 0;           // e^x < 2^-150: rounds to +0
  if (x > 89) return 0x7f800000u;   // e^x > 2^128: +Inf
  return decide_f32<F>(exp_core<F>(t, x), 0x1p-48);
}

template <bool F>
KIR_KERNEL uint64_t exp2_f32(const Tables& t, float xf) {
  const double x = xf;
  if (x < -151) return 0;
  if (x >= 128) return 0x7f800000u;
  const double kf = mad<F>(x, 64, kRoundMagic) - kRoundMagic;  // x*64 is exact
  const auto k = static_cast<int64_t>(kf);
  const double r = mad<F>(-kf, 1.0 / 64, x);                    // exact, |r| <= 1/128
  const double y = t.exp2_j[k & 63] * exp_small<F>(r * 0.6931471805599453) * pow2i(k >> 6);
  return decide_f32<F>(y, 0x1p-48);
}

template <bool F>
KIR_KERNEL uint64_t log_f32(const Tables& t, float xf) {
  if (!(xf > 0)) return kUndecided;  // zero, negative: the special table
  const uint64_t b = std::bit_cast<uint64_t>(static_cast<double>(xf));
  const int64_t e = static_cast<int64_t>(b >> 52) - 1023;  // f32 subnormals are normal doubles
  const double m = std::bit_cast<double>((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  const auto i = static_cast<int>((b >> 45) & 127);
  const double r = mad<F>(m, t.log_c[i], -1.0);  // exact: 24 x 9 bits, then Sterbenz
  const double r2 = r * r;  // log1p(r) = r (1 - r/2 + r²/3 - ... - r⁷/8), Estrin's form
  const double hi = mad<F>(r2, mad<F>(-0.125, r, 1.0 / 7), mad<F>(-1.0 / 6, r, 0.2));
  const double p = r * mad<F>(r2, mad<F>(r2, hi, mad<F>(-0.25, r, 1.0 / 3)), mad<F>(-0.5, r, 1.0));
  const auto ef = static_cast<double>(e + (i >= 64));
  const double y = mad<F>(ef, t.ln2, t.log_l[i]) + p;
  return decide_f32<F>(y, 0x1p-47);
}

// sin or cos of an f32 x with |x| < 2^20: x = k π/32 + r, |r| <= π/64, then the addition formula
// with the table values at k π/32. Absolute error of r: u|r| + 2^-80 below 2^10 (two parts of
// π/32), 2u|r| + 2^-84 above (three parts), none when k = 0.
template <bool F>
KIR_KERNEL uint64_t sincos_f32(const Tables& t, float xf, bool cosine) {
  const double x = xf, ax = std::fabs(x);
  if (!(ax < 0x1p20)) return kUndecided;  // large: glibc's reduction, then MPFR
  const double kf = mad<F>(x, 32 / 3.141592653589793, kRoundMagic) - kRoundMagic;
  const auto k = static_cast<int64_t>(kf);
  double r, abs_err;
  if (ax < 0x1p10) {
    r = mad<F>(-kf, t.pi32_a2, mad<F>(-kf, t.pi32_a1, x));
    abs_err = 0x1p-79;
  } else {
    r = mad<F>(-kf, t.pi32_3, mad<F>(-kf, t.pi32_2, mad<F>(-kf, t.pi32_1, x)));
    abs_err = 0x1p-83;
  }
  const double z = r * r;
  const double sr = mad<F>(r * z, mad<F>(z, mad<F>(z, -1.0 / 5040, 1.0 / 120), -1.0 / 6), r);
  const double cr = mad<F>(z, mad<F>(z, mad<F>(z, mad<F>(z, 1.0 / 40320, -1.0 / 720), 1.0 / 24), -0.5), 1.0);
  const int j = static_cast<int>(k & 63);
  const double y = cosine ? mad<F>(t.cos_k[j], cr, -(t.sin_k[j] * sr)) : mad<F>(t.sin_k[j], cr, t.cos_k[j] * sr);
  return decide_f32<F>(y, 0x1p-47, k == 0 ? 0.0 : abs_err);
}

template <bool F>
KIR_KERNEL uint64_t tanh_f32(const Tables& t, float xf) {
  const double a = std::fabs(static_cast<double>(xf));
  const uint32_t sign = std::bit_cast<uint32_t>(xf) & 0x80000000u;
  if (a >= 9.1) return sign | kOneF;  // 1 - tanh(9.1) < 2^-25: rounds to ±1
  const double u = 2 * a;
  double em1;  // e^u - 1
  if (u <= 0.25) {
    double q = kInvFactorial[12];  // e^u - 1 = u Σ_(n<=11) u^n/(n+1)!, truncation < 2^-56 u
    for (int n = 11; n >= 1; --n) q = mad<F>(q, u, kInvFactorial[n]);
    em1 = u * q;
  } else {
    em1 = exp_core<F>(t, u) - 1.0;
  }
  const double y = em1 / (em1 + 2.0);
  const uint64_t r = decide_f32<F>(y, 0x1p-45);
  return r == kUndecided ? r : r | sign;
}

template <bool F>
KIR_KERNEL uint64_t erf_f32(const Tables& t, float xf) {
  const double x = xf, a = std::fabs(x);
  const uint32_t sign = std::bit_cast<uint32_t>(xf) & 0x80000000u;
  if (a >= 4) return sign | kOneF;  // erfc(4) < 2^-25: rounds to ±1
  if (a < 0.125) {
    const double z = x * x;
    const double* c = t.erf_small;
    double s = c[6];
    for (int n = 5; n >= 0; --n) s = mad<F>(s, z, c[n]);
    return decide_f32<F>(x * s, 0x1p-48);
  }
  const auto j = static_cast<int>(a * 8);
  const double tt = a - (j + 0.5) * 0.125;  // exact, |t| <= 1/16
  const double* c = t.erf_poly[j];         // Estrin's form over the 14 coefficients
  const double t2 = tt * tt, t4 = t2 * t2, t8 = t4 * t4;
  const double q0 = mad<F>(t2, mad<F>(c[3], tt, c[2]), mad<F>(c[1], tt, c[0]));
  const double q1 = mad<F>(t2, mad<F>(c[7], tt, c[6]), mad<F>(c[5], tt, c[4]));
  const double q2 = mad<F>(t2, mad<F>(c[11], tt, c[10]), mad<F>(c[9], tt, c[8]));
  const double q3 = mad<F>(c[13], tt, c[12]);
  const double p = mad<F>(t8, mad<F>(t4, q3, q2), mad<F>(t4, q1, q0));
  const uint64_t r = decide_f32<F>(p, 0x1p-48);
  return r == kUndecided ? r : r | sign;
}

template <bool F>
KIR_KERNEL uint64_t sin_f32(const Tables& t, float x) { return sincos_f32<F>(t, x, false); }
template <bool F>
KIR_KERNEL uint64_t cos_f32(const Tables& t, float x) { return sincos_f32<F>(t, x, true); }

using Kernel = uint64_t (*)(const Tables&, float);

// Whether to run the fused variant: this CPU has fused multiply-add (x86-64: the FMA extension)
// and the environment does not ask for the plain one (KIR_NUMERICS_NO_FMA=1, which the tests and
// the exhaustive verification use to check the variant CPUs without FMA run).
const bool kHaveFma = [] {
#if defined(__x86_64__) && defined(__GNUC__)
  if (const char* e = std::getenv("KIR_NUMERICS_NO_FMA"); e && *e && *e != '0') return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") != 0;
#else
  return false;
#endif
}();

#if defined(__x86_64__) && defined(__GNUC__)
#define KIR_FMA_TARGET __attribute__((target("fma")))
#else
#define KIR_FMA_TARGET
#endif

// One value: the entries of kF32Kernels.
template <Kernel K>
KIR_FMA_TARGET uint64_t one_fused(float x) { return K(tables(), x); }
template <Kernel K>
uint64_t one_plain(float x) { return K(tables(), x); }

// n values: the table fetched once, the kernel inlined into the loop; inputs the kernel does not
// decide (specials, out of range, too close to a boundary) through eval's general path.
template <Kernel K>
KIR_KERNEL void loop_body(MathFn f, const uint64_t* in, uint64_t* out, size_t n) {
  const Tables& t = tables();
  for (size_t i = 0; i < n; ++i) {
    const auto x = std::bit_cast<float>(static_cast<uint32_t>(in[i]));
    uint64_t r = kUndecided;
    if (std::isfinite(x) && x != 0) r = K(t, x);
    out[i] = r != kUndecided ? r : eval_after_kernel(f, DType::F32, in[i]);
  }
}
template <Kernel K>
KIR_FMA_TARGET void loop_fused(MathFn f, const uint64_t* in, uint64_t* out, size_t n) { loop_body<K>(f, in, out, n); }
template <Kernel K>
void loop_plain(MathFn f, const uint64_t* in, uint64_t* out, size_t n) { loop_body<K>(f, in, out, n); }
template <Kernel Plain, Kernel Fused>
void loop(MathFn f, const uint64_t* in, uint64_t* out, size_t n) {
  if (kHaveFma) loop_fused<Fused>(f, in, out, n);
  else loop_plain<Plain>(f, in, out, n);
}

#define KIR_BOTH(k) k<false>, k<true>

}  // namespace

// Dynamically initialized (the CPU decides the variant). Read before its initialization it is all
// null, which only means that the callers take the general path, with the same results.
const std::array<F32Kernel, kNumMathFns> kF32Kernels = [] {
  std::array<F32Kernel, kNumMathFns> k{};
  auto set = [&](MathFn f, F32Kernel plain, F32Kernel fused) { k[static_cast<int>(f)] = kHaveFma ? fused : plain; };
  set(MathFn::Exp, one_plain<exp_f32<false>>, one_fused<exp_f32<true>>);
  set(MathFn::Exp2, one_plain<exp2_f32<false>>, one_fused<exp2_f32<true>>);
  set(MathFn::Log, one_plain<log_f32<false>>, one_fused<log_f32<true>>);
  set(MathFn::Sin, one_plain<sin_f32<false>>, one_fused<sin_f32<true>>);
  set(MathFn::Cos, one_plain<cos_f32<false>>, one_fused<cos_f32<true>>);
  set(MathFn::Tanh, one_plain<tanh_f32<false>>, one_fused<tanh_f32<true>>);
  set(MathFn::Erf, one_plain<erf_f32<false>>, one_fused<erf_f32<true>>);
  return k;
}();

bool f32_batch(MathFn f, const uint64_t* in, uint64_t* out, size_t n) {
  switch (f) {
    case MathFn::Exp: loop<KIR_BOTH(exp_f32)>(f, in, out, n); return true;
    case MathFn::Exp2: loop<KIR_BOTH(exp2_f32)>(f, in, out, n); return true;
    case MathFn::Log: loop<KIR_BOTH(log_f32)>(f, in, out, n); return true;
    case MathFn::Sin: loop<KIR_BOTH(sin_f32)>(f, in, out, n); return true;
    case MathFn::Cos: loop<KIR_BOTH(cos_f32)>(f, in, out, n); return true;
    case MathFn::Tanh: loop<KIR_BOTH(tanh_f32)>(f, in, out, n); return true;
    case MathFn::Erf: loop<KIR_BOTH(erf_f32)>(f, in, out, n); return true;
    default: return false;
  }
}

}  // namespace kir::num::detail
