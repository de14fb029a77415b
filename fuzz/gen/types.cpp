// See types.h.
#include "fuzz/gen/types.h"

#include <algorithm>
#include <stdexcept>

namespace kir::fuzz {

Ext Ext::operator*(const Ext& o) const {
  Ext r;
  r.coeff = coeff * o.coeff;
  if (r.coeff == 0) return Ext::constant(0);
  r.atoms = atoms;
  r.atoms.insert(r.atoms.end(), o.atoms.begin(), o.atoms.end());
  std::sort(r.atoms.begin(), r.atoms.end());
  return r;
}

std::string Ext::str() const {
  if (atoms.empty() || coeff == 0) return std::to_string(coeff);
  std::string s = coeff == 1 ? "" : std::to_string(coeff) + "*";
  for (size_t i = 0; i < atoms.size(); ++i) s += (i ? "*" : "") + atoms[i];
  return s;
}

int64_t Ext::eval(const std::map<std::string, int64_t>& v) const {
  int64_t r = coeff;
  for (const auto& a : atoms) {
    auto it = v.find(a);
    if (it == v.end()) throw std::logic_error("generator: unknown extent atom " + a);
    r *= it->second;
  }
  return r;
}

Ext Ext::subst(const std::map<std::string, Ext>& m) const {
  Ext r = Ext::constant(coeff);
  for (const auto& a : atoms) {
    auto it = m.find(a);
    r = r * (it == m.end() ? Ext::atom(a) : it->second);
  }
  return r;
}

std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + s[i].str();
  return r + "]";
}

std::string VType::str() const {
  std::string r(name(dt));
  return tensor ? r + shape_str(shape) : r;
}

bool is_compute(DType d) { return !is_small_float(d); }
bool arith_ok(DType d) { return is_integer(d) || is_float(d); }
bool bitwise_ok(DType d) { return is_integer(d) || d == DType::Bool; }

int width_bits(DType d) {
  if (d == DType::Bool || d == DType::E2M1) return 0;
  return info(d).bits;
}

std::vector<DType> all_dtypes() {
  std::vector<DType> r;
  for (int i = 0; i < kNumDTypes; ++i) r.push_back(static_cast<DType>(i));
  return r;
}

}  // namespace kir::fuzz
