// The kind checker of manifest expressions (reference §3, checks C14–C32, C38 statically):
// infers the kind of an expression in the scope of one field (shape, dtype, rule, let, presence
// condition, roofline, values, requires, family case or match, ADT invariant), with guard
// narrowing — `present(v)` makes `v.value` legal, `x.kind == 'c'` makes constructor c's fields
// legal — flowing through not/and/or and the conditional's arms. The first error in an
// expression is reported; the rest of it is not checked (no cascades).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>

#include "specs/src/diag.h"
#include "specs/src/expr_ast.h"
#include "specs/src/kind.h"
#include "specs/src/model.h"

namespace kir::specs {

enum class FieldKind { Shape, Dtype, Rule, Let, Presence, Roofline, Values, Requires, FamilyCase, FamilyMatch, Invariant };

struct KindScope {
  const Manifest* manifest = nullptr;
  FieldKind field = FieldKind::Rule;
  std::map<std::string, Kind> names;      // visible value names and their kinds
  std::set<std::string> tensors;          // tensor names (present(t), bytes(t))
  std::set<std::string> seq_indices;      // Seq[Int] forall indices
  std::set<std::string> value_params;     // Value-kind params (take no part in types)
  std::set<std::string> families;         // type-family names
  std::set<std::string> maybe_names;      // Maybe params and optional tensors (present())
  std::set<std::string> declared_elsewhere;  // names declared but not visible here (family cases)
  bool has_out = false;                   // present(out) is legal
  // Narrowing facts at entry (family cases: constructor of matched ADT formals).
  std::map<std::string, std::string> ctor_facts;
  // Lets whose own check failed: the let's error is the root cause, reported once, and an
  // expression reading one fails quietly with kFailedLetId instead of "not declared".
  std::set<std::string> failed_lets;
};

inline constexpr const char* kFailedLetId = "failed-let";

// Builds the scope of an op for a field kind (lets must already have kinds in `let_kinds`).
KindScope op_scope(const OpSpec& op, const Manifest& m, FieldKind field, const std::map<std::string, Kind>& let_kinds);

// Returns the kind or nullopt after reporting one error "<what>: <message> [ID]" at `loc`
// (nothing when the expression only reads a failed let).
std::optional<Kind> check_kind(const Expr& e, const KindScope& scope, SpecDiags& d, const Loc& loc,
                               const std::string& op, const std::string& what);

// Same, without reporting: the message goes to `err`.
std::optional<Kind> infer_kind(const Expr& e, const KindScope& scope, std::string& err, std::string& id);

// Names an expression reads (free names, excluding comprehension targets and call names).
void free_names(const Expr& e, std::set<std::string>& out);

}  // namespace kir::specs
