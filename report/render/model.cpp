// Aggregates and orders shared by the two renderings (see model.h).
#include "report/render/model.h"

#include <algorithm>
#include <map>

#include "report/render/format.h"

namespace kir::report {

CaseStats case_stats(const nlohmann::json& c) {
  CaseStats s;
  double weighted = 0, weight = 0;
  bool any_mean = false;
  std::vector<std::string> kinds;
  for (const auto& o : field(c, "outputs")) {
    if (auto m = number_of(field(o, "max_ulps"))) {
      s.max_ulps = std::max(s.max_ulps.value_or(*m), *m);
    } else if (field(o, "non_finite").is_number() && field(o, "non_finite").get<double>() > 0) {
      s.max_infinite = true;
    }
    if (auto m = number_of(field(o, "mean_ulps"))) {
      double n = std::max(1.0, number_of(field(o, "elements")).value_or(1.0));
      weighted += *m * n;
      weight += n;
      any_mean = true;
    }
    if (auto r = number_of(field(o, "max_ratio"))) s.max_ratio = std::max(s.max_ratio.value_or(*r), *r);
    std::string kind = string_field(o, "bound_kind");
    if (!kind.empty() && std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  if (any_mean && weight > 0) s.mean_ulps = weighted / weight;
  for (std::size_t i = 0; i < kinds.size(); ++i) s.bound_kinds += (i ? ", " : "") + kinds[i];
  return s;
}

std::string format_case_max(const CaseStats& s, std::string_view inf, std::string_view when_none) {
  if (s.max_infinite) return std::string(inf);
  if (s.max_ulps) return format_number(*s.max_ulps);
  return std::string(when_none);
}

std::vector<std::size_t> case_order(const nlohmann::json& report) {
  const auto& cases = field(report, "cases");
  std::vector<std::size_t> order(cases.is_array() ? cases.size() : 0);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t i) { return string_field(cases[i], "verdict") == "FAIL"; });
  return order;
}

std::string MatrixCell::worst() const {
  if (fail) return "FAIL";
  if (unsupported) return "UNSUPPORTED";
  if (skip) return "SKIP";
  if (pass) return "PASS";
  return "";
}

Matrix verdict_matrix(const nlohmann::json& report) {
  std::map<std::string, std::map<std::string, MatrixCell>> by_op;
  std::map<std::string, bool> dtypes;
  for (const auto& c : field(report, "cases")) {
    std::string op = string_field(c, "op"), dtype = string_field(c, "dtype"), v = string_field(c, "verdict");
    MatrixCell& cell = by_op[op][dtype];
    dtypes[dtype] = true;
    if (v == "PASS") ++cell.pass;
    else if (v == "FAIL") ++cell.fail;
    else if (v == "UNSUPPORTED") ++cell.unsupported;
    else ++cell.skip;
  }
  Matrix m;
  for (const auto& [d, unused] : dtypes) m.dtypes.push_back(d);
  for (const auto& [op, row] : by_op) {
    m.ops.push_back(op);
    std::vector<MatrixCell> cells;
    for (const auto& d : m.dtypes) {
      auto it = row.find(d);
      cells.push_back(it == row.end() ? MatrixCell{} : it->second);
    }
    m.cells.push_back(std::move(cells));
  }
  return m;
}

int baseline_rank(std::string_view change) {
  if (change == "regression") return 0;
  if (change == "improvement") return 1;
  if (change == "new") return 2;
  if (change == "gone") return 3;
  return 4;
}

std::vector<std::size_t> baseline_order(const nlohmann::json& baseline) {
  const auto& rows = field(baseline, "rows");
  std::vector<std::size_t> order(rows.is_array() ? rows.size() : 0);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return baseline_rank(string_field(rows[a], "change")) < baseline_rank(string_field(rows[b], "change"));
  });
  return order;
}

BaselineRows baseline_rows(const nlohmann::json& baseline, std::string_view none) {
  BaselineRows out;
  const auto& rows = field(baseline, "rows");
  for (std::size_t i : baseline_order(baseline)) {
    const nlohmann::json& r = rows[i];
    const std::string change = string_field(r, "change");
    if (change == "same") {
      ++out.same;
      continue;
    }
    auto side = [&](const char* verdict, const char* ulps) {
      std::string v = string_field(r, verdict);
      if (auto u = number_of(field(r, ulps))) v += (v.empty() ? "" : ", ") + format_number(*u) + " ulp";
      return v.empty() ? std::string(none) : v;
    };
    out.shown.push_back({change, string_field(r, "id"), string_field(r, "output"), string_field(r, "what"),
                         side("before_verdict", "before_max_ulps"), side("after_verdict", "after_max_ulps")});
  }
  return out;
}

nlohmann::json element_fields(const nlohmann::json& e, const std::string& output, std::string_view inf, std::string_view none) {
  const std::string name = string_field(e, "output");
  return {{"output", name.empty() ? output : name},
          {"coord", format_coord(field(e, "coord"))},
          {"got", string_field(e, "got")},
          {"exact", string_field(e, "exact")},
          {"ulps", format_number(field(e, "ulps"), inf)},
          {"allowed", format_number(field(e, "allowed_ulps"), none)}};
}

int count_verdict(const nlohmann::json& report, std::string_view verdict) {
  int n = 0;
  for (const auto& c : field(report, "cases")) n += string_field(c, "verdict") == verdict;
  return n;
}

}  // namespace kir::report
