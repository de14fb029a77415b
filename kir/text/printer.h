// Prints a Module in the canonical KIR text form: fixed spacing and indentation, attributes
// sorted by key, extents in canonical polynomial form, floats in shortest exact decimal, and
// loc(...) only for locations that came from a frontend. fmt(fmt(x)) == fmt(x).
#pragma once
#include <string>

#include "kir/ir.h"

namespace kir {

std::string print_module(const Module& m);
std::string print_function(const Function& f);
std::string print_op(const Operation& op);  // one op (with its regions), no trailing newline

}  // namespace kir
