// CPython 3.11's `random.Random`, re-implemented from the algorithm's description so that the
// random generators (reference §4.2: `random.Random(WORKLOAD_SEED ^ crc32("<Op>:<tensor>"))`)
// draw exactly the values the Python reference draws: MT19937 seeded by init_by_array with the
// 32-bit words of |seed|, getrandbits (least significant word first), the rejection-sampling
// `_randbelow_with_getrandbits`, randrange/randint, the 53-bit random(), gauss (Box-Muller with
// the cached second value), shuffle, and sample with its pool and set strategies.
#pragma once
#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace kir::specs {

class PyRandom {
 public:
  explicit PyRandom(const mpz_class& seed);  // random.Random(seed) for an int seed

  uint32_t genrand_uint32();
  mpz_class getrandbits(unsigned long k);
  uint64_t getrandbits64(unsigned k);  // k <= 64, the same draws as getrandbits(k)

  // random._randbelow_with_getrandbits: n > 0.
  mpz_class randbelow(const mpz_class& n);
  uint64_t randbelow(uint64_t n);

  // Python's argument rules; an empty range or zero step throws EvalError with Python's message.
  mpz_class randrange(const mpz_class& stop);
  mpz_class randrange(const mpz_class& start, const mpz_class& stop, const mpz_class& step = 1);
  mpz_class randint(const mpz_class& a, const mpz_class& b);
  double random();
  double gauss(double mu = 0.0, double sigma = 1.0);

  template <class T>
  void shuffle(std::vector<T>& x) {
    for (size_t i = x.size(); i-- > 1;) std::swap(x[i], x[randbelow(static_cast<uint64_t>(i + 1))]);
  }

  // sample(range(n), k): k distinct values of [0, n) in selection order.
  std::vector<uint64_t> sample_range(uint64_t n, uint64_t k);
  // sample(population, k) for a list population.
  template <class T>
  std::vector<T> sample(const std::vector<T>& population, uint64_t k) {
    std::vector<T> out;
    for (uint64_t j : sample_range(population.size(), k)) out.push_back(population[j]);
    return out;
  }

 private:
  std::array<uint32_t, 624> mt_{};
  size_t index_ = 624;
  std::optional<double> gauss_next_;
};

}  // namespace kir::specs
