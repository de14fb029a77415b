// Maps the reference's validator check IDs (L*, S*, C*, E*, W*) to the project checklist's
// manifest IDs (M1–M19, ../shared/docs/checklist.md), so every rendered diagnostic names both:
// "... [C37, M7]".
#pragma once
#include <string>

namespace kir::specs {

// The checklist ID of a check ID, or "" when the check is general (loader/schema plumbing).
std::string checklist_id(const std::string& check);

}  // namespace kir::specs
