// The Markdown and HTML renderings of report.json (report/render): the hand-written fixture
// tests/report/data/sample_report.json (schema-valid: a PASS exact case, a PASS envelope case, a FAIL
// with worst elements and a failed reference comparison, an UNSUPPORTED, a SKIP kernel file, math rows
// with one FAIL, a baseline with regressions and an improvement) and an empty report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/render/format.h"
#include "report/render/model.h"
#include "report/render/render.h"
#include "report/render/svg.h"

namespace {

using nlohmann::json;
namespace rep = kir::report;

json load_fixture() {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/tests/report/data/sample_report.json");
  REQUIRE(in.good());
  return json::parse(in);
}

json empty_report() {
  return json::parse(R"({
    "schema": "kir-report/1", "kir_version": "test", "backend": "cpu",
    "summary": {"cases": 0, "pass": 0, "fail": 0, "unsupported": 0, "skip": 0, "ops": 0, "dtypes": []},
    "cases": [], "math": {"samples": 0, "seed": 0, "functions": []}})");
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The rows of the Markdown table whose header line starts with `header` (header and rule excluded).
std::vector<std::string> md_table(const std::string& md, const std::string& header) {
  auto lines = lines_of(md);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(header, 0) != 0) continue;
    for (std::size_t j = i + 2; j < lines.size() && !lines[j].empty() && lines[j][0] == '|'; ++j) rows.push_back(lines[j]);
    break;
  }
  return rows;
}

// Cell separators of a Markdown table line: '|' not preceded by a backslash.
std::size_t md_separators(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i) n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  return n;
}

std::size_t total_outputs(const json& report) {
  std::size_t n = 0;
  for (const auto& c : report["cases"]) n += c["outputs"].size();
  return n;
}

}  // namespace

TEST_CASE("render: every case id appears in both renderings", "[report]") {
  json report = load_fixture();
  std::string md = rep::render_markdown(report), html = rep::render_html(report);
  REQUIRE(report["cases"].size() == 5);
  for (const auto& c : report["cases"]) {
    std::string id = c["id"];
    CHECK(md.find(rep::md_cell(id)) != std::string::npos);
    CHECK(html.find(rep::html_escape(id)) != std::string::npos);
  }
}

TEST_CASE("render: markdown case table puts FAIL rows first, with their worst elements and repro", "[report]") {
  json report = load_fixture();
  std::string md = rep::render_markdown(report);
  auto rows = md_table(md, "| case | op |");
  REQUIRE(rows.size() == report["cases"].size());
  CHECK(rows[0].find("**FAIL**") != std::string::npos);
  CHECK(rows[0].find("softmax/wide\\|tall/float32") != std::string::npos);
  for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i].find("FAIL") == std::string::npos);
  // The others keep their input order.
  CHECK(rows[1].find("add/small/float32") != std::string::npos);
  CHECK(rows[4].find("examples/axpy.kir@axpy") != std::string::npos);
  // The FAIL case's aggregate: a NaN mismatch makes its max infinite.
  CHECK(rows[0].find("| inf |") != std::string::npos);

  CHECK(md.find("## Failures") != std::string::npos);
  CHECK(md.find("### softmax/wide\\|tall/float32") != std::string::npos);
  auto worst = md_table(md, "| output | coord |");
  REQUIRE(worst.size() == 4);
  CHECK(worst[0] == "| y | [5, 2] | nan | 0.0001221 | inf | 16 |");
  CHECK(worst[1] == "| y | [3, 17] | 0.01953 | 0.01949 | 140 | 16 |");
  CHECK(md.find("repro: `repro/softmax-wide-tall-float32`") != std::string::npos);
  CHECK(md.find("reference: fail (tolerance ulps&lt;=4): reference kernel disagrees") != std::string::npos);
  // Passing cases get no failure block.
  CHECK(md.find("### add/small/float32") == std::string::npos);
}

TEST_CASE("render: markdown escapes '|' and keeps every table row's column count", "[report]") {
  json report = load_fixture();
  std::string md = rep::render_markdown(report);
  CHECK(md.find("wide\\|tall") != std::string::npos);
  CHECK(md.find("wide|tall") == std::string::npos);
  CHECK(md.find("\\| piped") != std::string::npos);
  // Every line of a table has as many separators as its header line.
  auto lines = lines_of(md);
  std::size_t header = 0;
  int tables = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    bool row = !lines[i].empty() && lines[i][0] == '|';
    if (!row) {
      header = 0;
      continue;
    }
    if (header == 0) {
      header = md_separators(lines[i]);
      ++tables;
      continue;
    }
    INFO(lines[i]);
    CHECK(md_separators(lines[i]) == header);
  }
  CHECK(tables == 5);  // matrix, cases, worst elements, math, baseline
  CHECK(md.find("{{") == std::string::npos);
  CHECK(md.find("\n\n\n") == std::string::npos);
}

TEST_CASE("render: markdown summary, matrix, math and baseline sections", "[report]") {
  json report = load_fixture();
  std::string md = rep::render_markdown(report);
  CHECK(md.find("**FAIL**: 5 cases: 2 PASS, 1 FAIL, 1 UNSUPPORTED, 1 SKIP; 5 ops") != std::string::npos);
  CHECK(md.find("math: 1 FAIL of 3") != std::string::npos);
  CHECK(md.find("baseline: 2 regressions, 1 improvement") != std::string::npos);

  auto matrix = md_table(md, "| op |");
  REQUIRE(matrix.size() == 5);  // add, axpy, gemm_q4k, reduce_sum, softmax
  CHECK(lines_of(md).end() != std::find(lines_of(md).begin(), lines_of(md).end(),
                                        "| op | float16 | float32 | float64 | q4_K,float32 |"));
  CHECK(matrix[0] == "| add | - | PASS | - | - |");
  CHECK(matrix[4] == "| softmax | - | **FAIL** | - | - |");

  auto math = md_table(md, "| function |");
  REQUIRE(math.size() == 3);
  CHECK(math[2] == "| tanh | f32 | sampled | 4096 | 3 | 1 | 2 (tanhf) | **FAIL** | tanh f32: 3 ulps at 0x1.2p-3, contract allows 1 |");

  auto baseline = md_table(md, "| change |");
  REQUIRE(baseline.size() == 3);  // the unchanged row is counted, not listed
  CHECK(baseline[0].rfind("| **regression** | softmax/wide\\|tall/float32 | y |", 0) == 0);
  CHECK(baseline[1].rfind("| **regression** | math:tanh/f32 |", 0) == 0);
  CHECK(baseline[2].rfind("| improvement | reduce_sum/rows_1024/float16 | out | max 14 -> 11 ulp | PASS, 14 ulp | PASS, 11 ulp |", 0) == 0);
  CHECK(md.find("1 unchanged.") != std::string::npos);
  CHECK(md.find("Baseline: ../main-report/report.json") != std::string::npos);
}

TEST_CASE("render: html escapes strings from the report", "[report]") {
  json report = load_fixture();
  std::string html = rep::render_html(report);
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
  CHECK(count_of(html, "<script") == 1);  // the page's own script only

  // Strings inside the SVG the renderer builds itself are escaped too.
  report["cases"][1]["outputs"][0]["name"] = "o<b>&";
  report["cases"][1]["outputs"][0]["histogram"][1]["bucket"] = "1<i>";
  html = rep::render_html(report);
  CHECK(html.find("o<b>&") == std::string::npos);
  CHECK(html.find("1<i>") == std::string::npos);
  CHECK(html.find("o&lt;b&gt;&amp;") != std::string::npos);
  CHECK(html.find("1&lt;i&gt;") != std::string::npos);
}

TEST_CASE("render: html is self-contained", "[report]") {
  std::string html = rep::render_html(load_fixture());
  std::string rest = html;
  for (auto at = rest.find("xmlns=\"http://www.w3.org/2000/svg\""); at != std::string::npos;
       at = rest.find("xmlns=\"http://www.w3.org/2000/svg\"")) {
    rest.erase(at, 34);
  }
  CHECK(rest.find("http://") == std::string::npos);
  CHECK(rest.find("https://") == std::string::npos);
  CHECK(rest.find("<link") == std::string::npos);
  CHECK(rest.find(" src=") == std::string::npos);
  CHECK(rest.find("@import") == std::string::npos);
  CHECK(rest.find("url(") == std::string::npos);
  CHECK(html.find("{{") == std::string::npos);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
}

TEST_CASE("render: html has one histogram and one scatter per output", "[report]") {
  json report = load_fixture();
  std::string html = rep::render_html(report);
  REQUIRE(total_outputs(report) == 3);
  CHECK(count_of(html, "class=\"chart kir-hist\"") == total_outputs(report));
  CHECK(count_of(html, "class=\"chart kir-scatter\"") == total_outputs(report));
  // One collapsible block per case, the FAIL one open; math plots per row.
  CHECK(count_of(html, "<details class=\"case ") == report["cases"].size());
  CHECK(count_of(html, "class=\"chart kir-math-scatter\"") == report["math"]["functions"].size());
  CHECK(count_of(html, "class=\"chart kir-math-hist\"") == report["math"]["functions"].size());
  CHECK(std::regex_search(html, std::regex("<details class=\"case fail\" id=\"case-2\" open>")));
  // The envelope output's bound is drawn; the FAIL row sorts by +Infinity.
  CHECK(html.find("bound 96") != std::string::npos);
  CHECK(html.find("data-v=\"Infinity\"") != std::string::npos);
}

TEST_CASE("render: html carries the error capture and the rendered flag", "[report]") {
  std::string html = rep::render_html(load_fixture());
  CHECK(html.find("<pre id=\"kir-errors\" hidden></pre>") != std::string::npos);
  CHECK(html.find("window.onerror") != std::string::npos);
  CHECK(html.find("console.error = function") != std::string::npos);
  CHECK(html.find("document.body.dataset.rendered = \"ok\"") != std::string::npos);
  CHECK(html.find("table class=\"sortable data\" id=\"cases-table\"") != std::string::npos);
  CHECK(html.find("<span class=\"badge fail\">1 FAIL</span>") != std::string::npos);
  CHECK(html.find("<span class=\"badge pass\">2 PASS</span>") != std::string::npos);
}

TEST_CASE("render: an empty report renders", "[report]") {
  json report = empty_report();
  std::string md = rep::render_markdown(report), html = rep::render_html(report);
  CHECK(md.find("0 cases: 0 PASS, 0 FAIL") != std::string::npos);
  CHECK(count_of(md, "No cases.") == 2);
  CHECK(md.find("The math section was not run.") != std::string::npos);
  CHECK(md.find("Against the baseline") == std::string::npos);
  CHECK(md.find("{{") == std::string::npos);
  CHECK(html.find("The math section was not run.") != std::string::npos);
  CHECK(html.find("kir-hist") == std::string::npos);
  CHECK(html.find("id=\"baseline\"") == std::string::npos);
  CHECK(html.find("</html>") != std::string::npos);

  // Math run but no functions; a baseline without rows; a case without outputs.
  report["math"]["samples"] = 100;
  report["baseline"] = {{"path", "old.json"}, {"rows", json::array()}};
  md = rep::render_markdown(report);
  html = rep::render_html(report);
  CHECK(md.find("No functions.") != std::string::npos);
  CHECK(md.find("No changes.") != std::string::npos);
  CHECK(html.find("No functions.") != std::string::npos);
  CHECK(html.find("id=\"baseline\"") != std::string::npos);
}

TEST_CASE("render: text rules", "[report]") {
  CHECK(rep::md_cell("a|b\nc<d") == "a\\|b c&lt;d");
  CHECK(rep::html_escape("<a href='x'>&\"") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  CHECK(rep::format_number(3.0) == "3");
  CHECK(rep::format_number(0.61234) == "0.6123");
  CHECK(rep::format_number(1e300) == "1e+300");
  CHECK(rep::format_number(json(nullptr), "inf") == "inf");
  CHECK(rep::format_coord(json::array({1, 2})) == "[1, 2]");
  CHECK(rep::verdict_class("UNSUPPORTED") == "unsupported");
}

TEST_CASE("render: case aggregates and orders", "[report]") {
  json report = load_fixture();
  auto envelope = rep::case_stats(report["cases"][1]);
  CHECK(envelope.max_ulps == 11.0);
  CHECK_FALSE(envelope.max_infinite);
  CHECK(envelope.bound_kinds == "envelope");
  CHECK(envelope.max_ratio == 0.34375);
  auto failing = rep::case_stats(report["cases"][2]);
  CHECK(failing.max_infinite);
  CHECK(rep::format_case_max(failing, "inf", "-") == "inf");
  auto none = rep::case_stats(report["cases"][3]);
  CHECK_FALSE(none.max_ulps);
  CHECK(rep::format_case_max(none, "inf", "-") == "-");
  CHECK(rep::case_order(report) == std::vector<std::size_t>{2, 0, 1, 3, 4});
  CHECK(rep::baseline_order(report["baseline"]) == std::vector<std::size_t>{2, 3, 1, 0});
  auto m = rep::verdict_matrix(report);
  CHECK(m.ops.size() == 5);
  CHECK(m.dtypes == std::vector<std::string>{"float16", "float32", "float64", "q4_K,float32"});
}

TEST_CASE("render: svg axes", "[report]") {
  auto ticks = kir::report::svg::log2p1_ticks(140);
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks.front().label == "0");
  CHECK(ticks[1].label == "1");
  CHECK(ticks.back().at >= kir::report::svg::log2p1(140) - 1);
  auto lin = kir::report::svg::linear_ticks(-8, 8, 6, true);  // step 5: -5, 0, 5
  REQUIRE(lin.size() == 3);
  CHECK(lin[0].at == -5);
  CHECK(lin[1].label == "0");
  CHECK(lin[2].at == 5);
  auto fine = kir::report::svg::linear_ticks(0, 1, 4, false);  // step 0.5
  CHECK(fine.size() == 3);
  CHECK(fine[1].label == "0.5");
  CHECK(kir::report::svg::num(1.5) == "1.5");
  CHECK(kir::report::svg::num(2.0) == "2");
}
