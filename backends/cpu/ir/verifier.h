// The CPU IR verifier (C7, C13): run after construction and after every pass so that a pass
// that breaks an invariant is named at once instead of surfacing as wrong generated C++. It
// only checks — it never modifies the program. Each message names the statement (pre-order
// number over the whole body, as walk_stmts visits it), the KIR op it realizes and the rule in
// brackets: "stmt 4 (op 12 `exp` at f.kir:3:5): [dtype] ...". Rules: scope, role, var, buffer,
// view, load, view-dim, dtype, arity, op, const, value-dtype, store, access, compute, cond,
// control, tasks, check, copy, loop, structured, no-compute, no-structured, resources.
#pragma once
#include <string>
#include <vector>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

struct VerifyOptions {
  bool allow_compute = true;       // false once loops are formed: no Compute remains
  bool allow_structured = true;    // false after expansion: no Structured remains (C7)
  bool require_resources = false;  // true after resource planning: Alloc/Free around every use
};

std::vector<std::string> verify(const Program& p, const VerifyOptions& options = {});
// Throws std::logic_error naming `after_pass` and listing every violation.
void verify_or_throw(const Program& p, const VerifyOptions& options, const std::string& after_pass);

}  // namespace kir::cpu
