// Shared machinery of the validator and the instantiator: discriminant points (every
// combination of Bool/enum params, ADT constructors × finite fields, Maybe presence,
// `optional: true` presence and present(out)), folding at a point (which arms of conditionals
// and and/or are live, which names are relevant), type-family branch selection, and the
// inference plan that solves indices from input shapes (unification, reference §3).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "specs/src/expr_eval.h"
#include "specs/src/model.h"

namespace kir::specs {

// One discriminant point: values of discriminant params (Maybe params: None when absent; the
// presence map says present), presence of `optional: true` tensors and `out`.
struct Point {
  Env env;
  std::string describe() const;  // "trans_a=True, present(bias)=False"
};

// Every point of the op (capped at `cap`; `total` receives the uncapped count).
std::vector<Point> enumerate_points(const OpSpec& op, const Manifest& m, size_t cap, size_t& total);

// Names that decide points: discriminant params and optional:true tensors.
std::set<std::string> discriminant_names(const OpSpec& op);

// Evaluates `e` at `env`; nullopt when it reads a name the env does not know or fails.
std::optional<Value> try_eval(const Expr& e, const Env& env, std::string* err = nullptr);

// Adds to `out` the free names of `e` that are live at `env` (decided conditionals and
// and/or operands are folded away).
void live_names(const Expr& e, const Env& env, std::set<std::string>& out);

// Presence of every tensor at the point (optional expressions and nullable folded); nullopt
// entries are undecided.
std::map<std::string, bool> tensor_presence(const OpSpec& op, const Env& env);

// A shape resolved at a point: axis expressions (Star nodes for splices) with the conditionals
// the point decides folded to their live arms (fold.h), or the error.
struct ResolvedShape {
  std::vector<ExprPtr> axes;
  bool ok = false;
  std::string error;
  int matches = 0;          // family applications: how many cases matched
  std::string family;       // family name when the shape applied one
};
ResolvedShape resolve_shape(const OpSpec& op, const Manifest& m, const ShapeField& s, const Env& env);

// Names relevant at a point (§7.1 of the format): read by present tensors' resolved shapes
// (`shapes`) and dtypes, refinements, an inline roofline and — with `metadata` — generator
// arguments (`values`) and `requires`; lets pass on what they read. Without `metadata` the
// result is what a call itself reads: an index only a generator or a predicate reads is given
// by the workload row and need not be solvable from input shapes.
std::set<std::string> relevant_names(const OpSpec& op, const Env& env, const std::map<std::string, bool>& presence,
                                     const std::map<std::string, ResolvedShape>& shapes, bool metadata = true);

// Does a family-case pattern (`when` node) match a value?
bool pattern_matches(const YAML::Node& pat, const Value& v);

// Replaces names by expressions (type-family formals by arguments).
ExprPtr substitute(const ExprPtr& e, const std::map<std::string, ExprPtr>& subst);

// Unification of one concrete axis size against an axis expression with `known` values: binds
// the single unknown name of `M`, `a*M + e`, `M + e`, `M - e`, `e + M` when possible.
// Returns "" on success (bound or checked), else a message.
std::string unify_axis(const Expr& axis, const mpz_class& size, Env& env, bool& bound);

// Unifies a concrete shape with resolved axes (handles one `*S` splice of a Shape index).
std::string unify_shape(const std::vector<ExprPtr>& axes, const std::vector<mpz_class>& shape, Env& env,
                        const std::set<std::string>& shape_indices);

}  // namespace kir::specs
