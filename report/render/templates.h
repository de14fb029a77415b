// The one door to the Mustache library (kainjow/mustache): renders an embedded template with a view
// built as JSON by the renderers. Keeping kainjow behind this file keeps its header (a SYSTEM,
// PRIVATE include of kir_report) out of every other translation unit.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kir::report {

enum class Template { markdown, html };
enum class Escape { html, markdown };

// Renders `which` with `view`. JSON objects, arrays, strings and booleans map to Mustache objects,
// lists, strings and booleans; numbers to their JSON text; null to false. `{{x}}` escapes with
// `escape` (html_escape or md_cell), `{{{x}}}` does not. The HTML template gets the partials
// `{{>style}}` and `{{>script}}` (report.css, report.js). Throws std::runtime_error on a template
// error.
std::string render_template(Template which, const nlohmann::json& view, Escape escape);

}  // namespace kir::report
