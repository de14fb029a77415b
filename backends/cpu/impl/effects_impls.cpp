// Implementations of effectful structured ops (scatter_reduce, ...). None yet.
#include "backends/cpu/impl/registry.h"

namespace kir::cpu {
std::vector<Implementation> effect_implementations() { return {}; }
}  // namespace kir::cpu
