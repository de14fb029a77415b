// The error histogram and the error-against-magnitude sample of kir report
// (docs/report-schema.json), shared by the per-output errors (output_errors.h) and the math
// section (math/math_stats.h) so their tables and plots compare: buckets '0', '1', '2', '3-4',
// '5-8', ... doubling up to 2^20, then '>2^20' and 'NaN mismatch' (one side NaN, the other not).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "numerics/dtype.h"

namespace kir::report {

inline constexpr int kNumBuckets = 24;
inline constexpr int kNanBucket = kNumBuckets - 1;
int bucket_of(uint64_t ulps);            // 0 .. kNumBuckets-2
std::string bucket_label(int b);
std::optional<double> bucket_lo(int b);  // smallest ulps in bucket b (nullopt: NaN mismatch)
std::optional<double> bucket_hi(int b);  // largest (nullopt: unbounded or NaN mismatch)

using Histogram = std::array<uint64_t, kNumBuckets>;
// [{"bucket": "0", "lo": 0, "hi": 0, "count": n}, ...]: every bucket, empty ones included.
nlohmann::json histogram_json(const Histogram& h);

// Distance of `got` from `want` in ulps of float dtype d (+0 and -0 are one point); nullopt for
// a NaN mismatch (NaN against NaN is 0).
std::optional<uint64_t> error_ulps(uint64_t got, uint64_t want, kir::DType d);

// At most `limit` points [log2 |x|, ulps] over the elements with finite x != 0 (x: float bit
// patterns of d) and a finite error: up to three quarters of them from the elements with a
// nonzero error (evenly spaced, always with the largest), the rest evenly spaced over the exact
// ones; in element order.
std::vector<std::array<double, 2>> scatter_sample(kir::DType d, const std::vector<uint64_t>& x,
                                                  const std::vector<std::optional<uint64_t>>& ulps, size_t limit = 256);
nlohmann::json scatter_json(const std::vector<std::array<double, 2>>& points);

}  // namespace kir::report
