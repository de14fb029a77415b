// One-line texts both renderings print: the summary line of the report, the overall verdict, the
// inputs, and a case's contract and reference outcomes in words.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kir::report {

enum class SummaryStyle { markdown, text };

// "5 cases: 2 PASS, 1 FAIL, 1 UNSUPPORTED, 1 SKIP; 4 ops; dtypes f16, f32; math: 1 FAIL of 3;
// baseline: 1 regression, 1 improvement" (markdown: the overall verdict first, in bold).
std::string summary_line(const nlohmann::json& report, SummaryStyle style);

// FAIL when some case or some math row failed, otherwise PASS.
std::string overall_verdict(const nlohmann::json& report);

// The report's inputs joined by ", " ("" when none).
std::string join_inputs(const nlohmann::json& report);

// "wrong (rule R) in op %x at LOC: detail"; "pass" when nothing else is known.
std::string contract_line(const nlohmann::json& contract);

// "fail (tolerance T): message".
std::string reference_line(const nlohmann::json& reference);

}  // namespace kir::report
