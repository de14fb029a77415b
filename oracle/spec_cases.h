// The workload cases of op-spec manifests (specs/), loaded once and instantiated on demand:
// `kir spec run` (spec_run.h) runs every case of a SpecSuite; campaigns (`kir fuzz --manifests`)
// draw single cases through SpecCases, each in variants — the row's own inputs, special values
// injected, fresh input seeds, a shape scaled within the row's rules (spec_scale.h) — whose
// kernel, arguments and inputs are built exactly as `kir spec run` builds them (spec_args.h).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "oracle/spec_args.h"
#include "specs/src/generators.h"
#include "specs/src/model.h"

namespace kir::oracle {

// One op of the loaded manifests with its instantiated calls and paired kernels.
struct SpecOp {
  const specs::OpSpec* op = nullptr;
  std::string skip;   // why the op has nothing to run (no paired kernel)
  std::string error;  // kernel load or row instantiation diagnostics
  bool rows_error = false;  // `error` is the rows' instantiation diagnostics (else a kernel load error)
  LoadedKernels kern, ref;  // ref: with SpecLoadOptions::with_reference only
  // With SpecLoadOptions::reference_optional, instead of `error`: why there is no reference (no
  // file at any searched path, naming them) or the reference file's load diagnostics.
  std::string ref_missing, ref_error;
  std::vector<specs::Call> calls;
};

struct SpecSuite {
  specs::Manifest manifest;
  std::string diagnostics;  // loader/validator messages
  bool manifest_errors = false;  // then `ops` is empty
  std::vector<SpecOp> ops;
};

struct SpecLoadOptions {
  std::string only_op, only_row;
  bool with_reference = false;  // also load specs/kernels/reference/<Op>.kir
  // With with_reference: a reference that is missing or does not load is recorded in
  // SpecOp::ref_missing / ref_error (each case decides) instead of failing the op in `error`.
  bool reference_optional = false;
};

// The reference kernel file paired with `kernel_path` (…/kernels/Op.kir → …/kernels/reference/Op.kir).
std::string reference_path(const std::string& kernel_path);

// Where op `op` (paired with `kernel_path`) may have its reference kernel, in search order:
// reference/ beside the paired kernel, then the reference/ folders of the other kernel folders
// the paired kernel is searched in (<manifest dir>/kernels, <manifest dir>/../kernels).
std::vector<std::string> reference_candidates(const specs::OpSpec& op, const std::string& kernel_path);

// Loads and validates the manifests under `paths` (files or directories), then per op the
// paired kernel and the instantiated rows. Never throws for manifest errors (see the fields).
std::unique_ptr<SpecSuite> load_spec_suite(const std::vector<std::string>& paths, const SpecLoadOptions& opts);

// How one case is run: input seed (specs::DataOptions::seed), special values, and shape scaling
// (0: the row's shapes; otherwise a choice of which size to change and how, spec_scale.h).
struct SpecVariant {
  uint32_t seed = specs::kWorkloadSeed;
  bool special = false;
  uint64_t scale = 0;
};

struct SpecCaseRef {
  std::string op, file, label, case_id;  // file: the manifest the op is declared in
  std::string kernel_path;               // the paired kernel file
  size_t op_index = 0, call_index = 0;   // into SpecSuite::ops / SpecOp::calls
};

struct SpecInstance {
  std::string kir;     // canonical KIR text of the kernel file (the file itself when canonical)
  std::string kernel;  // the kernel of this dtype case
  std::map<std::string, interp::KernelArg> args;
  std::map<std::string, int64_t> dims;  // the kernel's extent symbols as the args bind them
  std::string scaled;  // "D=8->16" when the shape was scaled, else empty
};

// The runnable cases of manifests: every call of every op with a paired kernel.
class SpecCases {
 public:
  // Throws std::runtime_error with the located diagnostics on bad paths, malformed manifests,
  // kernels that do not load, rows that do not instantiate, or when no op has a paired kernel.
  explicit SpecCases(const std::vector<std::string>& paths);
  size_t size() const { return cases_.size(); }
  const SpecCaseRef& at(size_t k) const { return cases_.at(k); }
  // Case k under variant v. Throws SpecCaseError when it cannot be built (as `kir spec run`
  // would fail it).
  SpecInstance instantiate(size_t k, const SpecVariant& v) const;

 private:
  std::unique_ptr<SpecSuite> suite_;
  std::vector<SpecCaseRef> cases_;
};

}  // namespace kir::oracle
