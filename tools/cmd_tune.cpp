// `kir tune FILE`: selection by measurement (checklist C12). Every config row of the active table
// (the built-in rows or --config FILE) is one complete candidate: the kernel is compiled from each
// row that is not rejected, checked once against the interpreter under the order the row's
// implementations declare (a fast wrong candidate never wins), and timed — best of --reps calls
// after one warm-up, each call bound once so the time is the native call alone (packing,
// dispatch and join included; compile, load and argument marshalling excluded). The fastest row
// is stored in the winner cache (apart from the artifact cache); `kir compile` and `kir run
// --backend cpu` then build from it. A row that fails to compile, faults or disagrees is
// reported and nothing is stored: a failure is a diagnostic, never a reason to pick another row.
// Exit: 0 winner stored, 1 a candidate failed (or none was accepted), 2 usage.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "backends/cpu/impl/config.h"
#include "kir/load.h"
#include "oracle/backend_run.h"
#include "oracle/verdict.h"
#include "tools/backend_flags.h"
#include "tools/commands.h"
#include "tools/kernel_inputs.h"

namespace kir::tools {
namespace {

struct TuneArgs {
  std::string path, kernel;
  std::vector<std::string> inputs, dims;
  uint64_t seed = 0;
  int reps = 5;
  bool no_check = false, dry_run = false;
  BackendFlags flags;
};

int usage(const std::string& msg) {
  std::cerr << "kir tune: " << msg << "\n";
  return 2;
}

int run_tune(const TuneArgs& a) {
  Diagnostics diags;
  std::string source;
  auto m = load_canonical(a.path, diags, source);
  if (!m) {
    std::cerr << diags.render(source);
    return 1;
  }
  std::string err;
  const Function* k = choose_kernel(*m, a.kernel, a.path, err);
  if (!k) return usage(err);
  InputSpec spec;
  if (std::string e = parse_input_spec(a.inputs, a.dims, a.seed, spec); !e.empty()) return usage(e);
  std::map<std::string, interp::KernelArg> args;
  if (std::string e = make_kernel_args(*k, spec, args, std::cerr); !e.empty()) return usage(e);
  cpu::CompileOptions base;
  if (std::string e = apply_backend_flags(a.flags, base); !e.empty()) {
    std::cerr << e << "\n";
    return 1;
  }
  const cpu::ConfigTable& table = cpu::active_config();
  std::cout << "tuning @" << k->name << " over " << table.rows.size() << " config rows of " << table.source << "\n";
  cpu::Winner winner;
  double best = 0;
  int failed = 0;
  std::string key;
  for (const auto& row : table.rows) {
    cpu::CompileOptions opt = base;
    opt.config_row = row.name;  // forced: the winner cache only gives the key
    opt.winners = &cpu::default_winner_cache();
    std::shared_ptr<cpu::NativeKernel> native;
    try {
      auto src = oracle::compile_for_args(*m, k->name, args, opt);
      key = src.winner_key;
      std::deque<cpu::CompiledSource> one;
      one.push_back(std::move(src));
      native = cpu::build_kernels(std::move(one)).front();
    } catch (const std::exception& e) {
      const std::string what = e.what();
      if (what.find("is rejected") != std::string::npos) {
        std::cout << "  " << std::left << std::setw(16) << row.name << " rejected: "
                  << what.substr(what.find("is rejected") + 13) << "\n";
      } else {
        ++failed;
        std::cout << "  " << std::left << std::setw(16) << row.name << " FAILED to compile:\n" << what << "\n";
      }
      continue;
    }
    auto run_args = args;
    if (!a.no_check) {
      auto v = oracle::judge(*m, k->name, args, *native);
      if (v.outcome != oracle::Outcome::Pass) {
        ++failed;
        std::cout << "  " << std::left << std::setw(16) << row.name << " WRONG: " << v.str() << "\n";
        continue;
      }
    }
    double t = 0;
    try {
      oracle::BoundCall bc(*native, *m, k->name, run_args);
      if (bc.call().code != 0) throw std::runtime_error("the native call faulted");
      t = 1e300;
      for (int r = 0; r < a.reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        const kir_fault f = bc.call();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (f.code != 0) throw std::runtime_error(cpu::fault_message(*native, f));
        t = std::min(t, s);
      }
    } catch (const std::exception& e) {
      ++failed;
      std::cout << "  " << std::left << std::setw(16) << row.name << " FAILED: " << e.what() << "\n";
      continue;
    }
    std::cout << "  " << std::left << std::setw(16) << row.name << " " << std::fixed << std::setprecision(6) << t
              << " s\n";
    winner.measured.emplace_back(row.name, t);
    if (winner.row.empty() || t < best) {
      winner.row = row.name;
      best = t;
    }
  }
  if (failed) {
    std::cerr << "kir tune: " << failed << " candidate(s) failed; no winner stored (fix the rows or the backend)\n";
    return 1;
  }
  if (winner.row.empty()) {
    std::cerr << "kir tune: every config row is rejected for @" << k->name << "\n";
    return 1;
  }
  std::cout << "winner: " << winner.row << " (" << std::fixed << std::setprecision(6) << best << " s)";
  if (a.dry_run) {
    std::cout << " — not stored (--dry-run)\n";
    return 0;
  }
  cpu::default_winner_cache().store(key, winner);
  std::cout << "\n  stored in " << cpu::default_winner_cache().dir().string() << "/" << key << ".winner\n";
  return 0;
}

}  // namespace

void register_tune_command(CLI::App& app, int& exit_code) {
  static TuneArgs args;
  auto* t = app.add_subcommand("tune", "Measure every config row of the CPU backend on a kernel and store the fastest");
  t->add_option("FILE", args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  t->add_option("--kernel", args.kernel, "Kernel to tune (default: the only kernel)");
  t->add_option("--input", args.inputs, "name=file.npy | name=random:SEED | name=VALUE (as kir run)");
  t->add_option("--dim", args.dims, "NAME=N for extents the inputs do not fix (default 8)");
  t->add_option("--seed", args.seed, "Seed of generated inputs (default 0)");
  t->add_option("--reps", args.reps, "Timed calls per row; the best counts (default 5)")->check(CLI::PositiveNumber);
  t->add_flag("--no-check", args.no_check, "Skip the check of each candidate against the interpreter");
  t->add_flag("--dry-run", args.dry_run, "Measure and print, store nothing");
  add_backend_flags(t, args.flags, false);
  t->callback([&exit_code] { exit_code = run_tune(args); });
}

}  // namespace kir::tools
