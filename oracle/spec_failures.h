// Reproducing a failing `kir spec run` case (spec_run.h): the one-line command that reruns just
// that case, and the `--keep-failures DIR` folder DIR/<op>/<case_id>/ holding the case's inputs,
// the kernel's and the reference's results (.npy), that command (command.sh) and the failure
// (message.txt).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interp/interpreter.h"

namespace kir::oracle {

// The options of the run a command must repeat to reproduce a case the same way.
struct ReproFlags {
  bool special = false;       // --special
  bool backend_cpu = false;   // --backend cpu
  bool no_reference = false;  // --no-reference
};

// `kir spec run MANIFEST --op OP [--row LABEL] [--case CASE_ID] [flags]`; `--case` only when the
// case id differs from the label (a dtype case). Words are shell-quoted where needed.
std::string repro_command(const std::string& manifest, const std::string& op, const std::string& label,
                          const std::string& case_id, const ReproFlags& flags);

// One tensor of a case, copied out of its view (dense, row-major).
struct SavedTensor {
  std::string name;
  DType dtype = DType::F32;
  interp::Shape shape;
  std::vector<uint64_t> bits;
};
SavedTensor save_view(const std::string& name, const interp::HostView& h);

// What a case produced, as far as it got: its inputs before the run, then the kernel's and the
// reference's outputs and written inputs.
struct CaseRecord {
  std::vector<SavedTensor> inputs, kernel, reference;
};

// Makes `dir` ready to hold case folders (creating it). Returns why it cannot, or "".
std::string prepare_keep_dir(const std::string& dir);

// The folder of one case: DIR/<op>/<case_id>/ (characters other than letters, digits, '.', '_'
// and '-' become '_'; an op-level failure without a case is DIR/<op>/op/).
std::string case_folder(const std::string& dir, const std::string& op, const std::string& case_id);

// Writes the folder of one failing case (replacing an older one): inputs/NAME.npy,
// kernel/NAME.npy, reference/NAME.npy, command.sh (the command, run from `cwd` with $KIR or kir),
// message.txt. Returns the
// folder; throws std::runtime_error when it cannot be written.
std::string keep_failure(const std::string& dir, const std::string& op, const std::string& case_id, const CaseRecord& rec,
                         const std::string& command, const std::string& cwd, const std::string& message);

}  // namespace kir::oracle
