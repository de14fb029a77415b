// Construction of the format-carrying structured ops (seed 000 §10-§12): scaled_contract (MX),
// sparse_contract (2:4), quantize, quantized_dot (q4_K/q8_K) and histogram. Not built yet: each
// op is a located "not implemented" error until its handler is registered here.
#include "backends/cpu/construct/builder.h"

namespace kir::cpu {
void register_format_ops(std::map<std::string, OpHandler>&) {}
}  // namespace kir::cpu
