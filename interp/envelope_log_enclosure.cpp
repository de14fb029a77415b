// Enclosure evaluation of helper calls (envelope_log_enclosure.h). Interval ends are doubles;
// float results are rounded outward into the op's dtype with MPFR (the exact result at an
// interval end, computed at 256 bits with directed rounding, then the next value of the dtype on
// the outer side), so every interval contains the exact real result and the correctly rounded
// one. Sums that the language lets a compiler reassociate (reduce / scan whose combine is one
// `add` of its accumulators, contract) take the reassociation envelope of numerics/envelope.h at
// the interval ends of their terms: a float sum in any order is monotone in every term (each
// addition, product rounding and FMA is), so its value over a box of terms lies between the
// envelope's lower end at the lower terms and its upper end at the upper terms. Other combines
// are folded on intervals in the canonical order, which contains the exact value of every order
// when the combine is associative in real arithmetic (what the laws assume).
// Ops without a rule here throw Unsupported; law checking then compares bit for bit.
#include "interp/envelope_log_enclosure.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

#include "interp/engine.h"
#include "kir/ir.h"
#include "numerics/arith.h"
#include "numerics/cast.h"
#include "numerics/envelope.h"
#include "numerics/float_extra.h"
#include "numerics/format.h"
#include "numerics/math.h"

namespace kir::interp::enclosure {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kExactInt = 9007199254740992.0;  // 2^53

Interval nan_only() { return {kInf, -kInf, true}; }

Interval int_range(DType d) {
  const int w = info(d).bits;
  if (is_signed_integer(d)) return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1), false};
  return {0, std::ldexp(1.0, w), false};
}

// Everything a value of dtype d can be.
Interval top(DType d) {
  if (d == DType::Bool) return {0, 1, false};
  if (is_any_float(d)) return {-kInf, kInf, true};
  return int_range(d);
}

double value_of(Scalar s) {
  if (s.dtype == DType::Bool) return s.bits ? 1 : 0;
  if (is_any_float(s.dtype)) return num::to_double(s.bits, s.dtype);
  const double v = is_signed_integer(s.dtype) ? static_cast<double>(num::as_signed(s)) : static_cast<double>(s.bits);
  if (std::fabs(v) > kExactInt) throw Unsupported("an integer beyond 2^53");
  return v;
}

Scalar scalar_of(DType d, double v) {
  if (d == DType::Bool) return num::make_bool(v != 0);
  if (is_any_float(d)) return Scalar{d, num::from_double(v, d)};
  return num::make_int(d, is_signed_integer(d) ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v));
}

std::string num_str(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

// ---- directed rounding ----

struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};
constexpr mpfr_prec_t kWork = 256;

void need_arith(DType d) {
  if (!is_float(d)) throw Unsupported("float arithmetic in " + std::string(name(d)));
}

// The value of float dtype d next to x on the outer side (up: smallest >= x; down: largest <= x).
double round_dir(const mpfr_t x, DType d, bool up) {
  if (mpfr_nan_p(x)) return kNaN;
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? kInf : -kInf;
  const uint64_t b = num::round_to(x, d);
  const double v = num::to_double(b, d);
  const int c = mpfr_cmp_d(x, v);
  if (up ? c > 0 : c < 0) return num::to_double(up ? num::next_up(b, d) : num::next_down(b, d), d);
  return v;
}

double outward(double x, DType d, bool up) {
  if (std::isnan(x) || std::isinf(x)) return x;
  static thread_local Mp a(64);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  return round_dir(a.v, d, up);
}

// x op y rounded outward into d; NaN where undefined (inf - inf, 0 * inf, inf / inf).
double dir2(num::BinaryOp op, double x, double y, DType d, bool up) {
  static thread_local Mp a(64), b(64), r(kWork);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  mpfr_set_d(b.v, y, MPFR_RNDN);
  const mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
  switch (op) {
    case num::BinaryOp::Add: mpfr_add(r.v, a.v, b.v, rnd); break;
    case num::BinaryOp::Sub: mpfr_sub(r.v, a.v, b.v, rnd); break;
    case num::BinaryOp::Mul: mpfr_mul(r.v, a.v, b.v, rnd); break;
    case num::BinaryOp::Div: mpfr_div(r.v, a.v, b.v, rnd); break;
    default: throw Unsupported("binary op");
  }
  return round_dir(r.v, d, up);
}

using Mp1 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

double dir1(Mp1 f, double x, DType d, bool up) {
  static thread_local Mp a(64), r(kWork);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  f(r.v, a.v, up ? MPFR_RNDU : MPFR_RNDD);
  return round_dir(r.v, d, up);
}

// 1 / (1 + exp(-x)), each step rounded toward the requested side.
double sigmoid_dir(double x, DType d, bool up) {
  static thread_local Mp a(64), t(kWork);
  mpfr_set_d(a.v, -x, MPFR_RNDN);
  mpfr_exp(t.v, a.v, up ? MPFR_RNDD : MPFR_RNDU);
  mpfr_add_ui(t.v, t.v, 1, up ? MPFR_RNDD : MPFR_RNDU);
  mpfr_ui_div(t.v, 1, t.v, up ? MPFR_RNDU : MPFR_RNDD);
  return round_dir(t.v, d, up);
}

// ---- element rules ----

Interval float_binary(num::BinaryOp op, DType d, const Interval& a, const Interval& b) {
  using B = num::BinaryOp;
  Interval r{kInf, -kInf, a.nan || b.nan};
  if (!a.has_real() || !b.has_real()) return r;
  if (op == B::Min || op == B::Max) {  // exact, monotone in both operands
    r.lo = op == B::Min ? std::min(a.lo, b.lo) : std::max(a.lo, b.lo);
    r.hi = op == B::Min ? std::min(a.hi, b.hi) : std::max(a.hi, b.hi);
    return r;
  }
  need_arith(d);
  const bool points = a.lo == a.hi && b.lo == b.hi;
  if (op == B::Div && b.lo <= 0 && b.hi >= 0) return top(d);  // the zero's sign picks the infinity
  double lo = kInf, hi = -kInf;
  bool undefined = false;
  auto corner = [&](double x, double y) {
    const double l = dir2(op, x, y, d, false), h = dir2(op, x, y, d, true);
    if (std::isnan(l) || std::isnan(h)) {
      undefined = true;
      return;
    }
    lo = std::min(lo, l);
    hi = std::max(hi, h);
  };
  if (op == B::Add) {
    corner(a.lo, b.lo);
    corner(a.hi, b.hi);
    r.nan |= (a.lo == -kInf && b.hi == kInf) || (a.hi == kInf && b.lo == -kInf);
  } else if (op == B::Sub) {
    corner(a.lo, b.hi);
    corner(a.hi, b.lo);
    r.nan |= (a.lo == -kInf && b.lo == -kInf) || (a.hi == kInf && b.hi == kInf);
  } else {
    for (double x : {a.lo, a.hi})
      for (double y : {b.lo, b.hi}) corner(x, y);
    const bool ainf = std::isinf(a.lo) || std::isinf(a.hi), binf = std::isinf(b.lo) || std::isinf(b.hi);
    if (op == B::Mul) r.nan |= (ainf && b.lo <= 0 && b.hi >= 0) || (binf && a.lo <= 0 && a.hi >= 0);
    else r.nan |= ainf && binf;
  }
  if (undefined) return points ? Interval{kInf, -kInf, true} : top(d);
  r.lo = lo;
  r.hi = hi;
  return r;
}

Interval int_binary(num::BinaryOp op, DType d, const Interval& a, const Interval& b) {
  using B = num::BinaryOp;
  if (a.is_point() && b.is_point()) {
    auto r = num::binary(op, scalar_of(d, a.lo), scalar_of(d, b.lo));
    if (!r) throw Unsupported("integer " + r.error().message);
    return Interval::point(value_of(*r));
  }
  if (op == B::Min || op == B::Max) return float_binary(op, d, a, b);
  if (d == DType::Bool) {
    if (op == B::And) return {a.lo * b.lo, a.hi * b.hi, false};
    if (op == B::Or) return {std::max(a.lo, b.lo), std::max(a.hi, b.hi), false};
    return {0, 1, false};
  }
  if (op == B::Add || op == B::Sub || op == B::Mul) {
    kir::int128 lo = 0, hi = 0;
    bool first = true;
    for (double x : {a.lo, a.hi})
      for (double y : {b.lo, b.hi}) {
        const kir::int128 p = static_cast<int64_t>(x), q = static_cast<int64_t>(y);
        const kir::int128 v = op == B::Add ? p + q : op == B::Sub ? p - q : p * q;
        lo = first ? v : std::min(lo, v);
        hi = first ? v : std::max(hi, v);
        first = false;
      }
    const Interval range = int_range(d);
    if (static_cast<double>(lo) >= range.lo && static_cast<double>(hi) < range.hi && static_cast<double>(hi) <= kExactInt &&
        static_cast<double>(lo) >= -kExactInt)
      return {static_cast<double>(lo), static_cast<double>(hi), false};
  }
  return int_range(d);  // wrapping or bitwise on an uncertain operand: any value of the dtype
}

Interval compare(num::CompareOp p, const Interval& a, const Interval& b) {
  using C = num::CompareOp;
  bool can_true = false, can_false = false;
  if (a.nan || b.nan) (p == C::Ne ? can_true : can_false) = true;
  if (a.has_real() && b.has_real()) {
    const bool meet = std::max(a.lo, b.lo) <= std::min(a.hi, b.hi);
    const bool same_point = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
    switch (p) {
      case C::Lt: can_true |= a.lo < b.hi; can_false |= a.hi >= b.lo; break;
      case C::Le: can_true |= a.lo <= b.hi; can_false |= a.hi > b.lo; break;
      case C::Gt: can_true |= a.hi > b.lo; can_false |= a.lo <= b.hi; break;
      case C::Ge: can_true |= a.hi >= b.lo; can_false |= a.lo < b.hi; break;
      case C::Eq: can_true |= meet; can_false |= !same_point; break;
      case C::Ne: can_true |= !same_point; can_false |= meet; break;
    }
  }
  return {can_false ? 0.0 : 1.0, can_true ? 1.0 : 0.0, false};
}

// The correctly rounded value at a point, and the exact value within half an ulp of it.
Interval bracket(num::MathFn fn, DType d, double x) {
  const uint64_t v = num::eval(fn, d, num::from_double(x, d));
  if (num::is_nan(v, d)) return nan_only();
  return {num::to_double(num::next_down(v, d), d), num::to_double(num::next_up(v, d), d), false};
}

Interval math(num::MathFn fn, DType d, const Interval& a) {
  using M = num::MathFn;
  need_arith(d);
  Interval r{kInf, -kInf, a.nan};
  if (!a.has_real()) return r;
  auto increasing = [&](Mp1 f, double lo, double hi) {
    r.lo = dir1(f, lo, d, false);
    r.hi = dir1(f, hi, d, true);
  };
  // Restricts a to [dlo, dhi] (outside: NaN); false when nothing is left.
  auto domain = [&](double dlo, double dhi, double& lo, double& hi) {
    if (a.lo < dlo || a.hi > dhi) r.nan = true;
    lo = std::max(a.lo, dlo);
    hi = std::min(a.hi, dhi);
    return lo <= hi;
  };
  double lo, hi;
  switch (fn) {
    case M::Exp: increasing(mpfr_exp, a.lo, a.hi); break;
    case M::Exp2: increasing(mpfr_exp2, a.lo, a.hi); break;
    case M::Tanh: increasing(mpfr_tanh, a.lo, a.hi); break;
    case M::Erf: increasing(mpfr_erf, a.lo, a.hi); break;
    case M::Sigmoid:
      r.lo = sigmoid_dir(a.lo, d, false);
      r.hi = sigmoid_dir(a.hi, d, true);
      break;
    case M::Erfc:
      r.lo = dir1(mpfr_erfc, a.hi, d, false);
      r.hi = dir1(mpfr_erfc, a.lo, d, true);
      break;
    case M::Log:
      if (domain(0, kInf, lo, hi)) increasing(mpfr_log, lo, hi);
      break;
    case M::Sqrt:
      if (domain(0, kInf, lo, hi)) increasing(mpfr_sqrt, lo, hi);
      break;
    case M::Log1p:
      if (domain(-1, kInf, lo, hi)) increasing(mpfr_log1p, lo, hi);
      break;
    case M::Asin:
      if (domain(-1, 1, lo, hi)) increasing(mpfr_asin, lo, hi);
      break;
    case M::Rsqrt:  // rsqrt(-0) = -inf, rsqrt(+0) = +inf: a zero's sign is not tracked
      if (a.lo <= 0) return top(d);
      r.lo = dir1(mpfr_rec_sqrt, a.hi, d, false);
      r.hi = dir1(mpfr_rec_sqrt, a.lo, d, true);
      break;
    case M::Floor:
      r.lo = std::floor(a.lo);
      r.hi = std::floor(a.hi);
      break;
    case M::Abs:
      if (a.lo >= 0) r.lo = a.lo, r.hi = a.hi;
      else if (a.hi <= 0) r.lo = -a.hi, r.hi = -a.lo;
      else r.lo = 0, r.hi = std::max(-a.lo, a.hi);
      break;
    case M::Sin:
    case M::Cos:
      if (a.lo == a.hi) return bracket(fn, d, a.lo).hull(Interval{kInf, -kInf, a.nan});
      r.lo = -1;
      r.hi = 1;
      r.nan |= std::isinf(a.lo) || std::isinf(a.hi);
      break;
    case M::Lgamma:
    case M::I0:
      if (a.lo == a.hi) return bracket(fn, d, a.lo).hull(Interval{kInf, -kInf, a.nan});
      throw Unsupported(std::string(num::name(fn)) + " of an uncertain operand");
  }
  return r;
}

Interval cast_interval(DType from, DType to, const Interval& a) {
  if (from == to) return a;
  if (to == DType::Bool) {
    const bool can_true = a.nan || (a.has_real() && !(a.lo == 0 && a.hi == 0));
    const bool can_false = a.has_real() && a.lo <= 0 && a.hi >= 0;
    return {can_false ? 0.0 : 1.0, can_true ? 1.0 : 0.0, false};
  }
  if (is_float(to)) {  // rounded once, outward: contains the exact value and the rounded one
    if (!a.has_real()) return a;
    return {outward(a.lo, to, false), outward(a.hi, to, true), a.nan};
  }
  if (is_any_float(to)) {  // small formats: the endpoints' casts (monotone) with the exact value
    if (!a.has_real()) return a;
    auto c = [&](double x) {
      auto r = num::cast(scalar_of(from, x), to);
      if (!r || num::is_nan(r->bits, to)) throw Unsupported("a cast to " + std::string(name(to)) + " of an uncertain value");
      return num::to_double(r->bits, to);
    };
    return {std::min(a.lo, c(a.lo)), std::max(a.hi, c(a.hi)), a.nan};
  }
  // to an integer
  if (a.is_point()) {
    auto r = num::cast(scalar_of(from, a.lo), to);
    if (!r) throw Unsupported("cast: " + r.error().message);
    return Interval::point(value_of(*r));
  }
  const Interval range = int_range(to);
  if (!a.has_real()) return range;
  const double lo = std::max(std::trunc(a.lo), range.lo), hi = std::min(std::trunc(a.hi), range.hi);
  if (is_any_float(from) || (a.lo >= range.lo && a.hi < range.hi)) return {lo, hi, false};  // truncation is monotone
  return range;
}

// ---- enclosure helpers ----

Enclosure numeric(DType d, const Shape& shape, bool scalar) {
  Enclosure e;
  e.dtype = d;
  e.shape = shape;
  e.scalar = scalar;
  e.el.resize(static_cast<size_t>(checked_numel(shape)));
  return e;
}

const Enclosure& need_numeric(const Enclosure& e) {
  if (e.kind != Enclosure::Kind::Numeric) throw Unsupported("a structured value where a scalar or tensor was expected");
  return e;
}

bool is_struct(const Enclosure& e) { return e.kind == Enclosure::Kind::Tuple || e.kind == Enclosure::Kind::Record; }

// Every leaf with `axes` (increasing) removed, fixed at `at`.
Enclosure take_slice(const Enclosure& e, const std::vector<int64_t>& axes, const Shape& at) {
  if (is_struct(e)) {
    Enclosure r = e;
    for (auto& x : r.elems) x = take_slice(x, axes, at);
    return r;
  }
  need_numeric(e);
  Shape kept, kept_strides;
  const Shape st = row_major_strides(e.shape);
  int64_t base = 0;
  for (size_t a = 0, k = 0; a < e.shape.size(); ++a) {
    if (k < axes.size() && axes[k] == static_cast<int64_t>(a)) {
      base += at[k++] * st[a];
      continue;
    }
    kept.push_back(e.shape[a]);
    kept_strides.push_back(st[a]);
  }
  Enclosure r = numeric(e.dtype, kept, kept.empty());
  for (size_t i = 0; i < r.el.size(); ++i) {
    const Shape c = unravel(static_cast<int64_t>(i), kept);
    int64_t o = base;
    for (size_t k = 0; k < c.size(); ++k) o += c[k] * kept_strides[k];
    r.el[i] = e.el[static_cast<size_t>(o)];
  }
  return r;
}

// Writes `acc` (the schema of take_slice(out, {axis}, {pos})) into `out` at `pos`.
void put_slice(Enclosure& out, int64_t axis, int64_t pos, const Enclosure& acc) {
  if (is_struct(out)) {
    if (!is_struct(acc) || acc.elems.size() != out.elems.size()) throw Unsupported("scan accumulator structure");
    for (size_t i = 0; i < out.elems.size(); ++i) put_slice(out.elems[i], axis, pos, acc.elems[i]);
    return;
  }
  need_numeric(out);
  need_numeric(acc);
  const Shape st = row_major_strides(out.shape);
  Shape kept, kept_strides;
  for (size_t a = 0; a < out.shape.size(); ++a)
    if (static_cast<int64_t>(a) != axis) {
      kept.push_back(out.shape[a]);
      kept_strides.push_back(st[a]);
    }
  if (acc.el.size() != static_cast<size_t>(checked_numel(kept))) throw Unsupported("scan accumulator shape");
  for (size_t i = 0; i < acc.el.size(); ++i) {
    const Shape c = unravel(static_cast<int64_t>(i), kept);
    int64_t o = pos * st[static_cast<size_t>(axis)];
    for (size_t k = 0; k < c.size(); ++k) o += c[k] * kept_strides[k];
    out.el[static_cast<size_t>(o)] = acc.el[i];
  }
}

Enclosure hull(const Enclosure& a, const Enclosure& b) {
  if (a.kind != b.kind) throw Unsupported("branches of different structure");
  Enclosure r = a;
  if (is_struct(a)) {
    if (a.elems.size() != b.elems.size()) throw Unsupported("branches of different structure");
    for (size_t i = 0; i < a.elems.size(); ++i) r.elems[i] = hull(a.elems[i], b.elems[i]);
    return r;
  }
  if (a.kind == Enclosure::Kind::Exact) throw Unsupported("a branch-dependent enum or domain");
  if (a.el.size() != b.el.size()) throw Unsupported("branches of different shapes");
  for (size_t i = 0; i < a.el.size(); ++i) r.el[i] = a.el[i].hull(b.el[i]);
  return r;
}

const Enclosure& first_leaf(const Enclosure& e) { return is_struct(e) && !e.elems.empty() ? first_leaf(e.elems[0]) : e; }

// The binary op a combine helper is (`%r = OP(%a, %b)` or `OP(%b, %a)` for a commutative OP,
// then `return(%r)`), or "".
std::string combine_op(const Function& fn) {
  const Region& b = fn.body;
  if (b.args.size() != 2 || b.ops.size() != 2) return "";
  const Operation &o = *b.ops[0], &ret = *b.ops[1];
  if (o.operands.size() != 2 || o.results.size() != 1 || !o.attrs.empty() || !o.regions.empty()) return "";
  if (ret.name != "return" || ret.operands.size() != 1 || ret.operands[0] != o.results[0].get()) return "";
  const bool direct = o.operands[0] == b.args[0].get() && o.operands[1] == b.args[1].get();
  const bool swapped = o.operands[0] == b.args[1].get() && o.operands[1] == b.args[0].get();
  if (!direct && !swapped) return "";
  return o.name == "add" || o.name == "max" || o.name == "min" ? o.name : "";
}

// Whether summing exact point terms is exact in every order: all terms are multiples of 2^e (e
// the lowest set bit among them) and sum |t| < 2^(p + e), so no term and no partial sum of any
// order has more than p significant bits (nor exceeds the largest finite value): every addition
// is exact, and so is the sum. Kept incrementally over prefixes.
class ExactOrders {
 public:
  explicit ExactOrders(DType d)
      : p_(num::float_format(d).precision), min_lsb_(num::float_format(d).emin - p_ + 1),
        max_(num::to_double(num::max_finite(d), d)) {}
  void add(double t) {
    ++n_;
    if (!std::isfinite(t)) {
      ok_ = false;
      return;
    }
    sum_ += t;  // exact while ok() holds (partial sums have at most p <= 53 significant bits)
    abs_ += std::fabs(t);
    if (t == 0) return;
    int ex = 0;
    const double m = std::frexp(std::fabs(t), &ex);
    const auto bits = static_cast<uint64_t>(std::ldexp(m, 53));
    lsb_ = std::min(lsb_, ex - 53 + std::countr_zero(bits));
  }
  // abs_ is rounded in double: allow for n relative errors of 2^-53 (and some).
  bool ok() const {
    if (!ok_) return false;
    if (lsb_ == INT_MAX) return true;  // all zeros
    const double bound = abs_ * (1 + static_cast<double>(n_) * 0x1p-52);
    return lsb_ >= min_lsb_ && bound < std::ldexp(1.0, p_ + lsb_) && bound <= max_;
  }
  double sum() const { return sum_; }

 private:
  int p_, min_lsb_;  // precision; exponent of the smallest subnormal
  double max_;
  int64_t n_ = 0;
  bool ok_ = true;
  int lsb_ = INT_MAX;
  double sum_ = 0, abs_ = 0;
};

// Every prefix terms[0..i] of a sum in any order: the envelope at the lower ends and at the upper
// ends of the terms (integers: exact and wrapping while every term is a point, else any value).
std::vector<Interval> sum_prefixes(const std::vector<Interval>& terms, DType d) {
  std::vector<Interval> out;
  bool nan = false, nan_only_seen = false, points = true;
  if (!is_any_float(d)) {
    Scalar acc{d, 0};
    for (size_t i = 0; i < terms.size(); ++i) {
      const Interval& t = terms[i];
      points &= t.is_point();
      if (points) {
        acc = i == 0 ? scalar_of(d, t.lo) : *num::binary(num::BinaryOp::Add, acc, scalar_of(d, t.lo));
        out.push_back(Interval::point(value_of(acc)));
      } else {
        out.push_back(int_range(d));
      }
    }
    return out;
  }
  need_arith(d);
  std::vector<double> lo, hi;
  for (const auto& t : terms) {
    lo.push_back(t.has_real() ? t.lo : 0);
    hi.push_back(t.has_real() ? t.hi : 0);
  }
  const std::vector<num::Envelope> el = num::scan_envelope(lo, d), eh = num::scan_envelope(hi, d);
  ExactOrders exact(d);
  for (size_t i = 0; i < terms.size(); ++i) {
    const Interval& t = terms[i];
    nan |= t.nan;
    nan_only_seen |= !t.has_real();
    points &= t.lo == t.hi;
    exact.add(t.lo);
    if (nan_only_seen) out.push_back(nan_only());
    else if (points && !nan && exact.ok()) out.push_back(Interval::point(exact.sum()));
    else if (el[i].is_nan || eh[i].is_nan) out.push_back(points ? nan_only() : top(d));
    else
      out.push_back({el[i].may_overflow ? -kInf : outward(el[i].lo, d, false), eh[i].may_overflow ? kInf : outward(eh[i].hi, d, true), nan});
  }
  return out;
}

// Every prefix of a max/min fold: the extremes of the ends (exact); NaN propagates.
std::vector<Interval> minmax_prefixes(const std::vector<Interval>& terms, bool is_max) {
  std::vector<Interval> out;
  for (const auto& t : terms) {
    if (out.empty()) {
      out.push_back(t);
      continue;
    }
    Interval r = out.back();
    if (!r.has_real() || !t.has_real()) {
      r = nan_only();
    } else {
      r.lo = is_max ? std::max(r.lo, t.lo) : std::min(r.lo, t.lo);
      r.hi = is_max ? std::max(r.hi, t.hi) : std::min(r.hi, t.hi);
      r.nan |= t.nan;
    }
    out.push_back(r);
  }
  return out;
}

// The corners of [a] x [b] with the smallest and the largest exact product; false when some
// corner product is undefined (0 * inf).
bool product_corners(const Interval& a, const Interval& b, double& xl, double& yl, double& xh, double& yh) {
  static thread_local Mp ma(64), mb(64), p(160), plo(160), phi(160);
  bool first = true;
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      mpfr_set_d(ma.v, x, MPFR_RNDN);
      mpfr_set_d(mb.v, y, MPFR_RNDN);
      mpfr_mul(p.v, ma.v, mb.v, MPFR_RNDN);  // exact: 106 bits
      if (mpfr_nan_p(p.v)) return false;
      if (first || mpfr_less_p(p.v, plo.v)) {
        mpfr_set(plo.v, p.v, MPFR_RNDN);
        xl = x;
        yl = y;
      }
      if (first || mpfr_greater_p(p.v, phi.v)) {
        mpfr_set(phi.v, p.v, MPFR_RNDN);
        xh = x;
        yh = y;
      }
      first = false;
    }
  return true;
}

}  // namespace

// ---- public helpers ----

Interval Interval::point(double v) { return std::isnan(v) ? nan_only() : Interval{v, v, false}; }

bool Interval::meets(const Interval& o) const {
  if (nan && o.nan) return true;
  return has_real() && o.has_real() && std::max(lo, o.lo) <= std::min(hi, o.hi);
}

Interval Interval::hull(const Interval& o) const { return {std::min(lo, o.lo), std::max(hi, o.hi), nan || o.nan}; }

std::string str(const Interval& i) {
  std::string r;
  if (i.has_real()) r = i.lo == i.hi ? num_str(i.lo) : "[" + num_str(i.lo) + ", " + num_str(i.hi) + "]";
  if (i.nan) r += r.empty() ? "nan" : " or nan";
  return r.empty() ? "(empty)" : r;
}

Enclosure of(const Value& v) {
  Enclosure e;
  if (v.is_scalar()) {
    e.dtype = v.scalar().dtype;
    e.scalar = true;
    e.el = {Interval::point(value_of(v.scalar()))};
    return e;
  }
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    e.dtype = t.dtype;
    e.shape = t.shape;
    e.el.reserve(t.bits.size());
    for (uint64_t b : t.bits) e.el.push_back(Interval::point(value_of(Scalar{t.dtype, b})));
    return e;
  }
  if (v.is_tuple() || v.is_record()) {
    e.kind = v.is_tuple() ? Enclosure::Kind::Tuple : Enclosure::Kind::Record;
    for (const auto& x : v.is_tuple() ? v.tuple().elems : v.record().elems) e.elems.push_back(of(x));
    if (v.is_record()) e.names = v.record().names;
    return e;
  }
  if (v.is_enum() || v.is_domain()) {
    e.kind = Enclosure::Kind::Exact;
    e.exact = v;
    return e;
  }
  throw Unsupported("a relation, view or buffer value");
}

Enclosure slice_range(const Enclosure& e, int64_t axis, int64_t begin, int64_t end) {
  if (is_struct(e)) {
    Enclosure r = e;
    for (auto& x : r.elems) x = slice_range(x, axis, begin, end);
    return r;
  }
  need_numeric(e);
  if (axis < 0 || static_cast<size_t>(axis) >= e.shape.size()) throw Unsupported("slice axis");
  Shape s = e.shape;
  s[static_cast<size_t>(axis)] = end - begin;
  Enclosure r = numeric(e.dtype, s, false);
  const Shape st = row_major_strides(e.shape);
  for (size_t i = 0; i < r.el.size(); ++i) {
    Shape c = unravel(static_cast<int64_t>(i), s);
    c[static_cast<size_t>(axis)] += begin;
    int64_t o = 0;
    for (size_t k = 0; k < c.size(); ++k) o += c[k] * st[k];
    r.el[i] = e.el[static_cast<size_t>(o)];
  }
  return r;
}

// ---- the evaluator ----

struct Evaluator::Impl {
  explicit Impl(const Module& mod) : m(mod) {}

  struct Frame {
    const Function* fn = nullptr;
    std::unordered_map<const kir::Value*, Enclosure> env;
    std::map<std::string, int64_t> symbols;
  };
  enum class FlowKind { Normal, Yield, Return };
  struct Flow {
    FlowKind kind = FlowKind::Normal;
    std::vector<Enclosure> values;
  };

  const Module& m;
  int depth = 0;
  int64_t next_domain = 1;
  std::unordered_map<const Function*, std::unordered_map<std::string, const kir::Value*>> names;

  const Function& helper(const Operation& op, const char* attr) {
    const Attribute* a = op.attr(attr);
    const Function* fn = a ? m.find_function(a->s) : nullptr;
    if (!fn) throw Unsupported("helper of " + op.name);
    return *fn;
  }

  const kir::Value* named(const Function* fn, const std::string& n) {
    const auto ins = names.try_emplace(fn);
    auto& table = ins.first->second;
    if (ins.second) {
      std::function<void(const Region&)> walk = [&](const Region& r) {
        for (const auto& a : r.args) table[a->name] = a.get();
        for (const auto& o : r.ops) {
          for (const auto& res : o->results) table[res->name] = res.get();
          for (const auto& sub : o->regions) walk(*sub);
        }
      };
      walk(fn->body);
    }
    auto jt = table.find(n);
    return jt == table.end() ? nullptr : jt->second;
  }

  const Enclosure& operand(Frame& f, const Operation& op, size_t i) {
    auto it = f.env.find(op.operands.at(i));
    if (it == f.env.end()) throw Unsupported("operand %" + op.operands[i]->name + " of " + op.name + " has no enclosure");
    return it->second;
  }
  void set(Frame& f, const Operation& op, size_t i, Enclosure e) { f.env[op.result(i)] = std::move(e); }

  int64_t point_int(const Enclosure& e) {
    if (e.kind != Enclosure::Kind::Numeric || e.el.size() != 1 || !e.el[0].is_point())
      throw Unsupported("an index that depends on rounding");
    return static_cast<int64_t>(e.el[0].lo);
  }

  Shape eval_shape(Frame& f, const std::vector<Extent>& extents) {
    Shape s;
    for (const auto& x : extents) {
      auto v = x.evaluate([&](const std::string& n) -> std::optional<int64_t> {
        if (!n.empty() && n[0] == '%') {
          const kir::Value* kv = named(f.fn, n.substr(1));
          auto it = kv ? f.env.find(kv) : f.env.end();
          if (it == f.env.end()) return std::nullopt;
          return point_int(it->second);
        }
        auto it = f.symbols.find(n);
        if (it == f.symbols.end()) return std::nullopt;
        return it->second;
      });
      if (!v || *v < 0) throw Unsupported("extent " + x.str() + " has no value here");
      s.push_back(*v);
    }
    return s;
  }

  void bind(const Type& t, const Enclosure& e, std::map<std::string, int64_t>& syms) {
    switch (t.kind()) {
      case TypeKind::Tensor:
        if (e.kind == Enclosure::Kind::Numeric && t.shape().size() == e.shape.size())
          for (size_t i = 0; i < e.shape.size(); ++i)
            if (t.shape()[i].is_symbol() && t.shape()[i].symbol_name()[0] != '%') syms.emplace(t.shape()[i].symbol_name(), e.shape[i]);
        return;
      case TypeKind::Domain:
      case TypeKind::Subregion:
        if (e.kind == Enclosure::Kind::Exact && e.exact.is_domain() && t.extent().is_symbol() && t.extent().symbol_name()[0] != '%')
          syms.emplace(t.extent().symbol_name(), e.exact.domain().count);
        return;
      case TypeKind::Tuple:
        for (size_t i = 0; i < t.elements().size() && i < e.elems.size(); ++i) bind(t.elements()[i], e.elems[i], syms);
        return;
      case TypeKind::Record:
        for (size_t i = 0; i < t.fields().size() && i < e.elems.size(); ++i) bind(t.fields()[i].second, e.elems[i], syms);
        return;
      default: return;
    }
  }

  std::vector<Enclosure> call(const Function& fn, const std::vector<Enclosure>& args) {
    struct Depth {
      int& d;
      ~Depth() { --d; }
    } guard{++depth};
    if (depth > 64) throw Unsupported("helper calls nested too deeply");
    const auto& params = fn.body.args;
    if (params.size() != args.size()) throw Unsupported("argument count of @" + fn.name);
    Frame f;
    f.fn = &fn;
    for (size_t i = 0; i < params.size(); ++i) {
      bind(params[i]->type, args[i], f.symbols);
      f.env[params[i].get()] = args[i];
    }
    Flow fl = run_region(f, fn.body, {});
    if (fl.kind != FlowKind::Return) throw Unsupported("@" + fn.name + " ended without return");
    return std::move(fl.values);
  }

  Flow run_region(Frame& f, const Region& r, const std::vector<Enclosure>& args) {
    for (size_t i = 0; i < r.args.size() && i < args.size(); ++i) f.env[r.args[i].get()] = args[i];
    for (const auto& o : r.ops) {
      const Operation& op = *o;
      if (op.name == "yield" || op.name == "return") {
        Flow fl{op.name == "yield" ? FlowKind::Yield : FlowKind::Return, {}};
        for (size_t i = 0; i < op.operands.size(); ++i) fl.values.push_back(operand(f, op, i));
        return fl;
      }
      exec(f, op);
    }
    return {};
  }

  // ---- ops ----

  void exec(Frame& f, const Operation& op) {
    static const std::map<std::string, num::BinaryOp> kBinary = {
        {"add", num::BinaryOp::Add}, {"sub", num::BinaryOp::Sub}, {"mul", num::BinaryOp::Mul},
        {"div", num::BinaryOp::Div}, {"rem", num::BinaryOp::Rem}, {"min", num::BinaryOp::Min},
        {"max", num::BinaryOp::Max}, {"and", num::BinaryOp::And}, {"or", num::BinaryOp::Or},
        {"xor", num::BinaryOp::Xor}, {"shl", num::BinaryOp::Shl}, {"shr", num::BinaryOp::Shr}};
    const std::string& n = op.name;
    if (auto it = kBinary.find(n); it != kBinary.end()) return op_binary(f, op, it->second);
    if (n == "pow") return op_pow(f, op);
    if (n == "const") return op_const(f, op);
    if (n == "cmp") return op_cmp(f, op);
    if (n == "select") return op_select(f, op);
    if (n == "neg" || n == "not") return op_neg_not(f, op);
    if (auto fn = num::parse_math_fn(n)) return op_math(f, op, *fn);
    if (n == "cast" || n == "bitcast") return op_cast(f, op);
    if (n == "broadcast") return op_broadcast(f, op);
    if (n == "reshape") {
      Enclosure r = need_numeric(operand(f, op, 0));
      r.shape = eval_shape(f, op.result()->type.shape());
      r.scalar = false;
      return set(f, op, 0, std::move(r));
    }
    if (n == "transpose") return op_transpose(f, op);
    if (n == "full") {
      const Enclosure& s = need_numeric(operand(f, op, 0));
      Enclosure r = numeric(s.dtype, eval_shape(f, op.result()->type.shape()), false);
      std::fill(r.el.begin(), r.el.end(), s.el.at(0));
      return set(f, op, 0, std::move(r));
    }
    if (n == "join") return op_join(f, op);
    if (n == "dim") {
      const Enclosure& x = operand(f, op, 0);
      const auto axis = static_cast<size_t>(attr_int(op, "axis"));
      if (x.kind != Enclosure::Kind::Numeric || axis >= x.shape.size()) throw Unsupported("dim of a non-tensor");
      Enclosure r = numeric(DType::Index, {}, true);
      r.el[0] = Interval::point(static_cast<double>(x.shape[axis]));
      return set(f, op, 0, std::move(r));
    }
    if (n == "tuple" || n == "record") {
      Enclosure r;
      r.kind = n == "tuple" ? Enclosure::Kind::Tuple : Enclosure::Kind::Record;
      for (size_t i = 0; i < op.operands.size(); ++i) r.elems.push_back(operand(f, op, i));
      if (n == "record")
        for (const auto& fl : op.result()->type.fields()) r.names.push_back(fl.first);
      return set(f, op, 0, std::move(r));
    }
    if (n == "tuple.get" || n == "record.get") return op_get(f, op);
    if (n == "domain" || n == "subregion" || n == "indices") return op_domain(f, op);
    if (n == "call") {
      std::vector<Enclosure> args;
      for (size_t i = 0; i < op.operands.size(); ++i) args.push_back(operand(f, op, i));
      auto res = call(helper(op, "callee"), args);
      for (size_t i = 0; i < res.size() && i < op.results.size(); ++i) set(f, op, i, std::move(res[i]));
      return;
    }
    if (n == "if") return op_if(f, op);
    if (n == "for") return op_for(f, op);
    if (n == "reduce") return op_reduce(f, op);
    if (n == "scan") return op_scan(f, op);
    if (n == "contract") return op_contract(f, op);
    throw Unsupported("no interval rule for " + n + " (" + op.loc.str() + ")");
  }

  void op_const(Frame& f, const Operation& op) {
    const Attribute* a = op.attr("value");
    const Type& t = op.result()->type;
    if (!a) throw Unsupported("const without value");
    if (t.is(TypeKind::Enum)) {
      EnumV ev{a->s, a->member, 0};
      if (const EnumDecl* d = m.find_enum(a->s))
        for (const auto& [mem, v] : d->members)
          if (mem == a->member) ev.value = v;
      Enclosure e;
      e.kind = Enclosure::Kind::Exact;
      e.exact = Value(ev);
      return set(f, op, 0, std::move(e));
    }
    const DType d = t.dtype();
    Scalar s{d, 0};
    if (a->kind == Attribute::Kind::Bool) s = num::make_bool(a->b);
    else if (a->kind == Attribute::Kind::Int) {
      if (is_any_float(d)) s = Scalar{d, num::from_double(static_cast<double>(a->i), d)};
      else if (d == DType::Bool) s = num::make_bool(a->i != 0);
      else s = num::make_int(d, static_cast<uint64_t>(a->i));
    } else if (a->kind == Attribute::Kind::Float) {
      s = Scalar{d, num::from_double(a->f, d)};
    } else {
      throw Unsupported("constant " + a->str());
    }
    Enclosure e = numeric(d, {}, true);
    e.el[0] = Interval::point(value_of(s));
    set(f, op, 0, std::move(e));
  }

  static void same_shape(const Enclosure& a, const Enclosure& b) {
    need_numeric(a);
    need_numeric(b);
    if (a.el.size() != b.el.size()) throw Unsupported("operand shapes differ");
  }

  void op_binary(Frame& f, const Operation& op, num::BinaryOp bop) {
    const Enclosure &a = operand(f, op, 0), &b = operand(f, op, 1);
    same_shape(a, b);
    if (attr_bool(op, "flush_to_zero")) throw Unsupported("flush_to_zero");
    const DType d = a.dtype;
    Enclosure r = a;
    for (size_t i = 0; i < r.el.size(); ++i) {
      const Interval &x = a.el[i], &y = b.el[i];
      if (is_any_float(d) && bop == num::BinaryOp::Rem) {  // fmod is exact; only at points
        if (!x.is_point() || !y.is_point()) throw Unsupported("rem of uncertain operands");
        r.el[i] = Interval::point(num::to_double(num::float_fmod(scalar_of(d, x.lo), scalar_of(d, y.lo)).bits, d));
      } else {
        r.el[i] = is_any_float(d) ? float_binary(bop, d, x, y) : int_binary(bop, d, x, y);
      }
    }
    set(f, op, 0, std::move(r));
  }

  void op_pow(Frame& f, const Operation& op) {
    const Enclosure &a = operand(f, op, 0), &b = operand(f, op, 1);
    same_shape(a, b);
    need_arith(a.dtype);
    Enclosure r = a;
    for (size_t i = 0; i < r.el.size(); ++i) {
      if (!a.el[i].is_point() || !b.el[i].is_point()) throw Unsupported("pow of uncertain operands");
      const uint64_t v = num::float_pow(scalar_of(a.dtype, a.el[i].lo), scalar_of(a.dtype, b.el[i].lo)).bits;
      r.el[i] = num::is_nan(v, a.dtype) ? nan_only()
                                         : Interval{num::to_double(num::next_down(v, a.dtype), a.dtype),
                                                    num::to_double(num::next_up(v, a.dtype), a.dtype), false};
    }
    set(f, op, 0, std::move(r));
  }

  void op_cmp(Frame& f, const Operation& op) {
    const Enclosure &a = operand(f, op, 0), &b = operand(f, op, 1);
    static const std::map<std::string, num::CompareOp> kPred = {
        {"eq", num::CompareOp::Eq}, {"ne", num::CompareOp::Ne}, {"lt", num::CompareOp::Lt},
        {"le", num::CompareOp::Le}, {"gt", num::CompareOp::Gt}, {"ge", num::CompareOp::Ge}};
    auto p = kPred.find(attr_keyword(op, "pred"));
    if (p == kPred.end()) throw Unsupported("cmp predicate");
    if (a.kind == Enclosure::Kind::Exact || b.kind == Enclosure::Kind::Exact) {
      if (a.kind != b.kind || !a.exact.is_enum() || !b.exact.is_enum()) throw Unsupported("cmp of enum values");
      const bool eq = a.exact.enumv().enum_name == b.exact.enumv().enum_name && a.exact.enumv().member == b.exact.enumv().member;
      Enclosure r = numeric(DType::Bool, {}, true);
      r.el[0] = Interval::point(p->second == num::CompareOp::Eq ? eq : !eq);
      return set(f, op, 0, std::move(r));
    }
    same_shape(a, b);
    Enclosure r = a;
    r.dtype = DType::Bool;
    for (size_t i = 0; i < r.el.size(); ++i) r.el[i] = compare(p->second, a.el[i], b.el[i]);
    set(f, op, 0, std::move(r));
  }

  void op_select(Frame& f, const Operation& op) {
    const Enclosure &c = operand(f, op, 0), &a = operand(f, op, 1), &b = operand(f, op, 2);
    same_shape(a, b);
    same_shape(c, a);
    Enclosure r = a;
    for (size_t i = 0; i < r.el.size(); ++i) {
      const Interval& k = c.el[i];
      r.el[i] = k.lo >= 1 ? a.el[i] : k.hi <= 0 ? b.el[i] : a.el[i].hull(b.el[i]);
    }
    set(f, op, 0, std::move(r));
  }

  void op_neg_not(Frame& f, const Operation& op) {
    Enclosure r = need_numeric(operand(f, op, 0));
    const bool neg = op.name == "neg";
    for (auto& x : r.el) {
      if (r.dtype == DType::Bool && !neg) x = Interval{1 - x.hi, 1 - x.lo, false};
      else if (is_any_float(r.dtype) && neg) x = Interval{-x.hi, -x.lo, x.nan};
      else if (x.is_point()) {
        auto v = num::unary(neg ? num::UnaryOp::Neg : num::UnaryOp::Not, scalar_of(r.dtype, x.lo));
        if (!v) throw Unsupported(op.name + ": " + v.error().message);
        x = Interval::point(value_of(*v));
      } else {
        x = top(r.dtype);  // wrapping or bitwise on an uncertain integer
      }
    }
    set(f, op, 0, std::move(r));
  }

  void op_math(Frame& f, const Operation& op, num::MathFn fn) {
    if (attr_bool(op, "flush_to_zero")) throw Unsupported("flush_to_zero");
    Enclosure r = need_numeric(operand(f, op, 0));
    for (auto& x : r.el) x = math(fn, r.dtype, x);
    set(f, op, 0, std::move(r));
  }

  void op_cast(Frame& f, const Operation& op) {
    const Enclosure& a = operand(f, op, 0);
    if (a.kind != Enclosure::Kind::Numeric || !op.result()->type.is_shaped_or_scalar()) throw Unsupported(op.name + " of an enum value");
    const DType to = op.result()->type.dtype();
    Enclosure r = a;
    r.dtype = to;
    for (auto& x : r.el) {
      if (op.name == "cast") {
        x = cast_interval(a.dtype, to, x);
      } else if (x.is_point()) {
        auto v = num::bitcast(scalar_of(a.dtype, x.lo), to);
        if (!v) throw Unsupported("bitcast");
        x = Interval::point(value_of(*v));
      } else {
        x = top(to);
      }
    }
    set(f, op, 0, std::move(r));
  }

  void op_broadcast(Frame& f, const Operation& op) {
    const Enclosure& x = need_numeric(operand(f, op, 0));
    const Shape rs = eval_shape(f, op.result()->type.shape());
    Enclosure r = numeric(op.result()->type.dtype(), rs, false);
    if (x.scalar || x.shape.empty()) {
      std::fill(r.el.begin(), r.el.end(), x.el.at(0));
      return set(f, op, 0, std::move(r));
    }
    const std::vector<int64_t> dims = attr_ints(op, "dims");
    if (dims.size() != x.shape.size()) throw Unsupported("broadcast dims");
    const Shape in_st = row_major_strides(x.shape);
    Shape st(rs.size(), 0);
    for (size_t i = 0; i < dims.size(); ++i)
      if (x.shape[i] == rs.at(static_cast<size_t>(dims[i]))) st[static_cast<size_t>(dims[i])] = in_st[i];
    for (size_t i = 0; i < r.el.size(); ++i) {
      const Shape c = unravel(static_cast<int64_t>(i), rs);
      int64_t o = 0;
      for (size_t k = 0; k < c.size(); ++k) o += c[k] * st[k];
      r.el[i] = x.el[static_cast<size_t>(o)];
    }
    set(f, op, 0, std::move(r));
  }

  void op_transpose(Frame& f, const Operation& op) {
    const Enclosure& x = need_numeric(operand(f, op, 0));
    const size_t rank = x.shape.size();
    std::vector<int64_t> perm = attr_ints(op, "perm");
    if (!op.attr("perm"))
      for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
    if (perm.size() != rank) throw Unsupported("transpose perm");
    Shape rs(rank), st(rank);
    const Shape in_st = row_major_strides(x.shape);
    for (size_t i = 0; i < rank; ++i) {
      rs[i] = x.shape[static_cast<size_t>(perm[i])];
      st[i] = in_st[static_cast<size_t>(perm[i])];
    }
    Enclosure r = numeric(x.dtype, rs, false);
    for (size_t i = 0; i < r.el.size(); ++i) {
      const Shape c = unravel(static_cast<int64_t>(i), rs);
      int64_t o = 0;
      for (size_t k = 0; k < c.size(); ++k) o += c[k] * st[k];
      r.el[i] = x.el[static_cast<size_t>(o)];
    }
    set(f, op, 0, std::move(r));
  }

  void op_join(Frame& f, const Operation& op) {
    const Enclosure &a = operand(f, op, 0), &b = operand(f, op, 1);
    same_shape(a, b);
    Shape rs = a.scalar ? Shape{} : a.shape;
    rs.push_back(2);
    Enclosure r = numeric(a.dtype, rs, false);
    for (size_t i = 0; i < a.el.size(); ++i) {
      r.el[2 * i] = a.el[i];
      r.el[2 * i + 1] = b.el[i];
    }
    set(f, op, 0, std::move(r));
  }

  void op_get(Frame& f, const Operation& op) {
    const Enclosure& t = operand(f, op, 0);
    if (!is_struct(t)) throw Unsupported(op.name + " of a non-aggregate");
    size_t i = t.elems.size();
    if (op.name == "tuple.get") {
      i = static_cast<size_t>(attr_int(op, "index", -1));
    } else {
      const std::string field = attr_keyword(op, "field");
      for (size_t k = 0; k < t.names.size(); ++k)
        if (t.names[k] == field) i = k;
    }
    if (i >= t.elems.size()) throw Unsupported(op.name + " out of range");
    set(f, op, 0, t.elems[i]);
  }

  void op_domain(Frame& f, const Operation& op) {
    if (op.name == "indices") {
      const Enclosure& d = operand(f, op, 0);
      if (d.kind != Enclosure::Kind::Exact || !d.exact.is_domain()) throw Unsupported("indices of a non-domain");
      const DomainV& dv = d.exact.domain();
      Enclosure r = numeric(DType::Index, {dv.count}, false);
      for (int64_t k = 0; k < dv.count; ++k) r.el[static_cast<size_t>(k)] = Interval::point(static_cast<double>(dv.member(k)));
      return set(f, op, 0, std::move(r));
    }
    DomainV d;
    if (op.name == "domain") {
      const int64_t begin = point_int(operand(f, op, 0)), end = point_int(operand(f, op, 1));
      const int64_t step = op.operands.size() > 2 ? point_int(operand(f, op, 2)) : 1;
      if (step <= 0) throw Unsupported("domain step");
      d.root_id = -(next_domain++);  // identities of the interpreter's domains are not known here
      d.root_begin = begin;
      d.step = step;
      d.count = end > begin ? (end - begin + step - 1) / step : 0;
    } else {
      const Enclosure& s = operand(f, op, 0);
      if (s.kind != Enclosure::Kind::Exact || !s.exact.is_domain()) throw Unsupported("subregion of a non-domain");
      const int64_t b = point_int(operand(f, op, 1)), e = point_int(operand(f, op, 2));
      d = s.exact.domain();
      d.first += b;
      d.count = e - b;
      d.subregion = true;
    }
    Enclosure r;
    r.kind = Enclosure::Kind::Exact;
    r.exact = Value(d);
    set(f, op, 0, std::move(r));
  }

  void op_if(Frame& f, const Operation& op) {
    const Enclosure& c = need_numeric(operand(f, op, 0));
    const Interval k = c.el.at(0);
    auto branch = [&](size_t i) {
      Flow fl = run_region(f, *op.regions.at(i), {});
      if (fl.kind != FlowKind::Yield) throw Unsupported("if branch without yield");
      return std::move(fl.values);
    };
    std::vector<Enclosure> res;
    if (k.lo >= 1) res = branch(0);
    else if (k.hi <= 0) res = branch(1);
    else {  // both outcomes are possible: the hull of both branches
      res = branch(0);
      std::vector<Enclosure> other = branch(1);
      for (size_t i = 0; i < res.size() && i < other.size(); ++i) res[i] = hull(res[i], other[i]);
    }
    for (size_t i = 0; i < op.results.size() && i < res.size(); ++i) set(f, op, i, std::move(res[i]));
  }

  void op_for(Frame& f, const Operation& op) {
    const Enclosure& dom = operand(f, op, 0);
    if (dom.kind != Enclosure::Kind::Exact || !dom.exact.is_domain()) throw Unsupported("for over a non-domain");
    const DomainV d = dom.exact.domain();
    std::vector<Enclosure> carries;
    for (size_t i = 1; i < op.operands.size(); ++i) carries.push_back(operand(f, op, i));
    for (int64_t k = 0; k < d.count; ++k) {
      std::vector<Enclosure> args{numeric(DType::Index, {}, true)};
      args[0].el[0] = Interval::point(static_cast<double>(d.member(k)));
      args.insert(args.end(), carries.begin(), carries.end());
      Flow fl = run_region(f, *op.regions.at(0), args);
      if (fl.kind != FlowKind::Yield) throw Unsupported("for body without yield");
      carries = std::move(fl.values);
    }
    for (size_t i = 0; i < op.results.size() && i < carries.size(); ++i) set(f, op, i, std::move(carries[i]));
  }

  // reduce / scan with an `add`, `max` or `min` combine on one tensor: every prefix of the terms
  // (identity first, then the elements in processing order): the envelope (add) or the exact
  // extremes (max/min).
  static std::vector<Interval> fold_terms(const std::string& how, const std::vector<Interval>& terms, DType d) {
    return how == "add" ? sum_prefixes(terms, d) : minmax_prefixes(terms, how == "max");
  }

  void op_reduce(Frame& f, const Operation& op) {
    const Enclosure& src = operand(f, op, 0);
    Enclosure acc = operand(f, op, 1);
    const Function& combine = helper(op, "combine");
    std::vector<int64_t> axes = attr_ints(op, "axes");
    std::sort(axes.begin(), axes.end());
    const Enclosure& leaf = need_numeric(first_leaf(src));
    Shape red;
    for (int64_t a : axes) red.push_back(leaf.shape.at(static_cast<size_t>(a)));
    const int64_t total = checked_numel(red);
    const std::string how = combine_op(combine);
    if (!how.empty() && op.operands.size() == 2 && src.kind == Enclosure::Kind::Numeric && acc.kind == Enclosure::Kind::Numeric &&
        acc.dtype == src.dtype) {
      std::vector<Enclosure> slices;
      for (int64_t k = 0; k < total; ++k) slices.push_back(take_slice(src, axes, unravel(k, red)));
      if (slices.empty() || slices[0].el.size() == acc.el.size()) {
        Enclosure out = acc;
        std::vector<Interval> terms;
        for (size_t j = 0; j < out.el.size(); ++j) {
          terms.assign(1, acc.el[j]);
          for (const auto& s : slices) terms.push_back(s.el[j]);
          out.el[j] = fold_terms(how, terms, out.dtype).back();
        }
        return set(f, op, 0, std::move(out));
      }
    }
    std::vector<Enclosure> args(2);
    for (size_t i = 2; i < op.operands.size(); ++i) args.push_back(operand(f, op, i));
    for (int64_t k = 0; k < total; ++k) {
      args[0] = std::move(acc);
      args[1] = take_slice(src, axes, unravel(k, red));
      acc = std::move(call(combine, args).at(0));
    }
    set(f, op, 0, std::move(acc));
  }

  void op_scan(Frame& f, const Operation& op) {
    const Enclosure& src = operand(f, op, 0);
    Enclosure acc = operand(f, op, 1);
    const Function& combine = helper(op, "combine");
    const int64_t axis = attr_int(op, "axis");
    const bool inclusive = attr_bool(op, "inclusive", true), reverse = attr_bool(op, "reverse", false);
    const Enclosure& leaf = need_numeric(first_leaf(src));
    const int64_t n = leaf.shape.at(static_cast<size_t>(axis));
    Enclosure out = src;
    const std::string how = combine_op(combine);
    if (!how.empty() && op.operands.size() == 2 && src.kind == Enclosure::Kind::Numeric && acc.kind == Enclosure::Kind::Numeric &&
        acc.dtype == src.dtype) {
      // per lane: the prefixes of (identity, x[p0], x[p1], ...) in processing order
      std::vector<Enclosure> xs;
      for (int64_t k = 0; k < n; ++k) xs.push_back(take_slice(src, {axis}, {reverse ? n - 1 - k : k}));
      if (xs.empty() || xs[0].el.size() == acc.el.size()) {
        std::vector<std::vector<Interval>> pre(acc.el.size());
        std::vector<Interval> terms;
        for (size_t j = 0; j < acc.el.size(); ++j) {
          terms.assign(1, acc.el[j]);
          for (const auto& x : xs) terms.push_back(x.el[j]);
          pre[j] = fold_terms(how, terms, acc.dtype);
        }
        Enclosure slice = acc;
        for (int64_t k = 0; k < n; ++k) {
          for (size_t j = 0; j < pre.size(); ++j) slice.el[j] = pre[j][static_cast<size_t>(inclusive ? k + 1 : k)];
          put_slice(out, axis, reverse ? n - 1 - k : k, slice);
        }
        return set(f, op, 0, std::move(out));
      }
    }
    std::vector<Enclosure> args(2);
    for (size_t i = 2; i < op.operands.size(); ++i) args.push_back(operand(f, op, i));
    for (int64_t k = 0; k < n; ++k) {
      const int64_t p = reverse ? n - 1 - k : k;
      if (!inclusive) put_slice(out, axis, p, acc);
      Enclosure x = take_slice(src, {axis}, {p});
      if (reverse) {
        args[0] = std::move(x);
        args[1] = std::move(acc);
      } else {
        args[0] = std::move(acc);
        args[1] = std::move(x);
      }
      acc = std::move(call(combine, args).at(0));
      if (inclusive) put_slice(out, axis, p, acc);
    }
    set(f, op, 0, std::move(out));
  }

  void op_contract(Frame& f, const Operation& op) {
    const Enclosure &l = need_numeric(operand(f, op, 0)), &r = need_numeric(operand(f, op, 1));
    const DType acc = op.result()->type.dtype();
    const auto reduce = attr_pairs(op, "reduce"), batch = attr_pairs(op, "batch");
    const Shape lst = row_major_strides(l.shape), rst = row_major_strides(r.shape);
    std::vector<int> lrole(l.shape.size(), -1), rrole(r.shape.size(), -1);
    Shape red, red_l, red_r, out, out_l, out_r;
    for (auto [a, b] : reduce) {
      lrole.at(static_cast<size_t>(a)) = -2;
      rrole.at(static_cast<size_t>(b)) = -2;
      red.push_back(l.shape[static_cast<size_t>(a)]);
      red_l.push_back(lst[static_cast<size_t>(a)]);
      red_r.push_back(rst[static_cast<size_t>(b)]);
    }
    for (auto [a, b] : batch) {
      lrole.at(static_cast<size_t>(a)) = static_cast<int>(b);
      rrole.at(static_cast<size_t>(b)) = -3;
    }
    for (size_t a = 0; a < l.shape.size(); ++a) {
      if (lrole[a] == -2) continue;
      out.push_back(l.shape[a]);
      out_l.push_back(lst[a]);
      out_r.push_back(lrole[a] >= 0 ? rst[static_cast<size_t>(lrole[a])] : 0);
    }
    for (size_t a = 0; a < r.shape.size(); ++a) {
      if (rrole[a] != -1) continue;
      out.push_back(r.shape[a]);
      out_l.push_back(0);
      out_r.push_back(rst[a]);
    }
    Enclosure res = numeric(acc, out, false);
    const int64_t nred = checked_numel(red);
    std::vector<Interval> xs, ys;
    for (size_t o = 0; o < res.el.size(); ++o) {
      const Shape c = unravel(static_cast<int64_t>(o), out);
      int64_t lb = 0, rb = 0;
      for (size_t k = 0; k < c.size(); ++k) {
        lb += c[k] * out_l[k];
        rb += c[k] * out_r[k];
      }
      xs.clear();
      ys.clear();
      for (int64_t k = 0; k < nred; ++k) {
        const Shape rc = unravel(k, red);
        int64_t lo = lb, ro = rb;
        for (size_t i = 0; i < rc.size(); ++i) {
          lo += rc[i] * red_l[i];
          ro += rc[i] * red_r[i];
        }
        xs.push_back(l.el.at(static_cast<size_t>(lo)));
        ys.push_back(r.el.at(static_cast<size_t>(ro)));
      }
      res.el[o] = dot(xs, ys, l.dtype, acc);
    }
    set(f, op, 0, std::move(res));
  }

  // One contract element: the dot envelope at the corners of smallest and largest products.
  static Interval dot(const std::vector<Interval>& xs, const std::vector<Interval>& ys, DType operand, DType acc) {
    bool nan = false, points = true;
    for (size_t k = 0; k < xs.size(); ++k) {
      if (!xs[k].has_real() || !ys[k].has_real()) return nan_only();
      nan |= xs[k].nan || ys[k].nan;
      points &= xs[k].lo == xs[k].hi && ys[k].lo == ys[k].hi;
    }
    if (!is_any_float(acc)) {  // wrapping integer sum of products, exact at points
      if (!points || nan || is_any_float(operand)) return int_range(acc);
      uint64_t sum = 0;
      for (size_t k = 0; k < xs.size(); ++k)
        sum += static_cast<uint64_t>(static_cast<int64_t>(xs[k].lo)) * static_cast<uint64_t>(static_cast<int64_t>(ys[k].lo));
      return Interval::point(value_of(num::make_int(acc, sum)));
    }
    need_arith(acc);
    if (points && !nan) {  // exact products (checked with an FMA) that sum exactly in every order
      ExactOrders exact(acc);
      for (size_t k = 0; k < xs.size(); ++k) {
        const double x = xs[k].lo, y = ys[k].lo, p = x * y;
        const bool normal = p == 0 ? (x == 0 || y == 0) : std::fabs(p) >= 0x1p-968;  // no underflow hides a remainder
        exact.add(std::isfinite(p) && normal && std::fma(x, y, -p) == 0 ? p : kNaN);
      }
      if (exact.ok()) return Interval::point(exact.sum());
    }
    std::vector<double> xl(xs.size()), yl(xs.size()), xh(xs.size()), yh(xs.size());
    for (size_t k = 0; k < xs.size(); ++k)
      if (!product_corners(xs[k], ys[k], xl[k], yl[k], xh[k], yh[k])) return top(acc);
    const num::Envelope el = num::dot_envelope(xl, yl, acc), eh = num::dot_envelope(xh, yh, acc);
    if (el.is_nan || eh.is_nan) return points ? nan_only() : top(acc);
    return {el.may_overflow ? -kInf : outward(el.lo, acc, false), eh.may_overflow ? kInf : outward(eh.hi, acc, true), nan};
  }
};

Evaluator::Evaluator(const Module& m) : impl_(std::make_unique<Impl>(m)) {}
Evaluator::~Evaluator() = default;

std::vector<Enclosure> Evaluator::call(const Function& fn, const std::vector<Enclosure>& args) {
  try {
    return impl_->call(fn, args);
  } catch (const Unsupported&) {
    throw;
  } catch (const std::exception& e) {  // a malformed attribute or shape: no enclosure
    throw Unsupported(e.what());
  }
}

}  // namespace kir::interp::enclosure
