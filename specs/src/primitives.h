// The closed set of primitives callable in manifest expressions (reference §4.1): shape
// primitives (broadcast, reduced, ...), axis predicates, arithmetic helpers, family-prefixed
// members (conv.out, pool.out, moe.capacity, mhc.expansion), dtype primitives, value primitives
// (balanced_sizes, repeat) and the scalar-range primitives (category, representable).
// Each raises EvalError on a domain error; callers prefix the declaration that made the call.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "specs/src/value.h"

namespace kir::specs {

struct PrimitiveDef {
  std::string name;
  std::vector<std::string> params;     // positional-or-keyword slot names, in order
  size_t required = 0;                 // how many leading slots must be given
  bool variadic = false;               // broadcast(*shapes)
  bool value_primitive = false;        // may appear in row Seq[Int] values and generator args
  std::function<Value(const std::vector<Value>&)> impl;  // args bound to slots (missing = None)
  std::string doc;
};

const PrimitiveDef* find_primitive(const std::string& name);
const std::vector<PrimitiveDef>& all_primitives();

// Binds positional and keyword arguments to a definition's slots; EvalError on arity problems
// (messages: "takes at most N arguments", "misses argument K", "has no keyword 'x'").
std::vector<Value> bind_args(const PrimitiveDef& def, const std::vector<Value>& positional,
                             const std::vector<std::pair<std::string, Value>>& keywords);

// The axis rule shared by every axis-taking primitive: rank 0 accepts 0 and -1 (the scalar
// axis); rank r > 0 accepts [-r, r) taken modulo r. Returns false when the axis is invalid.
bool normalize_axis(const mpz_class& axis, long rank, long& out);

Value call_primitive(const std::string& name, const std::vector<Value>& positional,
                     const std::vector<std::pair<std::string, Value>>& keywords);

}  // namespace kir::specs
