// Error statistics of one math row: per input the distance in ulps between a result and the
// correctly rounded value (NaN against NaN is 0; NaN against a number is a "NaN mismatch" with
// no finite distance), summarized as max, mean, the report's histogram buckets, the worst input,
// a deterministic scatter sample, and — when a contract entry is given — how many results the
// numerics contract rejects (num::accepts: ulps, max_rel/max_abs, NaN and signed-zero rules).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "numerics/contract.h"
#include "numerics/dtype.h"
#include "report/ulp_histogram.h"

namespace kir::report {

struct ErrorStats {
  uint64_t count = 0;
  uint64_t nan_mismatches = 0;
  uint64_t max_ulps = 0;           // over the inputs with a finite distance
  double mean_ulps = 0;            // over the inputs with a finite distance (0 when there are none)
  Histogram histogram{};
  int64_t worst = -1;              // index of the largest error (NaN mismatch first; first index on ties); -1: all exact
  uint64_t rejected = 0;           // results the contract does not accept (only with a contract entry)
  int64_t worst_rejected = -1;     // the rejected input with the largest error
  std::vector<std::array<double, 2>> scatter;  // at most 256 [log2 |x|, ulps]
};

// Compares got[i] with cr[i] for inputs x[i] (all bit patterns of d).
ErrorStats measure_errors(kir::DType d, const std::vector<uint64_t>& x, const std::vector<uint64_t>& got,
                          const std::vector<uint64_t>& cr, const std::optional<num::Accuracy>& contract);

}  // namespace kir::report
