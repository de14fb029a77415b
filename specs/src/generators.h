// The closed set of generators (a tensor's `values:`, reference §4.2): deterministic ones
// (prefix sums, chunk and token indices, ...) and seeded random ones (page tables, top-k ids,
// ...). Random generators draw from a private stream seeded by WORKLOAD_SEED xor
// crc32("<Op>:<tensor>"), so one op/tensor/arguments always yields the same contents. The
// stream is our own (SplitMix-seeded xoshiro) — the documented properties and the `requires`
// predicates are matched, not CPython's Mersenne Twister bit for bit.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "specs/src/value.h"

namespace kir::specs {

inline constexpr uint32_t kWorkloadSeed = 1235;

uint32_t crc32(const std::string& s);

// A small deterministic PRNG (xoshiro256**) with unbiased bounded draws.
class SpecRng {
 public:
  explicit SpecRng(uint64_t seed);
  uint64_t next();
  uint64_t below(uint64_t n);                      // uniform in [0, n), n > 0
  std::vector<uint64_t> sample(uint64_t n, uint64_t k);  // k distinct values of [0, n), random order

 private:
  uint64_t s_[4];
};

// Argument kinds in generator/predicate signatures: 'S' Seq[Int], 'I' Int, 'E' enum string,
// 'A' ADT (MGroupedLayout).
struct GeneratorDef {
  std::string name;
  std::string args;        // one letter per argument
  bool random = false;
  int rank = 0;            // fixed rank of the result; -1: len(first argument) (`full`)
  std::function<Value(const std::vector<Value>&, SpecRng&)> impl;
  std::string doc;
};

const GeneratorDef* find_generator(const std::string& name);
const std::vector<GeneratorDef>& all_generators();

// Runs a generator; `seed_key` is "<Op>:<tensor>". Throws EvalError on a domain error.
Value run_generator(const std::string& name, const std::vector<Value>& args, const std::string& seed_key);

// Flattens a nested integer Value; `shape` receives its (rectangular) shape.
std::vector<mpz_class> flatten(const Value& v, std::vector<long>& shape);

}  // namespace kir::specs
