// Differential fuzz campaigns (issue 12 item 4): generated programs (and manifest workloads)
// run on the interpreter and the CPU backend and judged by the oracle's verdict.
//
// The campaign process only schedules: cases run in forked worker processes, a batch of cases
// per worker (their programs compiled into one shared object), so a crash, a hang (per-case
// timeout, SIGKILL) or a sanitizer abort in native code is a finding and not the campaign's
// end. Every finished case is one line of DIR/journal.tsv, appended after its finding
// directory is complete; a campaign restarted on the same DIR skips the journaled cases, so a
// killed campaign loses nothing. Findings are de-duplicated by signature (outcome, rule, op,
// dtype, pass); DIR/summary.json and the printed table list each signature with its count and its
// first (smallest) reproducer.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "backends/cpu/driver/coverage.h"
#include "fuzz/gen/gen.h"
#include "oracle/verdict.h"

namespace kir::fuzz {

struct CampaignOptions {
  double time_limit = 60;       // seconds of campaign (0: no limit; then max_cases must be set)
  int64_t max_cases = -1;       // stop after this many cases of this shard (-1: no limit)
  uint64_t seed = 1;
  int jobs = 2;                 // worker processes at once
  int shard = 0, shards = 1;    // this campaign runs case indices i with i % shards == shard
  std::string out = "kir-fuzz";
  int batch = 64;               // cases per worker process (one compiled object per C++ level)
  // C++ optimization levels of the generated kernels (cpu::set_cxx_opt_level): case i is
  // compiled at cxx_opt[h(i) % size], h a hash of the campaign seed and i. Mostly 0 (compiling
  // is most of a case's time), some 3 (what users run, where the C++ compiler's own
  // optimizations meet the generated code).
  std::vector<int> cxx_opt = {0, 0, 0, 0, 0, 0, 0, 3};
  double case_timeout = 30;     // seconds per case before the worker is killed
  bool shrink = true;
  int shrink_attempts = 48;     // candidate programs tried per finding
  // After shrinking, reduce the finding's KIR program (fuzz/campaign/reduce/reduce.h) within a
  // quarter of case_timeout.
  bool reduce = true;
  GenOptions gen;
  // Op-spec manifests (files or directories, e.g. "specs"): when set, every odd case index is a
  // workload case of theirs instead of a generated program (manifest_cases.h).
  std::vector<std::string> manifests;
  bool progress = true;         // a progress line on the stream about once a second
  // Stop at the first finding of this run (cases in flight are dropped: they run on resume).
  bool stop_on_finding = false;
  // Config rows of small blocking (case_rows.h): appended to the active rows at the start, and
  // about a third of the generated cases compiled with one of them.
  bool small_rows = true;
  // Directed mode (`kir fuzz --target CELL`): only programs whose compiled code has a coverage
  // cell naming CELL run; the others end as unsupported ("off-target") without being built.
  std::string target;
};

struct SignatureStats {
  int64_t count = 0;
  std::string first_dir;  // finding directory of the first occurrence
  std::string example;    // its verdict's first line
  double first_seconds = -1;  // elapsed time of this run when it was first journaled (-1: before this run)
};

struct CampaignSummary {
  int64_t cases = 0, passed = 0, unsupported = 0, findings = 0;
  int64_t comparisons = 0;  // output elements compared
  int64_t resumed = 0;      // of `cases`, those journaled by an earlier run of the campaign
  double seconds = 0;
  double first_finding_seconds = -1;  // elapsed time of this run at its first finding (-1: none)
  std::map<std::string, SignatureStats> signatures;  // findings by signature
  std::map<std::string, int64_t> families;           // op families over the cases run
  cpu::CoverageMap coverage;                         // the backend's cells over this run's cases
  std::string table() const;                         // the printed summary
};

// Runs (or resumes) a campaign; progress lines go to `log`. Throws std::runtime_error when the
// output directory cannot be used, or (before any case runs) when the manifests do not load.
CampaignSummary run_campaign(const CampaignOptions& o, std::ostream& log);

// Merges the summaries (DIR/summary.json) of shards of one campaign (`kir fuzz --shard i/n`,
// `kir fuzz-merge`): counts and families summed, signatures united (counts summed; the first
// reproducer is the one of the lowest case number), seconds the longest shard's, the first
// finding the earliest. Throws std::runtime_error when a directory has no summary, when the
// shards have different seeds or shard counts, or when a shard is given twice.
CampaignSummary merge_summaries(const std::vector<std::string>& dirs);

// The case seed and size of campaign case `index` (deterministic: shards and restarts agree).
uint64_t case_seed(uint64_t campaign_seed, int64_t index);
int case_size(int64_t index);
// The C++ optimization level of case `index` (CampaignOptions::cxx_opt).
int case_cxx_opt(const CampaignOptions& o, int64_t index);

// One case judged in this process (what a worker does per case; also `kir fuzz --case I`):
// generate, verify, compile, judge, shrink a failure, write its finding directory under
// `findings_dir`. Returns the verdict (of the shrunk program when it shrank).
struct CaseResult {
  oracle::Verdict verdict;
  std::string finding_dir;  // empty when none was written
  std::vector<std::string> families;
  std::string pass;         // the optional backend pass the finding depends on ("" when none)
  // The campaign's de-duplication key of a finding: outcome|rule|op|dtype|pass.
  std::string signature() const { return verdict.signature() + "|" + pass; }
};
CaseResult run_case(const CampaignOptions& o, int64_t index, const std::string& findings_dir);

}  // namespace kir::fuzz
