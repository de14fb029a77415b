// Workload instantiation (reference §7.2): each (row, dtype case) of an op becomes a concrete
// call — case id, params, and per tensor its shape, dtype, generated metadata values and
// placement — by conversion, discriminant point, domain restrictions, branch selection, the
// fixpoint of lets and generators with unification, refinements, requires and re-inference.
// Every failure is reported as "row '<label>' {case}: <text> [W*]" at the row.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "specs/src/diag.h"
#include "specs/src/model.h"
#include "specs/src/value.h"

namespace kir::specs {

struct TensorCall {
  std::string name;
  Role role = Role::Input;
  bool present = true;
  std::vector<mpz_class> shape;
  std::string dtype;
  std::optional<Value> values;  // generated metadata contents
  bool cpu = false;
  mpz_class bytes() const;      // ceil(prod(shape) * bits / 8)
};

struct Call {
  std::string op;
  std::string case_id;
  std::string label;
  Loc loc;
  std::vector<std::pair<std::string, Value>> params;   // declaration order
  std::vector<TensorCall> tensors;                      // ctor tensors, inputs, outputs
  std::map<std::string, Value> ix;                      // params, non-Seq indices, lets
  std::optional<Value> flops, bytes;                    // inline roofline, evaluated
  const TensorCall* tensor(const std::string& n) const;
};

struct InstantiateOptions {
  std::string only_label;      // instantiate just the rows with this label
  size_t max_label_len = 28;   // reference open point 1: 24 (user guide) or 28 (design doc)
};

// Instantiates every row of `op`; failures go to `d` (signature level).
std::vector<Call> instantiate_op(const OpSpec& op, const Manifest& m, SpecDiags& d, const InstantiateOptions& opts = {});

// Instantiates one row node of `op` (not necessarily one of op.workloads: campaigns re-check a
// row whose sizes they changed) with every check of instantiate_op except the duplicate-id one.
std::vector<Call> instantiate_row(const OpSpec& op, const YAML::Node& row, const Manifest& m, SpecDiags& d,
                                  const InstantiateOptions& opts = {});

// Whether input `t` is written by `call`: `mutated: true`, or `mutated: <expr>` true for the
// call's params (an output aliasing such an input is that input, not a tensor of its own).
bool input_written(const TensorDecl& t, const Call& call);

// Roofline of a call: inline flops/bytes, with default byte counting from effects when bytes
// is omitted. Throws EvalError; "not implemented: func roofline tileops.perf.formulas.<name> is
// Python; ..." for `func` formulas (instantiation leaves such calls' flops and bytes unset).
void eval_roofline(const OpSpec& op, Call& call);

}  // namespace kir::specs
