// Small shared pieces of the core-family verifiers (value, domain, control, memory ops and module
// rules): null-safe operand access (a malformed module may have missing operands or types),
// type descriptions for messages, constexpr-ness of values (L2.5), and type substitution for
// call sites (L1.4).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "kir/ir.h"
#include "kir/verify/context.h"

namespace kir::verify::core {

// Operand i's type, or a null Type when the operand is absent or has no type.
Type operand_type(const Operation& op, size_t i);
const Value* operand(const Operation& op, size_t i);
Type result_type(const Operation& op, size_t i = 0);
bool has_operand_types(const Operation& op);  // every operand present and typed

// "f32[M, N]" or "<none>".
std::string ty(const Type& t);
// True if a scalar/tensor/view/buffer has this kind of dtype (false for other kinds or null).
bool dtype_is(const Type& t, bool (*pred)(DType));
bool is_bool_scalar(const Type& t);
bool is_index_like_scalar(const Type& t);  // scalar of an integer dtype (index, iN, uN)
// Shape of a scalar ([]) or tensor; empty for other kinds.
std::vector<Extent> value_shape(const Type& t);
// The value type of `rel_shape` elements of dtype d: a scalar when rel_shape is empty, else a tensor.
Type element_block(DType d, const std::vector<Extent>& rel_shape);

// Index of the first axis where two shapes differ, or -1 if equal (requires equal rank).
int first_shape_difference(const std::vector<Extent>& a, const std::vector<Extent>& b);
// Explains why `a` and `b` differ: dtype, rank, or which extents (noting L4.2 when both are
// dynamic). Empty when equal.
std::string type_difference(const Type& a, const Type& b);
// A rule ID for a difference between two scalar/tensor types: L4.2 if the only difference is a
// pair of distinct dynamic extents, L4.1 for shape/rank, L4.14 for dtype.
std::string difference_rule(const Type& a, const Type& b);

// A constexpr value: a constexpr parameter, a `const` result, or a pure scalar op whose operands
// are all constexpr (L2.5).
bool is_constexpr_value(const Value* v);

// Replace extent symbols in a type (a helper's result types at a call site).
Type substitute(const Type& t, const std::map<std::string, Extent>& binding);
// Every non-'%' extent symbol used in a type.
void collect_symbols(const Type& t, std::vector<std::string>& out);

// True if any operand is an enum value (enum uses are checked in one place, core_enums.cpp).
bool any_enum_operand(const Operation& op);

// The function whose body (transitively) holds this region.
const Region* function_body_of(const Region* r);

}  // namespace kir::verify::core
