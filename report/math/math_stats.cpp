// Error statistics of the math section (see math_stats.h).
#include "report/math/math_stats.h"

#include <algorithm>

#include "numerics/format.h"

namespace kir::report {
namespace {

// Larger error first: a NaN mismatch beats every finite distance.
bool worse(const std::optional<uint64_t>& a, const std::optional<uint64_t>& b) {
  if (!a) return b.has_value();
  return b && *a > *b;
}

}  // namespace

ErrorStats measure_errors(kir::DType d, const std::vector<uint64_t>& x, const std::vector<uint64_t>& got,
                          const std::vector<uint64_t>& cr, const std::optional<num::Accuracy>& contract) {
  ErrorStats s;
  s.count = x.size();
  std::vector<std::optional<uint64_t>> ulps(x.size());
  double sum = 0;
  uint64_t finite = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const auto e = error_ulps(got[i], cr[i], d);
    ulps[i] = e;
    if (!e) {
      ++s.nan_mismatches;
      ++s.histogram[kNanBucket];
    } else {
      ++finite;
      sum += static_cast<double>(*e);
      s.max_ulps = std::max(s.max_ulps, *e);
      ++s.histogram[static_cast<size_t>(bucket_of(*e))];
    }
    const bool nonzero = !e || *e > 0;
    if (nonzero && (s.worst < 0 || worse(e, ulps[static_cast<size_t>(s.worst)]))) s.worst = static_cast<int64_t>(i);
    if (contract && !num::accepts(*contract, got[i], cr[i])) {
      ++s.rejected;
      if (s.worst_rejected < 0 || worse(e, ulps[static_cast<size_t>(s.worst_rejected)]))
        s.worst_rejected = static_cast<int64_t>(i);
    }
  }
  s.mean_ulps = finite ? sum / static_cast<double>(finite) : 0.0;
  s.scatter = scatter_sample(d, x, ulps);
  return s;
}

}  // namespace kir::report
