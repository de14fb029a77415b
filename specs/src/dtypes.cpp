// The registered manifest dtypes. Float maxima are the formats' largest finite values.
#include "specs/src/dtypes.h"

#include <cfloat>

namespace kir::specs {

static SpecDType mk(std::string_view name, int bits, std::string_view cat, bool uns = false, double max = 0,
                    bool inf = true, std::string_view component = {}) {
  SpecDType d{};
  d.name = name; d.bits = bits; d.category = cat; d.is_unsigned = uns; d.max_finite = max; d.has_inf = inf;
  d.component = component;
  return d;
}

const std::vector<SpecDType>& all_dtypes() {
  static const std::vector<SpecDType> table = {
      mk("bool", 8, "bool"),
      mk("uint8", 8, "int", true), mk("uint16", 16, "int", true), mk("uint32", 32, "int", true),
      mk("uint64", 64, "int", true),
      mk("int8", 8, "int"), mk("int16", 16, "int"), mk("int32", 32, "int"), mk("int64", 64, "int"),
      mk("float16", 16, "float", false, 65504.0),
      mk("bfloat16", 16, "float", false, 3.3895313892515355e38),
      mk("float32", 32, "float", false, 3.4028234663852886e38),
      mk("float64", 64, "float", false, DBL_MAX),
      mk("float8_e4m3fn", 8, "float", false, 448.0, false),
      mk("float8_e4m3", 8, "float", false, 240.0, true),
      mk("float8_e5m2", 8, "float", false, 57344.0, true),
      mk("float8_e4m3fnuz", 8, "float", false, 240.0, false),
      mk("float8_e5m2fnuz", 8, "float", false, 57344.0, false),
      // MX carriers as PyTorch spells them: two e2m1 codes per byte (even element in the low
      // nibble), and the unsigned power-of-two scale 2^(bits - 127) (0xFF NaN, no zero).
      mk("float4_e2m1fn_x2", 8, "float", false, 6.0, false),
      mk("float8_e8m0fnu", 8, "float", true, 1.7014118346046923e38, false),
      mk("complex64", 64, "complex", false, 3.4028234663852886e38, true, "float32"),
      mk("complex128", 128, "complex", false, DBL_MAX, true, "float64"),
  };
  return table;
}

const SpecDType* find_dtype(std::string_view name) {
  for (const auto& d : all_dtypes())
    if (d.name == name) return &d;
  return nullptr;
}

void int_range(const SpecDType& d, long& lo, unsigned long& hi) {
  if (d.category == "bool") { lo = 0; hi = 1; return; }
  if (d.is_unsigned) {
    lo = 0;
    hi = d.bits == 64 ? ~0UL : (1UL << d.bits) - 1;
    return;
  }
  lo = d.bits == 64 ? (-9223372036854775807L - 1) : -(1L << (d.bits - 1));
  hi = d.bits == 64 ? 9223372036854775807UL : (1UL << (d.bits - 1)) - 1;
}

namespace {

// Manifest dtype names ↔ KIR dtypes (only those both sides have).
const std::vector<std::pair<std::string_view, std::string_view>>& dtype_pairs() {
  static const std::vector<std::pair<std::string_view, std::string_view>> t = {
      {"bool", "bool"},     {"int8", "i8"},     {"int16", "i16"},   {"int32", "i32"},
      {"int64", "i64"},     {"uint8", "u8"},    {"uint16", "u16"},  {"uint32", "u32"},
      {"uint64", "u64"},    {"float16", "f16"}, {"bfloat16", "bf16"}, {"float32", "f32"},
      {"float64", "f64"},   {"float8_e4m3fn", "e4m3"}, {"float8_e5m2", "e5m2"},
      {"float8_e8m0fnu", "e8m0"},
      // a kernel sees packed fp4 as its u8 carrier; listed after uint8, so u8 reads back as uint8
      {"float4_e2m1fn_x2", "u8"},
  };
  return t;
}

}  // namespace

std::string kir_dtype_name(std::string_view manifest_name) {
  for (const auto& [m, k] : dtype_pairs())
    if (m == manifest_name) return std::string(k);
  return "";
}

std::string manifest_dtype_name(std::string_view kir_name) {
  for (const auto& [m, k] : dtype_pairs())
    if (k == kir_name) return std::string(m);
  return "";
}

}  // namespace kir::specs
