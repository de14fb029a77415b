// Prints a Module in the canonical KIR text form: fixed spacing and indentation, attributes
// sorted by key, extents in canonical polynomial form, floats in shortest exact decimal, and
// loc(...) only for locations that came from a frontend. fmt(fmt(x)) == fmt(x).
#pragma once
#include <string>
#include <vector>

#include "kir/ir.h"

namespace kir {

std::string print_module(const Module& m);
// `kir fmt`: the same text with the source's comments (kir/text/comments.h) printed back before
// the op, function or enum that follows each, or at the end of its op's line.
struct Comment;
std::string print_module_with_comments(const Module& m, const std::vector<Comment>& comments);
std::string print_function(const Function& f);
std::string print_op(const Operation& op);  // one op (with its regions), no trailing newline

}  // namespace kir
