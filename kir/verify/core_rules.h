// Whole-function rules of the core families, run by verify_module_rules (module_rules.cpp):
// enum uses (L2.6), reads of Out views before any store (L2.2) and provable conflicts between
// points of a parallel (L5.1). Each walks every function once.
#pragma once
#include "kir/verify/context.h"

namespace kir::verify::core {

void check_enum_uses(Context& cx);           // core_enums.cpp
void check_out_reads(Context& cx);           // core_access_order.cpp
void check_parallel_conflicts(Context& cx);  // core_parallel.cpp

}  // namespace kir::verify::core
