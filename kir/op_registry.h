// The closed set of KIR op names (seed 000, §19's table): canonical ops with their family and
// effect class, surface shorthands that `kir normalize` rewrites, and names that are deliberately
// not in the language (partition, ordered, state_stream, program ids, whole-operator ops).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace kir {

enum class OpStatus { Canonical, Surface, Forbidden };

enum class OpFamily {
  Constant, Pointwise, Compare, Unary, Conversion, Shape, Aggregate, Domain, Control,
  Structured, Memory, Atomic, Random, Surface, Forbidden,
};

// What executing the op may do besides producing its results.
enum class Effect { Pure, Read, Write, Atomic, Random, Control, Call };

struct OpInfo {
  std::string_view name;
  OpStatus status;
  OpFamily family;
  Effect effect;
  std::string_view rule;     // checklist ID of the op's main rule
  std::string_view summary;  // for diagnostics and docs; for Forbidden: why it is not in the language
};

const OpInfo* find_op(std::string_view name);  // nullptr for an unknown name
const std::vector<OpInfo>& all_ops();

bool is_pointwise_binary(std::string_view name);  // add sub mul div rem min max and or xor shl shr pow
bool is_unary_math(std::string_view name);        // exp ... abs (L4.3) plus exp2, tanh
bool is_terminator(std::string_view name);        // yield return break continue condition

}  // namespace kir
