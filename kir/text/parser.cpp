// Recursive-descent parser for the generic KIR text form. Name resolution is lexical: a value
// is visible after its definition in its region and in regions nested below; names are unique
// within a function.
#include "kir/text/parser.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include "kir/text/lexer.h"

namespace kir {
namespace {
using text::Lexer;
using text::Tok;
using text::Token;

constexpr int kMaxDepth = 200;

struct SyntaxError {};

class Parser {
 public:
  Parser(std::string_view src, const std::string& file, Diagnostics& d)
      : lex_(src), diags_(d), file_(std::make_shared<const std::string>(file)) {
    tok_ = lex_.next();
    ahead_ = lex_.next();
  }

  std::unique_ptr<Module> module() {
    auto m = std::make_unique<Module>();
    m->file = file_;
    module_ = m.get();
    try {
      while (tok_.kind != Tok::End) {
        if (is_ident("enum")) parse_enum(*m);
        else if (is_ident("kernel") || is_ident("fn")) parse_function(*m);
        else fail("expected 'kernel', 'fn' or 'enum' at top level, found " + describe(tok_));
      }
    } catch (const SyntaxError&) {
      return nullptr;
    } catch (const ExtentOverflow& e) {
      diags_.error(loc(tok_), "syntax", e.what());
      return nullptr;
    }
    return m;
  }

 private:
  Lexer lex_;
  Diagnostics& diags_;
  std::shared_ptr<const std::string> file_;
  Token tok_, ahead_;
  Module* module_ = nullptr;
  std::vector<std::unordered_map<std::string, Value*>> scopes_;
  std::set<std::string> function_names_;  // every value name in the current function
  int depth_ = 0;

  Location loc(const Token& t) const {
    Location l;
    l.file = file_;
    l.line = t.line;
    l.col = t.col;
    return l;
  }
  [[noreturn]] void fail(const std::string& msg) { fail_at(tok_, msg); }
  [[noreturn]] void fail_at(const Token& t, const std::string& msg) {
    diags_.error(loc(t), "syntax", msg);
    throw SyntaxError{};
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::Error) return t.text;
    if (t.kind == Tok::End) return "end of input";
    std::string sigil = t.kind == Tok::Value ? "%" : t.kind == Tok::Symbol ? "@" : "";
    return std::string(text::tok_name(t.kind)) + " '" + sigil + t.text + "'";
  }
  void bump() {
    if (tok_.kind == Tok::Error) fail(tok_.text);
    tok_ = ahead_;
    ahead_ = lex_.next();
    if (tok_.kind == Tok::Error) fail(tok_.text);
  }
  bool is(Tok k) const { return tok_.kind == k; }
  bool is_ident(const char* s) const { return tok_.kind == Tok::Ident && tok_.text == s; }
  Token expect(Tok k, const char* what) {
    if (tok_.kind != k) fail(std::string("expected ") + what + ", found " + describe(tok_));
    Token t = tok_;
    bump();
    return t;
  }
  bool accept(Tok k) {
    if (tok_.kind != k) return false;
    bump();
    return true;
  }
  void enter() {
    if (++depth_ > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  void leave() { --depth_; }

  // ---- values and scopes
  Value* lookup(const Token& t) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(t.text);
      if (f != it->end()) return f->second;
    }
    if (function_names_.count(t.text)) fail_at(t, "value '%" + t.text + "' is not visible here (defined in a nested region or later)");
    fail_at(t, "use of undefined value '%" + t.text + "'");
  }
  void define(const Token& t, Value* v) {
    if (!function_names_.insert(t.text).second) fail_at(t, "redefinition of value '%" + t.text + "'");
    scopes_.back()[t.text] = v;
  }

  // ---- integers
  int128 parse_int_text(const Token& t, bool negative) {
    uint128 v = 0;
    const std::string& s = t.text;
    bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    unsigned base = hex ? 16 : 10;
    const uint128 limit = (static_cast<uint128>(1) << 64);  // |v| <= 2^64
    for (size_t i = hex ? 2 : 0; i < s.size(); ++i) {
      char c = s[i];
      unsigned d = std::isdigit(static_cast<unsigned char>(c)) ? static_cast<unsigned>(c - '0')
                                                                : static_cast<unsigned>(std::tolower(c) - 'a' + 10);
      if (d >= base) fail_at(t, "malformed integer '" + s + "'");
      v = v * base + d;
      if (v > limit) fail_at(t, "integer '" + s + "' does not fit in 64 bits");
    }
    if (!negative && v == limit) fail_at(t, "integer '" + s + "' does not fit in 64 bits");
    int128 r = static_cast<int128>(v);
    return negative ? -r : r;
  }
  double parse_float_text(const Token& t, bool negative) {
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(t.text.c_str(), &end);
    if (end != t.text.c_str() + t.text.size()) fail_at(t, "malformed float '" + t.text + "'");
    if (errno == ERANGE && std::isinf(v)) fail_at(t, "float '" + t.text + "' overflows f64");
    return negative ? -v : v;
  }

  // ---- extents
  Extent extent_expr() {
    enter();
    Extent e = extent_term();
    for (;;) {
      if (accept(Tok::Plus)) e = e + extent_term();
      else if (accept(Tok::Minus)) e = e - extent_term();
      else break;
    }
    leave();
    return e;
  }
  Extent extent_term() {
    Extent e = extent_factor();
    while (accept(Tok::Star)) e = e * extent_factor();
    return e;
  }
  Extent extent_factor() {
    if (accept(Tok::Minus)) {
      enter();
      Extent e = Extent::constant(-1) * extent_factor();
      leave();
      return e;
    }
    if (is(Tok::Int)) {
      Token t = tok_;
      bump();
      int128 v = parse_int_text(t, false);
      if (v > (static_cast<int128>(1) << 62)) fail_at(t, "extent '" + t.text + "' is too large (limit 2^62)");
      return Extent::constant(static_cast<int64_t>(v));
    }
    if (is(Tok::Value)) {
      Token t = tok_;
      bump();
      lookup(t);
      return Extent::symbol("%" + t.text);
    }
    if (is_ident("floordiv")) {
      bump();
      expect(Tok::LParen, "'(' after floordiv");
      Extent a = extent_expr();
      expect(Tok::Comma, "',' in floordiv(a, b)");
      Extent b = extent_expr();
      expect(Tok::RParen, "')' closing floordiv");
      return Extent::floordiv(a, b);
    }
    if (is(Tok::Ident)) {
      Token t = tok_;
      bump();
      return Extent::symbol(t.text);
    }
    if (accept(Tok::LParen)) {
      Extent e = extent_expr();
      expect(Tok::RParen, "')'");
      return e;
    }
    fail("expected an extent (integer, symbol, %value or floordiv), found " + describe(tok_));
  }
  std::vector<Extent> extent_list() {
    expect(Tok::LBracket, "'['");
    std::vector<Extent> out;
    if (!is(Tok::RBracket)) {
      do out.push_back(extent_expr());
      while (accept(Tok::Comma));
    }
    expect(Tok::RBracket, "']'");
    return out;
  }

  // ---- types
  Type tensor_type(const char* ctx) {
    Token t = tok_;
    Type ty = type();
    if (!ty.is_tensor()) fail_at(t, std::string(ctx) + " needs a tensor type like f32[M, N], found '" + ty.str() + "'");
    return ty;
  }
  Type type() {
    enter();
    Token t = expect(Tok::Ident, "a type");
    Type out;
    if (auto d = parse_dtype(t.text)) {
      out = is(Tok::LBracket) ? Type::tensor(*d, extent_list()) : Type::scalar(*d);
    } else if (t.text == "tuple") {
      expect(Tok::Less, "'<' after tuple");
      std::vector<Type> es;
      if (!is(Tok::Greater)) {
        do es.push_back(type());
        while (accept(Tok::Comma));
      }
      expect(Tok::Greater, "'>' closing tuple<...>");
      out = Type::tuple(es);
    } else if (t.text == "record") {
      expect(Tok::Less, "'<' after record");
      std::vector<std::pair<std::string, Type>> fs;
      do {
        Token f = expect(Tok::Ident, "a field name");
        expect(Tok::Colon, "':' after field name");
        fs.emplace_back(f.text, type());
      } while (accept(Tok::Comma));
      expect(Tok::Greater, "'>' closing record<...>");
      out = Type::record(fs);
    } else if (t.text == "enum") {
      expect(Tok::Less, "'<' after enum");
      Token s = expect(Tok::Symbol, "an enum symbol @Name");
      expect(Tok::Greater, "'>'");
      out = Type::enumeration(s.text);
    } else if (t.text == "domain" || t.text == "subregion") {
      expect(Tok::Less, "'<'");
      Extent e = extent_expr();
      expect(Tok::Greater, "'>'");
      out = t.text == "domain" ? Type::domain(e) : Type::subregion(e);
    } else if (t.text == "relation") {
      expect(Tok::Less, "'<' after relation");
      Token r = expect(Tok::Int, "the source rank");
      int128 rank = parse_int_text(r, false);
      if (rank > 64) fail_at(r, "relation source rank " + r.text + " is too large");
      expect(Tok::Arrow, "'->' in relation<rank -> [shape]>");
      std::vector<Extent> shape = extent_list();
      bool masked = false;
      if (accept(Tok::Comma)) {
        if (!is_ident("masked")) fail("expected 'masked', found " + describe(tok_));
        bump();
        masked = true;
      }
      expect(Tok::Greater, "'>'");
      out = Type::relation(static_cast<int>(rank), shape, masked);
    } else if (t.text == "In" || t.text == "Out" || t.text == "InOut") {
      Access a = t.text == "In" ? Access::In : t.text == "Out" ? Access::Out : Access::InOut;
      expect(Tok::Less, "'<'");
      Type inner = tensor_type("a view");
      std::optional<std::vector<Extent>> strides;
      std::optional<Extent> offset;
      while (accept(Tok::Comma)) {
        Token k = expect(Tok::Ident, "'strides' or 'offset'");
        expect(Tok::Equal, "'='");
        if (k.text == "strides" && !strides) strides = extent_list();
        else if (k.text == "offset" && !offset) offset = extent_expr();
        else fail_at(k, "unexpected view fact '" + k.text + "' (expected strides or offset, each once)");
      }
      expect(Tok::Greater, "'>'");
      out = Type::view(a, inner, strides, offset);
    } else if (t.text == "buffer") {
      expect(Tok::Less, "'<'");
      Type inner = tensor_type("a buffer");
      expect(Tok::Greater, "'>'");
      out = Type::buffer(inner);
    } else {
      fail_at(t, "unknown type '" + t.text + "'");
    }
    leave();
    return out;
  }
  std::vector<Type> type_list() {
    std::vector<Type> out;
    if (accept(Tok::LParen)) {
      if (!is(Tok::RParen)) {
        do out.push_back(type());
        while (accept(Tok::Comma));
      }
      expect(Tok::RParen, "')' closing the type list");
    } else {
      out.push_back(type());
    }
    return out;
  }

  // ---- attributes
  Attribute attr_value() {
    enter();
    Attribute a;
    bool neg = accept(Tok::Minus);
    if (is(Tok::Int)) {
      Token t = tok_; bump();
      a = Attribute::integer(parse_int_text(t, neg));
    } else if (is(Tok::Float)) {
      Token t = tok_; bump();
      a = Attribute::floating(parse_float_text(t, neg));
      a.text = neg ? "-" + t.text : t.text;  // checked exactly against the dtype by the verifier
    } else if (is_ident("inf") || is_ident("nan")) {
      bool inf = tok_.text == "inf";
      bump();
      a = Attribute::floating(inf ? (neg ? -HUGE_VAL : HUGE_VAL) : std::nan(""));
      if (!inf && neg) a.f = -a.f;
    } else if (neg) {
      fail("expected a number after '-', found " + describe(tok_));
    } else if (is_ident("true") || is_ident("false")) {
      a = Attribute::boolean(tok_.text == "true");
      bump();
    } else if (is(Tok::String)) {
      a = Attribute::string(tok_.text);
      bump();
    } else if (is(Tok::Ident)) {
      a = Attribute::keyword(tok_.text);
      bump();
    } else if (is(Tok::Symbol)) {
      std::string s = tok_.text;
      bump();
      if (accept(Tok::ColonColon)) a = Attribute::enum_member(s, expect(Tok::Ident, "an enum member").text);
      else a = Attribute::symbol(s);
    } else if (accept(Tok::LBracket)) {
      std::vector<Attribute> l;
      if (!is(Tok::RBracket)) {
        do l.push_back(attr_value());
        while (accept(Tok::Comma));
      }
      expect(Tok::RBracket, "']' closing the list");
      a = Attribute::make_list(l);
    } else {
      fail("expected an attribute value, found " + describe(tok_));
    }
    leave();
    return a;
  }
  AttrMap attr_dict() {
    AttrMap m;
    expect(Tok::LBrace, "'{'");
    if (!is(Tok::RBrace)) {
      do {
        Token k = expect(Tok::Ident, "an attribute name");
        expect(Tok::Equal, "'=' after attribute name");
        Attribute v = attr_value();
        if (!m.emplace(k.text, v).second) fail_at(k, "duplicate attribute '" + k.text + "'");
      } while (accept(Tok::Comma));
    }
    expect(Tok::RBrace, "'}' closing the attributes");
    return m;
  }
  std::optional<Location> opt_loc() {
    if (!is_ident("loc")) return std::nullopt;
    bump();
    expect(Tok::LParen, "'(' after loc");
    Token f = expect(Tok::String, "a file name string");
    expect(Tok::Colon, "':'");
    Token l = expect(Tok::Int, "a line number");
    expect(Tok::Colon, "':'");
    Token c = expect(Tok::Int, "a column number");
    expect(Tok::RParen, "')'");
    int128 lv = parse_int_text(l, false), cv = parse_int_text(c, false);
    if (lv > UINT32_MAX || cv > UINT32_MAX) fail_at(l, "location out of range");
    Location loc = make_location(f.text, static_cast<uint32_t>(lv), static_cast<uint32_t>(cv));
    loc.explicit_loc = true;
    return loc;
  }

  // ---- ops and regions
  void parse_body(Region& r) {
    expect(Tok::LBrace, "'{' opening a body");
    while (!is(Tok::RBrace)) {
      if (is(Tok::End)) fail("unexpected end of input: missing '}'");
      parse_op(r);
    }
    bump();
  }
  void parse_region(Operation& op) {
    Token kw = tok_;
    bump();  // 'region'
    enter();
    Region* r = op.add_region();
    scopes_.emplace_back();
    expect(Tok::LParen, "'(' after region");
    if (!is(Tok::RParen)) {
      do {
        Token n = expect(Tok::Value, "a region argument %name");
        expect(Tok::Colon, "':' after region argument");
        Value* v = r->add_arg(type(), n.text);
        v->loc = loc(n);
        define(n, v);
      } while (accept(Tok::Comma));
    }
    expect(Tok::RParen, "')'");
    parse_body(*r);
    scopes_.pop_back();
    leave();
    (void)kw;
  }
  void parse_op(Region& r) {
    Token start = tok_;
    std::vector<Token> names;
    if (is(Tok::Value)) {
      do names.push_back(expect(Tok::Value, "a result %name"));
      while (accept(Tok::Comma));
      expect(Tok::Equal, "'=' after result names");
    }
    Token name = expect(Tok::Ident, "an op name");
    if (name.text == "region" || name.text == "loc") fail_at(name, "'" + name.text + "' is not an op name");
    auto op = std::make_unique<Operation>();
    op->name = name.text;
    op->loc = loc(start);
    expect(Tok::LParen, "'(' after the op name");
    if (!is(Tok::RParen)) {
      do op->operands.push_back(lookup(expect(Tok::Value, "an operand %name")));
      while (accept(Tok::Comma));
    }
    expect(Tok::RParen, "')' closing the operands");
    if (is(Tok::LBrace)) op->attrs = attr_dict();
    std::vector<Type> types;
    Token colon = tok_;
    if (accept(Tok::Colon)) types = type_list();
    if (types.size() != names.size())
      fail_at(names.empty() ? colon : start, "op '" + name.text + "' names " + std::to_string(names.size()) +
                                                " result(s) but gives " + std::to_string(types.size()) + " type(s)");
    Operation* placed = r.append(std::move(op));
    while (is_ident("region")) parse_region(*placed);
    if (auto l = opt_loc()) placed->loc = *l;
    for (size_t i = 0; i < names.size(); ++i) {
      Value* v = placed->add_result(types[i], names[i].text);
      define(names[i], v);
    }
  }

  void parse_enum(Module& m) {
    Token kw = tok_;
    bump();
    Token n = expect(Tok::Symbol, "an enum name @Name");
    if (module_->find_enum(n.text) || module_->find_function(n.text)) fail_at(n, "redefinition of symbol '@" + n.text + "'");
    EnumDecl e;
    e.name = n.text;
    e.loc = loc(kw);
    expect(Tok::LBrace, "'{'");
    if (!is(Tok::RBrace)) {
      do {
        Token mem = expect(Tok::Ident, "an enum member name");
        expect(Tok::Equal, "'='");
        bool neg = accept(Tok::Minus);
        Token v = expect(Tok::Int, "an integer value");
        int128 x = parse_int_text(v, neg);
        if (x > INT64_MAX || x < INT64_MIN) fail_at(v, "enum value out of range");
        e.members.emplace_back(mem.text, static_cast<int64_t>(x));
      } while (accept(Tok::Comma));
    }
    expect(Tok::RBrace, "'}'");
    m.enums.push_back(std::move(e));
  }

  void parse_function(Module& m) {
    Token kw = tok_;
    bump();
    auto f = std::make_unique<Function>();
    f->kind = kw.text == "kernel" ? FunctionKind::Kernel : FunctionKind::Helper;
    f->loc = loc(kw);
    Token n = expect(Tok::Symbol, "a function name @name");
    if (module_->find_enum(n.text) || module_->find_function(n.text)) fail_at(n, "redefinition of symbol '@" + n.text + "'");
    f->name = n.text;
    scopes_.clear();
    scopes_.emplace_back();
    function_names_.clear();
    expect(Tok::LParen, "'(' opening the parameters");
    if (!is(Tok::RParen)) {
      do {
        bool is_const = false;
        if (is_ident("constexpr")) { bump(); is_const = true; }
        Token p = expect(Tok::Value, "a parameter %name");
        expect(Tok::Colon, "':' after the parameter name");
        Value* v = f->body.add_arg(type(), p.text);
        v->is_constexpr = is_const;
        v->loc = loc(p);
        if (accept(Tok::Equal)) v->default_value = attr_value();
        define(p, v);
      } while (accept(Tok::Comma));
    }
    expect(Tok::RParen, "')' closing the parameters");
    if (accept(Tok::Arrow)) f->result_types = type_list();
    if (is_ident("invocation")) {
      bump();
      f->invocation = attr_dict();
    }
    if (is_ident("fixes")) {  // duplicate names are left to the verifier (L2.5)
      bump();
      expect(Tok::LBrace, "'{' after fixes");
      if (!is(Tok::RBrace)) {
        do {
          Token k = expect(Tok::Ident, "a param name");
          expect(Tok::Equal, "'=' after the param name");
          f->fixes.emplace_back(k.text, attr_value());
        } while (accept(Tok::Comma));
      }
      expect(Tok::RBrace, "'}' closing fixes");
    }
    if (auto l = opt_loc()) f->loc = *l;
    Function* placed = f.get();
    m.functions.push_back(std::move(f));
    parse_body(placed->body);
  }
};
}  // namespace

std::unique_ptr<Module> parse_module(std::string_view text, const std::string& file, Diagnostics& diags) {
  Parser p(text, file, diags);
  return p.module();
}

std::unique_ptr<Module> parse_file(const std::string& path, Diagnostics& diags, std::string* source) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error(make_location(path, 0, 0), "io", "cannot open file");
    return nullptr;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto m = parse_module(text, path, diags);
  if (source) *source = std::move(text);
  return m;
}

}  // namespace kir
