// Loading manifests: family files (`<family>[_<shard>].yaml`, a mapping op name → spec) and
// `types.yaml` (`{adts: ...}`), with the loader checks (L1–L7) and the schema-level checks
// (S1–S15, and the reading checks C1–C13 of signatures) reported as they are read. What reads
// cleanly lands in the Manifest for the signature-level checks.
#pragma once
#include <string>
#include <vector>

#include "specs/src/diag.h"
#include "specs/src/model.h"

namespace kir::specs {

// Loads files and directories (recursively: every *.yaml; types.yaml is the ADT file). When no
// types.yaml is among the paths, one next to the first file (or its parent folder) is used.
void load_paths(const std::vector<std::string>& paths, Manifest& m, SpecDiags& d);

// Loads one family file / types file from text (tests, fuzzing).
void load_family_text(const std::string& text, const std::string& file, Manifest& m, SpecDiags& d);
void load_types_text(const std::string& text, const std::string& file, Manifest& m, SpecDiags& d);

// Parses an expression field, reporting C12/C13 at its location.
ExprField read_expr(const YAML::Node& n, const std::string& file, const std::string& op, SpecDiags& d,
                    const std::string& what);

}  // namespace kir::specs
