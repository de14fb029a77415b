// An exact accumulator for sums of exactly known binary values (values of every dtype and exact
// products of two of them): a fixed-point integer over 32-bit limbs covering 2^-2240 .. 2^2200,
// plus NaN/±Inf tracking. Rounded ONCE into the accumulator dtype at the end, it gives the
// canonical result of contract / sparse / scaled contract: the exact sum of the exact products
// rounded to nearest-even (numerics/envelope.h's `exact_rounded`; any legal evaluation lies in
// the envelope around it). SequentialSum accumulates the same terms in one declared order instead
// (Options::accumulation = Sequential).
#pragma once
#include <array>
#include <cstdint>

#include "numerics/cast.h"
#include "kir/attribute.h"
#include "numerics/dtype.h"

namespace kir::interp {

class ExactSum {
 public:
  ExactSum() { clear(); }
  void clear();
  // Adds (-1)^neg * m * 2^e exactly (m < 2^128).
  void add(bool neg, kir::uint128 m, int e);
  void add_value(const num::ExactValue& v);
  void add_product(const num::ExactValue& a, const num::ExactValue& b, int extra_exp = 0);
  void add_nan() { nan_ = true; }
  // The exact sum rounded once (RNE) into `d` (a float dtype): NaN if a NaN term or +Inf and
  // -Inf terms; ±Inf if one infinite sign; -0 only if every term was -0.
  uint64_t round(DType d);

 private:
  static constexpr int kBias = 2240;   // bit position of 2^0
  static constexpr int kLimbs = 140;   // 4480 bits
  std::array<int64_t, kLimbs> limbs_;
  int lo_ = kLimbs, hi_ = -1;
  uint32_t adds_ = 0;
  bool nan_ = false, pinf_ = false, ninf_ = false, any_ = false, all_negzero_ = true;
  void normalize();
};

// The sequential accumulation of interpreter.h's AccumulationOrder::Sequential: starts at +0 of
// `acc`; each term is the exact product rounded ONCE into acc (numerics' RNE and overflow rule),
// then added to the running value with num::binary(Add) in acc (the library's NaN rules).
class SequentialSum {
 public:
  // fused: every term after the first is added by one fma (acc f32 or f64 only).
  explicit SequentialSum(DType acc, bool fused = false) : acc_(acc), fused_(fused) { clear(); }
  void clear();
  void add_product(const num::ExactValue& a, const num::ExactValue& b, int extra_exp = 0);
  void add_nan();
  uint64_t value() const { return sum_; }  // bits of acc

 private:
  void add_term(uint64_t term);
  DType acc_;
  bool fused_ = false;
  uint64_t sum_ = 0;
  bool empty_ = true;  // no term yet: the first term starts the fold (a +0 start would be a term)
  ExactSum special_;  // rounds the non-finite products (Inf, NaN, Inf x 0) as a one-term sum
};

}  // namespace kir::interp
