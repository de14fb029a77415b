// Text form of the CPU IR (cpu_ir.h) for dumps (--print-after-all), diagnostics and golden
// tests: deterministic, line-oriented, and complete — every fact the IR holds (view facts,
// resource facts, task facts, structured contracts, implementation bindings) is shown, so a
// dump after a pass is enough to see what the pass did. The printer never fails: dangling ids
// of an invalid program are printed as such (the verifier uses it in its messages).
#pragma once
#include <string>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

std::string print(const Program& p);
std::string print_expr(const Program& p, const Expr& e);
// Names as the printer spells them: %name (with #id when names repeat) and %name#id.
std::string var_name(const Program& p, VarId v);
std::string buf_name(const Program& p, BufId b);
// "op 12 (exp at f.kir:3:5)", or "" for kNone.
std::string origin_text(const Program& p, int32_t op_id);

}  // namespace kir::cpu
