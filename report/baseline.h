// Comparing a report with an earlier one (kir report --baseline old.json): per case output and per
// math row, whether the verdict or the largest error got worse (regression), better
// (improvement) or stayed, and which rows are new or gone (docs/report-schema.json `baseline`).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace kir::report {

// The `baseline` object of `current` against `baseline` (both report documents).
nlohmann::json compare_with_baseline(const nlohmann::json& current, const nlohmann::json& baseline, const std::string& path);

}  // namespace kir::report
