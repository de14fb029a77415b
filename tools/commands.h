// The `kir` command line: each subcommand family registers itself here, in its own file
// (cmd_<family>.cpp). A registration adds a CLI11 subcommand whose callback sets `exit_code`:
// 0 success, 1 invalid input (diagnostics printed), 2 usage error.
#pragma once
#include <CLI/CLI.hpp>

namespace kir::tools {
void register_ir_commands(CLI::App& app, int& exit_code);        // verify, fmt, normalize
void register_numerics_commands(CLI::App& app, int& exit_code);  // numerics eval/cast/philox/ulp
void register_campaign_command(CLI::App& app, int& exit_code);   // campaign (the main job)
void register_spec_commands(CLI::App& app, int& exit_code);      // spec validate/instantiate
void register_run_command(CLI::App& app, int& exit_code);        // run (reference interpreter)
void register_backend_commands(CLI::App& app, int& exit_code);   // compile, backend info (CPU backend)
void register_fuzz_commands(CLI::App& app, int& exit_code);
void register_tune_command(CLI::App& app, int& exit_code);     // tune (selection by measurement)
void register_report_command(CLI::App& app, int& exit_code);   // report (numerical conformance reports)
void register_explain_command(CLI::App& app, int& exit_code);  // explain (the rule table)
}  // namespace kir::tools
