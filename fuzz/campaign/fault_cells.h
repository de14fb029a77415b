// Coverage of faults by the construct they are raised in (docs/fuzzing.md "Coverage"): a case
// whose interpreter run raised a fault counts the cell fault:<kind>@<construct>, where the
// construct is the innermost of: a masked access (an op taking a masked relation), a parallel,
// a branch of an if, a for or while body, a helper (combine bodies, called functions), or the
// kernel's straight-line code (plain). The interpreter's fault is the reference: when the
// backend disagrees the case is a finding anyway.
#pragma once
#include <string>

#include "backends/cpu/driver/coverage.h"
#include "kir/ir.h"
#include "oracle/fault.h"

namespace kir::fuzz {

// The construct of the op at `location` ("file:line:col"; its line and column are matched) in
// `m`; "unknown" when no op is there.
std::string fault_construct(const Module& m, const std::string& location);
// "fault:<kind>@<construct>", or "" for an empty fault.
std::string fault_cell(const Module& m, const oracle::Fault& f);
// Every fault kind the language raises at run time under every construct, count 0.
void add_fault_cells(cpu::CoverageMap& m);

}  // namespace kir::fuzz
