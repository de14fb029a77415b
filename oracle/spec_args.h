// One manifest case's kernel invocation, shared by `kir spec run` (spec_run.h) and the
// campaign's manifest workloads (spec_cases.h): loading a paired kernel file, choosing the kernel
// of a dtype case, generating the inputs, and building the interpreter arguments from both.
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "kir/ir.h"
#include "oracle/compare.h"
#include "specs/src/datagen.h"
#include "specs/src/instantiate.h"

namespace kir::oracle {

// A case that cannot go on (no kernel for its dtypes, inputs not generated, arguments not
// bound); the message names the kernel, tensor or parameter.
struct SpecCaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A case no kernel variant fits only because of the param values the kernels fix (`fixes {...}`,
// docs/spec-run.md): reported `skip`, not a failure; the message names the params and values.
struct SpecCaseSkip : SpecCaseError {
  using SpecCaseError::SpecCaseError;
};

struct LoadedKernels {
  std::unique_ptr<Module> module;  // canonical (normalized when the file has surface forms)
  std::string path;
  std::string source;   // the file's text
  bool normalized = false;
  std::string error;    // load/verify diagnostics, when module is null
  Tolerance tolerance;  // reference files: the `// compare: ulps=N [atol=X]` directive
};
LoadedKernels load_kernels(const std::string& path);

// The kernel of `m` for this call: the first `@Op` or `@Op__<dtypes>[__<variant>...]` whose
// view parameters take the call's present tensors (dtypes, ranks, constant extents, one value
// per extent symbol) and whose fixed params (`fixes {...}`) all have exactly the call's values.
// Throws SpecCaseSkip when kernels take the tensors but none fixes the call's param values (the
// message names them), else SpecCaseError listing the kernels tried.
const Function& kernel_for_call(const Module& m, const std::string& op, const specs::Call& call, const std::string& file);

// specs::generate_inputs with its errors as SpecCaseError ("input generation: ...").
std::vector<specs::TensorData> generate_case_inputs(const specs::OpSpec& op, const specs::Call& call,
                                                    const specs::DataOptions& opts);

struct Invocation {
  std::map<std::string, interp::KernelArg> args;
  std::map<std::string, interp::HostView> views;  // present tensors by name
};

// Arguments of `k` for `call`, input views filled from `data` (fresh storage every time), output
// views undefined, omitted optional tensors absent views at the extents the others bind. Throws
// SpecCaseError, and interp::RuntimeError when the views do not bind (wrap it in `guarded`).
Invocation build_args(const Function& k, const specs::Call& call, const std::vector<specs::TensorData>& data);

// Runs `make` with interpreter errors (extent binding, sizes) as SpecCaseError prefixed with `who`.
template <typename F>
auto guarded(const std::string& who, F&& make) {
  try {
    return make();
  } catch (const interp::RuntimeError& e) {
    throw SpecCaseError(who + ": " + e.what());
  } catch (const std::length_error& e) {
    throw SpecCaseError(who + ": " + e.what());
  }
}

}  // namespace kir::oracle
