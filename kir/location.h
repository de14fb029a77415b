// Source locations and diagnostics. Every op carries a Location; every error kir reports names
// one, as `file:line:col: error[RULE]: message` followed by the source line and a caret.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kir {

struct Location {
  std::shared_ptr<const std::string> file;  // shared: thousands of ops point at one file name
  uint32_t line = 0;                        // 1-based; 0 = unknown
  uint32_t col = 0;                         // 1-based
  bool explicit_loc = false;                // written as loc(...) in text (a frontend location)

  bool known() const { return line != 0; }
  std::string str() const;  // "file:line:col" or "<unknown>"
  friend bool operator==(const Location& a, const Location& b) {
    return a.line == b.line && a.col == b.col && a.explicit_loc == b.explicit_loc &&
           (a.file == b.file || (a.file && b.file && *a.file == *b.file));
  }
};

Location make_location(const std::string& file, uint32_t line, uint32_t col);

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Location loc;
  std::string rule;     // checklist ID (L6.2) or a syntax/type rule name (parse, type)
  std::string message;
};

// Collects diagnostics; renders them with the source text when it is known.
class Diagnostics {
 public:
  void error(const Location& loc, std::string rule, std::string message);
  void warning(const Location& loc, std::string rule, std::string message);
  void note(const Location& loc, std::string message);
  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  // True if some error carries this rule ID and its message contains `fragment`.
  bool contains(const std::string& rule, const std::string& fragment = "") const;
  // Renders every diagnostic; `source` is the text of the file the locations refer to (may be empty).
  std::string render(const std::string& source = "") const;
  void clear() { diags_.clear(); errors_ = 0; }

 private:
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
};

}  // namespace kir
