// Maps the manifest validator's check IDs (C*, S*, W*, E*, P*, loader L*) to the manifest rule
// (M1–M19) each enforces, so every rendered diagnostic names both: "... [C37, M7]". The mapping is
// the rule table's (kir/rules/, `parent` of each check).
#pragma once
#include <string>

namespace kir::specs {

// The manifest rule of a check ID, or "" when the check is general (loader/schema plumbing).
std::string checklist_id(const std::string& check);

}  // namespace kir::specs
