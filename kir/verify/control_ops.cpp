// Verifier rules for this op family (see kir/verify/context.h for the family's op list).
#include "kir/verify/context.h"

namespace kir::verify {

void register_control_ops(OpTable& t) { (void)t; }

}  // namespace kir::verify
