// Symbolic extents and value types as the program generator tracks them: an extent is a
// monomial (constant factor times a product of atoms: extent symbols or floordiv terms), which
// is all that reshapes and strided domains produce; a value type is a scalar or ranked tensor.
// Equal extents here are equal canonical polynomials for the verifier too.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "numerics/dtype.h"

namespace kir::fuzz {

struct Ext {
  int64_t coeff = 1;               // 0 is the constant 0
  std::vector<std::string> atoms;  // sorted

  static Ext constant(int64_t c) { return Ext{c, {}}; }
  static Ext atom(std::string a) { return Ext{1, {std::move(a)}}; }
  bool is_const() const { return atoms.empty(); }
  Ext operator*(const Ext& o) const;
  friend bool operator==(const Ext&, const Ext&) = default;
  friend auto operator<=>(const Ext&, const Ext&) = default;
  std::string str() const;  // "3", "M", "2*M*N"
  // Value under the atoms' values (every atom must be known).
  int64_t eval(const std::map<std::string, int64_t>& atoms_value) const;
  // Replace atoms by extents (unmapped atoms stay).
  Ext subst(const std::map<std::string, Ext>& m) const;
};

using Shape = std::vector<Ext>;
std::string shape_str(const Shape& s);  // "[M, 4]"

struct VType {
  DType dt = DType::F32;
  bool tensor = false;
  Shape shape;  // tensors only

  static VType scalar(DType d) { return VType{d, false, {}}; }
  static VType of(DType d, Shape s) { return VType{d, true, std::move(s)}; }
  int rank() const { return tensor ? static_cast<int>(shape.size()) : 0; }
  VType with(DType d) const { return VType{d, tensor, shape}; }
  std::string str() const;  // "f32", "f32[M, N]"
  friend bool operator==(const VType&, const VType&) = default;
};

// Dtype classes as the verifier sees them (docs/kir-ops-core.md).
bool is_compute(DType d);    // every dtype but the small storage formats
bool arith_ok(DType d);      // add sub mul div rem min max neg: integers and compute floats
bool bitwise_ok(DType d);    // and or xor not: integers and bool
int width_bits(DType d);     // bits of one element for bitcast (0: no bitcast partner)
std::vector<DType> all_dtypes();

}  // namespace kir::fuzz
