// `kir spec run` (issue 6): every workload row and dtype case of the bundled manifests run through
// the reference interpreter. Per case: instantiate, generate the inputs, run the op's paired kernel
// (specs/kernels/<Op>.kir), check its outputs against the manifest (shape and dtype by
// construction; every present output fully written; inputs that are not `mutated` untouched), then
// run the op's independent reference (specs/kernels/reference/<Op>.kir: plain scalar loops, the
// same parameters) on the same inputs and compare every output and mutated input element by
// element (oracle/compare.h) within the reference file's tolerance directive
// `// compare: ulps=N [atol=X]` (default: exact). Kernel files may use surface shorthands
// (normalized on load, kir/load.h). A missing reference makes each case `skip` for the reference
// step (after the kernel and the manifest checks ran), naming the paths searched; a reference that
// does not load fails each case; `no_reference` runs no reference at all. A failing case carries
// the command that reruns just it, and with `keep_failures` its folder (spec_failures.h).
//
// Optional inputs (seed 004 §1): the kernel still takes the parameter; an omitted one is handed
// over as an all-undefined view (any read is a located run-time error), and a kernel may take a
// trailing `constexpr %present_<name>: bool` that the runner sets to the tensor's presence.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "oracle/spec_args.h"
#include "oracle/spec_cases.h"  // reference_path
#include "oracle/spec_failures.h"

namespace kir::oracle {

struct CaseResult {
  enum class Status { Pass, Fail, Skip };
  std::string op, label, case_id;
  Status status = Status::Pass;
  std::string message;  // why it failed or was skipped; empty on pass
  double seconds = 0;
  // With SpecRunOptions::backend_cpu: the paired kernel on the CPU backend, judged by the oracle's
  // verdict (oracle/verdict.h) against the interpreter under the backend's declared evaluation
  // order (Skip: not run). backend_message is the verdict's `check: ...` line (and on failure its
  // detail); backend_rule the rule that decided ("bit-exact", "atomic interleaving: schedule 2 of 6").
  Status backend = Status::Skip;
  std::string backend_message, backend_rule;
  bool compiled = false;  // the backend compiled its artifact (false: loaded from the cache)
  std::string repro;  // failures: a `kir spec run` command that reruns just this case (spec_failures.h)
  std::string kept;   // with SpecRunOptions::keep_failures: the folder the failure was saved in
};
const char* status_name(CaseResult::Status s);  // "pass", "FAIL", "skip"

struct SpecRunOptions {
  std::string only_op, only_row;
  bool inject_special = false;  // special values in float inputs (datagen)
  bool backend_cpu = false;     // also run every case on the CPU backend, judged (oracle/differential.h)
  std::string only_case;        // run only the case with this case id (a row's dtype case)
  // Run no reference kernel: each case is the paired kernel checked against the manifest's rules
  // (parity with the manifest is checked by validation, as always). Without this flag, an op
  // whose reference file is missing still runs its kernel and the manifest checks, and its cases
  // are `skip` for the reference step (the message names every path searched).
  bool no_reference = false;
  // When set: per failing case, its inputs, results and reproducing command in
  // keep_failures/<op>/<case_id>/ (spec_failures.h). The folder must exist (prepare_keep_dir).
  std::string keep_failures;
  // Called as each case finishes (progress display); `total` counts the cases of every op.
  std::function<void(const CaseResult&, size_t done, size_t total)> on_case;
};

struct SpecRunSummary {
  std::string diagnostics;  // loader/validator messages (the run stops when they hold errors)
  bool manifest_errors = false;
  std::vector<CaseResult> cases;
  size_t count(CaseResult::Status s) const;
  size_t count_backend(CaseResult::Status s) const;
  size_t artifacts_compiled = 0, artifacts_loaded = 0;  // backend artifacts: built now / from the cache
};

// The steps of one case after its arguments, for callers that run a case themselves (kir report).
// run_paired_kernel runs kernel `k` in the interpreter on `inv` and checks the manifest's rules on
// its results (every present output fully written, inputs that are not `mutated` untouched);
// compare_with_reference runs the op's reference kernel on the same input data and compares every
// output and mutated input with `got`'s within the reference file's tolerance (and hands the
// reference's arguments after its run to `want` when given). Both throw SpecCaseError with the
// failure (compare_with_reference also when `ref` did not load).
void run_paired_kernel(const specs::OpSpec& op, const specs::Call& call, const Module& m, const Function& k, Invocation& inv);
struct ReferenceComparison {
  std::string tensor;
  bool output = true;  // false: a mutated input
  Comparison comparison;
};
std::vector<ReferenceComparison> compare_with_reference(const specs::OpSpec& op, const specs::Call& call,
                                                        const LoadedKernels& ref, const std::vector<specs::TensorData>& data,
                                                        const Invocation& got, Invocation* want = nullptr);

SpecRunSummary run_spec_workloads(const std::vector<std::string>& paths, const SpecRunOptions& opts);

}  // namespace kir::oracle
