// Parser of the manifest expression language: recursive descent with Python's operator
// precedence. Constructs Python has but the language excludes (/, **, |, is, lambda, sets,
// list comprehensions, f-strings, non-finite floats, ...) are rejected with "... is outside the
// expression language". Depth and size are bounded so hostile input cannot exhaust the stack.
#pragma once
#include <string>
#include <string_view>

#include "specs/src/expr_ast.h"

namespace kir::specs {

struct ParseError {
  std::string message;
  int pos = 0;  // offset in the text
};

inline constexpr int kMaxExprDepth = 64;
inline constexpr size_t kMaxExprLen = 16384;

// Parses one expression. On failure returns null and fills `err`.
ExprPtr parse_expr(std::string_view text, ParseError& err);

// A shape: the top-level form of `shape:`/`is:` — a list of axes (`*E` splices allowed) or a
// type-family application `Fam[args]`.
struct ShapeExpr {
  bool is_family = false;
  std::string family;            // when is_family
  std::vector<ExprPtr> items;    // axes (may be Star nodes) or family arguments
  int pos = 0;
};
bool parse_shape(std::string_view text, ShapeExpr& out, ParseError& err);

}  // namespace kir::specs
