// The rule table as one sorted list, lookup by ID, and the hint every diagnostic ends with.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

// Natural order: "L4.9" < "L4.10", "C2" < "C10"; text parts compare as text.
bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      unsigned long x = std::stoul(std::string(a.substr(i, i2 - i)));
      unsigned long y = std::stoul(std::string(b.substr(j, j2 - j)));
      if (x != y) return x < y;
      i = i2, j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

struct Index {
  std::vector<Rule> rules;
  std::unordered_map<std::string_view, size_t> by_id;
};

const Index& index() {
  static const Index idx = [] {
    Index x;
    for (auto part : {language_rules_core(), language_rules_structured(), manifest_rules(),
                      manifest_checks_construction(), manifest_checks_workload(), runtime_rules(), tool_rules()})
      x.rules.insert(x.rules.end(), part.begin(), part.end());
    std::stable_sort(x.rules.begin(), x.rules.end(), [](const Rule& a, const Rule& b) {
      if (a.family != b.family) return a.family < b.family;
      return natural_less(a.id, b.id);
    });
    for (size_t i = 0; i < x.rules.size(); ++i)
      if (!x.by_id.emplace(x.rules[i].id, i).second)
        throw std::logic_error("rule table: ID " + std::string(x.rules[i].id) + " is defined twice");
    return x;
  }();
  return idx;
}

}  // namespace

std::span<const Rule> all() { return index().rules; }

const Rule* find(std::string_view id) {
  const auto& idx = index();
  auto it = idx.by_id.find(id);
  return it == idx.by_id.end() ? nullptr : &idx.rules[it->second];
}

std::string explain_hint(std::string_view id) {
  return find(id) ? " (kir explain " + std::string(id) + ")" : std::string();
}

}  // namespace kir::rules
