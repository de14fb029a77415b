// The closed set of generators (a tensor's `values:`, reference §4.2): deterministic ones
// (prefix sums, chunk and token indices, ...) and seeded random ones (page tables, top-k ids,
// ...). Each random generator call draws from a fresh private CPython-exact
// random.Random(WORKLOAD_SEED ^ crc32("<Op>:<tensor>")) (py_random.h) with the same calls
// (sample, randint, randrange) as the Python reference, so kir draws the reference's values.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "specs/src/py_random.h"
#include "specs/src/value.h"

namespace kir::specs {

inline constexpr uint32_t kWorkloadSeed = 1235;

uint32_t crc32(const std::string& s);  // zlib's CRC-32 of the bytes

// The private generator of one random generator call or data draw: random.Random(1235 ^ crc32(key)),
// or with another base seed in place of 1235 (datagen's DataOptions::seed).
PyRandom seeded_random(const std::string& key, uint32_t seed = kWorkloadSeed);

// Argument kinds in generator/predicate signatures: 'S' Seq[Int], 'I' Int, 'E' enum string,
// 'A' ADT (MGroupedLayout).
struct GeneratorDef {
  std::string name;
  std::string args;        // one letter per argument
  bool random = false;
  int rank = 0;            // fixed rank of the result; -1: len(first argument) (`full`)
  std::function<Value(const std::vector<Value>&, PyRandom&)> impl;
  std::string doc;
};

const GeneratorDef* find_generator(const std::string& name);
const std::vector<GeneratorDef>& all_generators();

// Runs a generator; `seed_key` is "<Op>:<tensor>". Throws EvalError on a domain error.
Value run_generator(const std::string& name, const std::vector<Value>& args, const std::string& seed_key);

// Flattens a nested integer Value; `shape` receives its (rectangular) shape.
std::vector<mpz_class> flatten(const Value& v, std::vector<long>& shape);

}  // namespace kir::specs
