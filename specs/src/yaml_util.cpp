// YAML loading and scalar resolution (see yaml_util.h).
#include "specs/src/yaml_util.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <regex>

namespace kir::specs {

std::optional<YAML::Node> load_yaml(const std::string& text, const std::string& file, Loc& err_loc, std::string& err) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    err_loc = {file, e.mark.line + 1, e.mark.column + 1};
    if (e.mark.is_null()) err_loc = {file, 1, 1};
    err = "YAML does not parse: " + e.msg;
    return std::nullopt;
  } catch (const std::exception& e) {
    err_loc = {file, 1, 1};
    err = std::string("YAML does not parse: ") + e.what();
    return std::nullopt;
  }
}

Loc loc_of(const YAML::Node& n, const std::string& file) {
  if (!n.IsDefined()) return {file, 0, 0};
  auto m = n.Mark();
  if (m.is_null()) return {file, 0, 0};
  return {file, m.line + 1, m.column + 1};
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

namespace {
bool is_int_text(const std::string& s) {
  static const std::regex re("[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?0o?[0-7_]+|[-+]?0b[01_]+");
  return std::regex_match(s, re);
}
bool is_float_text(const std::string& s) {
  static const std::regex re(
      "[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  return std::regex_match(s, re) && s != "." && s != "+." && s != "-.";
}
}  // namespace

ScalarType scalar_type(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return ScalarType::Null;
  if (!n.IsScalar()) return ScalarType::Str;
  if (n.Tag() == "!") return ScalarType::Str;  // quoted
  const std::string& s = n.Scalar();
  if (s.size() > 4096) return ScalarType::Str;
  if (s == "~" || s == "null" || s == "Null" || s == "NULL" || s.empty()) return ScalarType::Null;
  static const char* bools[] = {"true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES",
                                "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"};
  for (const char* b : bools)
    if (s == b) return ScalarType::Bool;
  if (is_int_text(s)) return ScalarType::Int;
  if (is_float_text(s)) return ScalarType::Float;
  return ScalarType::Str;
}

Value scalar_value(const YAML::Node& n) {
  switch (scalar_type(n)) {
    case ScalarType::Null: return Value::none();
    case ScalarType::Bool: {
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(n.Scalar()[0])));
      bool v = c == 't' || c == 'y' || (c == 'o' && std::tolower(static_cast<unsigned char>(n.Scalar()[1])) == 'n');
      return Value::boolean(v);
    }
    case ScalarType::Int: {
      std::string s;
      for (char c : n.Scalar())
        if (c != '_') s += c;
      bool neg = !s.empty() && s[0] == '-';
      if (!s.empty() && (s[0] == '-' || s[0] == '+')) s = s.substr(1);
      int base = 10;
      if (s.rfind("0x", 0) == 0) { base = 16; s = s.substr(2); }
      else if (s.rfind("0b", 0) == 0) { base = 2; s = s.substr(2); }
      else if (s.rfind("0o", 0) == 0) { base = 8; s = s.substr(2); }
      else if (s.size() > 1 && s[0] == '0') { base = 8; s = s.substr(1); }
      mpz_class v;
      if (s.empty() || v.set_str(s, base) != 0) return Value::str(n.Scalar());
      return Value::integer(neg ? mpz_class(-v) : v);
    }
    case ScalarType::Float: {
      std::string s;
      for (char c : n.Scalar())
        if (c != '_') s += c;
      std::string low = s;
      for (auto& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (low.find("inf") != std::string::npos)
        return Value::real(low[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
      if (low.find("nan") != std::string::npos) return Value::real(std::numeric_limits<double>::quiet_NaN());
      return Value::real(std::strtod(s.c_str(), nullptr));
    }
    case ScalarType::Str: return Value::str(n.IsScalar() ? n.Scalar() : std::string());
  }
  return Value::none();
}

namespace {
// `budget` bounds the nodes visited, so alias bombs (one node referenced many times) stay cheap.
std::optional<Value> plain_value_rec(const YAML::Node& n, int depth, size_t& budget) {
  if (depth > 32 || budget == 0 || !n.IsDefined()) return std::nullopt;
  --budget;
  if (n.IsSequence()) {
    std::vector<Value> items;
    for (const auto& x : n) {
      auto v = plain_value_rec(x, depth + 1, budget);
      if (!v) return std::nullopt;
      items.push_back(*v);
    }
    return Value::sequence(std::move(items));
  }
  if (n.IsMap()) return std::nullopt;
  return scalar_value(n);
}
}  // namespace

std::optional<Value> plain_value(const YAML::Node& n, int depth) {
  size_t budget = 1u << 20;
  return plain_value_rec(n, depth, budget);
}

std::string node_type_name(const YAML::Node& n) {
  if (!n.IsDefined()) return "missing";
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  switch (scalar_type(n)) {
    case ScalarType::Null: return "null";
    case ScalarType::Bool: return "a bool";
    case ScalarType::Int: return "an int";
    case ScalarType::Float: return "a float";
    case ScalarType::Str: return "a string";
  }
  return "?";
}

}  // namespace kir::specs
