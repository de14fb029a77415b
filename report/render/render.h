// The two human renderings of a report.json document (docs/report-schema.json, kir-report/1):
// report.md, tables a reviewer pastes into a pull request, and report.html, one self-contained page
// (inline CSS, SVG and a little JS; no network) with plots. Both are Mustache templates
// (report/render/templates/) filled from a view the renderer computes in C++.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kir::report {

// `report` must validate against docs/report-schema.json; optional fields may be absent and every
// section may be empty (no cases, math.samples == 0 or no functions, no baseline).
// Throws std::runtime_error if a template fails to parse (a build defect).
std::string render_markdown(const nlohmann::json& report);
std::string render_html(const nlohmann::json& report);

}  // namespace kir::report
