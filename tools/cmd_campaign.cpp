// `kir campaign PATH...`: the main job. For every .kir file under the given paths: normalize
// surface shorthands, verify, then run every kernel in the reference interpreter on inputs
// generated from a fixed seed (extents default to 8); with --backend cpu, also natively, every
// output checked bit for bit against the interpreter (oracle/differential.h). One line per
// kernel and a summary.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "interp/interpreter.h"
#include "oracle/differential.h"
#include "tools/commands.h"
#include "tools/kernel_inputs.h"
#include "kir/load.h"

namespace kir::tools {
namespace {

struct CampaignArgs {
  std::vector<std::string> paths;
  uint64_t seed = 20261129;
  std::string backend = "interp";
};

std::vector<std::filesystem::path> collect(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
      continue;
    }
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.is_regular_file() && e.path().extension() == ".kir" &&
          e.path().filename().string().find(".expected.") == std::string::npos)
        files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Runs one kernel (in the interpreter, or natively and in the interpreter with `cpu`); returns ""
// on success or the first line of the error.
std::string run_kernel(const Module& m, const Function& k, uint64_t seed, bool cpu) {
  try {
    InputSpec spec;
    spec.seed = seed;
    std::map<std::string, interp::KernelArg> args;
    std::ostringstream notes;
    std::string err = make_kernel_args(k, spec, args, notes);
    if (!err.empty()) return err;
    if (cpu) {
      const oracle::Differential d = oracle::run_differential(m, k.name, args, nullptr, cpu::CompileOptions{});
      if (!d.interp_error.empty()) return d.interp_error;  // the program fails on these inputs
      if (!d.ok()) return d.str();
      return "";
    }
    interp::Interpreter it(m);
    it.run_kernel(k.name, args);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

int run_campaign(const CampaignArgs& a) {
  for (const auto& p : a.paths)
    if (!std::filesystem::exists(p)) {
      std::cerr << "kir campaign: no such file or directory: " << p << "\n";
      return 2;
    }
  auto files = collect(a.paths);
  size_t passed = 0, failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  std::cout << fmt::format("{:<48} {:<22} {:>5} {:>9} {:>6} {:>9}\n", "file", "kernel", "ops", "verify", "run",
                           "ms");
  for (const auto& f : files) {
    auto t1 = std::chrono::steady_clock::now();
    Diagnostics diags;
    std::string source;
    bool normalized = false;
    size_t ops = 0;
    auto m = load_canonical(f.string(), diags, source, &normalized, &ops);
    std::string vstatus = !m ? "FAIL" : normalized ? "ok(norm)" : "ok";
    if (!m) {
      std::cout << fmt::format("{:<48} {:<22} {:>5} {:>9} {:>6} {:>9.1f}\n", f.string(), "-", ops, vstatus, "-",
                               ms_since(t1));
      std::cout << diags.render(source);
      ++failed;
      continue;
    }
    for (const auto& fn : m->functions) {
      if (!fn->is_kernel()) continue;
      auto t2 = std::chrono::steady_clock::now();
      std::string err = run_kernel(*m, *fn, a.seed, a.backend == "cpu");
      std::cout << fmt::format("{:<48} {:<22} {:>5} {:>9} {:>6} {:>9.1f}\n", f.string(), "@" + fn->name, ops,
                               vstatus, err.empty() ? "ok" : "FAIL", ms_since(t2));
      if (!err.empty()) std::cout << "  " << err << "\n";
      (err.empty() ? passed : failed)++;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << fmt::format("\n{} files checked in {:.2f} s (inputs seeded with {}, extents 8)\n", files.size(), total,
                           a.seed);
  std::cout << (a.backend == "cpu" ? "every kernel also ran natively (CPU backend), checked bit for bit against the "
                                     "interpreter\n"
                                   : "interpreter only: pass --backend cpu to cross-check the CPU backend too\n");
  std::cout << fmt::format("campaign: {} passed, {} failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}

}  // namespace

void register_campaign_command(CLI::App& app, int& exit_code) {
  static CampaignArgs args;
  auto* cmd = app.add_subcommand("campaign", "Run the bundled conformance campaign over KIR files and directories");
  cmd->add_option("PATH", args.paths, "KIR files or directories of .kir files")->required();
  cmd->add_option("--seed", args.seed, "Seed of the generated inputs");
  cmd->add_option("--backend", args.backend, "interp (default) or cpu: also run natively, bit for bit against the "
                                             "interpreter")
      ->check(CLI::IsMember({"interp", "cpu"}));
  cmd->callback([&exit_code] { exit_code = run_campaign(args); });
}

}  // namespace kir::tools
