// A generated case's invocation as interpreter arguments: In/InOut views and runtime scalars
// from the case's data (strided/offset storages kept as generated), Out views zero-filled at
// the shapes the case's extents give. Shared by the campaign and its tests.
#pragma once
#include <map>
#include <string>

#include "fuzz/gen/gen.h"
#include "interp/interpreter.h"
#include "kir/ir.h"

namespace kir::fuzz {

// Throws std::runtime_error naming the parameter when the case and the kernel disagree.
std::map<std::string, interp::KernelArg> case_args(const Module& m, const GeneratedCase& c);

}  // namespace kir::fuzz
