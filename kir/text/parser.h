// Reads the KIR text form (docs/kir-text.md) into a Module. Syntax errors and name errors
// (undefined or redefined values, unknown types) are reported with file:line:col; the parser
// never throws and never crashes on any input, it returns null after the first error.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "kir/ir.h"

namespace kir {

std::unique_ptr<Module> parse_module(std::string_view text, const std::string& file, Diagnostics& diags);
// Reads `path`; the file's text is stored in *source if given (for rendering diagnostics).
std::unique_ptr<Module> parse_file(const std::string& path, Diagnostics& diags, std::string* source = nullptr);

}  // namespace kir
