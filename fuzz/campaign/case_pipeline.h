// One campaign case from seed to verdict (internal to fuzz/campaign): generate, verify, build
// the arguments, compile to source (the object is built per batch by the worker), judge, and
// shrink a failure to a smaller program failing with the same signature.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "fuzz/campaign/campaign.h"
#include "kir/ir.h"

namespace kir::fuzz {

struct PreparedCase {
  int64_t index = -1;
  uint64_t seed = 0;
  int size = 0;
  std::optional<rc::Shrinkable<GeneratedCase>> shrinkable;  // generated cases only
  GeneratedCase c;
  std::string origin = "generated";  // FindingMeta::origin
  // The config row the case is compiled with ("": the selection policy's; case_rows.h). Chosen
  // when a generated case is prepared; shrink candidates and reductions keep it.
  std::string row;
  std::unique_ptr<Module> module;
  std::map<std::string, interp::KernelArg> args;
  std::deque<cpu::CompiledSource> source;  // zero or one
  std::optional<oracle::Verdict> early;     // decided before running (invalid, unsupported, ...)
  std::shared_ptr<cpu::NativeKernel> native;
};

// Everything up to the compiled source (built from config row `row`, "" the policy's); `early` is
// set when the case ends there. Without `compile` the case stops after its arguments (the
// campaign process itself never runs backend code: a crash there would end the campaign).
PreparedCase prepare_case(GeneratedCase c, bool compile = true, const std::string& row = "");
// Case `index` of the campaign: a generated program, or with CampaignOptions::manifests every odd
// index a manifest workload (manifest_cases.h). A generated case whose seed draws a small row
// (CampaignOptions::small_rows) is compiled with the first of them its program does not reject;
// without `compile` its row stays unknown ("").
PreparedCase prepare_indexed(const CampaignOptions& o, int64_t index, bool compile = true);
// The steps of prepare_case around its arguments, for cases whose arguments come from elsewhere:
// parse and verify p.c.kir into p.module (false, with `early` set, when it does not), and
// compile it for p.args from row p.row (`early` set when the backend refuses).
bool parse_case(PreparedCase& p);
void compile_case(PreparedCase& p);
oracle::Verdict early_verdict(oracle::Outcome o, std::string rule, std::string detail);

// The finding of a case whose worker died (Crash) or was killed (Timeout) while running it:
// the program and inputs, with no outputs.
// `row`: the config row the worker compiled it with, as it reported it.
CaseResult record_abnormal(const CampaignOptions& o, int64_t index, oracle::Outcome outcome, const std::string& detail,
                           const std::string& findings_dir, const std::string& row = "");

// Builds the natives of many prepared cases as one object; when that fails, one by one (a
// case whose source the compiler rejects gets its `early` verdict).
void build_batch(std::vector<PreparedCase*>& cases);

// The verdict of a built case (its `early` verdict when it has one).
oracle::Verdict judge_case(PreparedCase& p, std::map<std::string, interp::KernelArg>* got = nullptr,
                           std::map<std::string, interp::KernelArg>* expected = nullptr);

// Shrinks a failing case (RapidCheck's shrinks of the generated program, each built and judged
// on its own) while the signature stays the same, then writes the finding directory with the
// outputs of the (shrunk) program. A passing verdict is returned as it is.
// Before shrinking, the unshrunk finding is written and handed to `provisional`: a worker killed
// at the case's time limit while shrinking or reducing still leaves the finding it made, not a
// Timeout of its own making.
CaseResult finish_case(const CampaignOptions& o, PreparedCase& p, oracle::Verdict v,
                       std::map<std::string, interp::KernelArg> got, std::map<std::string, interp::KernelArg> expected,
                       const std::string& findings_dir,
                       const std::function<void(const CaseResult&)>& provisional = {});

}  // namespace kir::fuzz
