// Attribute spelling and equality.
#include "kir/attribute.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "numerics/value_text.h"

namespace kir {

Attribute Attribute::int_list(const std::vector<int64_t>& v) {
  std::vector<Attribute> l;
  for (auto x : v) l.push_back(integer(x));
  return make_list(l);
}

bool Attribute::is_int_list() const {
  if (kind != Kind::List) return false;
  for (const auto& e : list)
    if (!e.is_int() || e.i > INT64_MAX || e.i < INT64_MIN) return false;
  return true;
}
bool Attribute::is_int_pair_list() const {
  if (kind != Kind::List) return false;
  for (const auto& e : list)
    if (!e.is_int_list() || e.list.size() != 2) return false;
  return true;
}
std::vector<int64_t> Attribute::ints() const {
  std::vector<int64_t> out;
  for (const auto& e : list) out.push_back(static_cast<int64_t>(e.i));
  return out;
}
std::vector<std::pair<int64_t, int64_t>> Attribute::int_pairs() const {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& e : list) out.emplace_back(static_cast<int64_t>(e.list[0].i), static_cast<int64_t>(e.list[1].i));
  return out;
}

std::string int128_str(int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  uint128 m = neg ? -static_cast<uint128>(v) : static_cast<uint128>(v);
  std::string s;
  while (m) { s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10))); m /= 10; }
  return neg ? "-" + s : s;
}

std::string float_str(double v) { return num::exact_float_text(v); }

static std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default: o += c;
    }
  }
  return o + "\"";
}

std::string Attribute::str() const {
  switch (kind) {
    case Kind::Bool: return b ? "true" : "false";
    case Kind::Int: return int128_str(i);
    case Kind::Float: {
      // A literal whose exact value is not f (rejected by the verifier, L4.14) prints as written:
      // printing never changes a value silently.
      if (text.empty()) return float_str(f);
      auto fit = num::fit_float_literal(text, DType::F64);
      uint64_t fbits = 0;
      std::memcpy(&fbits, &f, sizeof fbits);
      return fit.exact && fit.bits == fbits ? float_str(f) : text;
    }
    case Kind::String: return quote(s);
    case Kind::Keyword: return s;
    case Kind::Symbol: return "@" + s;
    case Kind::EnumMember: return "@" + s + "::" + member;
    case Kind::List: {
      std::string o = "[";
      for (size_t k = 0; k < list.size(); ++k) o += (k ? ", " : "") + list[k].str();
      return o + "]";
    }
  }
  return "?";
}

bool operator==(const Attribute& a, const Attribute& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Attribute::Kind::Bool: return a.b == b.b;
    case Attribute::Kind::Int: return a.i == b.i;
    case Attribute::Kind::Float: return std::memcmp(&a.f, &b.f, sizeof a.f) == 0 || (std::isnan(a.f) && std::isnan(b.f));
    case Attribute::Kind::String: case Attribute::Kind::Keyword: case Attribute::Kind::Symbol: return a.s == b.s;
    case Attribute::Kind::EnumMember: return a.s == b.s && a.member == b.member;
    case Attribute::Kind::List: return a.list == b.list;
  }
  return false;
}

}  // namespace kir
