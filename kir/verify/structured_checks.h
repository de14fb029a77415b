// The structured-op checks (seed 000 §7–§13), one function per op, registered by
// register_structured_ops (structured_ops.cpp). Each reports through Context::error with the
// op's checklist rule; see docs/kir-ops-structured.md for the rules and what is left to run time.
#pragma once
#include "kir/verify/context.h"

namespace kir::verify::structured {

void check_reduce(const Operation& op, Context& cx);           // L7.1 L7.2 L7.4 L7.5
void check_scan(const Operation& op, Context& cx);             // L8.1
void check_region_fold(const Operation& op, Context& cx);      // L9.1 L9.2 L9.3
void check_region_scan(const Operation& op, Context& cx);      // L9.5
void check_contract(const Operation& op, Context& cx);         // L10.2 L10.4
void check_sparse_contract(const Operation& op, Context& cx);  // L12.1
void check_scaled_contract(const Operation& op, Context& cx);  // L11.1 L11.2
void check_quantize(const Operation& op, Context& cx);         // L11.3
void check_quantized_dot(const Operation& op, Context& cx);    // L11.3
void check_histogram(const Operation& op, Context& cx);        // L13.1

}  // namespace kir::verify::structured
