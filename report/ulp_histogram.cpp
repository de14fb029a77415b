// See ulp_histogram.h.
#include "report/ulp_histogram.h"

#include <cmath>

namespace kir::report {

int UlpHistogram::bucket_of(double u) {
  if (u <= 0) return 0;
  if (u <= 1) return 1;
  if (u <= 2) return 2;
  // (2^(k-1), 2^k] for k = 2..20 is bucket k + 1.
  for (int k = 2; k <= 20; ++k)
    if (u <= std::ldexp(1.0, k)) return k + 1;
  return kFinite - 1;
}

std::string UlpHistogram::label(int b) {
  if (b <= 2) return std::to_string(b);
  if (b == kFinite - 1) return ">2^20";
  const int k = b - 1;
  const int64_t lo = (int64_t{1} << (k - 1)) + 1, hi = int64_t{1} << k;
  return std::to_string(lo) + "-" + std::to_string(hi);
}

void UlpHistogram::add(double ulps) { ++counts_[static_cast<size_t>(bucket_of(ulps))]; }

int64_t UlpHistogram::total() const {
  int64_t n = nan_;
  for (int64_t c : counts_) n += c;
  return n;
}

nlohmann::json UlpHistogram::json() const {
  nlohmann::json out = nlohmann::json::array();
  for (int b = 0; b < kFinite; ++b) {
    nlohmann::json lo = b <= 2 ? b : b == kFinite - 1 ? std::ldexp(1.0, 20) + 1 : std::ldexp(1.0, b - 2) + 1;
    nlohmann::json hi = b <= 2 ? nlohmann::json(b) : b == kFinite - 1 ? nlohmann::json(nullptr) : nlohmann::json(std::ldexp(1.0, b - 1));
    out.push_back({{"bucket", label(b)}, {"lo", lo}, {"hi", hi}, {"count", counts_[static_cast<size_t>(b)]}});
  }
  out.push_back({{"bucket", "NaN mismatch"}, {"lo", nullptr}, {"hi", nullptr}, {"count", nan_}});
  return out;
}

}  // namespace kir::report
