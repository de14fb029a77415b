// Finding directories (issue 12 item 5): everything needed to reproduce one verdict without the
// campaign — program.kir, case.json (kernel, extents, view layouts and absent optional views,
// scalar bits, the verdict's signature and where the case came from), inputs/*.npy (every
// view's storage, Out views as the zeros they start from), expected/*.npy and
// got/*.npy (Out/InOut storages of the interpreter and of the backend, when both ran),
// verdict.txt, and repro.sh, which runs `kir repro DIR`. Directories appear by atomic rename.
// A case compiled with a config row of its own (case_rows.h) records the row, its definition
// included, so that it reproduces without the campaign's rows.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "backends/cpu/impl/config.h"
#include "interp/interpreter.h"
#include "kir/ir.h"
#include "oracle/verdict.h"

namespace kir::fuzz {

struct FindingMeta {
  uint64_t campaign_seed = 0;
  int64_t index = -1;       // case index in the campaign (-1: not from a campaign)
  uint64_t case_seed = 0;
  int size = 0;
  int shrink_steps = 0;     // accepted shrinks
  int reduce_steps = 0;     // accepted steps of the KIR reducer (fuzz/campaign/reduce/reduce.h)
  std::string origin;       // "generated", "manifest:<path>#<row>", ...
  int cxx_opt = 3;          // the C++ optimization level the kernel was compiled at (cpu::set_cxx_opt_level)
  std::string pass;         // the optional backend pass the finding depends on (attribute_pass; "" none)
  std::string config_row;   // the config row it was compiled with ("": the selection policy's); a row of the active table
};

// Writes `dir` (replacing an existing one). `got`/`expected` may be null.
void write_reproducer(const std::filesystem::path& dir, const std::string& program, const std::string& kernel,
                      const std::map<std::string, int64_t>& dims, const std::map<std::string, interp::KernelArg>& args,
                      const oracle::Verdict& v, const FindingMeta& meta,
                      const std::map<std::string, interp::KernelArg>* got = nullptr,
                      const std::map<std::string, interp::KernelArg>* expected = nullptr);

struct Reproducer {
  std::string program;  // KIR text
  std::string program_path;
  std::string kernel;
  std::map<std::string, int64_t> dims;
  std::map<std::string, interp::KernelArg> args;  // after parsing program (needs the module)
  std::string signature, outcome;
  int cxx_opt = 3;  // set it (cpu::set_cxx_opt_level) before judging: a finding may need its level
  std::string mutant;  // KIR_MUTANT the finding was made under ("" when none)
  int threads = 0;     // the worker pool's threads it ran with (0: not recorded)
  std::string config_row;             // the config row to compile with ("": the selection policy's)
  std::optional<cpu::ConfigRow> row;  // its recorded definition
};

// Makes this process build kernels as the finding was built: its C++ optimization level, its
// thread count (KIR_THREADS, unless set; takes effect if no kernel has run yet), the
// backend mutant it was found under (KIR_MUTANT, set or unset), and its recorded config row made a
// row of the active table (compile with r.config_row: case_rows.h judge_compiling_row).
void apply_build_settings(const Reproducer& r);

// Reads a finding directory; `m` must be the parsed program.kir. Throws std::runtime_error
// naming the file on anything missing or malformed.
Reproducer read_reproducer_meta(const std::filesystem::path& dir);
std::map<std::string, interp::KernelArg> reproducer_args(const std::filesystem::path& dir, const Module& m);

}  // namespace kir::fuzz
