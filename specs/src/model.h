// The in-memory form of loaded manifests: every op spec with its signature (forall indices,
// params, construction-time tensors, inputs, outputs, type families, lets, shape_rules,
// dtype_combos), workloads, roofline and composition; and the ADTs of types.yaml. Every
// declaration keeps the location of its YAML node; every expression is kept parsed.
#pragma once
#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "specs/src/diag.h"
#include "specs/src/expr_parser.h"
#include "specs/src/kind.h"

namespace kir::specs {

// An expression field: its text, where it is, and its parse (null when it did not parse; the
// parse error was reported once and checks reading it are skipped).
struct ExprField {
  std::string text;
  Loc loc;
  ExprPtr expr;
  bool ok() const { return expr != nullptr; }
};

struct ShapeField {
  std::string text;
  Loc loc;
  ShapeExpr shape;
  bool parsed = false;
};

enum class Role { CtorTensor, Input, Output };

struct TensorDecl {
  std::string name;
  Role role = Role::Input;
  Loc loc;
  ExprField dtype;
  ShapeField shape;
  bool contiguous = false;
  enum class Opt { No, Own, Expr } optional = Opt::No;  // Own: optional: true
  ExprField optional_expr;
  std::optional<ExprField> nullable;
  bool device_cpu = false;
  std::optional<ExprField> values;
  std::vector<ExprField> reqs;  // `requires:` entries
  enum class Mut { No, Yes, When } mutated = Mut::No;
  ExprField mutated_expr;
  bool write_only = false;
  bool buffer_out = false;
  std::string alias;
  Loc alias_loc;
};

struct ParamDecl {
  std::string name;
  Loc loc;
  std::string type_text;
  Loc type_loc;
  std::optional<Kind> kind;  // null when the type is malformed
  YAML::Node default_node;
  bool has_default = false;
  bool kw_only = false;
};

struct IndexDecl {
  std::string name;
  Loc loc;
  std::string text;
  std::optional<Kind> kind;
};

struct FamilyCase {
  YAML::Node when;
  Loc loc;
  ShapeField is;
};

struct FamilyDecl {
  std::string name;
  Loc loc;
  std::vector<std::pair<std::string, Kind>> params;
  std::vector<ExprField> match;
  bool match_is_list = false;
  std::vector<FamilyCase> cases;
  bool ok = false;
};

struct LetDecl {
  std::string name;
  ExprField expr;
};

struct ComboRow {
  std::vector<std::pair<std::string, std::string>> entries;
  Loc loc;
};

struct Roofline {
  bool present = false;
  Loc loc;
  std::optional<ExprField> flops, bytes;
  std::string func;
};

struct Stage {
  std::string name, op, kernel;
  bool optional = false;
  Loc loc;
};

struct OpSpec {
  std::string name;
  Loc loc;
  std::string file;
  std::string family, status, ref_api;
  bool signature_ok = false;  // signature read well enough for the signature-level checks
  std::vector<IndexDecl> forall;
  std::vector<ParamDecl> params;
  std::vector<TensorDecl> ctor_tensors, inputs, outputs;
  std::vector<FamilyDecl> families;
  std::vector<LetDecl> lets;
  std::vector<ExprField> shape_rules;
  std::vector<ComboRow> combos;
  Loc combos_loc;
  YAML::Node workloads;
  Loc workloads_loc;
  Roofline roofline;
  bool has_composition = false;
  std::vector<Stage> stages;

  const TensorDecl* tensor(const std::string& n) const;
  const ParamDecl* param(const std::string& n) const;
  const IndexDecl* index(const std::string& n) const;
  const LetDecl* let(const std::string& n) const;
  const FamilyDecl* family_decl(const std::string& n) const;
  std::vector<const TensorDecl*> all_tensors() const;  // ctor tensors, inputs, outputs
};

struct AdtCtor {
  std::string name;
  std::string python;
  Loc loc;
  std::vector<std::pair<std::string, Kind>> fields;
  std::optional<ExprField> invariant;
};

struct AdtDecl {
  std::string name;
  Loc loc;
  std::vector<AdtCtor> ctors;
  const AdtCtor* ctor(const std::string& n) const;
};

struct Manifest {
  std::vector<OpSpec> ops;
  std::map<std::string, AdtDecl> adts;
  std::vector<std::string> files;
  const OpSpec* op(const std::string& name) const;
};

}  // namespace kir::specs
