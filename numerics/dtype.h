// The element types of the Intent language (seed 000 §2, §4, §11) and their static properties.
// Shared by numerics (formats, rounding) and kir (types); docs/numerics.md defines their values.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace kir {

enum class DType : uint8_t {
  Bool,
  I8, I16, I32, I64,
  U8, U16, U32, U64,
  Index,
  F16, BF16, F32, F64,
  E4M3, E5M2, E2M1, E8M0,
};

inline constexpr int kNumDTypes = static_cast<int>(DType::E8M0) + 1;

enum class DTypeClass : uint8_t { Bool, SignedInt, UnsignedInt, Index, Float, SmallFloat, Scale };

struct DTypeInfo {
  DType dtype;
  std::string_view name;  // spelling in KIR text and diagnostics
  DTypeClass cls;
  int bits;               // storage bits of one logical element
};

const DTypeInfo& info(DType d);
std::string_view name(DType d);
std::optional<DType> parse_dtype(std::string_view s);

inline bool is_integer(DType d) {
  auto c = info(d).cls;
  return c == DTypeClass::SignedInt || c == DTypeClass::UnsignedInt || c == DTypeClass::Index;
}
inline bool is_signed_integer(DType d) { return info(d).cls == DTypeClass::SignedInt || d == DType::Index; }
inline bool is_unsigned_integer(DType d) { return info(d).cls == DTypeClass::UnsignedInt; }
// Arithmetic floating formats: f16, bf16, f32, f64 (compute dtypes).
inline bool is_float(DType d) { return info(d).cls == DTypeClass::Float; }
// Storage-only small formats: e4m3, e5m2, e2m1 (values) and e8m0 (scales).
inline bool is_small_float(DType d) {
  return info(d).cls == DTypeClass::SmallFloat || info(d).cls == DTypeClass::Scale;
}
inline bool is_any_float(DType d) { return is_float(d) || is_small_float(d); }
inline bool is_numeric(DType d) { return d != DType::Bool; }

}  // namespace kir
