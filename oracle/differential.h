// The backend-versus-interpreter check of one kernel invocation (issue 10's cross-check; the
// full verdict with envelopes, ulp bounds and shrinking is oracle/ work built on it): the
// backend runs natively, the interpreter runs the same arguments under the evaluation order
// the backend's implementations declare (accumulation=sequential for contracts: each product
// rounded once into the accumulator, then added in row-major order — a legal order inside the
// reassociation envelope), and every Out/InOut element must agree bit for bit (NaN matches NaN
// of any payload; +0 and -0 differ). The backend's math is correctly rounded, reduce/scan fold
// canonically, so under that order no tolerance is needed.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "interp/interpreter.h"

namespace kir::oracle {

struct ViewMismatch {
  std::string view;
  int64_t elements = 0, mismatches = 0;
  std::vector<int64_t> first_coord;
  std::string got, want;  // backend, interpreter
};

struct Differential {
  bool compiled = false;       // the artifact was compiled (false: loaded from the cache)
  std::string config_row;      // the config row the backend built the kernel from
  int64_t elements = 0;        // Out/InOut elements compared
  std::vector<ViewMismatch> mismatches;
  std::string backend_error;   // a compile error or native fault (the interpreter ran fine)
  std::string interp_error;    // the interpreter failed (then the backend must fail too)
  bool ok() const { return mismatches.empty() && backend_error.empty() && interp_error.empty(); }
  // Both ran and agree, or both reported an error (an erroneous program, e.g. out of bounds).
  bool agree() const { return ok() || (!backend_error.empty() && !interp_error.empty()); }
  std::string str() const;     // one line per problem, or "N elements bit-identical"
};

// Deep copy of kernel arguments (views get their own storage).
std::map<std::string, interp::KernelArg> clone_args(const std::map<std::string, interp::KernelArg>& args);

// Runs both and compares. `backend_args` receives the backend's outputs (for writing .npy).
Differential run_differential(const Module& m, const std::string& kernel,
                              const std::map<std::string, interp::KernelArg>& args,
                              std::map<std::string, interp::KernelArg>* backend_args = nullptr,
                              const cpu::CompileOptions& opt = {});

}  // namespace kir::oracle
