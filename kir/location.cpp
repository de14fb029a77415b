// Rendering of locations and diagnostics (file:line:col, caret line; a rule the table explains
// ends its line with "(kir explain ID)").
#include "kir/location.h"

#include "kir/rules/rule.h"

#include <sstream>

namespace kir {

std::string Location::str() const {
  if (!known()) return file ? *file + ":<unknown>" : "<unknown>";
  return (file ? *file : std::string("<input>")) + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

Location make_location(const std::string& file, uint32_t line, uint32_t col) {
  Location l;
  l.file = std::make_shared<const std::string>(file);
  l.line = line;
  l.col = col;
  return l;
}

void Diagnostics::error(const Location& loc, std::string rule, std::string message) {
  diags_.push_back({Severity::Error, loc, std::move(rule), std::move(message)});
  ++errors_;
}
void Diagnostics::warning(const Location& loc, std::string rule, std::string message) {
  diags_.push_back({Severity::Warning, loc, std::move(rule), std::move(message)});
}
void Diagnostics::note(const Location& loc, std::string message) {
  diags_.push_back({Severity::Note, loc, "", std::move(message)});
}

bool Diagnostics::contains(const std::string& rule, const std::string& fragment) const {
  for (const auto& d : diags_)
    if (d.severity == Severity::Error && d.rule == rule &&
        d.message.find(fragment) != std::string::npos)
      return true;
  return false;
}

static std::string source_line(const std::string& source, uint32_t line) {
  if (source.empty() || line == 0) return {};
  size_t pos = 0;
  for (uint32_t l = 1; l < line; ++l) {
    pos = source.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  size_t end = source.find('\n', pos);
  return source.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

std::string Diagnostics::render(const std::string& source) const {
  std::ostringstream os;
  for (const auto& d : diags_) {
    os << d.loc.str() << ": ";
    switch (d.severity) {
      case Severity::Error: os << "error"; break;
      case Severity::Warning: os << "warning"; break;
      case Severity::Note: os << "note"; break;
    }
    if (!d.rule.empty()) os << "[" << d.rule << "]";
    os << ": " << d.message << rules::explain_hint(d.rule) << "\n";
    if (!d.loc.explicit_loc) {
      std::string text = source_line(source, d.loc.line);
      if (!text.empty()) {
        os << "  " << text << "\n  ";
        for (uint32_t i = 1; i < d.loc.col && i <= text.size(); ++i) os << (text[i - 1] == '\t' ? '\t' : ' ');
        os << "^\n";
      }
    }
  }
  return os.str();
}

}  // namespace kir
