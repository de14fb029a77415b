// The validator behind `kir spec validate`: on loaded manifests, the signature-level checks
// (C14–C42 kinds, families, structure, per-discriminant-point checks), the effects rules
// (E1–E4), the workload rows through instantiation (W1–W23) and the composition references.
// Parity with the paired Intent kernel (P1–P7, parity.h) replaces the reference's Python-class
// checks for ops that have a kernel file.
#pragma once
#include <string>

#include "specs/src/diag.h"
#include "specs/src/model.h"

namespace kir::specs {

struct ValidateOptions {
  std::string only_op;          // --op NAME: check only this op
  size_t point_cap = 4096;      // discriminant points enumerated per op
  size_t point_warn = 256;      // more points than this: advisory warning
  bool parity = true;           // check ops against their paired kernels (parity.h)
};

void validate(const Manifest& m, SpecDiags& d, const ValidateOptions& opts = {});

// Validates one op of a loaded manifest as `kir spec validate --op NAME` does: the result holds
// the op's diagnostics and every loader diagnostic (from `loaded`, the load's diagnostics).
// `kir spec instantiate` refuses an op whose result has errors.
SpecDiags validate_op(const Manifest& m, const SpecDiags& loaded, const std::string& op, ValidateOptions opts = {});

// What `kir spec validate` reports: the diagnostics shown (of the op selected, with every loader
// diagnostic), the ops validated and the files read.
struct ValidateSummary {
  SpecDiags shown;
  size_t ops = 0, files = 0;
};
ValidateSummary validate_summary(const std::vector<std::string>& paths, const ValidateOptions& opts);

// Loads PATHS and validates; returns the exit code of the CLI (0 no errors, 1 errors).
int validate_paths(const std::vector<std::string>& paths, const ValidateOptions& opts, std::string& report);

}  // namespace kir::specs
