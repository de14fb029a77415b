// The reduction passes of the KIR reducer (reduce.h), internal to fuzz/campaign/reduce. A pass
// lists candidates on the current program; each candidate edits a clone of it (and the
// arguments, for extent shrinking). The driver (reduce.cpp) prints, parses, verifies, measures
// and judges the result.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fuzz/campaign/reduce/reduce.h"
#include "kir/ir.h"

namespace kir::fuzz::reduce_detail {

struct State {
  std::string kernel;
  KernelArgs args;
  std::map<std::string, int64_t> dims;
};

struct Candidate {
  std::string what;
  std::function<bool(Module&, State&)> apply;  // false: not applicable (nothing to try)
  // Where it acts (an op's first result name, an extent symbol, ...): after an accepted step the
  // pass goes on at the first candidate of the next place it had not tried yet.
  std::string anchor;
};

struct Pass {
  std::string name;
  std::function<std::vector<Candidate>(const Module&, const State&)> candidates;
  bool restart = false;  // after an accepted step, start over (candidates ordered by size, not place)
};

std::vector<Pass> reduction_passes(const ReduceOptions& o);

// How far a `const` value is from the simplest values (0, then 1, ...): the reducer's measure.
int64_t const_complexity(const Attribute& a);

}  // namespace kir::fuzz::reduce_detail
