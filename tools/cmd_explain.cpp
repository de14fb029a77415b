// `kir explain ID` (as `rustc --explain`): the rule a message names — its text, a minimal invalid
// example and the fix — from the rule table (kir/rules/). `--list` prints every ID with its title;
// `--markdown` prints the catalogue docs/rules.md is generated from.
// Exit codes: 0 ok, 2 an ID the table does not know (with the closest known IDs).
#include <iostream>
#include <string>
#include <vector>

#include "kir/rules/rule.h"
#include "kir/suggest.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

struct ExplainArgs {
  std::string id;
  bool list = false;
  bool markdown = false;
};

int run_explain(const ExplainArgs& a) {
  if (a.markdown) {
    std::cout << rules::render_markdown();
    return 0;
  }
  if (a.list) {
    for (const auto& r : rules::all()) std::cout << r.id << "\t" << r.title << "\n";
    return 0;
  }
  if (a.id.empty()) {
    std::cerr << "kir explain: give a rule ID (as a message prints it, e.g. L4.14 or out-of-bounds), or --list\n";
    return 2;
  }
  std::string id = a.id;
  if (id.size() > 2 && id.front() == '[' && id.back() == ']') id = id.substr(1, id.size() - 2);  // "[L4.14]"
  if (const rules::Rule* r = rules::find(id)) {
    std::cout << rules::render_text(*r);
    return 0;
  }
  std::vector<std::string> ids;
  for (const auto& r : rules::all()) ids.emplace_back(r.id);
  std::cerr << "kir explain: no rule '" << a.id << "'" << did_you_mean(id, ids)
            << "; `kir explain --list` lists them all\n";
  return 2;
}

}  // namespace

void register_explain_command(CLI::App& app, int& exit_code) {
  static ExplainArgs args;
  auto* e = app.add_subcommand("explain", "Explain a rule a message names: its text, an invalid example and the fix");
  e->add_option("ID", args.id, "Rule ID as printed, e.g. L4.14, M7, C41, out-of-bounds");
  e->add_flag("--list", args.list, "List every rule ID with its title");
  e->add_flag("--markdown", args.markdown, "Print the whole catalogue as Markdown (docs/rules.md)");
  e->callback([&exit_code] { exit_code = run_explain(args); });
}

}  // namespace kir::tools
