// Tokens of the KIR text form (docs/kir-text.md, "Lexical structure").
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace kir::text {

enum class Tok {
  End, Ident, Value, Symbol, Int, Float, String,
  LParen, RParen, LBrace, RBrace, LBracket, RBracket, Less, Greater,
  Comma, Colon, ColonColon, Equal, Arrow, Plus, Minus, Star, Error,
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier/name without sigil, literal spelling, or error message
  uint32_t line = 1, col = 1;
};

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}
  Token next();

 private:
  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  void advance();
};

std::string_view tok_name(Tok t);

}  // namespace kir::text
