// Reference path of the unary math functions: MPFR's correctly rounded functions at the target
// precision, then the standard target-format emulation (mpfr_check_range + mpfr_subnormalize,
// numerics reference §5.2), and Ziv loops for the functions MPFR lacks (i0, sigmoid): a rigorous
// lower/upper bracket at working precision w, accepted when both ends round to the same value,
// else w doubles (§5.3).
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "numerics/format.h"
#include "numerics/math_detail.h"

namespace kir::num::detail {
namespace {

// RAII mpfr_t.
struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
  operator mpfr_ptr() { return v; }  // NOLINT: lets Mp be passed to mpfr_* directly
};

// Round r (precision p of the format, computed in MPFR's wide exponent range with ternary t)
// into the format's exponent range: overflow -> ±Inf, gradual underflow without double rounding.
double finish(mpfr_ptr r, int t, const FloatFormat& f) {
  const mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  mpfr_set_emin(f.emin - f.precision + 2);  // smallest subnormal 2^(emin-p+1) = 0.5*2^(this)
  mpfr_set_emax(f.emax + 1);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const double out = mpfr_get_d(r, MPFR_RNDN);  // exact: r is a value of the format
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  return out;
}

// Round an arbitrary-precision value v to the format.
double round_value(mpfr_srcptr v, const FloatFormat& f) {
  Mp r(f.precision);
  const int t = mpfr_set(r, v, MPFR_RNDN);
  return finish(r, t, f);
}

bool same(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

// I0(x) = sum_k (x^2/4)^k / (k!)^2: every term positive, so rounding everything down (up) gives
// a lower (upper) bound. Stop once the term ratio q/(k+1)^2 <= 1/2, so the tail after t_k is
// at most t_k, and t_k is negligible at precision w; the tail bound t_k is added to the upper sum.
double ziv_i0(const FloatFormat& f, double x) {
  x = std::fabs(x);
  // I0(713.987) = DBL_MAX (numerics reference §2.4): larger arguments overflow every format,
  // and the series would need O(x) terms
  if (x >= 714) return std::numeric_limits<double>::infinity();
  for (mpfr_prec_t w = f.precision + 24;; w *= 2) {
    Mp q_lo(w), q_hi(w), t_lo(w), t_hi(w), s_lo(w), s_hi(w), tmp(w);
    mpfr_set_d(q_lo, x, MPFR_RNDD);
    mpfr_sqr(q_lo, q_lo, MPFR_RNDD);
    mpfr_div_2ui(q_lo, q_lo, 2, MPFR_RNDD);
    mpfr_set_d(q_hi, x, MPFR_RNDU);
    mpfr_sqr(q_hi, q_hi, MPFR_RNDU);
    mpfr_div_2ui(q_hi, q_hi, 2, MPFR_RNDU);
    mpfr_set_ui(t_lo, 1, MPFR_RNDN);
    mpfr_set_ui(t_hi, 1, MPFR_RNDN);
    mpfr_set_ui(s_lo, 1, MPFR_RNDN);
    mpfr_set_ui(s_hi, 1, MPFR_RNDN);
    for (unsigned long k = 1;; ++k) {
      mpfr_mul(t_lo, t_lo, q_lo, MPFR_RNDD);
      mpfr_div_ui(t_lo, t_lo, k * k, MPFR_RNDD);
      mpfr_mul(t_hi, t_hi, q_hi, MPFR_RNDU);
      mpfr_div_ui(t_hi, t_hi, k * k, MPFR_RNDU);
      mpfr_add(s_lo, s_lo, t_lo, MPFR_RNDD);
      mpfr_add(s_hi, s_hi, t_hi, MPFR_RNDU);
      // ratio test: q_hi <= (k+1)^2 / 2
      mpfr_set_ui(tmp, (k + 1) * (k + 1), MPFR_RNDU);
      mpfr_div_2ui(tmp, tmp, 1, MPFR_RNDN);
      if (mpfr_cmp(q_hi, tmp) > 0) continue;
      mpfr_mul_2si(tmp, s_lo, -(long(w) + 2), MPFR_RNDN);
      if (mpfr_cmp(t_hi, tmp) < 0) break;
    }
    mpfr_add(s_hi, s_hi, t_hi, MPFR_RNDU);  // tail <= t_k
    const double lo = round_value(s_lo, f), hi = round_value(s_hi, f);
    if (same(lo, hi)) return lo;
  }
}

// sigmoid(x) = 1 / (1 + e^-x) is increasing in e^-x's reciprocal: round e^-x and 1+e^-x up and
// the reciprocal down for a lower bound, the opposite for an upper bound. MPFR's exponent range
// is wide enough that e^-x never overflows for f64 inputs.
double ziv_sigmoid(const FloatFormat& f, double x) {
  for (mpfr_prec_t w = f.precision + 24;; w *= 2) {
    Mp mx(w), lo(w), hi(w);
    mpfr_set_d(mx, -x, MPFR_RNDN);  // exact: w >= 35 and x came from the format
    mpfr_exp(lo, mx, MPFR_RNDU);
    mpfr_add_ui(lo, lo, 1, MPFR_RNDU);
    mpfr_ui_div(lo, 1, lo, MPFR_RNDD);
    mpfr_exp(hi, mx, MPFR_RNDD);
    mpfr_add_ui(hi, hi, 1, MPFR_RNDD);
    mpfr_ui_div(hi, 1, hi, MPFR_RNDU);
    const double a = round_value(lo, f), b = round_value(hi, f);
    if (same(a, b)) return a;
    if (w > 1 << 16) throw std::logic_error("sigmoid Ziv loop did not converge");
  }
}

}  // namespace

double math_mpfr(MathFn fn, DType d, double x) {
  const FloatFormat& f = float_format(d);
  if (fn == MathFn::I0) return ziv_i0(f, x);
  if (fn == MathFn::Sigmoid) return ziv_sigmoid(f, x);
  Mp mx(53), r(f.precision);
  mpfr_set_d(mx, x, MPFR_RNDN);  // exact
  int t = 0;
  switch (fn) {
    case MathFn::Exp: t = mpfr_exp(r, mx, MPFR_RNDN); break;
    case MathFn::Exp2: t = mpfr_exp2(r, mx, MPFR_RNDN); break;
    case MathFn::Log: t = mpfr_log(r, mx, MPFR_RNDN); break;
    case MathFn::Log1p: t = mpfr_log1p(r, mx, MPFR_RNDN); break;
    case MathFn::Lgamma: {
      int sign = 0;
      t = mpfr_lgamma(r, &sign, mx, MPFR_RNDN);
      break;
    }
    case MathFn::Sin: t = mpfr_sin(r, mx, MPFR_RNDN); break;
    case MathFn::Asin: t = mpfr_asin(r, mx, MPFR_RNDN); break;
    case MathFn::Cos: t = mpfr_cos(r, mx, MPFR_RNDN); break;
    case MathFn::Tanh: t = mpfr_tanh(r, mx, MPFR_RNDN); break;
    case MathFn::Floor: t = mpfr_rint_floor(r, mx, MPFR_RNDN); break;
    case MathFn::Erf: t = mpfr_erf(r, mx, MPFR_RNDN); break;
    case MathFn::Erfc: t = mpfr_erfc(r, mx, MPFR_RNDN); break;
    case MathFn::Rsqrt: t = mpfr_rec_sqrt(r, mx, MPFR_RNDN); break;
    case MathFn::Sqrt: t = mpfr_sqrt(r, mx, MPFR_RNDN); break;
    case MathFn::Abs: t = mpfr_abs(r, mx, MPFR_RNDN); break;
    case MathFn::I0:
    case MathFn::Sigmoid: break;  // handled above
  }
  return finish(r, t, f);
}

}  // namespace kir::num::detail
