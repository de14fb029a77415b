// Reassociation envelope (see envelope.h). Exact sums are kept in MPFR at a precision that
// covers the whole exponent span of double products (so every addition is exact); the bound is
// the standard any-parenthesization bound γ_k Σ|t_i| (γ_k = k u / (1 - k u), u = 2^-p) plus the
// underflow term of rounded products, evaluated with upward rounding.
#include "numerics/envelope.h"

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "numerics/format.h"

namespace kir::num {
namespace {

// Products of two doubles span exponents [-2148, 2048]; sums of up to 2^64 of them fit in this.
constexpr mpfr_prec_t kExactPrec = 4400;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p) { mpfr_init2(v, p); mpfr_set_zero(v, 1); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// Running state of an exact sum of terms.
class Accumulator {
 public:
  Accumulator() = default;
  void add(double t) {
    ++n_;
    if (std::isnan(t)) { nan_ = true; return; }
    if (std::isinf(t)) { (t > 0 ? pos_inf_ : neg_inf_) = true; return; }
    if (!(t == 0 && std::signbit(t))) all_neg_zero_ = false;
    if (t != 0) all_zero_ = false;
    mpfr_add_d(s_.v, s_.v, t, MPFR_RNDN);  // exact at kExactPrec
    mpfr_set_d(tmp_.v, std::fabs(t), MPFR_RNDN);
    mpfr_add(a_.v, a_.v, tmp_.v, MPFR_RNDN);
  }
  void add_product(double x, double y) {
    if (std::isnan(x) || std::isnan(y) || ((std::isinf(x) || std::isinf(y)) && (x == 0 || y == 0))) {
      ++n_;
      nan_ = true;
      return;
    }
    if (std::isinf(x) || std::isinf(y)) { add(x * y); return; }
    mpfr_set_d(tmp_.v, x, MPFR_RNDN);
    mpfr_mul_d(tmp_.v, tmp_.v, y, MPFR_RNDN);  // exact: 106 <= kExactPrec
    ++n_;
    const bool neg = std::signbit(x) != std::signbit(y);
    if (!mpfr_zero_p(tmp_.v) || !neg) all_neg_zero_ = false;
    if (!mpfr_zero_p(tmp_.v)) all_zero_ = false;
    mpfr_add(s_.v, s_.v, tmp_.v, MPFR_RNDN);
    mpfr_abs(tmp_.v, tmp_.v, MPFR_RNDN);
    mpfr_add(a_.v, a_.v, tmp_.v, MPFR_RNDN);
  }
  Envelope envelope(DType acc, TermKind kind) const;

 private:
  Mp s_{kExactPrec}, a_{kExactPrec}, tmp_{kExactPrec};
  uint64_t n_ = 0;
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false, all_zero_ = true, all_neg_zero_ = true;
};

Envelope Accumulator::envelope(DType acc, TermKind kind) const {
  if (!is_float(acc)) throw std::invalid_argument("envelope: accumulator must be f16/bf16/f32/f64, got " +
                                                  std::string(kir::name(acc)));
  const FloatFormat& f = float_format(acc);
  Envelope e{};
  e.acc = acc;
  if (nan_ || (pos_inf_ && neg_inf_)) {
    e.is_nan = true;
    e.exact_rounded = e.lo = e.hi = std::numeric_limits<double>::quiet_NaN();
    e.bound = kInf;
    return e;
  }
  if (pos_inf_ || neg_inf_) {
    e.exact_rounded = e.lo = e.hi = pos_inf_ ? kInf : -kInf;
    e.bound = 0;
    return e;
  }
  e.exact_rounded = to_double(round_to(s_.v, acc), acc);
  if (all_zero_) {  // every order gives the same signed zero
    e.exact_rounded = (all_neg_zero_ && n_ > 0) ? -0.0 : 0.0;
    e.all_negative_zero = all_neg_zero_ && n_ > 0;
    e.bound = e.lo = e.hi = 0;
    return e;
  }
  // k = roundings on the longest path from a term to the result
  const uint64_t k = kind == TermKind::AccValues ? n_ - 1 : n_;
  Mp gamma(128), b(128), t(128), thr(128);
  // gamma_k = k u / (1 - k u), rounded up; u = 2^-p
  mpfr_set_ui(t.v, 1, MPFR_RNDN);
  mpfr_mul_2si(t.v, t.v, -f.precision, MPFR_RNDN);
  mpfr_mul_ui(t.v, t.v, k, MPFR_RNDU);  // k u
  if (mpfr_cmp_ui(t.v, 1) >= 0) {
    e.bound = kInf;
    e.lo = -kInf;
    e.hi = kInf;
    e.may_overflow = true;
    return e;
  }
  mpfr_ui_sub(gamma.v, 1, t.v, MPFR_RNDD);
  mpfr_div(gamma.v, t.v, gamma.v, MPFR_RNDU);
  // bound = gamma A + [products] n eta (1 + gamma), eta = half the smallest subnormal
  mpfr_mul(b.v, gamma.v, a_.v, MPFR_RNDU);
  if (kind == TermKind::ExactProducts) {
    mpfr_add_ui(t.v, gamma.v, 1, MPFR_RNDU);
    mpfr_mul_ui(t.v, t.v, n_, MPFR_RNDU);
    mpfr_mul_2si(t.v, t.v, f.emin - f.precision, MPFR_RNDU);  // eta = 2^(emin - p)
    mpfr_add(b.v, b.v, t.v, MPFR_RNDU);
  }
  e.bound = mpfr_get_d(b.v, MPFR_RNDU);
  // overflow is impossible when every partial sum stays below the RNE overflow threshold
  // (2 - 2^-p) 2^emax; partial sums are bounded by A (1 + gamma) + bound.
  mpfr_add_ui(t.v, gamma.v, 1, MPFR_RNDU);
  mpfr_mul(t.v, t.v, a_.v, MPFR_RNDU);
  mpfr_add(t.v, t.v, b.v, MPFR_RNDU);
  mpfr_set_ui(thr.v, 2, MPFR_RNDN);
  mpfr_set_ui_2exp(b.v, 1, -f.precision, MPFR_RNDN);
  mpfr_sub(thr.v, thr.v, b.v, MPFR_RNDN);
  mpfr_mul_2si(thr.v, thr.v, f.emax, MPFR_RNDN);
  e.may_overflow = mpfr_cmp(t.v, thr.v) >= 0;
  Mp edge(kExactPrec);
  mpfr_set_d(b.v, e.bound, MPFR_RNDU);
  mpfr_sub(edge.v, s_.v, b.v, MPFR_RNDD);
  e.lo = mpfr_get_d(edge.v, MPFR_RNDD);
  mpfr_add(edge.v, s_.v, b.v, MPFR_RNDU);
  e.hi = mpfr_get_d(edge.v, MPFR_RNDU);
  return e;
}

}  // namespace

bool Envelope::contains(double v) const {
  if (is_nan) return std::isnan(v);
  if (std::isnan(v)) return false;
  if (std::isinf(exact_rounded) && bound == 0) return v == exact_rounded;
  if (std::isinf(v)) return may_overflow;
  if (v == 0 && bound == 0 && lo == 0 && hi == 0) return std::signbit(v) == all_negative_zero;
  return lo <= v && v <= hi;
}

Envelope sum_envelope(std::span<const double> terms, DType acc, TermKind kind) {
  Accumulator a;
  for (double t : terms) a.add(t);
  return a.envelope(acc, kind);
}

Envelope dot_envelope(std::span<const double> x, std::span<const double> y, DType acc) {
  if (x.size() != y.size()) throw std::invalid_argument("dot_envelope: length mismatch");
  Accumulator a;
  for (size_t i = 0; i < x.size(); ++i) a.add_product(x[i], y[i]);
  return a.envelope(acc, TermKind::ExactProducts);
}

std::vector<Envelope> scan_envelope(std::span<const double> terms, DType acc, bool reverse, TermKind kind) {
  std::vector<Envelope> out(terms.size());
  Accumulator a;
  for (size_t j = 0; j < terms.size(); ++j) {
    const size_t i = reverse ? terms.size() - 1 - j : j;
    a.add(terms[i]);
    out[i] = a.envelope(acc, kind);
  }
  return out;
}

}  // namespace kir::num
