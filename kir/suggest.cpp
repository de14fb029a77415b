// See suggest.h.
#include "kir/suggest.h"

#include <algorithm>
#include <cctype>

namespace kir {

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  auto lower = [](std::string x) {
    for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return x;
  };
  for (const auto& c : candidates)
    if (lower(c) == lower(name)) return " (did you mean " + c + "?)";
  if (name.size() < 3) return "";  // one or two letters are always "close": no guess
  const std::string* best = nullptr;
  size_t best_d = name.size() / 3 + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best_d) best_d = d, best = &c;
  }
  return best ? " (did you mean " + *best + "?)" : "";
}

std::string join_names(const std::vector<std::string>& names, const std::string& prefix) {
  if (names.empty()) return "none";
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + prefix + n;
  return s;
}

}  // namespace kir
