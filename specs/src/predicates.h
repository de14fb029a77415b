// The closed set of `requires` predicates (reference §4.3). The constrained tensor's contents
// are the implicit first argument; each predicate reads it at a fixed rank (in_range: any).
#pragma once
#include <string>
#include <vector>

#include "specs/src/value.h"

namespace kir::specs {

struct PredicateDef {
  std::string name;
  std::string args;  // written arguments: 'S' Seq[Int], 'I' Int, 'A' ADT
  int rank = 1;      // rank of the constrained tensor; -1 = any
  std::string doc;
};

const PredicateDef* find_predicate(const std::string& name);
const std::vector<PredicateDef>& all_predicates();

// Checks predicate `name` on contents `x` with written arguments `args`. Returns whether it
// holds; throws EvalError on a domain error (e.g. a chunk size <= 0) or an arity mismatch.
bool check_predicate(const std::string& name, const Value& x, const std::vector<Value>& args);

}  // namespace kir::specs
