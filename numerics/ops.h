// Names of the scalar operations shared by integer.h and arith.h (and the interpreter).
#pragma once
#include <optional>
#include <string_view>

namespace kir::num {

enum class BinaryOp : unsigned char { Add, Sub, Mul, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr };
enum class UnaryOp : unsigned char { Neg, Abs, Not, Sqrt, Floor };
enum class CompareOp : unsigned char { Eq, Ne, Lt, Le, Gt, Ge };

inline constexpr BinaryOp kBinaryOps[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div,
                                          BinaryOp::Rem, BinaryOp::Min, BinaryOp::Max, BinaryOp::And,
                                          BinaryOp::Or,  BinaryOp::Xor, BinaryOp::Shl, BinaryOp::Shr};
inline constexpr UnaryOp kUnaryOps[] = {UnaryOp::Neg, UnaryOp::Abs, UnaryOp::Not, UnaryOp::Sqrt, UnaryOp::Floor};

const char* op_name(BinaryOp op);
const char* op_name(UnaryOp op);
// The op named `name` ("add" ... "shr"; "neg" ... "floor"), or nullopt.
std::optional<BinaryOp> parse_binary_op(std::string_view name);
std::optional<UnaryOp> parse_unary_op(std::string_view name);

}  // namespace kir::num
