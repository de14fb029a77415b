// The abstract syntax of the manifest expression language: the Python expression subset the
// reference documents (literals, names, + - * // %, comparisons incl. chained and `in`,
// and/or/not, conditional, subscripts and slices, attributes, calls with keyword slots, the
// restricted comprehension, star-splices in shape lists). `pos` is the 0-based offset of the
// node in the expression text, for diagnostics.
#pragma once
#include <gmpxx.h>

#include <memory>
#include <string>
#include <vector>

namespace kir::specs {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  enum class K {
    Int, Float, Str, Bool, None, Name,
    Tuple, List,      // kids = elements (List only as the top of a shape)
    Unary,            // s = "-" | "+" | "not"; kids[0]
    Bin,              // s = "+" | "-" | "*" | "//" | "%"; kids[0], kids[1]
    BoolOp,           // s = "and" | "or"; kids = operands (>= 2)
    Compare,          // kids = n+1 operands; ops = n operators
    IfExp,            // kids = [body, test, orelse]
    Subscript,        // kids = [value, index]
    Slice,            // kids = [lo, hi, step], each may be null
    Attr,             // kids[0] . s
    Call,             // s = function name (dotted); kids = args; kwnames[i] names kids[npos + i]
    Comp,             // kids = [element, iterable]; s = loop variable (only as an argument)
    Star,             // *kids[0] (only in shape lists)
  };
  K k = K::None;
  int pos = 0;
  mpz_class ival;
  double fval = 0;
  bool bval = false;
  std::string s;
  std::vector<ExprPtr> kids;
  std::vector<std::string> ops;
  std::vector<std::string> kwnames;
  size_t npos = 0;
};

// Renders an expression back to source form (messages, folding output).
std::string unparse(const Expr& e);

}  // namespace kir::specs
