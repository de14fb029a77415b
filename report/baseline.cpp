// See baseline.h. Verdicts rank PASS > UNSUPPORTED > SKIP > FAIL; within one verdict, a larger
// max error (null, a NaN mismatch, ranks as the largest) or more elements outside the contract's
// bound is a regression.
#include "report/baseline.h"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace kir::report {
namespace {

using nlohmann::json;

int rank(const std::string& verdict) {
  return verdict == "PASS" ? 3 : verdict == "UNSUPPORTED" ? 2 : verdict == "SKIP" ? 1 : 0;
}

double ulps_of(const json& v) { return v.is_number() ? v.get<double>() : std::numeric_limits<double>::infinity(); }

std::string ulps_text(const json& v) {
  if (!v.is_number()) return "NaN mismatch";
  std::ostringstream s;
  s << v.get<double>();
  return s.str();
}

// One comparable row: a case output, a case without outputs, or a math row.
struct Row {
  std::string id, output, verdict;
  json max_ulps;
  int64_t outside = 0;
};

std::string str_of(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

json field(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() ? *it : json(nullptr);
}

json array_of(const json& o, const char* key) {
  auto it = o.is_object() ? o.find(key) : o.end();
  return it != o.end() && it->is_array() ? *it : json::array();
}

// Fields that are missing or of the wrong type read as empty (a hand-edited baseline must not
// crash the comparison; read_report checked the document's kind).
std::map<std::pair<std::string, std::string>, Row> rows_of(const json& doc) {
  std::map<std::pair<std::string, std::string>, Row> out;
  for (const auto& c : array_of(doc, "cases")) {
    if (!c.is_object()) continue;
    const std::string id = str_of(c, "id"), verdict = str_of(c, "verdict");
    const json outs = array_of(c, "outputs");
    if (outs.empty()) out[{id, ""}] = {id, "", verdict, nullptr, 0};
    for (const auto& o : outs) {
      if (!o.is_object()) continue;
      const json outside = field(o, "outside_bound");
      out[{id, str_of(o, "name")}] = {id, str_of(o, "name"), verdict, field(o, "max_ulps"),
                                      outside.is_number_integer() ? outside.get<int64_t>() : 0};
    }
  }
  for (const auto& r : array_of(doc.is_object() ? field(doc, "math") : json(nullptr), "functions")) {
    if (!r.is_object()) continue;
    const std::string id = "math:" + str_of(r, "function") + "/" + str_of(r, "dtype");
    out[{id, ""}] = {id, "", str_of(r, "verdict"), field(r, "backend_max_ulps"), 0};
  }
  return out;
}

json row_json(const Row& r, const std::string& change, const std::string& what, const Row* before, const Row* after) {
  json j = {{"id", r.id}, {"change", change}, {"what", what}};
  if (!r.output.empty()) j["output"] = r.output;
  if (before) {
    j["before_verdict"] = before->verdict;
    j["before_max_ulps"] = before->max_ulps;
  }
  if (after) {
    j["after_verdict"] = after->verdict;
    j["after_max_ulps"] = after->max_ulps;
  }
  return j;
}

}  // namespace

json compare_with_baseline(const json& current, const json& baseline, const std::string& path) {
  const auto now = rows_of(current), then = rows_of(baseline);
  json rows = json::array();
  for (const auto& [key, a] : now) {
    auto it = then.find(key);
    if (it == then.end()) {
      rows.push_back(row_json(a, "new", "not in the baseline", nullptr, &a));
      continue;
    }
    const Row& b = it->second;
    std::string change = "same", what;
    if (rank(a.verdict) != rank(b.verdict)) {
      change = rank(a.verdict) < rank(b.verdict) ? "regression" : "improvement";
      what = "verdict " + b.verdict + " -> " + a.verdict;
    } else if (ulps_of(a.max_ulps) != ulps_of(b.max_ulps)) {
      change = ulps_of(a.max_ulps) > ulps_of(b.max_ulps) ? "regression" : "improvement";
      what = "max " + ulps_text(b.max_ulps) + " -> " + ulps_text(a.max_ulps) + " ulp";
    } else if (a.outside != b.outside) {
      change = a.outside > b.outside ? "regression" : "improvement";
      what = "outside the bound " + std::to_string(b.outside) + " -> " + std::to_string(a.outside) + " elements";
    }
    rows.push_back(row_json(a, change, what, &b, &a));
  }
  for (const auto& [key, b] : then)
    if (!now.count(key)) rows.push_back(row_json(b, "gone", "not in this report", &b, nullptr));
  return {{"path", path}, {"rows", rows}};
}

}  // namespace kir::report
