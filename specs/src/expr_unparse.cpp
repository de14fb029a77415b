// Renders expressions back to source text (used in messages and by folding).
#include <cstdio>

#include "specs/src/expr_ast.h"
#include "specs/src/value.h"

namespace kir::specs {

namespace {
// Python precedence of a node (higher binds tighter).
int prec(const Expr& e) {
  switch (e.k) {
    case Expr::K::IfExp: return 1;
    case Expr::K::BoolOp: return e.s == "or" ? 2 : 3;
    case Expr::K::Unary: return e.s == "not" ? 4 : 8;
    case Expr::K::Compare: return 5;
    case Expr::K::Bin: return e.s == "+" || e.s == "-" ? 6 : 7;
    default: return 9;
  }
}
}  // namespace

std::string unparse(const Expr& e) {
  // Children bind at least as tightly as the parent; the right operand of a left-associative
  // operator must bind tighter.
  auto kid = [&](size_t i) {
    if (!e.kids[i]) return std::string();
    const Expr& c = *e.kids[i];
    std::string t = unparse(c);
    int need = prec(e) + ((e.k == Expr::K::Bin && i == 1) || e.k == Expr::K::Compare || (e.k == Expr::K::IfExp && i != 2) ? 1 : 0);
    if (e.k == Expr::K::Subscript || e.k == Expr::K::Call || e.k == Expr::K::Tuple || e.k == Expr::K::List ||
        e.k == Expr::K::Slice || e.k == Expr::K::Comp || e.k == Expr::K::Star)
      need = (e.k == Expr::K::Subscript && i == 0) ? 9 : 1;
    if (e.k == Expr::K::Attr) need = 9;
    return prec(c) < need ? "(" + t + ")" : t;
  };
  switch (e.k) {
    case Expr::K::Int: return e.ival.get_str();
    case Expr::K::Float: return Value::real(e.fval).repr();
    case Expr::K::Str: return "'" + e.s + "'";
    case Expr::K::Bool: return e.bval ? "True" : "False";
    case Expr::K::None: return "None";
    case Expr::K::Name: return e.s;
    case Expr::K::Tuple:
    case Expr::K::List: {
      std::string out = e.k == Expr::K::Tuple ? "(" : "[";
      for (size_t i = 0; i < e.kids.size(); ++i) out += (i ? ", " : "") + kid(i);
      if (e.k == Expr::K::Tuple && e.kids.size() == 1) out += ",";
      return out + (e.k == Expr::K::Tuple ? ")" : "]");
    }
    case Expr::K::Unary: return e.s == "not" ? "not " + kid(0) : e.s + kid(0);
    case Expr::K::Bin: return kid(0) + " " + e.s + " " + kid(1);
    case Expr::K::BoolOp: {
      std::string out;
      for (size_t i = 0; i < e.kids.size(); ++i) out += (i ? " " + e.s + " " : "") + kid(i);
      return out;
    }
    case Expr::K::Compare: {
      std::string out = kid(0);
      for (size_t i = 0; i < e.ops.size(); ++i) out += " " + e.ops[i] + " " + kid(i + 1);
      return out;
    }
    case Expr::K::IfExp: return kid(0) + " if " + kid(1) + " else " + kid(2);
    case Expr::K::Subscript: return kid(0) + "[" + kid(1) + "]";
    case Expr::K::Slice: return kid(0) + ":" + kid(1) + (e.kids[2] ? ":" + kid(2) : "");
    case Expr::K::Attr: return kid(0) + "." + e.s;
    case Expr::K::Call: {
      std::string out = e.s + "(";
      for (size_t i = 0; i < e.kids.size(); ++i) {
        if (i) out += ", ";
        if (i >= e.npos) out += e.kwnames[i - e.npos] + "=";
        out += kid(i);
      }
      return out + ")";
    }
    case Expr::K::Comp: return kid(0) + " for " + e.s + " in " + kid(1);
    case Expr::K::Star: return "*" + kid(0);
  }
  return "?";
}

}  // namespace kir::specs
