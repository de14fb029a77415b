// See ulp_histogram.h.
#include "report/ulp_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "numerics/format.h"

namespace kir::report {

int bucket_of(uint64_t u) {
  if (u <= 2) return static_cast<int>(u);
  if (u > (uint64_t{1} << 20)) return kNumBuckets - 2;
  // (2^(k-1), 2^k] for k = 2 .. 20 -> buckets 3 .. 21
  const int k = std::bit_width(u - 1);
  return 3 + (k - 2);
}

std::optional<double> bucket_lo(int b) {
  if (b <= 2) return b;
  if (b == kNanBucket) return std::nullopt;
  if (b == kNumBuckets - 2) return std::ldexp(1.0, 20) + 1;
  return std::ldexp(1.0, b - 2) + 1;  // bucket 3: k = 2 -> lo 3
}

std::optional<double> bucket_hi(int b) {
  if (b <= 2) return b;
  if (b >= kNumBuckets - 2) return std::nullopt;
  return std::ldexp(1.0, b - 1);
}

std::string bucket_label(int b) {
  if (b == kNanBucket) return "NaN mismatch";
  if (b == kNumBuckets - 2) return ">2^20";
  if (b <= 2) return std::to_string(b);
  return std::to_string(static_cast<uint64_t>(*bucket_lo(b))) + "-" + std::to_string(static_cast<uint64_t>(*bucket_hi(b)));
}

std::optional<uint64_t> error_ulps(uint64_t got, uint64_t cr, kir::DType d) {
  const bool gn = num::is_nan(got, d), cn = num::is_nan(cr, d);
  if (gn && cn) return 0;
  if (gn || cn) return std::nullopt;
  return num::ulp_distance(got, cr, d);
}

nlohmann::json histogram_json(const Histogram& h) {
  nlohmann::json out = nlohmann::json::array();
  for (int b = 0; b < kNumBuckets; ++b) {
    nlohmann::json lo = nullptr, hi = nullptr;
    if (auto v = bucket_lo(b)) lo = *v;
    if (auto v = bucket_hi(b)) hi = *v;
    out.push_back({{"bucket", bucket_label(b)}, {"lo", lo}, {"hi", hi}, {"count", h[static_cast<size_t>(b)]}});
  }
  return out;
}

namespace {

void pick_evenly(const std::vector<size_t>& from, size_t k, std::vector<size_t>& out) {
  if (from.size() <= k) {
    out.insert(out.end(), from.begin(), from.end());
    return;
  }
  for (size_t i = 0; i < k; ++i) out.push_back(from[i * from.size() / k]);
}

}  // namespace

std::vector<std::array<double, 2>> scatter_sample(kir::DType d, const std::vector<uint64_t>& x,
                                                  const std::vector<std::optional<uint64_t>>& ulps, size_t limit) {
  std::vector<size_t> nonzero, zero;
  size_t worst = x.size();
  for (size_t i = 0; i < x.size(); ++i) {
    if (!ulps[i] || !num::is_finite(x[i], d) || num::classify(x[i], d) == num::FpClass::Zero) continue;
    if (*ulps[i] == 0) {
      zero.push_back(i);
      continue;
    }
    nonzero.push_back(i);
    if (worst == x.size() || *ulps[i] > *ulps[worst]) worst = i;
  }
  std::vector<size_t> chosen;
  const size_t nz = std::min(nonzero.size(), limit * 3 / 4);
  pick_evenly(nonzero, nz, chosen);
  if (worst != x.size() && std::find(chosen.begin(), chosen.end(), worst) == chosen.end()) {
    if (!chosen.empty()) chosen.back() = worst;
    else chosen.push_back(worst);
  }
  pick_evenly(zero, limit - chosen.size(), chosen);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  std::vector<std::array<double, 2>> points;
  for (size_t i : chosen)
    points.push_back({std::log2(std::fabs(num::to_double(x[i], d))), static_cast<double>(*ulps[i])});
  return points;
}

nlohmann::json scatter_json(const std::vector<std::array<double, 2>>& points) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : points) a.push_back({p[0], p[1]});
  return a;
}

}  // namespace kir::report
