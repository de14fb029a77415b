// The special-value table of the unary math functions (docs/numerics.md "Math functions / Special values"):
// NaN in -> NaN out, infinities, signed zeros, domain errors (-> NaN), poles (-> ±Inf) and the
// exact points the table lists. Shared by the fast and the MPFR paths so both agree by design.
#include <cmath>
#include <limits>

#include "numerics/math_detail.h"

namespace kir::num::detail {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool is_int(double x) { return std::floor(x) == x; }
}  // namespace

std::optional<double> math_special(MathFn f, double x) {
  if (std::isnan(x)) return kNaN;
  const bool inf = std::isinf(x), zero = x == 0, neg = std::signbit(x);
  switch (f) {
    case MathFn::Exp:
    case MathFn::Exp2:
      if (inf) return neg ? 0.0 : kInf;
      if (zero) return 1.0;
      return std::nullopt;
    case MathFn::Log:
      if (zero) return -kInf;
      if (neg) return kNaN;
      if (inf) return kInf;
      if (x == 1) return 0.0;
      return std::nullopt;
    case MathFn::Log1p:
      if (x < -1) return kNaN;
      if (x == -1) return -kInf;
      if (inf || zero) return x;
      return std::nullopt;
    case MathFn::Lgamma:
      if (inf) return kInf;
      if (x <= 0 && is_int(x)) return kInf;  // poles, including ±0
      if (x == 1 || x == 2) return 0.0;
      return std::nullopt;
    case MathFn::Sin:
      if (inf) return kNaN;
      if (zero) return x;
      return std::nullopt;
    case MathFn::Cos:
      if (inf) return kNaN;
      if (zero) return 1.0;
      return std::nullopt;
    case MathFn::Asin:
      if (std::fabs(x) > 1) return kNaN;
      if (zero) return x;
      return std::nullopt;
    case MathFn::Tanh:
    case MathFn::Erf:
      if (inf) return neg ? -1.0 : 1.0;
      if (zero) return x;
      return std::nullopt;
    case MathFn::Erfc:
      if (inf) return neg ? 2.0 : 0.0;
      if (zero) return 1.0;
      return std::nullopt;
    case MathFn::I0:
      if (inf) return kInf;
      if (zero) return 1.0;
      return std::nullopt;
    case MathFn::Rsqrt:
      if (zero) return neg ? -kInf : kInf;  // IEEE 754 rSqrt(-0) = -Inf (MPFR gives +Inf)
      if (neg) return kNaN;
      if (inf) return 0.0;
      return std::nullopt;
    case MathFn::Sqrt:
      if (zero) return x;
      if (neg) return kNaN;
      if (inf) return kInf;
      return std::nullopt;
    case MathFn::Sigmoid:
      if (inf) return neg ? 0.0 : 1.0;
      if (zero) return 0.5;
      return std::nullopt;
    case MathFn::Floor: return std::floor(x);  // exact in every format
    case MathFn::Abs: return std::fabs(x);
  }
  return kNaN;
}

}  // namespace kir::num::detail
