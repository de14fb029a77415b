// Text form of scalar values for the CLI and diagnostics: parse a decimal number or a 0x bit
// pattern into a dtype, and print a value exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

// "0x..." = raw bit pattern (must fit the dtype's width). Otherwise a decimal: integers exactly
// (out of range -> InvalidCast), floats via an exact decimal parse rounded once (RNE) into d;
// "inf", "-inf", "nan" accepted for floats; "true"/"false" for bool. Unparsable -> TypeMismatch.
Result<Scalar> parse_value(std::string_view text, DType d);
// Decimal value: shortest text that reads back as the same value ("nan", "-inf", "-0",
// "0.0999755859375", "-128").
std::string format_value(Scalar v);
std::string format_bits(Scalar v);  // 0x + hex digits padded to the storage width

// A float literal of KIR text (`const` values, L4.14) against float dtype d, from its exact
// value: `text` is a decimal (`1.5`, `2e-3`) or a C99 hex float (`0x1.8p+1`) with an optional
// leading '-', read without any intermediate rounding (no trip through double).
struct LiteralFit {
  bool number = false;  // text is a decimal or hex float ("inf"/"nan" are not: the caller's)
  bool exact = false;   // its value is a value of d; `bits` encodes it (-0.0 keeps its sign)
  uint64_t bits = 0;
  // When not exact: the nearest values of d below and above it (an infinity counts), or none
  // past the end of the format (e4m3 above 448, e8m0 below 2^-127, ...).
  std::optional<uint64_t> below, above;
};
LiteralFit fit_float_literal(std::string_view text, DType d);

// A spelling that reads back as exactly v: the shortest round-trip decimal when its value is v
// ("0.5", "1e+20", always with '.' or an exponent), else a C99 hex float ("0x1.99999ap-4",
// "0x1p-1074"); "inf", "-inf", "nan".
std::string exact_float_text(double v);

}  // namespace kir::num
