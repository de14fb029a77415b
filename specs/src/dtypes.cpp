// The registered manifest dtypes. Float maxima are the formats' largest finite values.
#include "specs/src/dtypes.h"

#include <cfloat>

namespace kir::specs {

const std::vector<SpecDType>& all_dtypes() {
  static const std::vector<SpecDType> table = {
      {"bool", 8, "bool"},
      {"uint8", 8, "int", true}, {"uint16", 16, "int", true}, {"uint32", 32, "int", true},
      {"uint64", 64, "int", true},
      {"int8", 8, "int"}, {"int16", 16, "int"}, {"int32", 32, "int"}, {"int64", 64, "int"},
      {"float16", 16, "float", false, 65504.0},
      {"bfloat16", 16, "float", false, 3.3895313892515355e38},
      {"float32", 32, "float", false, 3.4028234663852886e38},
      {"float64", 64, "float", false, DBL_MAX},
      {"float8_e4m3fn", 8, "float", false, 448.0, false},
      {"float8_e4m3", 8, "float", false, 240.0, true},
      {"float8_e5m2", 8, "float", false, 57344.0, true},
      {"float8_e4m3fnuz", 8, "float", false, 240.0, false},
      {"float8_e5m2fnuz", 8, "float", false, 57344.0, false},
      {"complex64", 64, "complex", false, 3.4028234663852886e38, true, "float32"},
      {"complex128", 128, "complex", false, DBL_MAX, true, "float64"},
  };
  return table;
}

const SpecDType* find_dtype(std::string_view name) {
  for (const auto& d : all_dtypes())
    if (d.name == name) return &d;
  return nullptr;
}

void int_range(const SpecDType& d, long long& lo, unsigned long long& hi) {
  if (d.category == "bool") { lo = 0; hi = 1; return; }
  if (d.is_unsigned) {
    lo = 0;
    hi = d.bits == 64 ? ~0ULL : (1ULL << d.bits) - 1;
    return;
  }
  lo = d.bits == 64 ? (-9223372036854775807LL - 1) : -(1LL << (d.bits - 1));
  hi = d.bits == 64 ? 9223372036854775807ULL : (1ULL << (d.bits - 1)) - 1;
}

}  // namespace kir::specs
