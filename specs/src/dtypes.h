// The dtype names manifests use (PyTorch spellings) with their storage bits, category and, for
// floats, the largest finite value and whether infinity exists — what `bits`, `category`,
// `representable`, byte counting and input generation need.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kir::specs {

struct SpecDType {
  std::string_view name;
  int bits;                    // storage bits per element
  std::string_view category;   // "bool" | "int" | "float" | "complex"
  bool is_unsigned = false;
  double max_finite = 0;       // floats: largest finite; complex: of the component
  bool has_inf = true;         // floats
  std::string_view component;  // complex: component float dtype
};

const SpecDType* find_dtype(std::string_view name);
const std::vector<SpecDType>& all_dtypes();
// Integer range of an integer dtype (int8 → [-128, 127]).
void int_range(const SpecDType& d, long& lo, unsigned long& hi);

// The KIR dtype name of a manifest dtype ("float32" → "f32") and back; "" when the other side
// has no such dtype (complex, fnuz float8s, unpacked e2m1, index). float4_e2m1fn_x2 maps to its
// u8 carrier one way only (u8 reads back as uint8).
std::string kir_dtype_name(std::string_view manifest_name);
std::string manifest_dtype_name(std::string_view kir_name);

}  // namespace kir::specs
