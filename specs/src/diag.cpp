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

std::string SpecDiag::str() const {
  std::string t = text;
  // "... [C37]" → "... [C37, M7] (kir explain C37)": name the manifest rule and the explanation
  auto open = t.rfind('[');
  if (!t.empty() && t.back() == ']' && open != std::string::npos) {
    std::string check = t.substr(open + 1, t.size() - open - 2);
    std::string m = checklist_id(check);
    if (!m.empty() && m != check) t.insert(t.size() - 1, ", " + m);
    t += rules::explain_hint(check);
  }
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
