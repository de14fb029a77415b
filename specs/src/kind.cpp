// Kinds and the index-kind / parameter-type grammars (see kind.h).
#include "specs/src/kind.h"

#include <cctype>

#include "specs/src/dtypes.h"

namespace kir::specs {

Kind Kind::seq(Kind e, long len) {
  Kind k;
  k.t = T::Seq;
  k.elem = std::make_shared<Kind>(std::move(e));
  k.length = len;
  return k;
}

Kind Kind::maybe(Kind e) {
  if (e.t == T::Maybe) return e;
  Kind k;
  k.t = T::Maybe;
  k.elem = std::make_shared<Kind>(std::move(e));
  return k;
}

static std::string set_str(const std::set<std::string>& m, bool quote) {
  std::string out;
  for (const auto& s : m) out += (out.empty() ? "" : " | ") + (quote ? "'" + s + "'" : s);
  return out;
}

std::string Kind::str() const {
  switch (t) {
    case T::Dim: return "Dim";
    case T::Int: return "Int";
    case T::Bool: return "Bool";
    case T::Enum: return set_str(members, true);
    case T::DType: return members.empty() ? "DType" : "DType[" + set_str(members, false) + "]";
    case T::Seq:
      if (is_shape()) return "Shape";
      return "Seq[" + (elem ? elem->str() : "?") + "]" + (length >= 0 ? "(len " + std::to_string(length) + ")" : "");
    case T::Maybe: return "Maybe[" + (elem ? elem->str() : "?") + "]";
    case T::Adt: return ctor.empty() ? adt : adt + "." + ctor;
    case T::Value: return "Value";
    case T::Union: {
      std::string out;
      for (const auto& a : alts) out += (out.empty() ? "" : " | ") + a.str();
      return out;
    }
    case T::Tensor: return "Tensor";
    case T::None: return "None";
    case T::Str: return "Str";
  }
  return "?";
}

bool operator==(const Kind& a, const Kind& b) {
  if (a.t != b.t || a.members != b.members || a.length != b.length || a.adt != b.adt || a.ctor != b.ctor) return false;
  if ((a.elem == nullptr) != (b.elem == nullptr)) return false;
  if (a.elem && !(*a.elem == *b.elem)) return false;
  return a.alts == b.alts;
}

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// Splits at top-level occurrences of `sep` (outside brackets and quotes).
std::vector<std::string> split_top(const std::string& s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
      cur += c;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == sep && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(trim(cur));
  return out;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool is_dotted(const std::string& s) {
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    if (!is_identifier(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// Combines union members: enum literals merge, dtype names merge, None makes Maybe.
Kind combine(std::vector<Kind> members, bool has_none) {
  std::vector<Kind> merged;
  for (auto& m : members) {
    bool done = false;
    for (auto& x : merged) {
      if ((m.t == Kind::T::Enum && x.t == Kind::T::Enum) || (m.t == Kind::T::DType && x.t == Kind::T::DType)) {
        if (m.t == Kind::T::DType && (m.members.empty() || x.members.empty())) x.members.clear();
        else x.members.insert(m.members.begin(), m.members.end());
        done = true;
        break;
      }
      if (x == m) { done = true; break; }
    }
    if (!done) merged.push_back(m);
  }
  Kind k;
  if (merged.size() == 1) {
    k = merged[0];
  } else if (merged.empty()) {
    k = Kind::simple(Kind::T::None);
  } else {
    // A union touching an opaque Value is opaque.
    for (const auto& m : merged)
      if (m.t == Kind::T::Value) return has_none ? Kind::maybe(Kind::value()) : Kind::value();
    k.t = Kind::T::Union;
    k.alts = merged;
  }
  return has_none ? Kind::maybe(k) : k;
}

std::optional<Kind> parse_type(const std::string& text, const std::set<std::string>& adts, std::string& err, int depth);

std::optional<Kind> parse_seq_elem(const std::string& text, const std::set<std::string>& adts, std::string& err, int depth) {
  auto k = parse_type(text, adts, err, depth + 1);
  if (!k) return std::nullopt;
  bool ok = k->t == Kind::T::Int || (k->t == Kind::T::Maybe && k->elem->t == Kind::T::Int);
  if (!ok) {
    err = "sequence parameter holds '" + text + "', expected Seq[Int]: a sequence holds int or int | None";
    return std::nullopt;
  }
  return k;
}

std::optional<Kind> parse_member(const std::string& m, const std::set<std::string>& adts, std::string& err, int depth,
                                 bool& is_none) {
  if (m.empty()) { err = "empty member in type"; return std::nullopt; }
  if (m == "None") { is_none = true; return std::nullopt; }
  if (m == "int") return Kind::integer();
  if (m == "bool") return Kind::boolean();
  if ((m.front() == '\'' && m.back() == '\'' && m.size() >= 2) || (m.front() == '"' && m.back() == '"' && m.size() >= 2))
    return Kind::enumeration({m.substr(1, m.size() - 2)});
  if (m == "torch.dtype") return Kind::dtype({});
  if (find_dtype(m)) return Kind::dtype({m});
  if (adts.count(m)) {
    Kind k;
    k.t = Kind::T::Adt;
    k.adt = m;
    return k;
  }
  auto bracket = m.find('[');
  if (bracket != std::string::npos && m.back() == ']') {
    std::string head = trim(m.substr(0, bracket));
    std::string inner = m.substr(bracket + 1, m.size() - bracket - 2);
    if (head == "list" || head == "Sequence") {
      auto e = parse_seq_elem(trim(inner), adts, err, depth);
      if (!e) return std::nullopt;
      return Kind::seq(*e);
    }
    if (head == "tuple") {
      auto parts = split_top(inner, ',');
      if (parts.size() == 2 && parts[1] == "...") {
        auto e = parse_seq_elem(parts[0], adts, err, depth);
        if (!e) return std::nullopt;
        return Kind::seq(*e);
      }
      std::optional<Kind> elem;
      for (const auto& p : parts) {
        auto e = parse_seq_elem(p, adts, err, depth);
        if (!e) return std::nullopt;
        if (elem && !(*elem == *e)) elem = Kind::maybe(Kind::integer());
        else if (!elem) elem = e;
      }
      return Kind::seq(*elem, static_cast<long>(parts.size()));
    }
    err = "unknown parameterized type '" + head + "'";
    return std::nullopt;
  }
  if (is_dotted(m)) return Kind::value();  // float, Number, str, torch.Tensor, RoutingEpilogueSpec...
  err = "cannot parse type member '" + m + "'";
  return std::nullopt;
}

std::optional<Kind> parse_type(const std::string& text, const std::set<std::string>& adts, std::string& err, int depth) {
  if (depth > 16) { err = "type nests too deeply"; return std::nullopt; }
  auto parts = split_top(text, '|');
  std::vector<Kind> members;
  bool has_none = false;
  for (const auto& p : parts) {
    bool none = false;
    auto k = parse_member(p, adts, err, depth, none);
    if (none) { has_none = true; continue; }
    if (!k) return std::nullopt;
    members.push_back(*k);
  }
  if (members.empty()) { err = "type '" + text + "' has no member other than None"; return std::nullopt; }
  return combine(members, has_none);
}

}  // namespace

std::optional<Kind> parse_index_kind(const std::string& text, std::string& err) {
  std::string t = trim(text);
  if (t == "Dim") return Kind::dim();
  if (t == "Shape") return Kind::shape();
  if (t == "Seq[Int]") return Kind::seq(Kind::integer());
  if (t.rfind("DType[", 0) == 0 && t.back() == ']') {
    std::set<std::string> m;
    for (const auto& p : split_top(t.substr(6, t.size() - 7), '|')) {
      if (p == "...") return Kind::dtype({});
      if (!find_dtype(p)) {
        err = "unknown kind '" + t + "' ('" + p + "' is not a registered dtype)";
        return std::nullopt;
      }
      m.insert(p);
    }
    return Kind::dtype(m);
  }
  err = "unknown kind '" + t + "' (expected Dim, Shape, Seq[Int] or DType[...])";
  return std::nullopt;
}

std::optional<Kind> parse_param_type(const std::string& text, const std::set<std::string>& adts, std::string& err) {
  if (trim(text).empty()) { err = "empty type"; return std::nullopt; }
  return parse_type(text, adts, err, 0);
}

std::optional<Kind> parse_field_kind(const std::string& text, std::string& err) {
  std::string t = trim(text);
  if (t == "Dim") return Kind::dim();
  if (t == "Int") return Kind::integer();
  if (t == "Bool") return Kind::boolean();
  std::set<std::string> lits;
  for (const auto& p : split_top(t, '|')) {
    if (p.size() >= 2 && ((p.front() == '\'' && p.back() == '\'') || (p.front() == '"' && p.back() == '"'))) {
      lits.insert(p.substr(1, p.size() - 2));
      continue;
    }
    err = "field kind '" + t + "' is not Dim, Int, Bool or an enum of quoted literals";
    return std::nullopt;
  }
  return Kind::enumeration(lits);
}

}  // namespace kir::specs
