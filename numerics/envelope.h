// The reassociation envelope of sum-like operations (reduce.sum, cumsum, contract / dot /
// matmul, scaled and sparse contract; seed 000 §7, §8, §10-12): the exact result, correctly
// rounded to the accumulator dtype, and a rigorous bound on how far ANY legal evaluation — any
// order, any parenthesization, with or without FMA, every operation rounded to nearest in the
// accumulator dtype — may land from the exact value. docs/numerics.md "Numerics contract" derives it.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "numerics/dtype.h"

namespace kir::num {

// What the terms handed to the envelope are.
enum class TermKind : uint8_t {
  // values already in the accumulator dtype (reduce.sum / cumsum after the defined conversion):
  // only the n-1 additions round.
  AccValues,
  // exact products (or exact scaled products) that a backend may round once to the accumulator
  // dtype before adding, or fuse into an FMA: n roundings per path, plus underflow in each.
  ExactProducts,
};

struct Envelope {
  DType acc;
  double exact_rounded;  // the exact sum rounded once (RNE) into acc; NaN / ±Inf when those apply
  double bound;          // |legal result - exact| <= bound (rounded up); +Inf if unbounded
  double lo, hi;         // [exact - bound, exact + bound], rounded outward to doubles
  bool may_overflow;     // some legal order may overflow: ±Inf results are legal too
  bool is_nan;           // NaN term, or +Inf and -Inf terms: the result must be NaN
  // Whether v (a value of acc, as a double) is a legal result under this envelope. Signed
  // zero: any zero is accepted when 0 is in the envelope (cancellation may give either sign),
  // except that an all-(-0) input must give -0.
  bool contains(double v) const;
  bool all_negative_zero = false;
};

// Terms given as doubles that are exact (f16/bf16/f32/f64 values, or products of two f16/bf16/
// f32 values, or e2m1/e4m3 products times power-of-two scales, all exact in double).
Envelope sum_envelope(std::span<const double> terms, DType acc, TermKind kind = TermKind::AccValues);

// Dot product of two vectors whose elements are values of some float dtype (f64 included):
// products are formed exactly (MPFR), so this is the ExactProducts envelope of a[i]*b[i].
Envelope dot_envelope(std::span<const double> a, std::span<const double> b, DType acc);

// Every prefix of a scan (inclusive; reverse=true scans from the end). Element k of the result
// is the envelope of terms[0..k] (or terms[k..n-1] when reversed).
std::vector<Envelope> scan_envelope(std::span<const double> terms, DType acc, bool reverse = false,
                                    TermKind kind = TermKind::AccValues);

}  // namespace kir::num
