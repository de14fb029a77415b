// Enclosures: the envelope log's per-element intervals carried through whole helper calls (issue
// 11 item 6). Law checking (laws.h) compares the two sides of a region_fold / region_scan law
// under the numerics contract: each side is evaluated a second time on intervals, giving per
// result element an interval that contains
//  * the value of the same computation in exact real arithmetic, and
//  * the interpreter's value, and every value a legal reassociation of the sums inside gives
//    (reduce / scan with an `add` combine and contract use the reassociation envelope of
//    numerics/envelope.h, taken at the interval ends of their terms).
// Every other float operation rounds its interval outward into its dtype (directed rounding of
// the exact result at the interval ends: monotone pieces of add/sub/mul/div, the math functions,
// casts), so an exact operation on exact inputs stays a single point (a sum too, when no order
// of it can round): integer, bool, min/max and exact float results are compared bit for bit.
// Discrete decisions on uncertain
// inputs (cmp, select, if) take the hull of every outcome. docs/numerics.md "Law checking under
// the contract" states the rule and its argument.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "interp/value.h"

namespace kir {
class Module;
class Function;
}  // namespace kir

namespace kir::interp::enclosure {

// The values one element may take: the real interval [lo, hi] (empty when lo > hi; integers and
// bools as exact doubles, bool 0/1) and whether NaN is possible. Zeros of either sign are one value.
struct Interval {
  double lo = 0, hi = 0;
  bool nan = false;
  static Interval point(double v);  // NaN: no real part, NaN possible
  bool has_real() const { return lo <= hi; }
  bool is_point() const { return !nan && lo == hi; }
  bool meets(const Interval& o) const;  // a common real value, or both may be NaN
  Interval hull(const Interval& o) const;
};

// Mirrors an interp::Value: a scalar or tensor of intervals, a tuple or record of enclosures, or
// an exact non-numeric value (enum member, domain).
struct Enclosure {
  enum class Kind { Numeric, Tuple, Record, Exact };
  Kind kind = Kind::Numeric;
  DType dtype = DType::F32;
  Shape shape;
  bool scalar = false;
  std::vector<Interval> el;  // row-major
  std::vector<Enclosure> elems;
  std::vector<std::string> names;
  Value exact;
};

// Thrown when some op of a helper has no interval rule here (the caller then compares bit for bit).
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Enclosure of(const Value& v);  // every element a single point
Enclosure slice_range(const Enclosure& e, int64_t axis, int64_t begin, int64_t end);  // leaves cut along axis
std::string str(const Interval& i);  // "[lo, hi]" (shortest round-trip digits), "nan", "[lo, hi] or nan"

// Evaluates helpers of one module on enclosures. The inputs are values the interpreter has just
// run the same helpers on, so no run-time checking is repeated here.
class Evaluator {
 public:
  explicit Evaluator(const Module& m);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;
  std::vector<Enclosure> call(const Function& fn, const std::vector<Enclosure>& args);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kir::interp::enclosure
