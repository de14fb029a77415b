// Text rules shared by both renderings (see format.h).
#include "report/render/format.h"

#include <cmath>
#include <cstdio>

namespace kir::report {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string md_cell(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '|') {
      out += "\\|";
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      out += ' ';
    } else if (c == '<') {
      out += "&lt;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (v == std::trunc(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  std::string out = buf;
  if (out == "-0") out = "0";
  return out;
}

std::string format_number(const nlohmann::json& v, std::string_view when_null) {
  if (auto d = number_of(v)) return format_number(*d);
  return std::string(when_null);
}

std::optional<double> number_of(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

const nlohmann::json& field(const nlohmann::json& obj, std::string_view key) {
  static const nlohmann::json null_value;
  if (!obj.is_object()) return null_value;
  auto it = obj.find(std::string(key));
  return it == obj.end() ? null_value : *it;
}

std::string string_field(const nlohmann::json& obj, std::string_view key) {
  const auto& v = field(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::string verdict_class(std::string_view verdict) {
  if (verdict == "PASS") return "pass";
  if (verdict == "FAIL") return "fail";
  if (verdict == "UNSUPPORTED") return "unsupported";
  return "skip";
}

std::string format_coord(const nlohmann::json& coord) {
  std::string out = "[";
  if (coord.is_array()) {
    for (std::size_t i = 0; i < coord.size(); ++i) {
      if (i) out += ", ";
      out += format_number(coord[i], "?");
    }
  }
  return out + "]";
}

}  // namespace kir::report
