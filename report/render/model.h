// What both renderings compute from a report before templating: per case the aggregate over its
// outputs (largest and mean error, bound kinds, largest ratio), the order of the case table (FAIL
// first), the op x dtype verdict matrix and the order of the baseline rows. Kept apart from the
// templates so the two renderings cannot disagree on a number or an order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kir::report {

// A case's outputs taken together.
struct CaseStats {
  std::optional<double> max_ulps;   // largest finite max_ulps over the outputs
  bool max_infinite = false;        // some output has a NaN mismatch (max_ulps null, non_finite > 0)
  std::optional<double> mean_ulps;  // element-weighted mean of the outputs' means (finite ones)
  std::optional<double> max_ratio;  // largest max_ratio over the outputs
  std::string bound_kinds;          // distinct bound kinds in output order, "exact, envelope"
};
CaseStats case_stats(const nlohmann::json& c);

// "inf" if infinite, the number if known, otherwise `when_none`.
std::string format_case_max(const CaseStats& s, std::string_view inf, std::string_view when_none);

// Indices into report["cases"]: FAIL cases first, then the others; each group in input order.
std::vector<std::size_t> case_order(const nlohmann::json& report);

// The op x dtype matrix: one cell per (op, dtype) with the counts of each verdict.
struct MatrixCell {
  int pass = 0, fail = 0, unsupported = 0, skip = 0;
  int total() const { return pass + fail + unsupported + skip; }
  std::string worst() const;  // FAIL > UNSUPPORTED > SKIP > PASS; "" when empty
};
struct Matrix {
  std::vector<std::string> ops;     // sorted
  std::vector<std::string> dtypes;  // sorted
  std::vector<std::vector<MatrixCell>> cells;  // [op][dtype]
};
Matrix verdict_matrix(const nlohmann::json& report);

// Indices into baseline["rows"]: regressions, improvements, new, gone, then unchanged rows.
std::vector<std::size_t> baseline_order(const nlohmann::json& baseline);
int baseline_rank(std::string_view change);

// The changed rows of a baseline comparison in baseline_order, each side as "VERDICT, N ulp"
// (`none` when a side has neither), and how many unchanged rows were left out.
struct BaselineRow {
  std::string change, id, output, what, before, after;
};
struct BaselineRows {
  std::vector<BaselineRow> shown;
  int same = 0;
};
BaselineRows baseline_rows(const nlohmann::json& baseline, std::string_view none);

// One worst element's fields for a table row (output, coord, got, exact, ulps, allowed); an
// element without its own output name belongs to `output`. `inf` marks a NaN mismatch's error,
// `none` a missing allowed bound.
nlohmann::json element_fields(const nlohmann::json& e, const std::string& output, std::string_view inf, std::string_view none);

// The number of cases in report["cases"] with this verdict (the summary is shown as written).
int count_verdict(const nlohmann::json& report, std::string_view verdict);

}  // namespace kir::report
