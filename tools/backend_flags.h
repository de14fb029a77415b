// The CPU backend's selection flags shared by `kir compile`, `kir run --backend cpu` and
// `kir tune`: --config FILE replaces the built-in config rows, --row NAME builds from one row,
// --no-winner ignores the winner `kir tune` stored (the first row that is not rejected is used).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "backends/cpu/driver/compiler.h"

namespace kir::tools {

struct BackendFlags {
  std::string config, row;
  bool no_winner = false;
};

void add_backend_flags(CLI::App* cmd, BackendFlags& f, bool with_row = true);
// Loads --config (a located error message on failure, "" on success) and sets the row and the
// winner cache of `opt`.
std::string apply_backend_flags(const BackendFlags& f, cpu::CompileOptions& opt);

}  // namespace kir::tools
