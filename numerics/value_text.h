// Text form of scalar values for the CLI and diagnostics: parse a decimal number or a 0x bit
// pattern into a dtype, and print a value exactly.
#pragma once
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

}  // namespace kir::num
