// Construction of region_fold and region_scan (seed 000 §9). Not built yet: a located "not
// implemented" error until the handlers are registered here.
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
void register_region_ops(std::map<std::string, OpHandler>&) {}
}  // namespace kir::cpu
