// pow through MPFR: computed truncated at 64 bits (>= p + 2 for every format) with its inexact
// flag and rounded once (round-to-odd argument). fmod in doubles: every value of every float
// format is a double, and fmod's result is exact (|r| < |y|, a multiple of the smaller ulp of the
// operands, representable in the operands' format), so one double fmod is the result.
#include "numerics/float_extra.h"

#include <mpfr.h>

#include <cmath>

#include "numerics/arith.h"
#include "numerics/format.h"

namespace kir::num {

namespace {
struct Mp {
  mpfr_t x;
  Mp() { mpfr_init2(x, 64); }
  ~Mp() { mpfr_clear(x); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};
}  // namespace

Scalar float_pow(Scalar a, Scalar b) {
  Mp x, y, r;
  decode(x.x, a.bits, a.dtype);
  decode(y.x, b.bits, b.dtype);
  mpfr_set_prec(r.x, 64);
  int t = mpfr_pow(r.x, x.x, y.x, MPFR_RNDZ);
  return Scalar{a.dtype, round_to_truncated(r.x, t != 0, a.dtype)};
}

Scalar float_fmod(Scalar a, Scalar b) {
  const double r = std::fmod(to_double(a.bits, a.dtype), to_double(b.bits, b.dtype));
  return Scalar{a.dtype, from_double(r, a.dtype)};  // exact (NaN -> the canonical NaN)
}

Result<Scalar> pointwise_binary(BinaryOp op, bool is_pow, Scalar a, Scalar b, bool approximate, bool flush_to_zero) {
  const bool fl = is_any_float(a.dtype);
  if (is_pow) return float_pow(a, b);
  if (fl && op == BinaryOp::Div) return fdiv(a, b, approximate, flush_to_zero);
  return binary(op, a, b);
}

}  // namespace kir::num
