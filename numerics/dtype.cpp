// Table of dtype names and classes; the one place a dtype's spelling is defined.
#include "numerics/dtype.h"

#include <array>

namespace kir {
namespace {
constexpr std::array<DTypeInfo, kNumDTypes> kTable{{
    {DType::Bool, "bool", DTypeClass::Bool, 8},
    {DType::I8, "i8", DTypeClass::SignedInt, 8},
    {DType::I16, "i16", DTypeClass::SignedInt, 16},
    {DType::I32, "i32", DTypeClass::SignedInt, 32},
    {DType::I64, "i64", DTypeClass::SignedInt, 64},
    {DType::U8, "u8", DTypeClass::UnsignedInt, 8},
    {DType::U16, "u16", DTypeClass::UnsignedInt, 16},
    {DType::U32, "u32", DTypeClass::UnsignedInt, 32},
    {DType::U64, "u64", DTypeClass::UnsignedInt, 64},
    {DType::Index, "index", DTypeClass::Index, 64},
    {DType::F16, "f16", DTypeClass::Float, 16},
    {DType::BF16, "bf16", DTypeClass::Float, 16},
    {DType::F32, "f32", DTypeClass::Float, 32},
    {DType::F64, "f64", DTypeClass::Float, 64},
    {DType::E4M3, "e4m3", DTypeClass::SmallFloat, 8},
    {DType::E5M2, "e5m2", DTypeClass::SmallFloat, 8},
    {DType::E2M1, "e2m1", DTypeClass::SmallFloat, 4},
    {DType::E8M0, "e8m0", DTypeClass::Scale, 8},
}};
}  // namespace

const DTypeInfo& info(DType d) { return kTable[static_cast<size_t>(d)]; }
std::string_view name(DType d) { return info(d).name; }
std::optional<DType> parse_dtype(std::string_view s) {
  for (const auto& e : kTable)
    if (e.name == s) return e.dtype;
  return std::nullopt;
}
}  // namespace kir
