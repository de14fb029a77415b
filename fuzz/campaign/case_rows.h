// The config row of a campaign case. Campaigns append rows of small blocking (small_rows.yaml,
// embedded) to the CPU backend's active rows, after the defaults, so the default selection is
// unchanged; about a third of the generated cases are compiled with one of them, drawn from the
// case seed among those the program does not reject, so that programs of the generator's small
// extents run every block loop of the optimized implementations. The row is part of the case:
// shrinking, reduction, pass attribution and `kir repro` compile with the same one.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/impl/config.h"
#include "interp/interpreter.h"
#include "oracle/verdict.h"

namespace kir::cpu {
std::string_view fuzz_small_rows_text();  // generated from fuzz/campaign/small_rows.yaml
}

namespace kir::fuzz {

using KernelArgs = std::map<std::string, interp::KernelArg>;  // as in reduce/reduce.h

// The small rows, parsed once.
const cpu::ConfigTable& small_rows();
// Appends the small rows to the active rows (once; a row of the same name already there stays).
void install_small_rows();
// Makes `row` a row of the active table (a finding's recorded row): appended, or replacing the
// row of its name.
void install_row(const cpu::ConfigRow& row);

// Whether the case of seed `case_seed` takes a small row (about one in three), and the order in
// which it tries them (every small row, starting at one the seed picks).
bool draws_small_row(uint64_t case_seed);
std::vector<std::string> small_row_order(uint64_t case_seed);
// Whether a case that takes no small row takes a built-in row other than the policy's first
// (about one in six of those: the other default rows' implementations are reached too), and the
// order in which it tries them (the built-in rows after the first, starting at one the seed picks).
bool draws_default_row(uint64_t case_seed);
std::vector<std::string> default_row_order(uint64_t case_seed);

// The source of `kernel` built from config row `row` ("": the selection policy's row).
cpu::CompiledSource compile_with_row(const Module& m, const std::string& kernel, const KernelArgs& args,
                                     const std::string& row, const std::vector<std::string>& skip_passes = {});
// The source built from the first of `rows` the program does not reject, with `chosen` set to
// its name; when it rejects all, the selection policy's (`chosen` empty). Other compile errors
// are thrown (with `chosen` naming the row they came from).
cpu::CompiledSource compile_first_accepted(const Module& m, const std::string& kernel, const KernelArgs& args,
                                           const std::vector<std::string>& rows, std::string& chosen);

// oracle::judge_compiling with the program built from config row `row` ("": the policy's): a
// rejected row is Unsupported like any "not implemented" compile error.
oracle::Verdict judge_compiling_row(const Module& m, const std::string& kernel, const KernelArgs& args,
                                    const std::string& row, const oracle::JudgeOptions& jo = {},
                                    KernelArgs* got = nullptr, KernelArgs* expected = nullptr);

}  // namespace kir::fuzz
