// Selection flags of the CPU backend commands (backend_flags.h).
#include "tools/backend_flags.h"

#include "backends/cpu/impl/config.h"
#include "kir/rules/rule.h"

namespace kir::tools {

void add_backend_flags(CLI::App* cmd, BackendFlags& f, bool with_row) {
  cmd->add_option("--config", f.config, "Config rows file (YAML) replacing the built-in rows of the CPU backend");
  if (with_row) {
    cmd->add_option("--row", f.row, "Build from this config row (an error if the row is rejected)");
    cmd->add_flag("--no-winner", f.no_winner, "Ignore the row `kir tune` stored; use the first row that is not rejected");
  }
}

std::string apply_backend_flags(const BackendFlags& f, cpu::CompileOptions& opt) {
  if (!f.config.empty()) {
    try {
      cpu::set_config_rows(cpu::load_config_rows(f.config));
    } catch (const cpu::ConfigError& e) {
      return e.what();
    }
  }
  if (!f.row.empty()) {
    if (!cpu::active_config().find(f.row))
      return "error[config]: no config row named `" + f.row + "` in " + cpu::active_config().source + rules::explain_hint("config");
    opt.config_row = f.row;
  }
  if (!f.no_winner) opt.winners = &cpu::default_winner_cache();
  return "";
}

}  // namespace kir::tools
