// Shared machinery for op verifiers: diagnostics that name the op, operand/result/attribute
// checks, the symbolic extent of index values, and type schema comparison.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "kir/ir.h"
#include "kir/verify/verifier.h"

namespace kir::verify {

class Context {
 public:
  Context(const Module& m, Diagnostics& d, const VerifyOptions& o) : module(m), diags(d), opts(o) {}
  const Module& module;
  Diagnostics& diags;
  const VerifyOptions& opts;
  const Function* function = nullptr;  // being verified

  // "op 'name': message" at the op's location, tagged with the rule.
  void error(const Operation& op, const std::string& rule, const std::string& message);
  void error(const Location& loc, const std::string& rule, const std::string& message);

  // Arity checks; each reports under `rule` and returns false on mismatch.
  bool operands(const Operation& op, size_t n, const std::string& rule);
  bool operands_between(const Operation& op, size_t lo, size_t hi, const std::string& rule);
  bool results(const Operation& op, size_t n, const std::string& rule);
  bool regions(const Operation& op, size_t n, const std::string& rule);
  // Attribute access; a missing or ill-typed required attribute is reported under `rule`.
  const Attribute* attr(const Operation& op, const std::string& key, Attribute::Kind kind, const std::string& rule,
                        bool required = true);
  std::optional<std::vector<int64_t>> int_list_attr(const Operation& op, const std::string& key, const std::string& rule,
                                                    bool required = true);
  std::optional<std::vector<std::pair<int64_t, int64_t>>> pairs_attr(const Operation& op, const std::string& key,
                                                                     const std::string& rule, bool required = true);
  std::optional<bool> bool_attr(const Operation& op, const std::string& key, const std::string& rule, bool dflt);
  // Reports every attribute key not in `allowed`.
  void only_attrs(const Operation& op, std::initializer_list<const char*> allowed, const std::string& rule);

  // The symbolic extent an index-typed value stands for: constants fold, dim(x) gives x's
  // extent, + - * combine; any other index value is its own symbol `%name` (identity).
  Extent extent_of(const Value* v);

  // The helper named by a symbol attribute (e.g. combine = @f); reports if missing.
  const Function* callee(const Operation& op, const std::string& key, const std::string& rule);

  // Binds a helper's extent symbols by unifying declared parameter types with actual types.
  // Returns false (and fills `why`) when they do not match.
  bool unify(const Type& declared, const Type& actual, std::map<std::string, Extent>& binding, std::string& why);

  // True if `t` is a scalar/tensor whose dtype satisfies pred (per component for tuple/record).
  static bool all_components(const Type& t, const std::function<bool(const Type&)>& pred);

 private:
  std::unordered_map<const Value*, Extent> extent_cache_;
};

// Per-family verifiers; each registers the ops it owns.
using OpCheck = std::function<void(const Operation&, Context&)>;
using OpTable = std::map<std::string, OpCheck, std::less<>>;

void register_value_ops(OpTable& t);       // const, pointwise, compare, unary, conversions, shape, aggregates
void register_domain_ops(OpTable& t);      // domain, subregion, indices, relation
void register_control_ops(OpTable& t);     // if, for, while, parallel, yield, condition, break, continue, return, call
void register_structured_ops(OpTable& t);  // reduce, scan, region_fold, region_scan, contract, scaled/sparse, quantize, histogram
void register_memory_ops(OpTable& t);      // gather, view/buffer load/store, unique_store, scatter_reduce, atomics, random

// Module-level rules: symbols, enums (L2.6), kernel/helper signatures (L1, L2), recursion (L1.3),
// effects of helpers used as combines (L7.2, L9.2), parallel conflicts (L5.1).
void verify_module_rules(Context& cx);

}  // namespace kir::verify
