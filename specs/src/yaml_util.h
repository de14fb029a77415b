// YAML helpers: loading a file without throwing, locations of nodes (yaml-cpp marks are
// 0-based; ours are 1-based), and PyYAML-compatible resolution of plain scalars (null, bool,
// int, float, str) so manifests mean here what they mean to the reference's loader.
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "specs/src/diag.h"
#include "specs/src/value.h"

namespace kir::specs {

// Parses `text`; on a YAML error returns nullopt and fills `err` with the location and message.
std::optional<YAML::Node> load_yaml(const std::string& text, const std::string& file, Loc& err_loc, std::string& err);

Loc loc_of(const YAML::Node& n, const std::string& file);

enum class ScalarType { Null, Bool, Int, Float, Str };
// Type of a scalar node: quoted scalars are strings; plain ones resolve like PyYAML (YAML 1.1).
ScalarType scalar_type(const YAML::Node& n);
// The scalar's value (Null → None, Bool, Int (arbitrary precision), Float incl. .inf, Str).
Value scalar_value(const YAML::Node& n);
// Converts any node (scalars, sequences; mappings are rejected) to a Value.
std::optional<Value> plain_value(const YAML::Node& n, int depth = 0);

bool is_identifier(const std::string& s);
std::string node_type_name(const YAML::Node& n);  // "mapping", "list", "string", "int", ...

}  // namespace kir::specs
