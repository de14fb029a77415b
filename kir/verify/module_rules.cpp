// Module-level verifier rules (see kir/verify/context.h).
#include "kir/verify/context.h"

namespace kir::verify {

void verify_module_rules(Context& cx) { (void)cx; }

}  // namespace kir::verify
