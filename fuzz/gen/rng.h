// The choice source of one generation step: a splitmix64 stream seeded from the step's plan
// entry, so a program is a pure function of its plan (deterministic sampling, valid shrinks).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace kir::fuzz {

inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(mix64(seed)) {}
  uint64_t next() { return mix64(s_++); }
  // Uniform in [0, n); n == 0 gives 0.
  size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(below(static_cast<size_t>(hi - lo + 1))); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  // Index by weight (all zero: 0).
  size_t weighted(const std::vector<int>& w) {
    int64_t total = 0;
    for (int x : w) total += x > 0 ? x : 0;
    if (total == 0) return 0;
    int64_t r = static_cast<int64_t>(below(static_cast<size_t>(total)));
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] <= 0) continue;
      if (r < w[i]) return i;
      r -= w[i];
    }
    return 0;
  }
  // An index biased toward the end of a sequence of n (recent values are picked more often).
  size_t recent(size_t n) {
    size_t a = below(n), b = below(n);
    return a > b ? a : b;
  }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
  template <typename T>
  T pick(std::initializer_list<T> v) { return v.begin()[below(v.size())]; }

 private:
  uint64_t s_;
};

}  // namespace kir::fuzz
