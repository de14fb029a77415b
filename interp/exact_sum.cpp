// Fixed-point exact summation (see exact_sum.h): terms are split into 32-bit chunks added to
// signed 64-bit limbs; carries are propagated every 2^30 additions and at the end; the final
// integer is converted to MPFR exactly and rounded once with numerics' round_to.
#include "interp/exact_sum.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <mpfr.h>

#include <bit>
#include <stdexcept>

#include "numerics/arith.h"
#include "numerics/format.h"

namespace kir::interp {

void ExactSum::clear() {
  if (hi_ >= lo_)
    for (int i = lo_; i <= hi_ && i < kLimbs; ++i) limbs_[static_cast<size_t>(i)] = 0;
  else
    limbs_.fill(0);
  lo_ = kLimbs;
  hi_ = -1;
  adds_ = 0;
  nan_ = pinf_ = ninf_ = any_ = false;
  all_negzero_ = true;
}

void ExactSum::add(bool neg, kir::uint128 m, int e) {
  any_ = true;
  if (m == 0) {
    if (!neg) all_negzero_ = false;
    return;
  }
  all_negzero_ = false;
  const int pos = e + kBias;
  if (pos < 0 || pos + 160 >= kLimbs * 32) throw std::overflow_error("exact sum: exponent out of range");
  int limb = pos / 32;
  const int shift = pos % 32;
  // m << shift spans at most 160 bits: five chunks.
  kir::uint128 lo = m << shift;
  const kir::uint128 hi = shift ? (m >> (128 - shift)) : 0;
  for (int k = 0; k < 5; ++k, ++limb) {
    uint64_t chunk;
    if (k < 4) chunk = static_cast<uint64_t>(lo >> (32 * k)) & 0xffffffffu;
    else chunk = static_cast<uint64_t>(hi) & 0xffffffffu;
    if (!chunk) continue;
    limbs_[static_cast<size_t>(limb)] += neg ? -static_cast<int64_t>(chunk) : static_cast<int64_t>(chunk);
    if (limb < lo_) lo_ = limb;
    if (limb > hi_) hi_ = limb;
  }
  if (++adds_ >= (1u << 30)) normalize();
}

void ExactSum::add_value(const num::ExactValue& v) {
  if (v.kind == num::ExactValue::NaN) { any_ = true; nan_ = true; all_negzero_ = false; return; }
  if (v.kind == num::ExactValue::Inf) { any_ = true; (v.neg ? ninf_ : pinf_) = true; all_negzero_ = false; return; }
  add(v.neg, v.m, v.e);
}

void ExactSum::add_product(const num::ExactValue& a, const num::ExactValue& b, int extra_exp) {
  using EV = num::ExactValue;
  if (a.kind == EV::NaN || b.kind == EV::NaN) { any_ = true; nan_ = true; all_negzero_ = false; return; }
  const bool neg = a.neg != b.neg;
  if (a.kind == EV::Inf || b.kind == EV::Inf) {
    any_ = true;
    all_negzero_ = false;
    const EV& other = a.kind == EV::Inf ? b : a;
    if (other.kind == EV::Finite && other.m == 0) nan_ = true;  // inf * 0
    else (neg ? ninf_ : pinf_) = true;
    return;
  }
  add(neg, static_cast<kir::uint128>(a.m) * b.m, a.e + b.e + extra_exp);
}

void ExactSum::normalize() {
  if (hi_ < lo_) return;
  for (int i = lo_; i < kLimbs - 1; ++i) {
    int64_t& l = limbs_[static_cast<size_t>(i)];
    const int64_t carry = l >> 32;  // arithmetic shift: floor division
    l -= carry * (int64_t{1} << 32);
    limbs_[static_cast<size_t>(i + 1)] += carry;
    if (carry != 0 && i + 1 > hi_) hi_ = i + 1;
    if (i >= hi_ && carry == 0) break;
  }
  adds_ = 0;
}

uint64_t ExactSum::round(DType d) {
  const num::FloatFormat& f = num::float_format(d);
  if (nan_ || (pinf_ && ninf_)) return f.canonical_nan;
  if (pinf_ || ninf_) return f.has_inf ? num::inf_bits(d, ninf_) : (f.has_nan ? f.canonical_nan : num::max_finite(d, ninf_));
  normalize();
  bool zero = true;
  for (int i = lo_; i <= hi_; ++i)
    if (limbs_[static_cast<size_t>(i)] != 0) zero = false;
  if (zero) return num::zero_bits(d, any_ && all_negzero_);
  const int nbits = (hi_ - lo_ + 3) * 32;
  mpfr_t x, t;
  mpfr_init2(x, nbits);
  mpfr_init2(t, 64);
  mpfr_set_zero(x, 1);
  for (int i = lo_; i <= hi_; ++i) {
    const int64_t l = limbs_[static_cast<size_t>(i)];
    if (!l) continue;
    mpfr_set_si(t, l, MPFR_RNDN);
    mpfr_mul_2si(t, t, static_cast<long>(i) * 32 - kBias, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);  // exact: x has enough precision for every limb
  }
  const uint64_t r = num::round_to(x, d);
  mpfr_clear(x);
  mpfr_clear(t);
  return r;
}

void SequentialSum::clear() {
  sum_ = num::zero_bits(acc_);
  empty_ = true;
}

namespace {
// An exact value of a dtype that embeds in f64 (at most 53 significant bits), as a double.
double host_double(const num::ExactValue& v) {
  if (v.kind == num::ExactValue::NaN) return std::numeric_limits<double>::quiet_NaN();
  if (v.kind == num::ExactValue::Inf) return v.neg ? -HUGE_VAL : HUGE_VAL;
  const double x = std::ldexp(static_cast<double>(v.m), v.e);
  return v.neg ? -x : x;
}
}  // namespace

void SequentialSum::add_product(const num::ExactValue& a, const num::ExactValue& b, int extra_exp) {
  if (fused_ && !empty_) {
    // fma(a, b, acc) rounded once in acc: the host's fma is IEEE's correctly rounded one, and a
    // and b are exactly values of acc (the operands embed in it).
    if (acc_ != DType::F32 && acc_ != DType::F64)
      throw std::logic_error("sequential-fused accumulation in " + std::string(name(acc_)) + " is not defined");
    if (extra_exp != 0) {
      // A scaled product (scaled_contract: a * b * 2^extra_exp): round(acc + the exact product),
      // one rounding, as an fma of exact factors would give it (the factors a * 2^sa, b * 2^sb
      // need not be values of acc, so the host's fma cannot take them).
      special_.clear();
      special_.add_product(a, b, extra_exp);
      special_.add_value(num::exact_value(num::Scalar{acc_, sum_}));
      sum_ = special_.round(acc_);
      return;
    }
    const double x = host_double(a), y = host_double(b);
    if (acc_ == DType::F32) {
      float s;
      const auto bits = static_cast<uint32_t>(sum_);
      std::memcpy(&s, &bits, 4);
      const float r = std::fmaf(static_cast<float>(x), static_cast<float>(y), s);
      uint32_t rb;
      std::memcpy(&rb, &r, 4);
      sum_ = std::isnan(r) ? num::float_format(acc_).canonical_nan : rb;
    } else {
      double s;
      std::memcpy(&s, &sum_, 8);
      const double r = std::fma(x, y, s);
      uint64_t rb;
      std::memcpy(&rb, &r, 8);
      sum_ = std::isnan(r) ? num::float_format(acc_).canonical_nan : rb;
    }
    return;
  }
  if (a.kind != num::ExactValue::Finite || b.kind != num::ExactValue::Finite) {
    special_.clear();
    special_.add_product(a, b, extra_exp);
    return add_term(special_.round(acc_));
  }
  // round_exact takes a 64-bit significand: keep the top 64 bits of the product, the rest as sticky
  kir::uint128 p = static_cast<kir::uint128>(a.m) * b.m;
  int e = a.e + b.e + extra_exp;
  bool sticky = false;
  if (const auto hi = static_cast<uint64_t>(p >> 64)) {
    const int sh = 64 - std::countl_zero(hi);
    sticky = (p & ((kir::uint128{1} << sh) - 1)) != 0;
    p >>= sh;
    e += sh;
  }
  add_term(num::round_exact(a.neg != b.neg, static_cast<uint64_t>(p), e, sticky, acc_));
}

void SequentialSum::add_nan() { add_term(num::float_format(acc_).canonical_nan); }

void SequentialSum::add_term(uint64_t term) {
  if (empty_) {
    empty_ = false;
    sum_ = term;
    return;
  }
  auto r = num::binary(num::BinaryOp::Add, num::Scalar{acc_, sum_}, num::Scalar{acc_, term});
  if (!r) throw std::logic_error("sequential accumulation in " + std::string(name(acc_)) + ": " + r.error().message);
  sum_ = r->bits;
}

}  // namespace kir::interp
