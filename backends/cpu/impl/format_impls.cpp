// Implementations of the format-carrying structured ops (scaled/sparse/quantized contract,
// quantize, histogram). None yet.
#include "backends/cpu/impl/registry.h"

namespace kir::cpu {
std::vector<Implementation> format_implementations() { return {}; }
}  // namespace kir::cpu
