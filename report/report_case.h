// One case of a report (kir report, docs/report.md): a kernel invocation — a manifest workload
// row's dtype case or a kernel file's kernel on generated inputs — with what identifies it in the
// report and, for manifest rows, the check of the paired kernel against the op's reference kernel.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/cpu/driver/compiler.h"
#include "interp/interpreter.h"
#include "kir/ir.h"
#include "oracle/verdict.h"

namespace kir::report {

struct ReportCase {
  std::string id;      // stable across runs: OP/ROW/DTYPE, or FILE@KERNEL
  std::string op, row, dtype;
  std::string source;  // the manifest or kernel file
  std::string kernel_path;  // the file of the kernel run (manifests: the paired kernel)
  std::string origin;  // for the reproducer: "manifest:<file>#<row>" or "kernel:<file>"
  const Module* module = nullptr;  // owned by the case list (report_cases.h)
  std::string program;             // canonical KIR text of the module (reproducers)
  std::string kernel;
  std::map<std::string, int64_t> dims;
  std::map<std::string, interp::KernelArg> args;
  // Manifest rows: runs the paired kernel against the reference kernel and returns the schema's
  // `reference` object. Empty for kernel files.
  std::function<nlohmann::json()> reference;
  // A case that cannot run (no paired kernel: SKIP; instantiation failed: FAIL), with the reason.
  std::string skip, error;
};

// The compiled kernel of a case, or the verdict of a compile that failed.
struct Built {
  std::shared_ptr<cpu::NativeKernel> native;
  std::optional<oracle::Verdict> early;
};

// Runs the case on the backend and in the interpreter and returns the schema's `case` object.
// With `repro_root`, writes the case's reproducer directory under it (repro/<id> relative to it).
nlohmann::json measure_case(const ReportCase& c, const Built& b, const std::string& repro_root);

// The file-system-safe directory name of a case id.
std::string repro_name(const std::string& id);

}  // namespace kir::report
