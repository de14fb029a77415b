// Evaluation of manifest expressions with Python semantics (floor division and modulo,
// arbitrary-precision integers, chained comparisons, short-circuit and/or, conditional).
// Names resolve in an Env: variables (params, indices, lets, comprehension targets), presence of
// tensors and Maybe params (`present(x)`), and per-tensor byte counts (`bytes(t)`, roofline only).
#pragma once
#include <map>
#include <optional>
#include <string>

#include "specs/src/expr_ast.h"
#include "specs/src/value.h"

namespace kir::specs {

struct Env {
  std::map<std::string, Value> vars;        // params (Maybe params hold None or the payload), indices, lets
  std::map<std::string, bool> presence;     // tensors and `out`
  std::map<std::string, mpz_class> bytes;   // tensor byte counts for bytes(t)
  bool allow_bytes = false;
};

// Evaluates `e`; throws EvalError with a message on a domain error or an unknown name.
Value eval(const Expr& e, const Env& env);

// Thrown when evaluation reads a name the Env does not (yet) know; lets the instantiator and
// the folder tell "not known yet" apart from a real error.
struct UnknownName : EvalError {
  std::string name;
  explicit UnknownName(const std::string& n) : EvalError("name '" + n + "' is not known"), name(n) {}
};

}  // namespace kir::specs
