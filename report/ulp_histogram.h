// The ulp-error histogram of kir report (docs/report-schema.json): buckets '0', '1', '2', '3-4',
// '5-8', ... doubling up to 2^20, then '>2^20' and 'NaN mismatch' (one side NaN, the other not).
// One definition for the per-output errors and the math section, so their plots compare.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace kir::report {

class UlpHistogram {
 public:
  static constexpr int kFinite = 23;  // 0, 1, 2, (2,4], (4,8], ..., (2^19,2^20], >2^20
  void add(double ulps);              // a finite error (integer-valued, >= 0)
  void add_nan_mismatch() { ++nan_; }
  int64_t total() const;
  // [{"bucket": "0", "lo": 0, "hi": 0, "count": n}, ...]: every bucket, empty ones included.
  nlohmann::json json() const;
  static int bucket_of(double ulps);
  static std::string label(int bucket);

 private:
  std::array<int64_t, kFinite> counts_{};
  int64_t nan_ = 0;
};

}  // namespace kir::report
