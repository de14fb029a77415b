// The config row of a campaign case (case_rows.h).
#include "fuzz/campaign/case_rows.h"

#include <deque>

#include "fuzz/gen/rng.h"
#include "oracle/backend_run.h"

namespace kir::fuzz {

const cpu::ConfigTable& small_rows() {
  static const cpu::ConfigTable t = cpu::parse_config_rows(std::string(cpu::fuzz_small_rows_text()), "<built-in>/small_rows.yaml");
  return t;
}

void install_small_rows() {
  const cpu::ConfigTable& active = cpu::active_config();
  cpu::ConfigTable t = active;
  for (const cpu::ConfigRow& r : small_rows().rows)
    if (!active.find(r.name)) t.rows.push_back(r);
  if (t.rows.size() == active.rows.size()) return;
  t.text += "\n# appended by kir fuzz:\n" + small_rows().text;
  cpu::set_config_rows(std::move(t));
}

void install_row(const cpu::ConfigRow& row) {
  cpu::ConfigTable t = cpu::active_config();
  bool replaced = false;
  for (cpu::ConfigRow& r : t.rows)
    if (r.name == row.name) r = row, replaced = true;
  if (!replaced) t.rows.push_back(row);
  t.text += "\n# row " + row.name + " from a finding (" + row.where + ")\n";
  cpu::set_config_rows(std::move(t));
}

// Streams of their own, so that neither follows the case's program or its C++ level.
bool draws_small_row(uint64_t case_seed) { return mix64(case_seed ^ 0x5ca1ab1e0ddba11ull) % 3 == 0; }

std::vector<std::string> small_row_order(uint64_t case_seed) {
  const auto& rows = small_rows().rows;
  std::vector<std::string> order;
  const size_t first = static_cast<size_t>(mix64(case_seed ^ 0x0b5e55edc0ffee11ull) % rows.size());
  for (size_t i = 0; i < rows.size(); ++i) order.push_back(rows[(first + i) % rows.size()].name);
  return order;
}

bool draws_default_row(uint64_t case_seed) { return mix64(case_seed ^ 0xde7a017ba5e5eedull) % 6 == 0; }

std::vector<std::string> default_row_order(uint64_t case_seed) {
  static const cpu::ConfigTable t =
      cpu::parse_config_rows(std::string(cpu::default_config_rows_text()), "<built-in>/config_rows.yaml");
  std::vector<std::string> order;
  const size_t n = t.rows.size();
  if (n < 2) return order;
  const size_t first = 1 + static_cast<size_t>(mix64(case_seed ^ 0x0dd5ca1ab1e5eedull) % (n - 1));
  for (size_t i = 0; i + 1 < n; ++i) order.push_back(t.rows[1 + (first - 1 + i) % (n - 1)].name);
  return order;
}

cpu::CompiledSource compile_with_row(const Module& m, const std::string& kernel, const KernelArgs& args,
                                     const std::string& row, const std::vector<std::string>& skip_passes) {
  cpu::CompileOptions co;
  co.config_row = row;
  co.skip_passes = skip_passes;
  return oracle::compile_for_args(m, kernel, args, co);
}

cpu::CompiledSource compile_first_accepted(const Module& m, const std::string& kernel, const KernelArgs& args,
                                           const std::vector<std::string>& rows, std::string& chosen) {
  for (const std::string& row : rows) {
    chosen = row;
    try {
      return compile_with_row(m, kernel, args, row);
    } catch (const cpu::RowRejected&) {  // selection rejected the forced row: the next one
    }
  }
  chosen.clear();
  return compile_with_row(m, kernel, args, "");
}

oracle::Verdict judge_compiling_row(const Module& m, const std::string& kernel, const KernelArgs& args,
                                    const std::string& row, const oracle::JudgeOptions& jo, KernelArgs* got,
                                    KernelArgs* expected) {
  std::shared_ptr<cpu::NativeKernel> native;
  try {
    std::deque<cpu::CompiledSource> one;
    one.push_back(compile_with_row(m, kernel, args, row, jo.skip_passes));
    native = cpu::build_kernels(std::move(one)).front();
  } catch (const std::exception& e) {
    return oracle::compile_failure_verdict(e.what());
  }
  return oracle::judge(m, kernel, args, *native, jo, got, expected);
}

}  // namespace kir::fuzz
