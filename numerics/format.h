// Binary floating-point formats of the Intent dtypes (f16, bf16, f32, f64, e4m3, e5m2, e2m1, e8m0):
// exact decoding, classification, neighbours, ULP distance and the single correctly rounded
// (round-to-nearest-even) encoding used by every cast and arithmetic result.
// docs/numerics.md "Formats", "Rounding", "Overflow rules", "FTZ" define the behaviour here.
#pragma once
#include <mpfr.h>

#include <cstdint>

#include "numerics/dtype.h"

namespace kir::num {

// What a finite value too large for the format becomes under a plain cast / arithmetic result.
// This enum is the single place the per-format overflow rule is chosen (see float_format()).
enum class OverflowRule : uint8_t {
  ToInf,       // IEEE: ±Inf (f16, bf16, f32, f64, e5m2)
  ToNaN,       // the format's NaN (e4m3: S.1111.111 with the sign of the value; e8m0: 0xFF)
  Saturate,    // ±max finite (e2m1: no Inf and no NaN exist)
};

struct FloatFormat {
  DType dtype;
  int precision;         // significand bits including the implicit bit
  int emin, emax;        // unbiased exponent of normal numbers: value = 1.f * 2^e, emin <= e <= emax
  int bias;
  int exp_bits, man_bits;
  bool has_inf, has_nan, has_sign, has_subnormals, has_zero;
  OverflowRule overflow;
  uint64_t max_significand;  // integer significand of the largest finite value at exponent emax
                             // (2^p - 1 except e4m3: 0b1110 = 448 / 2^5)
  uint64_t canonical_nan;    // the NaN every NaN-producing operation returns (positive, quiet)
  int bits;                  // storage width
};

const FloatFormat& float_format(DType d);  // d must satisfy is_any_float(d)

// Exact decode into MPFR. If out's precision is below 64 it is raised to 64 (mpfr_set_prec,
// which discards the old value); every value of every format is exact at 53 bits.
// NaN and ±Inf are preserved (NaN sign is not meaningful).
void decode(mpfr_t out, uint64_t bits, DType d);
double to_double(uint64_t bits, DType d);  // exact for every float format

// Round x ONCE to nearest, ties to even, into format d, with gradual underflow and d's overflow
// rule. ftz=true: a result that is subnormal after rounding becomes a zero of the same sign.
// Correct for x of any precision and any exponent. NaN -> canonical_nan (e2m1 has no NaN:
// returns +0, callers that can report errors — cast() — must check for NaN first).
// e8m0: positive finite values round to the nearest power of two (1.5*2^k rounds up), values
// below 2^-127 clamp to 2^-127 (0x00), above 2^127 -> NaN; zero, negative, Inf, NaN -> 0xFF.
uint64_t round_to(const mpfr_t x, DType d, bool ftz = false);
// Same, where x was already truncated (rounded toward zero) from the true value and
// `inexact` says whether the truncation lost anything (round-to-odd information); used to round
// results of MPFR operations done at a working precision >= format precision + 2.
uint64_t round_to_truncated(const mpfr_t x, bool inexact, DType d, bool ftz = false);
uint64_t from_double(double x, DType d, bool ftz = false);  // correctly rounded once
// Round the exact value (-1)^neg * m * 2^e (+ a tiny positive amount if `sticky`).
uint64_t round_exact(bool neg, uint64_t m, int e, bool sticky, DType d, bool ftz = false);

enum class FpClass { Zero, Subnormal, Normal, Infinite, NaN };
FpClass classify(uint64_t bits, DType d);
bool sign_bit(uint64_t bits, DType d);  // false for e8m0 (unsigned)
inline bool is_nan(uint64_t bits, DType d) { return classify(bits, d) == FpClass::NaN; }
inline bool is_finite(uint64_t bits, DType d) {
  auto c = classify(bits, d);
  return c != FpClass::NaN && c != FpClass::Infinite;
}
// Largest finite value / zero / infinity / NaN encodings (inf: only if has_inf).
uint64_t max_finite(DType d, bool negative = false);
uint64_t zero_bits(DType d, bool negative = false);
uint64_t inf_bits(DType d, bool negative = false);
// Flush a subnormal encoding to the zero of the same sign; other encodings unchanged.
uint64_t flush_subnormal(uint64_t bits, DType d);

// IEEE nextUp / nextDown. NaN -> canonical NaN; ±0 -> ±(smallest subnormal); at the top of a
// format without Inf (e4m3, e2m1, e8m0) the largest finite value is returned unchanged;
// next_up(+Inf) = +Inf, next_up(-Inf) = -max. e8m0 (no zero): next_down(0x00) = 0x00.
uint64_t next_up(uint64_t bits, DType d);
uint64_t next_down(uint64_t bits, DType d);

// Key that orders encodings by IEEE totalOrder: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
// ordered_key(+0) == 0, ordered_key(-0) == -1.
int64_t ordered_key(uint64_t bits, DType d);
// Number of representable-value steps between a and b (symmetric). +0 and -0 are the same point
// (distance 0). ±Inf counts as one step beyond ±max. NaN operand -> UINT64_MAX.
uint64_t ulp_distance(uint64_t a, uint64_t b, DType d);
// Value of 1 ulp at a finite value: 2^(max(exponent(x), emin) - (p-1)); e8m0: the gap to the next
// larger power, 2^(e-127). NaN/Inf -> NaN.
double ulp_value(uint64_t bits, DType d);
// Exponent k of that ulp (ulp = 2^k); precondition: finite.
int ulp_exponent(uint64_t bits, DType d);

}  // namespace kir::num
