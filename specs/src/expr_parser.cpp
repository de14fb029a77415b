// Lexer and recursive-descent parser of the manifest expression language (see expr_parser.h).
// Precedence, lowest first: conditional, or, and, not, comparisons, (| ^ & << >>: rejected),
// + -, * // % (/ @: rejected), unary - +, (** rejected), primary (call, subscript, attribute).
#include "specs/src/expr_parser.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace kir::specs {
namespace {

struct Tok {
  enum class T { Name, Int, Float, Str, Op, End } t = T::End;
  std::string s;
  int pos = 0;
};

struct Failure {
  std::string message;
  int pos;
};

[[noreturn]] void fail(std::string msg, int pos) { throw Failure{std::move(msg), pos}; }

std::string outside(const std::string& what) { return what + " is outside the expression language"; }

std::vector<Tok> lex(std::string_view src) {
  std::vector<Tok> out;
  size_t i = 0;
  auto push = [&](Tok::T t, std::string s, size_t pos) { out.push_back({t, std::move(s), static_cast<int>(pos)}); };
  while (i < src.size()) {
    unsigned char c = static_cast<unsigned char>(src[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
    size_t start = i;
    if (std::isalpha(c) || c == '_') {
      while (i < src.size() && (std::isalnum(static_cast<unsigned char>(src[i])) || src[i] == '_')) ++i;
      std::string word(src.substr(start, i - start));
      if (i < src.size() && (src[i] == '\'' || src[i] == '"')) {
        fail(outside("string prefix '" + word + "' (f-strings and the like)"), static_cast<int>(start));
      }
      push(Tok::T::Name, word, start);
      continue;
    }
    if (std::isdigit(c) || (c == '.' && i + 1 < src.size() && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      bool is_float = false;
      if (c == '0' && i + 1 < src.size() && std::strchr("xXoObB", src[i + 1]) && src[i + 1] != '\0') {
        int base = (src[i + 1] == 'x' || src[i + 1] == 'X') ? 16 : (src[i + 1] == 'o' || src[i + 1] == 'O') ? 8 : 2;
        i += 2;
        size_t ds = i;
        while (i < src.size() && (std::isxdigit(static_cast<unsigned char>(src[i])) || src[i] == '_')) ++i;
        std::string digits;
        for (size_t k = ds; k < i; ++k) if (src[k] != '_') digits += src[k];
        mpz_class v;
        if (digits.empty() || v.set_str(digits, base) != 0) fail("cannot parse: malformed number", static_cast<int>(start));
        push(Tok::T::Int, v.get_str(), start);
        continue;
      }
      while (i < src.size() && (std::isdigit(static_cast<unsigned char>(src[i])) || src[i] == '_')) ++i;
      if (i < src.size() && src[i] == '.') {
        is_float = true;
        ++i;
        while (i < src.size() && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
      }
      if (i < src.size() && (src[i] == 'e' || src[i] == 'E')) {
        size_t save = i;
        ++i;
        if (i < src.size() && (src[i] == '+' || src[i] == '-')) ++i;
        if (i < src.size() && std::isdigit(static_cast<unsigned char>(src[i]))) {
          is_float = true;
          while (i < src.size() && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
        } else {
          i = save;
        }
      }
      if (i < src.size() && (std::isalpha(static_cast<unsigned char>(src[i])) || src[i] == '_'))
        fail("cannot parse: malformed number", static_cast<int>(start));
      std::string text;
      for (size_t k = start; k < i; ++k) if (src[k] != '_') text += src[k];
      push(is_float ? Tok::T::Float : Tok::T::Int, text, start);
      continue;
    }
    if (c == '\'' || c == '"') {
      char q = static_cast<char>(c);
      ++i;
      std::string val;
      bool closed = false;
      while (i < src.size()) {
        char d = src[i];
        if (d == '\\' && i + 1 < src.size()) {
          char e = src[i + 1];
          val += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          i += 2;
          continue;
        }
        if (d == q) { closed = true; ++i; break; }
        if (d == '\n') break;
        val += d;
        ++i;
      }
      if (!closed) fail("cannot parse: unterminated string", static_cast<int>(start));
      push(Tok::T::Str, val, start);
      continue;
    }
    static const char* three[] = {"//=", "**=", ">>=", "<<=", "..."};
    static const char* two[] = {"//", "**", "==", "!=", "<=", ">=", "<<", ">>", "->", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
    bool matched = false;
    for (const char* op : three)
      if (src.substr(i, 3) == op) { push(Tok::T::Op, op, i); i += 3; matched = true; break; }
    if (matched) continue;
    for (const char* op : two)
      if (src.substr(i, 2) == op) { push(Tok::T::Op, op, i); i += 2; matched = true; break; }
    if (matched) continue;
    if (std::strchr("+-*/%<>()[]{},:.=|&^~@;!", static_cast<char>(c)) && c != 0) {
      push(Tok::T::Op, std::string(1, static_cast<char>(c)), i);
      ++i;
      continue;
    }
    fail("cannot parse: unexpected character '" + std::string(1, static_cast<char>(c)) + "'", static_cast<int>(i));
  }
  push(Tok::T::End, "", src.size());
  return out;
}

class Parser {
 public:
  explicit Parser(std::vector<Tok> toks) : toks_(std::move(toks)) {}

  ExprPtr parse_top() {
    ExprPtr e = test_or_tuple();
    if (peek().t != Tok::T::End) fail("cannot parse: unexpected '" + peek().s + "'", peek().pos);
    return e;
  }

  // A shape: `[items]` or `Name[args]`.
  void parse_shape(ShapeExpr& out) {
    out.pos = peek().pos;
    if (is_op("[")) {
      ExprPtr lst = atom();
      if (peek().t != Tok::T::End) fail("cannot parse: unexpected '" + peek().s + "' after the shape", peek().pos);
      out.items = lst->kids;
      return;
    }
    if (peek().t == Tok::T::Name && toks_.size() > idx_ + 1 && toks_[idx_ + 1].t == Tok::T::Op && toks_[idx_ + 1].s == "[") {
      out.is_family = true;
      out.family = next().s;
      next();  // [
      if (!is_op("]")) {
        for (;;) {
          out.items.push_back(test());
          if (!accept(",")) break;
          if (is_op("]")) break;
        }
      }
      expect("]");
      if (peek().t != Tok::T::End) fail("cannot parse: unexpected '" + peek().s + "' after the shape", peek().pos);
      return;
    }
    fail("a shape must be a list '[axis, ...]' or a type-family application 'Fam[args]'", out.pos);
  }

 private:
  std::vector<Tok> toks_;
  size_t idx_ = 0;
  int depth_ = 0;
  size_t nodes_ = 0;

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& pp, int pos) : p(pp) {
      if (++p.depth_ > kMaxExprDepth) fail("expression nests too deeply (more than " + std::to_string(kMaxExprDepth) + " levels)", pos);
    }
    ~DepthGuard() { --p.depth_; }
  };

  const Tok& peek() const { return toks_[idx_]; }
  const Tok& next() { return toks_[idx_ < toks_.size() - 1 ? idx_++ : idx_]; }
  bool is_op(const char* s) const { return peek().t == Tok::T::Op && peek().s == s; }
  bool is_kw(const char* s) const { return peek().t == Tok::T::Name && peek().s == s; }
  bool accept(const char* s) {
    if (is_op(s)) { next(); return true; }
    return false;
  }
  void expect(const char* s) {
    if (!accept(s)) fail(std::string("cannot parse: expected '") + s + "'" + (peek().t == Tok::T::End ? " at the end" : ", got '" + peek().s + "'"), peek().pos);
  }

  std::shared_ptr<Expr> node(Expr::K k, int pos) {
    if (++nodes_ > 4096) fail("expression is too large (more than 4096 nodes)", pos);
    auto e = std::make_shared<Expr>();
    e->k = k;
    e->pos = pos;
    return e;
  }

  void reject_trailing_ops() {
    static const char* bad[] = {"|", "&", "^", "<<", ">>", "/", "**", "@", "~", ":=", "=", "->", ";", "!", "...",
                                "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "//=", "**=", ">>=", "<<="};
    if (peek().t != Tok::T::Op) return;
    for (const char* b : bad)
      if (peek().s == b) fail(outside("operator '" + peek().s + "'"), peek().pos);
  }

  // test [',' test]* → tuple without parentheses at top level.
  ExprPtr test_or_tuple() {
    int pos = peek().pos;
    ExprPtr first = test();
    if (!is_op(",")) return first;
    auto t = node(Expr::K::Tuple, pos);
    t->kids.push_back(first);
    while (accept(",")) {
      if (peek().t == Tok::T::End || is_op(")") || is_op("]")) break;
      t->kids.push_back(test());
    }
    return t;
  }

  ExprPtr test() {
    DepthGuard g(*this, peek().pos);
    if (is_kw("lambda")) fail(outside("lambda"), peek().pos);
    if (is_kw("yield") || is_kw("await")) fail(outside("'" + peek().s + "'"), peek().pos);
    int pos = peek().pos;
    ExprPtr body = or_test();
    if (is_kw("if")) {
      next();
      ExprPtr cond = or_test();
      if (!is_kw("else")) fail("cannot parse: conditional expression needs 'else'", peek().pos);
      next();
      ExprPtr orelse = test();
      auto e = node(Expr::K::IfExp, pos);
      e->kids = {body, cond, orelse};
      return e;
    }
    return body;
  }

  ExprPtr or_test() { return bool_chain("or", &Parser::and_test); }
  ExprPtr and_test() { return bool_chain("and", &Parser::not_test); }

  ExprPtr bool_chain(const char* kw, ExprPtr (Parser::*sub)()) {
    int pos = peek().pos;
    ExprPtr first = (this->*sub)();
    if (!is_kw(kw)) return first;
    auto e = node(Expr::K::BoolOp, pos);
    e->s = kw;
    e->kids.push_back(first);
    while (is_kw(kw)) {
      next();
      e->kids.push_back((this->*sub)());
    }
    return e;
  }

  ExprPtr not_test() {
    DepthGuard g(*this, peek().pos);
    if (is_kw("not")) {
      int pos = next().pos;
      auto e = node(Expr::K::Unary, pos);
      e->s = "not";
      e->kids.push_back(not_test());
      return e;
    }
    return comparison();
  }

  bool comp_op(std::string& op) {
    if (peek().t == Tok::T::Op) {
      static const char* ops[] = {"==", "!=", "<=", ">=", "<", ">"};
      for (const char* o : ops)
        if (peek().s == o) { op = o; next(); return true; }
      return false;
    }
    if (is_kw("in")) { next(); op = "in"; return true; }
    if (is_kw("not") && idx_ + 1 < toks_.size() && toks_[idx_ + 1].t == Tok::T::Name && toks_[idx_ + 1].s == "in") {
      next(); next(); op = "not in"; return true;
    }
    if (is_kw("is")) fail(outside("'is' comparison (use present(...))"), peek().pos);
    return false;
  }

  ExprPtr comparison() {
    int pos = peek().pos;
    ExprPtr first = arith();
    reject_trailing_ops();
    std::string op;
    if (!comp_op(op)) return first;
    auto e = node(Expr::K::Compare, pos);
    e->kids.push_back(first);
    do {
      e->ops.push_back(op);
      e->kids.push_back(arith());
      reject_trailing_ops();
    } while (comp_op(op));
    return e;
  }

  ExprPtr arith() {
    int pos = peek().pos;
    ExprPtr lhs = term();
    while (is_op("+") || is_op("-")) {
      std::string op = next().s;
      auto e = node(Expr::K::Bin, pos);
      e->s = op;
      e->kids = {lhs, term()};
      lhs = e;
    }
    return lhs;
  }

  ExprPtr term() {
    int pos = peek().pos;
    ExprPtr lhs = factor();
    for (;;) {
      if (is_op("/")) fail(outside("operator '/' (use //)"), peek().pos);
      if (is_op("@")) fail(outside("operator '@'"), peek().pos);
      if (!(is_op("*") || is_op("//") || is_op("%"))) break;
      std::string op = next().s;
      auto e = node(Expr::K::Bin, pos);
      e->s = op;
      e->kids = {lhs, factor()};
      lhs = e;
    }
    return lhs;
  }

  ExprPtr factor() {
    DepthGuard g(*this, peek().pos);
    if (is_op("-") || is_op("+")) {
      int pos = peek().pos;
      std::string op = next().s;
      auto e = node(Expr::K::Unary, pos);
      e->s = op;
      e->kids.push_back(factor());
      return e;
    }
    if (is_op("~")) fail(outside("operator '~'"), peek().pos);
    ExprPtr p = primary();
    if (is_op("**")) fail(outside("operator '**'"), peek().pos);
    return p;
  }

  ExprPtr primary() {
    ExprPtr e = atom();
    for (;;) {
      DepthGuard g(*this, peek().pos);
      if (is_op("(")) {
        int pos = e->pos;
        std::string fname = dotted_name(*e);
        if (fname.empty()) fail("only built-in primitives can be called; this call is outside the expression language", peek().pos);
        next();
        auto c = node(Expr::K::Call, pos);
        c->s = fname;
        call_args(*c);
        e = c;
      } else if (is_op("[")) {
        int pos = e->pos;
        next();
        auto s = node(Expr::K::Subscript, pos);
        s->kids.push_back(e);
        s->kids.push_back(subscript_index());
        expect("]");
        e = s;
      } else if (is_op(".")) {
        next();
        if (peek().t != Tok::T::Name) fail("cannot parse: expected an attribute name after '.'", peek().pos);
        auto a = node(Expr::K::Attr, e->pos);
        a->s = next().s;
        a->kids.push_back(e);
        e = a;
      } else {
        return e;
      }
    }
  }

  static std::string dotted_name(const Expr& e) {
    if (e.k == Expr::K::Name) return e.s;
    if (e.k == Expr::K::Attr) {
      std::string base = dotted_name(*e.kids[0]);
      return base.empty() ? "" : base + "." + e.s;
    }
    return "";
  }

  void call_args(Expr& c) {
    bool seen_kw = false;
    while (!is_op(")")) {
      if (peek().t == Tok::T::End) fail("cannot parse: expected ')'", peek().pos);
      if (is_op("*") || is_op("**")) fail(outside("argument unpacking in a call"), peek().pos);
      if (peek().t == Tok::T::Name && idx_ + 1 < toks_.size() && toks_[idx_ + 1].t == Tok::T::Op && toks_[idx_ + 1].s == "=") {
        std::string kw = next().s;
        next();
        c.kwnames.push_back(kw);
        c.kids.push_back(test());
        seen_kw = true;
      } else {
        if (seen_kw) fail("cannot parse: positional argument follows keyword argument", peek().pos);
        int pos = peek().pos;
        ExprPtr a = test();
        if (is_kw("for")) a = comprehension(a, pos);
        c.kids.push_back(a);
        c.npos++;
      }
      if (!accept(",")) break;
    }
    expect(")");
  }

  ExprPtr comprehension(ExprPtr elt, int pos) {
    next();  // for
    if (peek().t != Tok::T::Name) fail("a comprehension must be 'f(x) for x in s' with one target name", peek().pos);
    auto c = node(Expr::K::Comp, pos);
    c->s = next().s;
    if (is_op(",")) fail("a comprehension must be 'f(x) for x in s' with one target name", peek().pos);
    if (!is_kw("in")) fail("cannot parse: expected 'in' in the comprehension", peek().pos);
    next();
    ExprPtr iter = or_test();
    if (is_kw("if")) fail("a comprehension may not filter with 'if' (" + outside("a filtered comprehension") + ")", peek().pos);
    if (is_kw("for")) fail("a comprehension may not nest (" + outside("a nested comprehension") + ")", peek().pos);
    c->kids = {elt, iter};
    return c;
  }

  ExprPtr subscript_index() {
    int pos = peek().pos;
    ExprPtr first = slice_item();
    if (!is_op(",")) return first;
    auto t = node(Expr::K::Tuple, pos);
    t->kids.push_back(first);
    while (accept(",")) {
      if (is_op("]")) break;
      t->kids.push_back(slice_item());
    }
    return t;
  }

  ExprPtr slice_item() {
    int pos = peek().pos;
    ExprPtr lo;
    if (!is_op(":")) {
      lo = test();
      if (!is_op(":")) return lo;
    }
    auto s = node(Expr::K::Slice, pos);
    next();  // :
    ExprPtr hi, step;
    if (!is_op(":") && !is_op("]") && !is_op(",")) hi = test();
    if (accept(":")) {
      if (!is_op("]") && !is_op(",")) step = test();
    }
    s->kids = {lo, hi, step};
    return s;
  }

  ExprPtr atom() {
    DepthGuard g(*this, peek().pos);
    const Tok& t = peek();
    int pos = t.pos;
    switch (t.t) {
      case Tok::T::End: fail("cannot parse: unexpected end of expression", pos);
      case Tok::T::Int: {
        auto e = node(Expr::K::Int, pos);
        if (e->ival.set_str(next().s, 10) != 0) fail("cannot parse: malformed number", pos);
        if (peek().t == Tok::T::Int || peek().t == Tok::T::Float) fail("cannot parse: unexpected number", peek().pos);
        return e;
      }
      case Tok::T::Float: {
        auto e = node(Expr::K::Float, pos);
        e->fval = std::strtod(next().s.c_str(), nullptr);
        if (!std::isfinite(e->fval)) fail(outside("non-finite float literal (use inf)"), pos);
        return e;
      }
      case Tok::T::Str: {
        auto e = node(Expr::K::Str, pos);
        while (peek().t == Tok::T::Str) e->s += next().s;
        return e;
      }
      case Tok::T::Name: {
        static const char* reserved[] = {"if", "else", "for", "in", "and", "or", "not", "is", "lambda", "def", "class", "return",
                                         "import", "from", "as", "with", "while", "del", "global", "nonlocal", "pass",
                                         "break", "continue", "try", "except", "finally", "raise", "assert", "yield", "await", "async", "elif"};
        for (const char* r : reserved)
          if (t.s == r) fail("cannot parse: unexpected '" + t.s + "'", pos);
        std::string word = next().s;
        if (word == "True" || word == "False") {
          auto e = node(Expr::K::Bool, pos);
          e->bval = word == "True";
          return e;
        }
        if (word == "None") return node(Expr::K::None, pos);
        auto e = node(Expr::K::Name, pos);
        e->s = word;
        return e;
      }
      case Tok::T::Op: break;
    }
    if (t.s == "(") {
      next();
      if (accept(")")) return node(Expr::K::Tuple, pos);
      ExprPtr first = star_or_test();
      if (is_kw("for")) fail(outside("a generator expression outside all/sum/max/min"), peek().pos);
      if (accept(")")) {
        if (first->k == Expr::K::Star) fail("cannot parse: starred expression in parentheses", pos);
        return first;
      }
      auto tup = node(Expr::K::Tuple, pos);
      tup->kids.push_back(first);
      while (accept(",")) {
        if (is_op(")")) break;
        tup->kids.push_back(star_or_test());
      }
      expect(")");
      return tup;
    }
    if (t.s == "[") {
      next();
      auto lst = node(Expr::K::List, pos);
      while (!is_op("]")) {
        if (peek().t == Tok::T::End) fail("cannot parse: expected ']'", peek().pos);
        lst->kids.push_back(star_or_test());
        if (is_kw("for")) fail(outside("a list comprehension"), peek().pos);
        if (!accept(",")) break;
      }
      expect("]");
      return lst;
    }
    if (t.s == "{") fail(outside("a set or dict display"), pos);
    if (t.s == "*") fail("cannot parse: '*' splices are allowed only in shape lists", pos);
    fail("cannot parse: unexpected '" + t.s + "'", pos);
  }

  ExprPtr star_or_test() {
    if (is_op("*")) {
      int pos = next().pos;
      auto s = node(Expr::K::Star, pos);
      s->kids.push_back(arith());
      return s;
    }
    return test();
  }
};

}  // namespace

ExprPtr parse_expr(std::string_view text, ParseError& err) {
  if (text.size() > kMaxExprLen) {
    err = {"expression is too long (more than " + std::to_string(kMaxExprLen) + " characters)", 0};
    return nullptr;
  }
  try {
    Parser p(lex(text));
    ExprPtr e = p.parse_top();
    return e;
  } catch (const Failure& f) {
    err = {f.message, f.pos};
    return nullptr;
  }
}

bool parse_shape(std::string_view text, ShapeExpr& out, ParseError& err) {
  if (text.size() > kMaxExprLen) {
    err = {"shape is too long", 0};
    return false;
  }
  try {
    Parser p(lex(text));
    p.parse_shape(out);
    return true;
  } catch (const Failure& f) {
    err = {f.message, f.pos};
    return false;
  }
}

}  // namespace kir::specs
