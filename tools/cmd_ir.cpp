// `kir verify`, `kir fmt`, `kir normalize`: read a KIR text file, report diagnostics as
// file:line:col: error[RULE]: message with a caret line, and print canonical text.
#include <iostream>

#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/text/comments.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"
#include "tools/commands.h"
#include "tools/json_report.h"
#include "kir/load.h"

namespace kir::tools {
namespace {

struct FileArgs {
  std::string path;
  bool surface = false;
  bool json = false;
};

// Parses the file; prints diagnostics and returns null on failure.
std::unique_ptr<Module> load(const std::string& path, std::string& source) {
  Diagnostics diags;
  auto m = parse_file(path, diags, &source);
  if (!m) std::cerr << diags.render(source);
  return m;
}

int run_verify(const FileArgs& a) {
  std::string source;
  if (a.json) {  // a parse failure is reported in the JSON too
    Diagnostics pd;
    if (!parse_file(a.path, pd, &source)) {
      std::cout << nlohmann::json{{"file", a.path}, {"ok", false}, {"errors", pd.error_count()},
                                  {"diagnostics", diagnostics_json(pd)}}.dump(2)
                << "\n";
      return 1;
    }
  }
  auto m = load(a.path, source);
  if (!m) return 1;
  Diagnostics diags;
  // With --surface, shorthands are accepted by checking their canonical form: the normalizer
  // validates each shorthand, and the verifier checks what it produced.
  bool ok = (!a.surface || normalize_module(*m, diags)) && verify_module(*m, diags);
  if (a.json) {
    std::cout << nlohmann::json{{"file", a.path}, {"ok", ok}, {"errors", diags.error_count()},
                                {"diagnostics", diagnostics_json(diags)}}.dump(2)
              << "\n";
    return ok ? 0 : 1;
  }
  std::cerr << diags.render(source);
  if (!ok) {
    std::cerr << a.path << ": " << diags.error_count() << " error(s)\n";
    return 1;
  }
  std::cout << a.path << ": ok\n";
  return 0;
}

int run_fmt(const FileArgs& a) {
  std::string source;
  auto m = load(a.path, source);
  if (!m) return 1;
  std::cout << print_module_with_comments(*m, collect_comments(source));
  return 0;
}

int run_normalize(const FileArgs& a) {
  std::string source;
  Diagnostics diags;
  auto m = load_canonical(a.path, diags, source);
  if (!m) {
    std::cerr << diags.render(source);
    return 1;
  }
  std::cout << print_module(*m);
  return 0;
}

}  // namespace

void register_ir_commands(CLI::App& app, int& exit_code) {
  static FileArgs verify_args, fmt_args, norm_args;

  auto* verify = app.add_subcommand("verify", "Check that a KIR file is valid canonical KIR (rules L1-L19)");
  verify->add_option("FILE", verify_args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  verify->add_flag("--surface", verify_args.surface, "Also accept surface shorthands (before normalization)");
  verify->add_flag("--json", verify_args.json, "Print the result as one JSON object (diagnostics with file, line, "
                                               "col, severity, rule, message)");
  verify->callback([&exit_code] { exit_code = run_verify(verify_args); });

  auto* fmt = app.add_subcommand("fmt", "Print a KIR file in canonical text form");
  fmt->add_option("FILE", fmt_args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  fmt->callback([&exit_code] { exit_code = run_fmt(fmt_args); });

  auto* norm = app.add_subcommand("normalize", "Rewrite surface shorthands to canonical KIR and print it");
  norm->add_option("FILE", norm_args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  norm->callback([&exit_code] { exit_code = run_normalize(norm_args); });
}

}  // namespace kir::tools
