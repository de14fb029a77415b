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

namespace kir::report {

// Histogram buckets: "0", "1", "2", "3-4", "5-8", ..., "524289-1048576", ">2^20", "NaN mismatch".
inline constexpr int kNumBuckets = 24;
int bucket_of(uint64_t ulps);          // 0 .. kNumBuckets-2
inline constexpr int kNanBucket = kNumBuckets - 1;
std::string bucket_label(int b);
std::optional<double> bucket_lo(int b);  // smallest ulps in bucket b (nullopt: NaN mismatch)
std::optional<double> bucket_hi(int b);  // largest (nullopt: unbounded or NaN mismatch)

// Distance of `got` from `cr` in ulps of dtype d; nullopt for a NaN mismatch.
std::optional<uint64_t> error_ulps(uint64_t got, uint64_t cr, kir::DType d);

struct ErrorStats {
  uint64_t count = 0;
  uint64_t nan_mismatches = 0;
  uint64_t max_ulps = 0;           // over the inputs with a finite distance
  double mean_ulps = 0;            // over the inputs with a finite distance (0 when there are none)
  std::array<uint64_t, kNumBuckets> histogram{};
  int64_t worst = -1;              // index of the largest error (NaN mismatch first; first index on ties); -1: all exact
  uint64_t rejected = 0;           // results the contract does not accept (only with a contract entry)
  int64_t worst_rejected = -1;     // the rejected input with the largest error
  std::vector<std::array<double, 2>> scatter;  // at most 256 [log2 |x|, ulps]
};

// Compares got[i] with cr[i] for inputs x[i] (all bit patterns of d).
ErrorStats measure_errors(kir::DType d, const std::vector<uint64_t>& x, const std::vector<uint64_t>& got,
                          const std::vector<uint64_t>& cr, const std::optional<num::Accuracy>& contract);

// At most `limit` points [log2 |x|, ulps] over the inputs with finite x != 0 and a finite error:
// up to three quarters of them from the inputs with a nonzero error (evenly spaced, always with
// the largest), the rest evenly spaced over the exact ones; in input order.
std::vector<std::array<double, 2>> scatter_sample(kir::DType d, const std::vector<uint64_t>& x,
                                                  const std::vector<std::optional<uint64_t>>& ulps, size_t limit = 256);

}  // namespace kir::report
