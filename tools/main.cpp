// Entry point of the `kir` program: parses the command line and dispatches to a subcommand.
// Exit codes: 0 ok, 1 invalid input or a run-time error, 2 usage error, 3 an incomplete result
// (`kir run`: an Out element never written), 4 an internal error (a bug in kir). No input may
// crash the program.
#include <exception>
#include <iostream>

#include "interp/allocator.h"
#include "tools/commands.h"

int main(int argc, char** argv) {
  kir::interp::keep_freed_memory();  // interpreter temporaries reuse memory (allocator.h)
  CLI::App app{"kir: reference interpreter, CPU backend and oracle for the Intent kernel language"};
  app.set_version_flag("--version", std::string("kir ") + KIR_VERSION + " (Intent KIR toolkit; C++ " +
                                         std::to_string(__cplusplus / 100) + ")");
  app.require_subcommand(0, 1);
  int exit_code = 0;
  kir::tools::register_ir_commands(app, exit_code);
  kir::tools::register_numerics_commands(app, exit_code);
  kir::tools::register_campaign_command(app, exit_code);
  kir::tools::register_spec_commands(app, exit_code);
  kir::tools::register_run_command(app, exit_code);
  kir::tools::register_backend_commands(app, exit_code);
  kir::tools::register_fuzz_commands(app, exit_code);
  kir::tools::register_tune_command(app, exit_code);
  kir::tools::register_report_command(app, exit_code);
  kir::tools::register_explain_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kir: internal error: " << e.what() << "\n";
    return 4;
  }
  if (app.get_subcommands().empty()) {  // `kir` alone: the usage, as a usage error
    std::cerr << app.help();
    return 2;
  }
  return exit_code;
}
