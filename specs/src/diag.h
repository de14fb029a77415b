// Manifest diagnostics: `file:line:col: [level] Op: text`, collected, then sorted and
// de-duplicated so the validator's output is deterministic whatever order checks run in.
#pragma once
#include <string>
#include <vector>

namespace kir::specs {

// A position in a manifest file; line and col are 1-based (0 = unknown).
struct Loc {
  std::string file;
  int line = 0;
  int col = 0;
  std::string str() const;
};

enum class Level { Loader, Schema, Signature, Warning };

struct SpecDiag {
  Loc loc;
  Level level = Level::Signature;
  std::string op;     // op name, or the file/ADT the message is about
  std::string text;   // message text, ending with the check ID in brackets, e.g. "[C27]"
  // "file:line:col: [level] Op: message [C27, M11] (kir explain C27)".
  std::string str() const;
  std::string check() const;    // the check ID closing the text ("C27"), or ""
  std::string rule() const;     // the check and the manifest rule it enforces ("C27, M11"), or ""
  std::string message() const;  // the text without its closing check ID
};

class SpecDiags {
 public:
  void add(const Loc& loc, Level level, const std::string& op, const std::string& text);
  bool has_errors() const;
  size_t error_count() const;
  const std::vector<SpecDiag>& all() const { return diags_; }
  // Sorted by file, line, col, then text; exact duplicates removed.
  std::vector<SpecDiag> sorted() const;
  std::string render() const;  // one line per sorted diagnostic
  // True if some diagnostic's text contains `fragment` (tests).
  bool contains(const std::string& fragment) const;
  void append(const SpecDiags& other);

 private:
  std::vector<SpecDiag> diags_;
};

const char* level_name(Level l);

}  // namespace kir::specs
