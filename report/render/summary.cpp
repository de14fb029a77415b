// One-line texts shared by the renderings (see summary.h).
#include "report/render/summary.h"

#include "report/render/format.h"

namespace kir::report {
namespace {

std::string count_of(const nlohmann::json& summary, const char* key) {
  return format_number(field(summary, key), "0");
}

int int_of(const nlohmann::json& obj, const char* key) {
  return static_cast<int>(number_of(field(obj, key)).value_or(0));
}

std::string plural(int n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string overall_verdict(const nlohmann::json& report) {
  const auto& s = field(report, "summary");
  int math_fail = int_of(s, "math_fail");
  if (!field(s, "math_fail").is_number()) {
    for (const auto& r : field(field(report, "math"), "functions")) math_fail += string_field(r, "verdict") == "FAIL";
  }
  return int_of(s, "fail") > 0 || math_fail > 0 ? "FAIL" : "PASS";
}

std::string summary_line(const nlohmann::json& report, SummaryStyle style) {
  const auto& s = field(report, "summary");
  std::string out;
  if (style == SummaryStyle::markdown) out += "**" + overall_verdict(report) + "**: ";
  out += plural(int_of(s, "cases"), "case") + ": " + count_of(s, "pass") + " PASS, " + count_of(s, "fail") +
         " FAIL, " + count_of(s, "unsupported") + " UNSUPPORTED, " + count_of(s, "skip") + " SKIP; " +
         plural(int_of(s, "ops"), "op");
  const auto& dtypes = field(s, "dtypes");
  if (dtypes.is_array() && !dtypes.empty()) {
    out += "; dtypes ";
    for (std::size_t i = 0; i < dtypes.size(); ++i) out += (i ? ", " : "") + (dtypes[i].is_string() ? dtypes[i].get<std::string>() : "");
  }
  const auto& math = field(report, "math");
  const auto& functions = field(math, "functions");
  if (number_of(field(math, "samples")).value_or(0) > 0 && functions.is_array() && !functions.empty()) {
    int fails = 0;
    for (const auto& r : functions) fails += string_field(r, "verdict") == "FAIL";
    if (field(s, "math_fail").is_number()) fails = int_of(s, "math_fail");
    out += "; math: " + std::to_string(fails) + " FAIL of " + std::to_string(functions.size());
  }
  if (field(report, "baseline").is_object()) {
    out += "; baseline: " + plural(int_of(s, "regressions"), "regression") + ", " +
           plural(int_of(s, "improvements"), "improvement");
  }
  return out;
}

std::string join_inputs(const nlohmann::json& report) {
  std::string out;
  for (const auto& p : field(report, "inputs")) {
    if (!p.is_string()) continue;
    out += (out.empty() ? "" : ", ") + p.get<std::string>();
  }
  return out;
}

std::string contract_line(const nlohmann::json& contract) {
  std::string out = string_field(contract, "outcome");
  if (out.empty()) out = "not-run";
  std::string rule = string_field(contract, "rule"), op = string_field(contract, "op");
  std::string loc = string_field(contract, "location"), detail = string_field(contract, "detail");
  if (!rule.empty()) out += " (rule " + rule + ")";
  if (!op.empty()) out += " in " + op;
  if (!loc.empty()) out += " at " + loc;
  if (!detail.empty()) out += ": " + detail;
  return out;
}

std::string reference_line(const nlohmann::json& reference) {
  std::string out = string_field(reference, "status");
  std::string tol = string_field(reference, "tolerance"), msg = string_field(reference, "message");
  if (!tol.empty()) out += " (tolerance " + tol + ")";
  if (!msg.empty()) out += ": " + msg;
  return out;
}

}  // namespace kir::report
