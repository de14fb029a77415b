// render_html: report.html, one self-contained page (no network). Builds the view of
// templates/report.html.mustache: the summary badges, the op x dtype matrix, the sortable case table,
// one collapsible block per case with each output's histogram and scatter SVG (charts.h), its worst
// elements and the reference comparison, the math section with backend-vs-glibc plots, the baseline
// changes. Strings reach the page escaped: `{{x}}` by the template, SVG text by svg.h.
#include <cstdio>

#include "report/render/charts.h"
#include "report/render/format.h"
#include "report/render/model.h"
#include "report/render/render.h"
#include "report/render/summary.h"
#include "report/render/templates.h"

namespace kir::report {
namespace {

using nlohmann::json;

// The value a numeric column sorts by (data-v): "Infinity" for a NaN mismatch, "" when none.
std::string sort_value(std::optional<double> v, bool infinite = false) {
  if (infinite) return "Infinity";
  if (!v) return "";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", *v);
  return buf;
}

std::string plural(long long n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

json badge(const std::string& text, const std::string& cls) { return {{"text", text}, {"cls", cls}}; }

json badges_view(const json& report) {
  const json& s = field(report, "summary");
  auto n = [&](const char* key) { return static_cast<long long>(number_of(field(s, key)).value_or(0)); };
  json out = json::array();
  out.push_back(badge(plural(n("cases"), "case"), "neutral"));
  out.push_back(badge(std::to_string(n("pass")) + " PASS", n("pass") ? "pass" : "muted"));
  out.push_back(badge(std::to_string(n("fail")) + " FAIL", n("fail") ? "fail" : "muted"));
  out.push_back(badge(std::to_string(n("unsupported")) + " UNSUPPORTED", n("unsupported") ? "unsupported" : "muted"));
  out.push_back(badge(std::to_string(n("skip")) + " SKIP", n("skip") ? "skip" : "muted"));
  out.push_back(badge(plural(n("ops"), "op"), "neutral"));
  const json& math = field(report, "math");
  const json& functions = field(math, "functions");
  if (number_of(field(math, "samples")).value_or(0) > 0 && functions.is_array() && !functions.empty()) {
    long long fails = 0;
    for (const auto& r : functions) fails += string_field(r, "verdict") == "FAIL";
    if (field(s, "math_fail").is_number()) fails = n("math_fail");
    out.push_back(badge("math " + std::to_string(fails) + " FAIL / " + std::to_string(functions.size()),
                        fails ? "fail" : "pass"));
  }
  if (field(report, "baseline").is_object()) {
    out.push_back(badge(plural(n("regressions"), "regression"), n("regressions") ? "fail" : "muted"));
    out.push_back(badge(plural(n("improvements"), "improvement"), n("improvements") ? "pass" : "muted"));
  }
  return out;
}

json matrix_view(const json& report) {
  Matrix m = verdict_matrix(report);
  json dtypes = json::array(), rows = json::array();
  for (const auto& d : m.dtypes) dtypes.push_back({{"name", d}});
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    json cells = json::array();
    for (const auto& c : m.cells[i]) {
      std::string worst = c.worst();
      std::string text, title;
      if (c.total() > 0) {
        text = worst;
        if (c.total() > 1) text += " " + std::to_string(c.pass) + "/" + std::to_string(c.total());
        title = std::to_string(c.pass) + " PASS, " + std::to_string(c.fail) + " FAIL, " + std::to_string(c.unsupported) +
                " UNSUPPORTED, " + std::to_string(c.skip) + " SKIP";
      }
      cells.push_back({{"text", text}, {"title", title}, {"cls", worst.empty() ? "none" : verdict_class(worst)}});
    }
    rows.push_back({{"op", m.ops[i]}, {"cells", cells}});
  }
  return {{"has_matrix", !m.ops.empty()}, {"dtypes", dtypes}, {"rows", rows}};
}

std::string shape_text(const json& shape) {
  std::string out;
  for (const auto& d : shape) out += (out.empty() ? "" : "x") + format_number(d, "?");
  return out.empty() ? "scalar" : out;
}

json element_view(const json& e, const std::string& output) { return element_fields(e, output, "\u221e", "\u2013"); }

json output_view(const json& o, const std::string& case_id) {
  std::string name = string_field(o, "name");
  std::string kind = string_field(o, "bound_kind");
  std::optional<double> bound;
  if (kind == "exact") bound = 0.0;
  else if (kind == "envelope") bound = number_of(field(o, "max_bound_ulps"));
  bool nan_max = field(o, "max_ulps").is_null() && number_of(field(o, "non_finite")).value_or(0) > 0;
  json worst = json::array();
  for (const auto& e : field(o, "worst")) worst.push_back(element_view(e, name));
  std::vector<ScatterSeries> series{{&field(o, "scatter"), "pt-backend", ""}};
  return {{"name", name},
          {"dtype", string_field(o, "dtype")},
          {"shape", shape_text(field(o, "shape"))},
          {"elements", format_number(field(o, "elements"), "0")},
          {"bound_kind", kind},
          {"max", nan_max ? std::string("\u221e (NaN)") : format_number(field(o, "max_ulps"), "\u2013")},
          {"mean", format_number(field(o, "mean_ulps"), "\u2013")},
          {"bound_max", format_number(field(o, "max_bound_ulps"), "\u2013")},
          {"ratio", format_number(field(o, "max_ratio"), "\u2013")},
          {"mismatches", format_number(field(o, "mismatches"), "0")},
          {"outside", format_number(field(o, "outside_bound"), "0")},
          {"outside_cls", number_of(field(o, "outside_bound")).value_or(0) > 0 ? "bad" : "good"},
          {"non_finite", format_number(field(o, "non_finite"), "0")},
          {"histogram_svg", histogram_chart(field(o, "histogram"), "chart kir-hist",
                                            "ulp-error histogram of " + case_id + " output " + name)},
          {"scatter_svg", scatter_chart(series, bound, "log2 |exact|", "chart kir-scatter",
                                        "error against magnitude of " + case_id + " output " + name)},
          {"worst", worst},
          {"has_worst", !worst.empty()}};
}

json cases_view(const json& report) {
  const json& cases = field(report, "cases");
  json rows = json::array(), details = json::array();
  for (std::size_t i : case_order(report)) {
    const json& c = cases[i];
    CaseStats s = case_stats(c);
    std::string id = string_field(c, "id"), verdict = string_field(c, "verdict");
    std::string anchor = "case-" + std::to_string(i);
    rows.push_back({{"anchor", anchor},
                    {"id", id},
                    {"op", string_field(c, "op")},
                    {"row", string_field(c, "row")},
                    {"dtype", string_field(c, "dtype")},
                    {"verdict", verdict},
                    {"cls", verdict_class(verdict)},
                    {"max", format_case_max(s, "\u221e", "\u2013")},
                    {"max_v", sort_value(s.max_ulps, s.max_infinite)},
                    {"mean", s.mean_ulps ? format_number(*s.mean_ulps) : "\u2013"},
                    {"mean_v", sort_value(s.mean_ulps)},
                    {"bound", s.bound_kinds.empty() ? "\u2013" : s.bound_kinds},
                    {"ratio", s.max_ratio ? format_number(*s.max_ratio) : "\u2013"},
                    {"ratio_v", sort_value(s.max_ratio)},
                    {"reason", string_field(c, "reason")}});
    json outputs = json::array();
    for (const auto& o : field(c, "outputs")) outputs.push_back(output_view(o, id));
    const json& ref = field(c, "reference");
    json d = {{"anchor", anchor},
              {"id", id},
              {"verdict", verdict},
              {"cls", verdict_class(verdict)},
              {"open", verdict == "FAIL"},
              {"max", format_case_max(s, "\u221e", "\u2013")},
              {"has_max", s.max_ulps.has_value() || s.max_infinite},
              {"kernel", string_field(c, "kernel")},
              {"source", string_field(c, "source")},
              {"has_source", !string_field(c, "source").empty()},
              {"seconds", format_number(field(c, "seconds"), "")},
              {"has_seconds", field(c, "seconds").is_number()},
              {"contract", contract_line(field(c, "contract"))},
              {"contract_cls", string_field(field(c, "contract"), "outcome") == "pass" ? "good" : "bad"},
              {"reason", string_field(c, "reason")},
              {"has_reason", !string_field(c, "reason").empty()},
              {"repro", string_field(c, "repro")},
              {"has_repro", !string_field(c, "repro").empty()},
              {"outputs", outputs},
              {"has_outputs", !outputs.empty()},
              {"has_reference", ref.is_object()}};
    if (ref.is_object()) {
      std::string status = string_field(ref, "status");
      json r = {{"status", status},
                {"status_cls", status == "pass" ? "pass" : status == "fail" ? "fail" : "skip"},
                {"tolerance", string_field(ref, "tolerance")},
                {"message", string_field(ref, "message")},
                {"has_message", !string_field(ref, "message").empty()},
                {"has_worst", field(ref, "worst").is_object()}};
      if (field(ref, "worst").is_object()) r["worst"] = element_view(field(ref, "worst"), "");
      d["reference"] = r;
    }
    details.push_back(d);
  }
  return {{"has_cases", !rows.empty()}, {"rows", rows}, {"details", details}};
}

json math_view(const json& report) {
  const json& math = field(report, "math");
  json rows = json::array();
  std::size_t index = 0;
  for (const auto& r : field(math, "functions")) {
    std::string fn = string_field(r, "function"), dtype = string_field(r, "dtype"), verdict = string_field(r, "verdict");
    std::string label = fn + " (" + dtype + ")";
    std::vector<ScatterSeries> series{{&field(r, "glibc_scatter"), "pt-glibc", "glibc"},
                                      {&field(r, "scatter"), "pt-backend", "backend"}};
    bool has_hist = field(r, "histogram").is_array() && !field(r, "histogram").empty();
    rows.push_back({{"anchor", "math-" + std::to_string(index++)},
                    {"function", fn},
                    {"dtype", dtype},
                    {"inputs", string_field(r, "inputs")},
                    {"count", format_number(field(r, "count"), "0")},
                    {"count_v", sort_value(number_of(field(r, "count")))},
                    {"backend", format_number(field(r, "backend_max_ulps"), "\u221e")},
                    {"backend_v", sort_value(number_of(field(r, "backend_max_ulps")), field(r, "backend_max_ulps").is_null())},
                    {"backend_mean", format_number(field(r, "backend_mean_ulps"), "\u2013")},
                    {"backend_mean_v", sort_value(number_of(field(r, "backend_mean_ulps")))},
                    {"contract", format_number(field(r, "contract_ulps"), "\u2013")},
                    {"contract_v", sort_value(number_of(field(r, "contract_ulps")))},
                    {"glibc", format_number(field(r, "glibc_max_ulps"), "\u2013")},
                    {"glibc_v", sort_value(number_of(field(r, "glibc_max_ulps")))},
                    {"glibc_function", string_field(r, "glibc_function")},
                    {"worst_input", string_field(r, "worst_input")},
                    {"verdict", verdict},
                    {"cls", verdict_class(verdict)},
                    {"reason", string_field(r, "reason")},
                    {"label", label},
                    {"open", verdict == "FAIL"},
                    {"scatter_svg", scatter_chart(series, number_of(field(r, "contract_ulps")), "log2 |x|",
                                                  "chart kir-math-scatter", "errors of " + label + ": backend and glibc")},
                    {"has_histogram", has_hist},
                    {"histogram_svg", has_hist ? histogram_chart(field(r, "histogram"), "chart kir-math-hist",
                                                                 "backend ulp-error histogram of " + label)
                                               : std::string()}});
  }
  return {{"not_run", number_of(field(math, "samples")).value_or(0) <= 0},
          {"samples", format_number(field(math, "samples"), "0")},
          {"seed", format_number(field(math, "seed"), "0")},
          {"rows", rows},
          {"has_rows", !rows.empty()}};
}

json baseline_view(const json& report) {
  const json& b = field(report, "baseline");
  if (!b.is_object()) return {{"present", false}};
  const BaselineRows rows = baseline_rows(b, "\u2013");
  json shown = json::array();
  for (const auto& r : rows.shown)
    shown.push_back({{"change", r.change},
                     {"cls", r.change == "regression" ? "fail" : r.change == "improvement" ? "pass" : "skip"},
                     {"id", r.id},
                     {"output", r.output},
                     {"what", r.what},
                     {"before", r.before},
                     {"after", r.after}});
  return {{"present", true},
          {"path", string_field(b, "path")},
          {"rows", shown},
          {"has_rows", !shown.empty()},
          {"same", plural(rows.same, "unchanged row") + " not shown"},
          {"has_same", rows.same > 0}};
}

}  // namespace

std::string render_html(const nlohmann::json& report) {
  std::string verdict = overall_verdict(report);
  json view = {{"kir_version", string_field(report, "kir_version")},
               {"backend", string_field(report, "backend")},
               {"inputs", join_inputs(report)},
               {"has_inputs", !join_inputs(report).empty()},
               {"verdict", verdict},
               {"verdict_cls", verdict_class(verdict)},
               {"summary", summary_line(report, SummaryStyle::text)},
               {"badges", badges_view(report)},
               {"matrix", matrix_view(report)},
               {"cases", cases_view(report)},
               {"math", math_view(report)},
               {"baseline", baseline_view(report)}};
  return render_template(Template::html, view, Escape::html);
}

}  // namespace kir::report
