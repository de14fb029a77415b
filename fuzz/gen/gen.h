// The valid-by-construction KIR program generator (issue 12 item 2): RapidCheck generators of
// canonical KIR kernels as text, with the extents and input data of one invocation. Every
// program verifies by construction; most also run on the interpreter without a fault (integer
// divisors, shift amounts, float->int casts and data-dependent coordinates are guarded).
// docs/fuzzing.md "Program generator" describes what is generated and how to sample it.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "numerics/dtype.h"

namespace kir::fuzz {

struct GenOptions {
  int max_ops = 12;            // top-level generation steps (each emits one op family, 1..~20 ops)
  bool allow_atomics = true;   // atomic.* ops and scatter_reduce
  // Weight of each family (names: family_names()); a missing entry keeps the default weight,
  // 0 disables the family.
  std::map<std::string, int> family_weights;
  // Dtypes values may have (empty: every dtype of the language). index and bool are always
  // available where coordinates and predicates need them.
  std::vector<DType> dtypes;
  int64_t max_elements = 16384;  // largest tensor a step creates (elements, at the case's extents)
  int64_t max_extent = 65;       // largest value of a dynamic extent symbol
  double special_rate = 0.15;    // share of inputs drawing special values (NaN, inf, ±0, ...)
  bool allow_strided_views = true;  // In views declared with strides/offset
};

struct GeneratedCase {
  std::string kir;     // canonical KIR text with exactly one kernel
  std::string kernel;  // its name
  std::map<std::string, int64_t> dims;  // extent symbol values for this invocation
  // One In/InOut view or runtime scalar parameter. `bits` are in numerics' Scalar::bits layout.
  // A view's bits are its whole storage: row-major `shape` when `strides` is empty, else
  // element (i0, i1, ...) is bits[offset + sum ik * strides[k]]. A scalar has shape {} and
  // one element.
  struct Input {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    std::vector<uint64_t> bits;
    std::vector<int64_t> strides;  // empty: dense row-major
    int64_t offset = 0;
    bool scalar = false;  // a runtime scalar parameter (not a view)
  };
  std::vector<Input> inputs;
  std::vector<std::string> families;  // op families used (coverage statistics), each once
};

rc::Gen<GeneratedCase> gen_case(const GenOptions& o = {});

// Deterministic sampling without the RapidCheck test runner (the campaign uses this): the same
// (seed, size, options) always give the same case; `size` (0..100) scales the number of steps
// and the extents. The Shrinkable's shrinks are valid programs too.
rc::Shrinkable<GeneratedCase> sample_case(uint64_t seed, int size, const GenOptions& o = {});

// How RapidCheck prints a case in a counterexample: its text and extents.
void showValue(const GeneratedCase& c, std::ostream& os);

// Every family name the generator can emit, in a fixed order.
const std::vector<std::string>& family_names();

}  // namespace kir::fuzz
