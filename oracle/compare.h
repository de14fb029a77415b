// Element-by-element comparison of two results of the same dtype and shape (a kernel's output
// against its reference's), reporting the mismatch count and the worst element with its
// coordinates. Integers, bool and index compare exactly; floats within a tolerance in ulps of the
// dtype or an absolute bound (NaN matches NaN of any payload, +0 matches -0 only when zeros are
// accepted by the tolerance's ulps: ulp_distance(+0, -0) is 0).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "numerics/dtype.h"

namespace kir::oracle {

struct Tolerance {
  uint64_t ulps = 0;  // floats: accepted when ulp_distance <= ulps ...
  double atol = 0;    // ... or |got - want| <= atol
  std::string str() const;
};

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  // The worst element (largest ulp distance, or |difference| for integers); valid if mismatches.
  std::vector<int64_t> worst_coord;
  std::string worst_got, worst_want;
  std::string worst_distance;  // "37 ulp, tolerance 4 ulp", "i32 must match exactly", ...
  bool ok() const { return mismatches == 0; }
  // "2 of 64 elements differ; worst at (1, 3): got 1.5, reference 1.25 (4096 ulp)"
  std::string str() const;
};

Comparison compare_elements(DType d, const std::vector<int64_t>& shape, std::span<const uint64_t> got,
                            std::span<const uint64_t> want, const Tolerance& tol);

}  // namespace kir::oracle
