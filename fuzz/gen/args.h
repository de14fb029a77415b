// Kernel arguments for a generated case: In/InOut views (with their declared strides and
// offset) and runtime scalars from the case's inputs, and fresh Out views of the shapes the
// extents give. What the tests and the campaign hand to the interpreter or a backend.
#pragma once
#include <map>
#include <string>

#include "fuzz/gen/gen.h"
#include "interp/interpreter.h"
#include "kir/ir.h"

namespace kir::fuzz {

// `m` is the parsed module of gc.kir. Throws std::runtime_error if a parameter has no input.
std::map<std::string, interp::KernelArg> kernel_args(const GeneratedCase& gc, const Module& m);

}  // namespace kir::fuzz
