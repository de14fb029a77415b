// Folding at a discriminant point: the conditionals (`a if c else b`) and `and`/`or` operands
// an environment decides are replaced by the arm or operand that is live there, so that an axis
// such as `2 * N if present(activation) else N` reads `N` where activation is absent and can be
// unified with an input's size like any other axis.
#pragma once
#include "specs/src/expr_ast.h"
#include "specs/src/expr_eval.h"

namespace kir::specs {

// Returns `e` with every decided conditional replaced by its live arm and every decided
// `and`/`or` cut at its deciding operand (undecided parts kept, recursively folded). Returns
// `e` itself when nothing changes.
ExprPtr fold_decided(const ExprPtr& e, const Env& env);

}  // namespace kir::specs
