// Canonical polynomial arithmetic for symbolic extents.
#include "kir/extent.h"

#include <algorithm>

namespace kir {
namespace {
int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw ExtentOverflow("extent arithmetic overflows 64 bits");
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw ExtentOverflow("extent arithmetic overflows 64 bits");
  return r;
}
int64_t floor_div(int64_t a, int64_t b) {
  if (b == -1) return checked_mul(a, -1);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
}  // namespace

Extent Extent::constant(int64_t v) {
  Extent e;
  if (v != 0) e.terms_[{}] = v;
  return e;
}

Extent Extent::symbol(const std::string& name) {
  Extent e;
  auto atom = std::make_shared<ExtentAtom>(ExtentAtom{ExtentAtom::Kind::Symbol, name, {}, {}});
  e.atoms_[name] = atom;
  e.terms_[{name}] = 1;
  return e;
}

Extent Extent::floordiv(const Extent& num, const Extent& den) {
  auto n = num.constant_value();
  auto d = den.constant_value();
  if (n && d && *d != 0) return constant(floor_div(*n, *d));
  if (d && *d == 1) return num;
  std::string key = "floordiv(" + num.str() + ", " + den.str() + ")";
  Extent e;
  e.atoms_[key] = std::make_shared<ExtentAtom>(ExtentAtom{ExtentAtom::Kind::FloorDiv, key, num, den});
  e.terms_[{key}] = 1;
  return e;
}

Extent operator+(const Extent& a, const Extent& b) {
  Extent r = a;
  for (const auto& [m, c] : b.terms_) {
    int64_t v = checked_add(r.terms_[m], c);
    if (v == 0) r.terms_.erase(m); else r.terms_[m] = v;
  }
  r.atoms_.insert(b.atoms_.begin(), b.atoms_.end());
  return r;
}

Extent operator-(const Extent& a, const Extent& b) { return a + b * Extent::constant(-1); }

Extent operator*(const Extent& a, const Extent& b) {
  Extent r;
  for (const auto& [ma, ca] : a.terms_)
    for (const auto& [mb, cb] : b.terms_) {
      Extent::Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      int64_t v = checked_add(r.terms_[m], checked_mul(ca, cb));
      if (v == 0) r.terms_.erase(m); else r.terms_[m] = v;
    }
  r.atoms_ = a.atoms_;
  r.atoms_.insert(b.atoms_.begin(), b.atoms_.end());
  return r;
}

bool Extent::is_constant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}
std::optional<int64_t> Extent::constant_value() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty()) return terms_.begin()->second;
  return std::nullopt;
}
bool Extent::is_symbol() const {
  if (terms_.size() != 1) return false;
  const auto& [m, c] = *terms_.begin();
  return c == 1 && m.size() == 1 && atoms_.at(m[0])->kind == ExtentAtom::Kind::Symbol;
}
std::string Extent::symbol_name() const { return terms_.begin()->first[0]; }

std::string Extent::str() const {
  if (terms_.empty()) return "0";
  // Highest degree first, then by spelling; the constant term last.
  std::vector<std::pair<Monomial, int64_t>> ts(terms_.begin(), terms_.end());
  std::stable_sort(ts.begin(), ts.end(), [](const auto& x, const auto& y) {
    if (x.first.size() != y.first.size()) return x.first.size() > y.first.size();
    return x.first < y.first;
  });
  std::string out;
  bool first = true;
  for (const auto& [m, c] : ts) {
    int64_t mag = c < 0 ? -c : c;  // c != INT64_MIN: checked arithmetic never builds it from literals
    if (first) out += c < 0 ? "-" : "";
    else out += c < 0 ? " - " : " + ";
    first = false;
    std::string body;
    for (const auto& a : m) body += (body.empty() ? "" : "*") + a;
    if (m.empty()) out += std::to_string(mag);
    else if (mag == 1) out += body;
    else out += std::to_string(mag) + "*" + body;
  }
  return out;
}

std::vector<std::string> Extent::symbols() const {
  std::vector<std::string> out;
  for (const auto& [key, atom] : atoms_) {
    bool used = false;
    for (const auto& [m, c] : terms_)
      if (std::find(m.begin(), m.end(), key) != m.end()) used = true;
    if (!used) continue;
    if (atom->kind == ExtentAtom::Kind::Symbol) out.push_back(key);
    else {
      for (auto& s : atom->num.symbols()) out.push_back(s);
      for (auto& s : atom->den.symbols()) out.push_back(s);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Extent Extent::substitute(const std::map<std::string, Extent>& binding) const {
  Extent r;
  for (const auto& [m, c] : terms_) {
    Extent t = constant(c);
    for (const auto& key : m) {
      const auto& atom = atoms_.at(key);
      if (atom->kind == ExtentAtom::Kind::Symbol) {
        auto it = binding.find(key);
        t = t * (it != binding.end() ? it->second : symbol(key));
      } else {
        t = t * floordiv(atom->num.substitute(binding), atom->den.substitute(binding));
      }
    }
    r = r + t;
  }
  return r;
}

std::optional<int64_t> Extent::evaluate(
    const std::function<std::optional<int64_t>(const std::string&)>& lookup) const {
  int64_t total = 0;
  for (const auto& [m, c] : terms_) {
    int64_t t = c;
    for (const auto& key : m) {
      const auto& atom = atoms_.at(key);
      std::optional<int64_t> v;
      if (atom->kind == ExtentAtom::Kind::Symbol) {
        v = lookup(key);
      } else {
        auto n = atom->num.evaluate(lookup);
        auto d = atom->den.evaluate(lookup);
        if (n && d && *d != 0) v = floor_div(*n, *d);
      }
      if (!v) return std::nullopt;
      t = checked_mul(t, *v);
    }
    total = checked_add(total, t);
  }
  return total;
}

std::vector<std::pair<int64_t, std::vector<AtomRef>>> Extent::monomials() const {
  std::vector<std::pair<int64_t, std::vector<AtomRef>>> out;
  for (const auto& [m, c] : terms_) {
    std::vector<AtomRef> atoms;
    for (const auto& key : m) atoms.push_back(atoms_.at(key));
    out.emplace_back(c, std::move(atoms));
  }
  return out;
}

}  // namespace kir
