// Construction of atomics, scatter_reduce and random bits (seed 000 §13, §16, §17). Not built
// yet: a located "not implemented" error until the handlers are registered here.
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
void register_effect_ops(std::map<std::string, OpHandler>&) {}
}  // namespace kir::cpu
