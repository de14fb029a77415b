// Op attributes: compile-time facts attached to an op (axes, orders, formats, callee symbols,
// constant values). Integers are 128-bit so that every i64 and u64 value is exact; floats are
// doubles, which hold every value of every floating dtype of the language exactly (a literal
// that is no such value keeps its text, which the verifier checks and reports).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kir {

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

struct Attribute {
  enum class Kind { Bool, Int, Float, String, Keyword, Symbol, EnumMember, List };
  Kind kind = Kind::Bool;
  bool b = false;
  int128 i = 0;
  double f = 0;
  std::string text;    // Float read from KIR text: the literal as written (sign included), so that
                       // it is checked exactly (L4.14); empty for inf/nan and for floats built in code
  std::string s;       // String, Keyword, Symbol (without @), EnumMember: enum name
  std::string member;  // EnumMember
  std::vector<Attribute> list;

  static Attribute boolean(bool v) { Attribute a; a.kind = Kind::Bool; a.b = v; return a; }
  static Attribute integer(int128 v) { Attribute a; a.kind = Kind::Int; a.i = v; return a; }
  static Attribute floating(double v) { Attribute a; a.kind = Kind::Float; a.f = v; return a; }
  static Attribute string(std::string v) { Attribute a; a.kind = Kind::String; a.s = std::move(v); return a; }
  static Attribute keyword(std::string v) { Attribute a; a.kind = Kind::Keyword; a.s = std::move(v); return a; }
  static Attribute symbol(std::string v) { Attribute a; a.kind = Kind::Symbol; a.s = std::move(v); return a; }
  static Attribute enum_member(std::string e, std::string m) {
    Attribute a; a.kind = Kind::EnumMember; a.s = std::move(e); a.member = std::move(m); return a;
  }
  static Attribute make_list(std::vector<Attribute> v) { Attribute a; a.kind = Kind::List; a.list = std::move(v); return a; }
  static Attribute int_list(const std::vector<int64_t>& v);

  bool is_int() const { return kind == Kind::Int; }
  bool is_int_list() const;           // a list of integers
  bool is_int_pair_list() const;      // a list of [int, int] lists
  std::vector<int64_t> ints() const;  // requires is_int_list()
  std::vector<std::pair<int64_t, int64_t>> int_pairs() const;

  std::string str() const;  // canonical spelling
  friend bool operator==(const Attribute& a, const Attribute& b);
};

using AttrMap = std::map<std::string, Attribute>;  // sorted: the printer's canonical order

std::string int128_str(int128 v);
// A spelling whose exact value is v (num::exact_float_text): the shortest round-trip decimal when
// it is exact, else a C99 hex float; always has '.', 'e' or 'p', or is inf/nan.
std::string float_str(double v);

}  // namespace kir
