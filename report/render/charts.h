// The HTML report's two kinds of plot, built from report.json fields: the ulp-error histogram (a bar
// chart of the `histogram` buckets, counts on a log scale) and the error-against-magnitude scatter
// (`scatter` points [log2|value|, ulps], errors on a log2(1 + ulps) scale, optionally with the
// contract's bound as a dashed line and a second series, e.g. glibc beside the backend).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kir::report {

// One inline <svg class="`css_class`">; an empty or absent histogram draws an empty frame saying so.
std::string histogram_chart(const nlohmann::json& histogram, std::string_view css_class, std::string_view title);

struct ScatterSeries {
  const nlohmann::json* points;  // array of [x, ulps]; non-numeric or non-finite points are skipped
  std::string css_class;         // "pt-backend", "pt-glibc"
  std::string legend;            // "" for no legend entry
};

// One inline <svg class="`css_class`"> with every series; `bound` draws the allowed error.
std::string scatter_chart(const std::vector<ScatterSeries>& series, std::optional<double> bound,
                          std::string_view x_label, std::string_view css_class, std::string_view title);

}  // namespace kir::report
