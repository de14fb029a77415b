// Hand-written lexer: exact columns for diagnostics, no allocation beyond token text.
#include "kir/text/lexer.h"

#include <cctype>

namespace kir::text {
namespace {
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }
}  // namespace

void Lexer::advance() {
  if (pos_ >= src_.size()) return;
  if (src_[pos_] == '\n') { ++line_; col_ = 1; } else { ++col_; }
  ++pos_;
}

Token Lexer::next() {
  for (;;) {
    while (pos_ < src_.size() && std::isspace(static_cast<unsigned char>(peek()))) advance();
    if (peek() == '/' && peek(1) == '/') {
      while (pos_ < src_.size() && peek() != '\n') advance();
      continue;
    }
    break;
  }
  Token t;
  t.line = line_;
  t.col = col_;
  if (pos_ >= src_.size()) { t.kind = Tok::End; return t; }
  char c = peek();
  auto single = [&](Tok k) { t.kind = k; t.text = std::string(1, c); advance(); return t; };
  switch (c) {
    case '(': return single(Tok::LParen);
    case ')': return single(Tok::RParen);
    case '{': return single(Tok::LBrace);
    case '}': return single(Tok::RBrace);
    case '[': return single(Tok::LBracket);
    case ']': return single(Tok::RBracket);
    case '<': return single(Tok::Less);
    case '>': return single(Tok::Greater);
    case ',': return single(Tok::Comma);
    case '=': return single(Tok::Equal);
    case '+': return single(Tok::Plus);
    case '*': return single(Tok::Star);
    case ':':
      if (peek(1) == ':') { advance(); advance(); t.kind = Tok::ColonColon; t.text = "::"; return t; }
      return single(Tok::Colon);
    case '-':
      if (peek(1) == '>') { advance(); advance(); t.kind = Tok::Arrow; t.text = "->"; return t; }
      return single(Tok::Minus);
    default: break;
  }
  if (c == '%' || c == '@') {
    advance();
    while (name_char(peek())) { t.text += peek(); advance(); }
    if (t.text.empty()) { t.kind = Tok::Error; t.text = std::string("expected a name after '") + c + "'"; return t; }
    t.kind = c == '%' ? Tok::Value : Tok::Symbol;
    return t;
  }
  if (c == '"') {
    advance();
    for (;;) {
      if (pos_ >= src_.size() || peek() == '\n') { t.kind = Tok::Error; t.text = "unterminated string"; return t; }
      char d = peek();
      advance();
      if (d == '"') break;
      if (d == '\\') {
        char e = peek();
        advance();
        switch (e) {
          case 'n': t.text += '\n'; break;
          case 't': t.text += '\t'; break;
          case '"': t.text += '"'; break;
          case '\\': t.text += '\\'; break;
          default: t.kind = Tok::Error; t.text = "unknown escape in string"; return t;
        }
      } else {
        t.text += d;
      }
    }
    t.kind = Tok::String;
    return t;
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {
    bool is_float = false;
    if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      t.text += peek(); advance(); t.text += peek(); advance();
      while (std::isxdigit(static_cast<unsigned char>(peek())) || peek() == '.' ||
             ((peek() == 'p' || peek() == 'P')) ||
             ((peek() == '+' || peek() == '-') && (t.text.back() == 'p' || t.text.back() == 'P'))) {
        if (peek() == '.' || peek() == 'p' || peek() == 'P') is_float = true;
        t.text += peek();
        advance();
      }
    } else {
      while (std::isdigit(static_cast<unsigned char>(peek())) || peek() == '.' || peek() == 'e' || peek() == 'E' ||
             ((peek() == '+' || peek() == '-') && (t.text.back() == 'e' || t.text.back() == 'E'))) {
        if (peek() == '.' || peek() == 'e' || peek() == 'E') is_float = true;
        t.text += peek();
        advance();
      }
    }
    t.kind = is_float ? Tok::Float : Tok::Int;
    return t;
  }
  if (ident_start(c)) {
    while (ident_char(peek())) { t.text += peek(); advance(); }
    t.kind = Tok::Ident;
    return t;
  }
  t.kind = Tok::Error;
  t.text = std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + std::to_string(static_cast<unsigned char>(c))) + "'";
  advance();
  return t;
}

std::string_view tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of input";
    case Tok::Ident: return "identifier";
    case Tok::Value: return "%value";
    case Tok::Symbol: return "@symbol";
    case Tok::Int: return "integer";
    case Tok::Float: return "float";
    case Tok::String: return "string";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::Less: return "'<'";
    case Tok::Greater: return "'>'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::ColonColon: return "'::'";
    case Tok::Equal: return "'='";
    case Tok::Arrow: return "'->'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Error: return "invalid token";
  }
  return "?";
}

}  // namespace kir::text
