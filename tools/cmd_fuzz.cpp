// `kir fuzz`, `kir repro` and `kir reduce`: differential campaigns of generated programs through
// the interpreter and the CPU backend (fuzz/campaign/campaign.h), re-running one finding
// directory, and reducing one (fuzz/campaign/reduce/finding.h). Exit codes: fuzz 0 when the
// campaign found nothing, 1 when it has findings, 2 usage; repro 1 while the finding still fails
// (it reproduces), 0 when the backend now passes it; reduce 0 when it wrote the reduced finding.
#include <algorithm>
#include <iostream>

#include "backends/cpu/mutants/mutants.h"
#include "fuzz/gen/families.h"
#include "fuzz/campaign/campaign.h"
#include "fuzz/campaign/coverage_table.h"
#include "fuzz/campaign/case_rows.h"
#include "fuzz/campaign/reduce/finding.h"
#include "fuzz/campaign/repeat.h"
#include "fuzz/campaign/reproducer.h"
#include "backends/cpu/runtime/worker_pool.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "oracle/verdict.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

struct FuzzArgs {
  fuzz::CampaignOptions o;
  std::string shard = "0/1";
  std::vector<std::string> families;  // only these generator families (empty: all)
  bool no_shrink = false, no_reduce = false, quiet = false, no_small_rows = false, coverage = false;
};

int run_fuzz(FuzzArgs a) {
  auto slash = a.shard.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    a.o.shard = std::stoi(a.shard.substr(0, slash));
    a.o.shards = std::stoi(a.shard.substr(slash + 1));
  } catch (const std::exception&) {
    std::cerr << "kir fuzz: --shard takes i/n (e.g. 0/4), got `" << a.shard << "`\n";
    return 2;
  }
  if (!a.families.empty()) {
    const auto& names = fuzz::family_names();
    for (const auto& f : a.families)
      if (std::find(names.begin(), names.end(), f) == names.end()) {
        std::string all;
        for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
        std::cerr << "kir fuzz: --families: no family `" << f << "` (families: " << all << ")\n";
        return 2;
      }
    for (const auto& n : names)
      if (std::find(a.families.begin(), a.families.end(), n) == a.families.end()) a.o.gen.family_weights[n] = 0;
    // A family that is opt-in (weight 0 in the table, such as faults) runs at weight 2 when named.
    for (const auto& f : fuzz::family_table())
      if (f.weight == 0 && std::find(a.families.begin(), a.families.end(), f.name) != a.families.end())
        a.o.gen.family_weights[f.name] = 2;
  }
  a.o.shrink = !a.no_shrink;
  a.o.reduce = !a.no_reduce;
  a.o.progress = !a.quiet;
  a.o.small_rows = !a.no_small_rows;
  try {
    cpu::active_mutant();  // a bad KIR_MUTANT is a usage error, not a spurious error per case
  } catch (const std::exception& e) {
    std::cerr << "kir fuzz: " << e.what() << "\n";
    return 2;
  }
  try {
    fuzz::CampaignSummary s = fuzz::run_campaign(a.o, std::cerr);
    std::cout << s.table();
    if (a.coverage) {
      std::cout << fuzz::coverage_table(s.coverage);
    } else {
      const std::string t = fuzz::coverage_table(s.coverage);
      std::cout << t.substr(0, t.find('\n')) << " (--coverage prints the map)\n";
    }
    std::cout << "journal: " << a.o.out << "/journal.tsv, summary: " << a.o.out << "/summary.json\n";
    return s.findings ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "kir fuzz: " << e.what() << "\n";
    return 2;
  }
}

int run_repro(const std::string& dir, int repeat) {
  try {
    fuzz::Reproducer r = fuzz::read_reproducer_meta(dir);
    fuzz::apply_build_settings(r);
    Diagnostics diags;
    auto m = parse_module(r.program, r.program_path, diags);
    if (!m || !verify_module(*m, diags)) {
      std::cerr << diags.render(r.program);
      return 2;
    }
    auto args = fuzz::reproducer_args(dir, *m);
    // A crash or a hang, or an explicit --repeat: attempts in child processes under the recorded
    // thread count, with schedule perturbation from the second attempt on (repeat.h).
    const bool abnormal = r.outcome == "crash" || r.outcome == "timeout";
    if (repeat > 1 || (repeat == 0 && abnormal)) {
      const int n = repeat > 1 ? repeat : 100;
      std::cout << r.program_path << ": @" << r.kernel << ", up to " << n << " attempts with " << cpu::rt::WorkerPool::global_threads()
                << " threads\n";
      auto res = fuzz::repeat_until_failing([&] { return fuzz::judge_compiling_row(*m, r.kernel, args, r.config_row); },
                                            r.signature, r.outcome, n, 30,
                                            [](const oracle::Verdict& v) { std::cout << v.str(); });
      if (res.reproduced)
        std::cout << "reproduces the recorded finding " << r.signature << " on attempt " << res.attempts << " of " << n
                  << (res.attempts > 1 ? " (schedule perturbation seed " + std::to_string(res.attempts) + ")" : std::string()) << "\n";
      else
        std::cout << "did not reproduce in " << res.attempts << " attempts (last: " << res.last << "); recorded: " << r.signature << "\n";
      return res.reproduced ? 1 : 0;
    }
    oracle::Verdict v = fuzz::judge_compiling_row(*m, r.kernel, args, r.config_row);
    std::cout << r.program_path << ": @" << r.kernel << (r.config_row.empty() ? "" : " (config row " + r.config_row + ")") << "\n"
              << v.str();
    if (!r.signature.empty()) {
      const bool same = v.failed() && v.signature() == r.signature;
      std::cout << (same ? "reproduces the recorded finding " : v.failed() ? "fails differently from the recorded " : "no longer fails; recorded: ")
                << r.signature << "\n";
    }
    return v.failed() ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "kir repro: " << e.what() << "\n";
    return 2;
  }
}

struct ReduceArgs {
  std::string dir;
  fuzz::ReduceFindingOptions o;
  bool quiet = false;
};

// `kir reduce DIR`: exit 0 with the reduced finding written, 2 when DIR does not fail as recorded.
int run_reduce(ReduceArgs a) {
  try {
    if (!a.quiet) a.o.reduce.log = [](const std::string& line) { std::cerr << "  " << line << "\n"; };
    fuzz::ReduceFindingResult r = fuzz::reduce_finding(a.dir, a.o);
    std::cout << a.dir << ": " << r.reduced.summary() << "\nsignature " << r.signature << "\nreduced finding: " << r.out_dir
              << "\n" << r.verdict.str();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "kir reduce: " << e.what() << "\n";
    return 2;
  }
}

// The shards of one campaign as one table (campaign.h merge_summaries).
int run_fuzz_merge(const std::vector<std::string>& dirs) {
  try {
    fuzz::CampaignSummary s = fuzz::merge_summaries(dirs);
    std::cout << dirs.size() << " shard" << (dirs.size() == 1 ? "" : "s") << "; " << s.table();
    if (s.first_finding_seconds >= 0) std::cout << "first finding after " << s.first_finding_seconds << " s (earliest shard)\n";
    return s.findings ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "kir fuzz-merge: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void register_fuzz_commands(CLI::App& app, int& exit_code) {
  static FuzzArgs fa;
  auto* fz = app.add_subcommand("fuzz", "Differential fuzz campaign: generated kernels on the interpreter and the CPU backend");
  fz->add_option("--time", fa.o.time_limit, "Seconds to run (default 60; 0 with --cases: no time limit)");
  fz->add_option("--cases", fa.o.max_cases, "Stop after this many cases of this shard (journaled cases count)");
  fz->add_option("--seed", fa.o.seed, "Campaign seed (cases are numbered; case i's program depends on seed and i only)");
  fz->add_option("--jobs", fa.o.jobs, "Worker processes at once (default 2)");
  fz->add_option("--shard", fa.shard, "i/n: run the cases whose number is i modulo n (merge shards by summing their summaries)");
  fz->add_option("--out", fa.o.out, "Campaign directory: journal.tsv, findings/, summary.json (resumes when it exists)");
  fz->add_option("--batch", fa.o.batch, "Cases per worker process, compiled as one shared object per C++ level (default 64)");
  fz->add_option("--cxx-opt", fa.o.cxx_opt, "C++ optimization levels the kernels are compiled at, one per case drawn from this list (default 0,0,0,0,0,0,0,3)")
      ->delimiter(',')
      ->check(CLI::Range(0, 3));
  fz->add_option("--case-timeout", fa.o.case_timeout, "Seconds one case may run before it is a timeout finding (default 30)");
  fz->add_option("--max-ops", fa.o.gen.max_ops, "Generation steps per program (default 12)");
  fz->add_option("--families", fa.families,
                 "Generate only these op families (comma-separated, e.g. faults; steps where none applies are a "
                 "plain pointwise op)")
      ->delimiter(',');
  fz->add_option("--manifests", fa.o.manifests,
                 "Op-spec manifests (files or directories, e.g. specs): every odd case is one of their workloads, in variants "
                 "(special values, fresh inputs, scaled shapes)");
  fz->add_flag("--no-shrink", fa.no_shrink, "Keep findings as generated (no shrinking)");
  fz->add_flag("--no-reduce", fa.no_reduce, "No KIR-level reduction of findings after shrinking");
  fz->add_flag("--quiet", fa.quiet, "No progress lines");
  fz->add_flag("--stop-on-finding", fa.o.stop_on_finding, "Stop at the first finding (unfinished cases run on resume)");
  fz->add_flag("--coverage", fa.coverage,
               "Print the coverage map of the backend's decision space at the end: per implementation and config row, "
               "dtype pair, blocked loop tail class, path, epilogue and task split, how often this run reached it "
               "(always in summary.json)");
  fz->add_option("--target", fa.o.target,
                 "Directed mode: run only the programs whose compiled code has a coverage cell whose name contains "
                 "this text (e.g. contract.packed.avx512/KC:partial); the others count as unsupported, unbuilt");
  fz->add_flag("--no-small-rows", fa.no_small_rows,
               "Compile every case with the default config row selection (by default about a third of the generated "
               "cases take a config row of small blocking, appended after the default rows, so that small programs run "
               "every block loop of the optimized implementations; a finding records its row)");
  fz->callback([&exit_code] { exit_code = run_fuzz(fa); });

  static std::vector<std::string> merge_dirs;
  auto* mg = app.add_subcommand("fuzz-merge", "Merge the summaries of campaign shards (kir fuzz --shard i/n) into one table");
  mg->add_option("DIRS", merge_dirs, "Campaign directories of the shards (each with summary.json)")->required();
  mg->callback([&exit_code] { exit_code = run_fuzz_merge(merge_dirs); });

  static std::string dir;
  static int repeat = 0;
  auto* rp = app.add_subcommand("repro", "Re-run a finding directory written by kir fuzz (exit 1 while it still fails)");
  rp->add_option("DIR", dir, "Finding directory (program.kir, case.json, inputs/)")->required();
  rp->add_option("--repeat", repeat,
                 "Attempts, each in a child process under the recorded thread count, the second on with the worker "
                 "pool's schedule perturbation, until one fails as recorded (default: 1; 100 for a crash or timeout)")
      ->check(CLI::Range(1, 1000000));
  rp->callback([&exit_code] { exit_code = run_repro(dir, repeat); });

  static ReduceArgs ra;
  ra.o.reduce.time_limit = 600;
  auto* rd = app.add_subcommand("reduce", "Reduce a finding directory's KIR program while it fails with the recorded signature");
  rd->add_option("DIR", ra.dir, "Finding directory (program.kir, case.json, inputs/)")->required();
  rd->add_option("--out", ra.o.out, "Where to write the reduced finding (default DIR/reduced)");
  rd->add_option("--time", ra.o.reduce.time_limit, "Seconds of reduction (default 600; 0: until the fixpoint)");
  rd->add_option("--max-candidates", ra.o.reduce.max_candidates, "Stop after judging this many candidates");
  rd->add_option("--case-timeout", ra.o.case_timeout, "Seconds one candidate may run (default 30)");
  rd->add_flag("--quiet", ra.quiet, "Do not print the accepted steps");
  rd->callback([&exit_code] { exit_code = run_reduce(ra); });
}

}  // namespace kir::tools
