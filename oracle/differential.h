// The backend-versus-interpreter check of one kernel invocation as the commands run it (`kir run
// --backend cpu`, `kir spec run --backend cpu`, `kir campaign --backend cpu`, intent.run(...,
// backend="cpu")): the kernel is compiled through the artifact cache, run natively, and judged
// by the oracle's verdict (verdict.h): bit for bit against the interpreter under the evaluation
// order the backend's implementations declare, or another legal result by the reassociation
// envelope and atomic interleaving rules; a run-time error must be the interpreter's fault.
#pragma once
#include <map>
#include <string>

#include "backends/cpu/driver/compiler.h"
#include "interp/interpreter.h"
#include "oracle/verdict.h"

namespace kir::oracle {

struct Differential {
  bool compiled = false;       // the artifact was compiled (false: loaded from the cache)
  std::string config_row;      // the config row the backend built the kernel from
  int64_t elements = 0;        // Out/InOut elements compared
  Verdict verdict;             // the verdict (a compile error: compile_failure_verdict)
  std::string backend_error;   // a compile error or native fault
  std::string interp_error;    // the interpreter's error
  // Both ran without error and the verdict passes.
  bool ok() const { return agree() && backend_error.empty() && interp_error.empty(); }
  // The verdict passes: agreeing results, or the same fault on both sides.
  bool agree() const { return verdict.outcome == Outcome::Pass; }
  // "check: pass (bit-exact): 64 elements bit-identical to the interpreter", or on failure that
  // line ("check: FAIL (...)") followed by the verdict's detail and wrong elements.
  std::string str() const;
};

// Deep copy of kernel arguments (views get their own storage).
std::map<std::string, interp::KernelArg> clone_args(const std::map<std::string, interp::KernelArg>& args);

// Compiles, runs natively and judges. `backend_args` receives the backend's outputs (for writing
// .npy); when both runs succeed, their elements are marked defined where the interpreter's run
// wrote them (native code keeps no such record).
Differential run_differential(const Module& m, const std::string& kernel,
                              const std::map<std::string, interp::KernelArg>& args,
                              std::map<std::string, interp::KernelArg>* backend_args = nullptr,
                              const cpu::CompileOptions& opt = {});

}  // namespace kir::oracle
