// render_markdown: report.md, the tables a reviewer pastes into a pull request. Builds the view of
// templates/report.md.mustache (summary line, op x dtype matrix, cases with FAIL first, the worst
// elements and repro directory of each failure, the math table, the baseline changes); every cell
// goes through md_cell ('|' escaped) when the template expands it.
#include "report/render/format.h"
#include "report/render/model.h"
#include "report/render/render.h"
#include "report/render/summary.h"
#include "report/render/templates.h"

namespace kir::report {
namespace {

using nlohmann::json;

std::string md_verdict(const std::string& v) { return v == "FAIL" ? "**FAIL**" : v; }

json matrix_view(const json& report) {
  Matrix m = verdict_matrix(report);
  json dtypes = json::array(), rows = json::array();
  for (const auto& d : m.dtypes) dtypes.push_back({{"name", d}});
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    json cells = json::array();
    for (const auto& c : m.cells[i]) {
      std::string text = "-";
      if (c.total() > 0) {
        std::string worst = c.worst();
        int n = worst == "FAIL" ? c.fail : worst == "UNSUPPORTED" ? c.unsupported : worst == "SKIP" ? c.skip : c.pass;
        text = md_verdict(worst) + (c.total() > 1 ? " " + std::to_string(n) + "/" + std::to_string(c.total()) : "");
      }
      cells.push_back({{"text", text}});
    }
    rows.push_back({{"op", m.ops[i]}, {"cells", cells}});
  }
  return {{"has_matrix", !m.ops.empty()}, {"dtypes", dtypes}, {"rows", rows}};
}

json element_row(const json& e, const std::string& output) { return element_fields(e, output, "inf", "-"); }

json cases_view(const json& report) {
  const json& cases = field(report, "cases");
  json rows = json::array(), failures = json::array();
  for (std::size_t i : case_order(report)) {
    const json& c = cases[i];
    CaseStats s = case_stats(c);
    std::string verdict = string_field(c, "verdict");
    rows.push_back({{"id", string_field(c, "id")},
                    {"op", string_field(c, "op")},
                    {"row", string_field(c, "row")},
                    {"dtype", string_field(c, "dtype")},
                    {"verdict", md_verdict(verdict)},
                    {"max", format_case_max(s, "inf", "-")},
                    {"mean", s.mean_ulps ? format_number(*s.mean_ulps) : "-"},
                    {"bound", s.bound_kinds.empty() ? "-" : s.bound_kinds},
                    {"ratio", s.max_ratio ? format_number(*s.max_ratio) : "-"},
                    {"reason", string_field(c, "reason")}});
    if (verdict != "FAIL") continue;
    json worst = json::array();
    for (const auto& o : field(c, "outputs")) {
      for (const auto& e : field(o, "worst")) worst.push_back(element_row(e, string_field(o, "name")));
    }
    const json& contract = field(c, "contract");
    const json& ref = field(c, "reference");
    json f = {{"id", string_field(c, "id")},
              {"kernel", string_field(c, "kernel")},
              {"reason", string_field(c, "reason")},
              {"contract", contract_line(contract)},
              {"repro", string_field(c, "repro")},
              {"has_repro", !string_field(c, "repro").empty()},
              {"worst", worst},
              {"has_worst", !worst.empty()},
              {"has_reference", ref.is_object()}};
    if (ref.is_object()) {
      f["reference"] = reference_line(ref);
      const json& rw = field(ref, "worst");
      f["has_reference_worst"] = rw.is_object();
      if (rw.is_object()) f["reference_worst"] = element_row(rw, "");
    }
    failures.push_back(f);
  }
  return {{"has_cases", !rows.empty()}, {"rows", rows}, {"failures", failures}, {"has_failures", !failures.empty()}};
}

json math_view(const json& report) {
  const json& math = field(report, "math");
  json rows = json::array();
  for (const auto& r : field(math, "functions")) {
    std::string verdict = string_field(r, "verdict");
    std::string glibc = format_number(field(r, "glibc_max_ulps"), "-");
    if (!string_field(r, "glibc_function").empty()) glibc += " (" + string_field(r, "glibc_function") + ")";
    rows.push_back({{"function", string_field(r, "function")},
                    {"dtype", string_field(r, "dtype")},
                    {"inputs", string_field(r, "inputs")},
                    {"count", format_number(field(r, "count"), "-")},
                    {"backend", format_number(field(r, "backend_max_ulps"), "inf")},
                    {"contract", format_number(field(r, "contract_ulps"), "-")},
                    {"glibc", glibc},
                    {"verdict", md_verdict(verdict)},
                    {"reason", string_field(r, "reason")}});
  }
  bool not_run = number_of(field(math, "samples")).value_or(0) <= 0;
  return {{"has_rows", !rows.empty()},
          {"not_run", not_run},
          {"samples", format_number(field(math, "samples"), "0")},
          {"seed", format_number(field(math, "seed"), "0")},
          {"rows", rows}};
}

json baseline_view(const json& report) {
  const json& b = field(report, "baseline");
  if (!b.is_object()) return {{"present", false}};
  const BaselineRows rows = baseline_rows(b, "-");
  json shown = json::array();
  for (const auto& r : rows.shown)
    shown.push_back({{"change", r.change == "regression" ? "**regression**" : r.change},
                     {"id", r.id},
                     {"output", r.output.empty() ? "-" : r.output},
                     {"what", r.what},
                     {"before", r.before},
                     {"after", r.after}});
  return {{"present", true},
          {"path", string_field(b, "path")},
          {"rows", shown},
          {"has_rows", !shown.empty()},
          {"same", std::to_string(rows.same)},
          {"has_same", rows.same > 0}};
}

// kainjow keeps the newline after a standalone section tag: three or more newlines become two.
std::string squeeze_blank_lines(const std::string& s) {
  std::string out;
  int newlines = 0;
  for (char c : s) {
    newlines = c == '\n' ? newlines + 1 : 0;
    if (newlines <= 2) out += c;
  }
  return out;
}

}  // namespace

std::string render_markdown(const nlohmann::json& report) {
  json view = {{"kir_version", string_field(report, "kir_version")},
               {"backend", string_field(report, "backend")},
               {"inputs", join_inputs(report)},
               {"has_inputs", !join_inputs(report).empty()},
               {"summary", summary_line(report, SummaryStyle::markdown)},
               {"matrix", matrix_view(report)},
               {"cases", cases_view(report)},
               {"math", math_view(report)},
               {"baseline", baseline_view(report)}};
  return squeeze_blank_lines(render_template(Template::markdown, view, Escape::markdown));
}

}  // namespace kir::report
