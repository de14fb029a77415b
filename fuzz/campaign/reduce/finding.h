// Reducing findings (issue 12 item 5): the predicate "the oracle's verdict still fails with the
// recorded signature", judged in a child process per candidate (a candidate may crash or hang
// native code), `kir reduce DIR` on a finding directory, and the campaign's reduction of a
// finding after RapidCheck's shrinks. docs/fuzzing.md "Reduction".
#pragma once
#include <functional>
#include <map>
#include <string>

#include "fuzz/campaign/reduce/reduce.h"
#include "oracle/verdict.h"

namespace kir::fuzz {

// oracle::judge_compiling in a forked child process: a child killed by a signal is a Crash
// verdict (rule "native crash"), one running over `timeout` seconds is killed and is a Timeout
// (rule "time limit"), as in the campaign. `in_child`, when given, runs in the child after the
// verdict with the outputs (to write a finding directory from there). The kernel is built from
// config row `row` ("": the selection policy's; case_rows.h), here and in the functions below.
using JudgedFn = std::function<void(const oracle::Verdict&, const KernelArgs& got, const KernelArgs& expected)>;
oracle::Verdict judge_isolated(const Module& m, const std::string& kernel, const KernelArgs& args, double timeout,
                               const oracle::JudgeOptions& jo = {}, const JudgedFn& in_child = {},
                               const std::string& row = "");

// The optional backend pass a failing kernel depends on: the first of "fusion", "epilogue",
// "row-fusion" and "task-partition" without which it passes (each judged by judge_isolated within `timeout`);
// "" when neither (the bug is in construction, an implementation, the serializer or the runtime,
// or needs both passes). Throws std::runtime_error when `kir` does not verify.
std::string attribute_pass(const std::string& kir, const std::string& kernel, const KernelArgs& args, double timeout,
                           const std::string& row = "");

// The kind of run-time error an "error agreement" verdict is about ("undefined-read" from
// "runtime error[undefined-read]: ..."), empty when its detail names none. The signature of such
// a verdict has no op, so without it a reduction slips from one missed error to another.
std::string error_kind(const oracle::Verdict& v);

// The reducer's predicate: judge_isolated fails with exactly this signature (and, when
// `error` is not empty, about this error_kind).
ReducePredicate same_signature(const std::string& kernel, const std::string& signature, double timeout,
                               const std::string& error = "", const std::string& row = "");

struct ReduceFindingOptions {
  std::string out;            // the reduced finding directory (default DIR/reduced)
  ReduceOptions reduce;       // budget (time_limit 0: none) and passes
  double case_timeout = 30;   // seconds one candidate may run (a Timeout finding needs as long)
};

struct ReduceFindingResult {
  ReduceResult reduced;
  oracle::Verdict verdict;    // of the reduced program
  std::string signature;      // the recorded one the reduction kept
  std::string out_dir;
};

// Reads finding directory `dir` (reproducer.h), checks that it still fails with its recorded
// signature (the signature of its verdict now when none is recorded), reduces it, and writes the
// reduced finding (program.kir, case.json with reduce_steps, inputs, outputs, verdict.txt,
// repro.sh). Throws std::runtime_error when `dir` is no finding directory or does not fail.
ReduceFindingResult reduce_finding(const std::string& dir, const ReduceFindingOptions& o);

// The campaign's reduction of a finding within `seconds`: when some step was accepted, the
// reduced program is judged again here with its outputs; `reduced` is false when nothing was
// accepted or the reduced program no longer fails alike (then the finding stays as it was).
struct ReducedFinding {
  bool reduced = false;
  std::string kir;
  KernelArgs args, got, expected;
  std::map<std::string, int64_t> dims;
  oracle::Verdict verdict;
  int steps = 0;
};
ReducedFinding reduce_for_campaign(const std::string& kir, const std::string& kernel, const KernelArgs& args,
                                   const oracle::Verdict& v, double seconds, const std::string& row = "");

}  // namespace kir::fuzz
