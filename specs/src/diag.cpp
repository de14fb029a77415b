// Formatting and ordering of manifest diagnostics.
#include "specs/src/diag.h"

#include "specs/src/checklist.h"
#include "kir/rules/rule.h"

#include <algorithm>
#include <tuple>

namespace kir::specs {

std::string Loc::str() const {
  if (line == 0) return file.empty() ? "<unknown>" : file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const char* level_name(Level l) {
  switch (l) {
    case Level::Loader: return "loader";
    case Level::Schema: return "schema";
    case Level::Signature: return "signature";
    case Level::Warning: return "warning";
  }
  return "?";
}

std::string SpecDiag::check() const {
  const auto open = text.rfind('[');
  if (text.empty() || text.back() != ']' || open == std::string::npos) return "";
  return text.substr(open + 1, text.size() - open - 2);
}

std::string SpecDiag::rule() const {
  const std::string c = check();
  const std::string m = c.empty() ? "" : checklist_id(c);
  return m.empty() || m == c ? c : c + ", " + m;
}

std::string SpecDiag::message() const {
  if (check().empty()) return text;
  std::string m = text.substr(0, text.rfind('['));
  while (!m.empty() && m.back() == ' ') m.pop_back();
  return m;
}

std::string SpecDiag::str() const {
  // "... [C37]" → "... [C37, M7] (kir explain C37)": the manifest rule and the explanation
  const std::string c = check();
  const std::string t = c.empty() ? text : message() + " [" + rule() + "]" + rules::explain_hint(c);
  return loc.str() + ": [" + level_name(level) + "] " + (op.empty() ? "-" : op) + ": " + t;
}

void SpecDiags::add(const Loc& loc, Level level, const std::string& op, const std::string& text) {
  diags_.push_back({loc, level, op, text});
}

bool SpecDiags::has_errors() const { return error_count() > 0; }

size_t SpecDiags::error_count() const {
  return static_cast<size_t>(std::count_if(diags_.begin(), diags_.end(),
                                            [](const SpecDiag& d) { return d.level != Level::Warning; }));
}

std::vector<SpecDiag> SpecDiags::sorted() const {
  auto v = diags_;
  auto key = [](const SpecDiag& d) {
    return std::tie(d.loc.file, d.loc.line, d.loc.col, d.op, d.text);
  };
  std::sort(v.begin(), v.end(), [&](const SpecDiag& a, const SpecDiag& b) {
    if (key(a) != key(b)) return key(a) < key(b);
    return a.level < b.level;
  });
  v.erase(std::unique(v.begin(), v.end(),
                      [&](const SpecDiag& a, const SpecDiag& b) { return key(a) == key(b) && a.level == b.level; }),
          v.end());
  return v;
}

std::string SpecDiags::render() const {
  std::string out;
  for (const auto& d : sorted()) out += d.str() + "\n";
  return out;
}

bool SpecDiags::contains(const std::string& fragment) const {
  return std::any_of(diags_.begin(), diags_.end(),
                     [&](const SpecDiag& d) { return d.text.find(fragment) != std::string::npos; });
}

void SpecDiags::append(const SpecDiags& other) {
  diags_.insert(diags_.end(), other.diags_.begin(), other.diags_.end());
}

}  // namespace kir::specs
