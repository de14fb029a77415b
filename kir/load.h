// Reading a KIR file as canonical KIR for everything that runs it (kir run, campaign, spec run,
// the Python package's intent.load): parse, normalize when the file has any surface form
// (kir/normalize/normalize.h), then verify. One place for the order of those steps.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "kir/ir.h"

namespace kir {

// Returns the canonical module, or null with diagnostics in `diags`. `source` receives the file
// text (for rendering); `normalized` tells whether surface forms were rewritten.
std::unique_ptr<Module> load_canonical(const std::string& path, Diagnostics& diags, std::string& source,
                                       bool* normalized = nullptr, size_t* ops = nullptr);

// The same steps on KIR text already in memory; locations name `file` (ops with loc(...) keep
// theirs).
std::unique_ptr<Module> load_canonical_text(std::string_view text, const std::string& file, Diagnostics& diags,
                                            bool* normalized = nullptr, size_t* ops = nullptr);

}  // namespace kir
