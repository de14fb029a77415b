// One campaign case from seed to verdict (case_pipeline.h).
#include "fuzz/campaign/case_pipeline.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "backends/cpu/driver/compiler.h"
#include "fuzz/campaign/case_args.h"
#include "fuzz/campaign/coverage_table.h"
#include "fuzz/campaign/case_rows.h"
#include "fuzz/campaign/manifest_cases.h"
#include "fuzz/campaign/reduce/finding.h"
#include "fuzz/campaign/reproducer.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "oracle/backend_run.h"

namespace kir::fuzz {
oracle::Verdict early_verdict(oracle::Outcome o, std::string rule, std::string detail) {
  oracle::Verdict v;
  v.outcome = o;
  v.rule = std::move(rule);
  v.detail = std::move(detail);
  return v;
}

uint64_t case_seed(uint64_t campaign_seed, int64_t index) {
  uint64_t z = campaign_seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(index) + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int case_size(int64_t index) { return 5 + static_cast<int>((index * 37) % 96); }

int case_cxx_opt(const CampaignOptions& o, int64_t index) {
  if (o.cxx_opt.empty()) return 3;
  return o.cxx_opt[(case_seed(o.seed, index) >> 11) % o.cxx_opt.size()];
}

bool parse_case(PreparedCase& p) {
  Diagnostics diags;
  p.module = parse_module(p.c.kir, "program.kir", diags);
  if (p.module && verify_module(*p.module, diags)) return true;
  p.early = early_verdict(oracle::Outcome::InvalidProgram, "generator", diags.render(p.c.kir));
  return false;
}

void compile_case(PreparedCase& p) {
  try {
    p.source.push_back(compile_with_row(*p.module, p.c.kernel, p.args, p.row));
  } catch (const std::exception& e) {
    p.early = oracle::compile_failure_verdict(e.what());
  }
}

PreparedCase prepare_case(GeneratedCase c, bool compile, const std::string& row) {
  PreparedCase p;
  p.c = std::move(c);
  p.row = row;
  if (!parse_case(p)) return p;
  try {
    p.args = case_args(*p.module, p.c);
  } catch (const std::exception& e) {
    p.early = early_verdict(oracle::Outcome::InvalidProgram, "generator", e.what());
    return p;
  }
  if (compile) compile_case(p);
  return p;
}

PreparedCase prepare_indexed(const CampaignOptions& o, int64_t index, bool compile) {
  if (is_manifest_index(o, index)) return prepare_manifest(o, index, compile);
  const uint64_t seed = case_seed(o.seed, index);
  const int size = case_size(index);
  auto shr = sample_case(seed, size, o.gen);
  const bool small = o.small_rows && draws_small_row(seed);
  const bool other = o.small_rows && !small && draws_default_row(seed);
  PreparedCase p = prepare_case(shr.value(), compile && !small && !other);
  if ((small || other) && compile && !p.early) {
    install_small_rows();
    try {
      p.source.push_back(compile_first_accepted(*p.module, p.c.kernel, p.args,
                                                small ? small_row_order(seed) : default_row_order(seed), p.row));
    } catch (const std::exception& e) {
      p.early = oracle::compile_failure_verdict(e.what());
    }
  }
  p.index = index;
  p.seed = seed;
  p.size = size;
  p.shrinkable.emplace(std::move(shr));
  // Directed mode: a program whose code has no cell naming the target is not built or run.
  if (!o.target.empty() && compile && !p.early && !p.source.empty() &&
      !names_cell(p.source.front().program.cover_cells, o.target))
    p.early = early_verdict(oracle::Outcome::Unsupported, "off-target", "the program has no coverage cell `" + o.target + "`");
  return p;
}

void build_batch(std::vector<PreparedCase*>& cases) {
  std::deque<cpu::CompiledSource> all;
  std::vector<PreparedCase*> todo;
  for (PreparedCase* p : cases)
    if (!p->early && !p->source.empty()) {
      all.push_back(std::move(p->source.front()));
      p->source.clear();
      todo.push_back(p);
    }
  if (todo.empty()) return;
  try {
    auto natives = cpu::build_kernels(std::move(all));
    for (size_t i = 0; i < todo.size(); ++i) todo[i]->native = natives[i];
    return;
  } catch (const std::exception&) {
    // Some program breaks the batch: build each alone (sources are made again) to find which.
  }
  for (PreparedCase* p : todo) {
    try {
      std::deque<cpu::CompiledSource> one;
      one.push_back(compile_with_row(*p->module, p->c.kernel, p->args, p->row));
      p->native = cpu::build_kernels(std::move(one)).front();
    } catch (const std::exception& e) {
      p->early = oracle::compile_failure_verdict(e.what());
    }
  }
}

oracle::Verdict judge_case(PreparedCase& p, std::map<std::string, interp::KernelArg>* got,
                           std::map<std::string, interp::KernelArg>* expected) {
  if (p.early) return *p.early;
  if (!p.native) {
    std::vector<PreparedCase*> one{&p};
    build_batch(one);
    if (p.early) return *p.early;
    if (!p.native) throw std::logic_error("campaign case without a compiled program");
  }
  return oracle::judge(*p.module, p.c.kernel, p.args, *p.native, {}, got, expected);
}

namespace {

// Writes the finding directory of case `p`: the program `fin` (p itself, or its shrunk form), or
// the reducer's program when `red` is given.
std::string write_finding(const CampaignOptions& o, const PreparedCase& p, const PreparedCase& fin,
                          const oracle::Verdict& v, int shrink_steps, int reduce_steps, const std::string& pass,
                          const std::map<std::string, interp::KernelArg>& got,
                          const std::map<std::string, interp::KernelArg>& expected, const std::string& findings_dir,
                          const ReducedFinding* red = nullptr) {
  FindingMeta meta;
  meta.pass = pass;
  meta.campaign_seed = o.seed;
  meta.index = p.index;
  meta.case_seed = p.seed;
  meta.size = p.size;
  meta.shrink_steps = shrink_steps;
  meta.reduce_steps = reduce_steps;
  meta.origin = p.origin;
  meta.cxx_opt = cpu::cxx_opt_level();
  meta.config_row = fin.row;
  const std::string dir = (std::filesystem::path(findings_dir) / ("case-" + std::to_string(p.index))).string();
  write_reproducer(dir, red ? red->kir : fin.c.kir, fin.c.kernel, red ? red->dims : fin.c.dims, red ? red->args : fin.args,
                   v, meta, got.empty() ? nullptr : &got, expected.empty() ? nullptr : &expected);
  return dir;
}

}  // namespace

CaseResult finish_case(const CampaignOptions& o, PreparedCase& p, oracle::Verdict v,
                       std::map<std::string, interp::KernelArg> got, std::map<std::string, interp::KernelArg> expected,
                       const std::string& findings_dir, const std::function<void(const CaseResult&)>& provisional) {
  const auto started = std::chrono::steady_clock::now();
  CaseResult r;
  r.families = p.c.families;
  if (v.failed() && provisional) {
    CaseResult first = r;
    first.verdict = v;
    first.finding_dir = write_finding(o, p, p, v, 0, 0, "", got, expected, findings_dir);
    provisional(first);
  }
  int steps = 0;
  GeneratedCase best = p.c;
  if (v.failed() && o.shrink && p.shrinkable && v.outcome != oracle::Outcome::InvalidProgram) {
    const std::string sig = v.signature();
    rc::Shrinkable<GeneratedCase> cur = *p.shrinkable;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.case_timeout * 0.5);
    int attempts = 0;
    for (bool progress = true; progress && attempts < o.shrink_attempts;) {
      progress = false;
      auto seq = cur.shrinks();
      while (auto next = seq.next()) {
        if (++attempts > o.shrink_attempts || std::chrono::steady_clock::now() > deadline) break;
        PreparedCase cand = prepare_case(next->value(), true, p.row);
        oracle::Verdict cv = judge_case(cand);
        if (cv.failed() && cv.signature() == sig) {
          cur = *next;
          best = cand.c;
          v = cv;
          ++steps;
          progress = true;
          break;
        }
      }
    }
  }
  if (!v.failed()) {
    r.verdict = v;
    return r;
  }
  // The finding directory holds the smallest failing program with its got/expected outputs.
  PreparedCase shrunk;
  if (steps) {
    shrunk = prepare_case(best, true, p.row);
    got.clear();
    expected.clear();
    oracle::Verdict sv = judge_case(shrunk, &got, &expected);
    if (sv.failed()) v = sv;
  }
  const PreparedCase& fin = steps ? shrunk : p;
  // Then the KIR reducer, for what RapidCheck's shrinks cannot cut: a quarter of the case's time,
  // and never past 80% of it counted from here (the worker is killed at 100%).
  ReducedFinding red;
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double budget = std::min(o.case_timeout * 0.25, o.case_timeout * 0.8 - spent);
  if (o.reduce && v.outcome != oracle::Outcome::InvalidProgram && budget > 0)
    red = reduce_for_campaign(fin.c.kir, fin.c.kernel, fin.args, v, budget, fin.row);
  if (red.reduced) {
    v = red.verdict;
    got = std::move(red.got);
    expected = std::move(red.expected);
  }
  r.verdict = v;
  // Which optional pass the finding depends on (part of its signature), in what is left of the
  // case's time.
  const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double left = o.case_timeout * 0.9 - used;
  const bool attributable = v.outcome == oracle::Outcome::Wrong || v.outcome == oracle::Outcome::MissedError ||
                            v.outcome == oracle::Outcome::SpuriousError;
  if (attributable && left > 1) {
    try {
      r.pass = attribute_pass(red.reduced ? red.kir : fin.c.kir, fin.c.kernel, red.reduced ? red.args : fin.args, left / 2,
                              fin.row);
    } catch (const std::exception&) {
      r.pass.clear();
    }
  }
  r.finding_dir = write_finding(o, p, fin, v, steps, red.steps, r.pass, got, expected, findings_dir, red.reduced ? &red : nullptr);
  return r;
}

CaseResult record_abnormal(const CampaignOptions& o, int64_t index, oracle::Outcome outcome, const std::string& detail,
                           const std::string& findings_dir, const std::string& row) {
  PreparedCase p = prepare_indexed(o, index, false);
  CaseResult r;
  r.families = p.c.families;
  r.verdict = early_verdict(outcome, outcome == oracle::Outcome::Timeout ? "time limit" : "native crash", detail);
  FindingMeta meta;
  meta.campaign_seed = o.seed;
  meta.index = index;
  meta.case_seed = p.seed;
  meta.size = p.size;
  meta.origin = p.origin;
  meta.cxx_opt = case_cxx_opt(o, index);
  meta.config_row = row;
  r.finding_dir = (std::filesystem::path(findings_dir) / ("case-" + std::to_string(index))).string();
  write_reproducer(r.finding_dir, p.c.kir, p.c.kernel, p.c.dims, p.args, r.verdict, meta);
  return r;
}

CaseResult run_case(const CampaignOptions& o, int64_t index, const std::string& findings_dir) {
  cpu::set_cxx_opt_level(case_cxx_opt(o, index));
  PreparedCase p = prepare_indexed(o, index);
  std::map<std::string, interp::KernelArg> got, expected;
  oracle::Verdict v = judge_case(p, &got, &expected);
  return finish_case(o, p, v, std::move(got), std::move(expected), findings_dir);
}

}  // namespace kir::fuzz
