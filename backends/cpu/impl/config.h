// Config rows of the CPU backend (checklist C11, C12): each row is one complete candidate — the
// five shared outer bindings (task_m, task_n, mc, nc, kc), the local parameters of its
// implementations and its implementation set (one member per typed computation kind; not a
// priority order). Rows are data (impl/config_rows.yaml, embedded in the library; replaced by
// --config FILE or KIR_CPU_CONFIG), checked when loaded: every error names file:line:col.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kir::cpu {

struct ConfigRow {
  std::string name;
  std::string where;  // "file:line:col" of the row
  std::vector<std::pair<std::string, int64_t>> shared;  // exactly the five, in this order
  std::vector<std::pair<std::string, int64_t>> local;
  std::vector<std::string> implementations;
  // The value of a shared or local parameter, or nullptr.
  const int64_t* value(const std::string& param) const;
};

struct ConfigTable {
  std::string source;  // the file the rows came from ("<built-in>/..." for the default)
  std::string text;    // its contents (part of the winner cache's identity)
  std::vector<ConfigRow> rows;
  const ConfigRow* find(const std::string& name) const;
};

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The five shared outer bindings, in row order.
const std::vector<std::string>& shared_binding_names();

// Parses and checks rows: known keys, all five shared bindings as integers >= 0, local
// parameters that some listed implementation declares, implementations that exist, unique row
// names. Throws ConfigError naming file:line:col.
ConfigTable parse_config_rows(const std::string& text, const std::string& file);
ConfigTable load_config_rows(const std::string& path);

// The rows compiling uses: the built-in ones, unless KIR_CPU_CONFIG names a file or
// set_config_rows() replaced them.
const ConfigTable& active_config();
void set_config_rows(ConfigTable t);
std::string_view default_config_rows_text();  // generated from impl/config_rows.yaml

}  // namespace kir::cpu
