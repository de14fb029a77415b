// `kir campaign PATH...`: the main job. Walks every .kir file under the given paths, normalizes
// files that use surface shorthands, verifies the canonical result and prints one line per file
// and a summary. It grows into the conformance campaign (interpreter run, backend, oracle) as
// those components land; steps not built yet are listed as such in the summary, never faked.
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "kir/normalize/normalize.h"
#include "kir/op_registry.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

struct CampaignArgs {
  std::vector<std::string> paths;
};

std::vector<std::filesystem::path> collect(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
      continue;
    }
    if (!std::filesystem::is_directory(path)) continue;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.is_regular_file() && e.path().extension() == ".kir" &&
          e.path().filename().string().find(".expected.") == std::string::npos)
        files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int run_campaign(const CampaignArgs& a) {
  for (const auto& p : a.paths)
    if (!std::filesystem::exists(p)) {
      std::cerr << "kir campaign: no such file or directory: " << p << "\n";
      return 2;
    }
  auto files = collect(a.paths);
  size_t passed = 0, failed = 0, ops = 0, kernels = 0;
  auto t0 = std::chrono::steady_clock::now();
  std::cout << fmt::format("{:<56} {:>7} {:>5} {:>10} {:>8}\n", "file", "kernels", "ops", "status", "ms");
  for (const auto& f : files) {
    auto t1 = std::chrono::steady_clock::now();
    Diagnostics diags;
    std::string source;
    auto m = parse_file(f.string(), diags, &source);
    bool ok = m != nullptr;
    bool surface = false;
    size_t n_ops = 0, n_kernels = 0;
    if (ok) {
      for (const auto& fn : m->functions) {
        n_kernels += fn->is_kernel();
        walk(static_cast<const Region&>(fn->body), [&](const Operation& op) {
          ++n_ops;
          const OpInfo* info = find_op(op.name);
          surface = surface || (info && info->status == OpStatus::Surface);
        });
      }
      ok = (!surface || normalize_module(*m, diags)) && verify_module(*m, diags);
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    std::string status = !ok ? "FAIL" : surface ? "ok (norm)" : "ok";
    std::cout << fmt::format("{:<56} {:>7} {:>5} {:>10} {:>8.1f}\n", f.string(), n_kernels, n_ops, status, ms);
    if (!ok) std::cout << diags.render(source);
    (ok ? passed : failed)++;
    ops += n_ops;
    kernels += n_kernels;
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << fmt::format("\n{} files, {} kernels, {} ops verified in {:.2f} s\n", files.size(), kernels, ops, total);
  std::cout << "steps not built yet: interpreter run (issue 4), CPU backend and oracle comparison\n";
  std::cout << fmt::format("campaign: {} passed, {} failed\n", passed, failed);
  return failed == 0 && !files.empty() ? 0 : 1;
}

}  // namespace

void register_campaign_command(CLI::App& app, int& exit_code) {
  static CampaignArgs args;
  auto* cmd = app.add_subcommand("campaign", "Run the bundled conformance campaign over KIR files and directories");
  cmd->add_option("PATH", args.paths, "KIR files or directories of .kir files")->required();
  cmd->callback([&exit_code] { exit_code = run_campaign(args); });
}

}  // namespace kir::tools
