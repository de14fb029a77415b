// Symbolic logical extents (seed 000 §4: dynamic extents keep identity and equality conditions).
// An extent is a polynomial with integer coefficients over atoms: extent symbols (`M`), index SSA
// values (`%n`) and floor divisions. The polynomial form is canonical, so two extents are
// provably equal exactly when their forms are equal (M*N == N*M; M != N although both dynamic).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kir {

struct ExtentOverflow : std::overflow_error {
  using std::overflow_error::overflow_error;
};

class Extent;
struct ExtentAtom;
using AtomRef = std::shared_ptr<const ExtentAtom>;

class Extent {
 public:
  Extent() = default;  // zero
  static Extent constant(int64_t v);
  static Extent symbol(const std::string& name);  // `M` or `%n`
  static Extent floordiv(const Extent& num, const Extent& den);

  friend Extent operator+(const Extent& a, const Extent& b);
  friend Extent operator-(const Extent& a, const Extent& b);
  friend Extent operator*(const Extent& a, const Extent& b);
  friend bool operator==(const Extent& a, const Extent& b) { return a.terms_ == b.terms_; }
  friend bool operator!=(const Extent& a, const Extent& b) { return !(a == b); }

  bool is_constant() const;
  std::optional<int64_t> constant_value() const;
  bool is_symbol() const;                 // exactly one atom that is a symbol, coefficient 1
  std::string symbol_name() const;        // valid if is_symbol()
  std::string str() const;                // canonical spelling
  std::vector<std::string> symbols() const;  // every symbol / value name used, sorted, unique

  // Replace symbols by extents (e.g. bind a helper's extent parameters at a call site).
  Extent substitute(const std::map<std::string, Extent>& binding) const;
  // Evaluate with a value for each symbol; nullopt if a symbol is unbound or a division by zero.
  std::optional<int64_t> evaluate(const std::function<std::optional<int64_t>(const std::string&)>& lookup) const;
  // The polynomial itself, for code generators: one entry per monomial, its coefficient and its
  // atoms (repeated for powers), in canonical order.
  std::vector<std::pair<int64_t, std::vector<AtomRef>>> monomials() const;

 private:
  using Monomial = std::vector<std::string>;  // sorted atom keys
  std::map<Monomial, int64_t> terms_;         // non-zero coefficients only
  std::map<std::string, AtomRef> atoms_;      // key -> atom
  friend struct ExtentAtom;
};

struct ExtentAtom {
  enum class Kind { Symbol, FloorDiv } kind;
  std::string name;  // Symbol: the name; FloorDiv: canonical key
  Extent num, den;   // FloorDiv operands
};

}  // namespace kir
