// Reducing findings (finding.h).
#include "fuzz/campaign/reduce/finding.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "fuzz/campaign/case_rows.h"
#include "fuzz/campaign/reproducer.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

namespace kir::fuzz {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const oracle::Outcome kOutcomes[] = {oracle::Outcome::Pass,          oracle::Outcome::Wrong,       oracle::Outcome::MissedError,
                                     oracle::Outcome::SpuriousError, oracle::Outcome::Unsupported, oracle::Outcome::Crash,
                                     oracle::Outcome::Timeout,       oracle::Outcome::InvalidProgram};

json to_json(const oracle::Verdict& v) {
  json j;
  j["outcome"] = oracle::outcome_name(v.outcome);
  j["rule"] = v.rule;
  j["op"] = v.op;
  j["location"] = v.location;
  j["dtype"] = v.dtype;
  j["detail"] = v.detail;
  j["compared"] = v.compared;
  j["wrong"] = v.wrong;
  j["diffs"] = json::array();
  for (const auto& d : v.diffs)
    j["diffs"].push_back({{"output", d.output}, {"coord", d.coord}, {"got", d.got}, {"expected", d.expected}, {"allowed", d.allowed}});
  return j;
}

oracle::Verdict from_json(const json& j) {
  oracle::Verdict v;
  const std::string o = j.at("outcome").get<std::string>();
  for (oracle::Outcome x : kOutcomes)
    if (o == oracle::outcome_name(x)) v.outcome = x;
  v.rule = j.at("rule").get<std::string>();
  v.op = j.at("op").get<std::string>();
  v.location = j.at("location").get<std::string>();
  v.dtype = j.at("dtype").get<std::string>();
  v.detail = j.at("detail").get<std::string>();
  v.compared = j.at("compared").get<int64_t>();
  v.wrong = j.at("wrong").get<int64_t>();
  for (const auto& d : j.at("diffs"))
    v.diffs.push_back({d.at("output").get<std::string>(), d.at("coord").get<std::vector<int64_t>>(),
                       d.at("got").get<std::string>(), d.at("expected").get<std::string>(), d.at("allowed").get<std::string>()});
  return v;
}

oracle::Verdict abnormal(oracle::Outcome o, const std::string& rule, const std::string& detail) {
  oracle::Verdict v;
  v.outcome = o;
  v.rule = rule;
  v.detail = detail;
  return v;
}

void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

std::unique_ptr<Module> load_verified(const std::string& text, const std::string& file) {
  Diagnostics d;
  auto m = parse_module(text, file, d);
  if (!m || !verify_module(*m, d)) throw std::runtime_error(d.render(text));
  return m;
}

}  // namespace

oracle::Verdict judge_isolated(const Module& m, const std::string& kernel, const KernelArgs& args, double timeout,
                               const oracle::JudgeOptions& jo, const JudgedFn& in_child, const std::string& row) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    ::close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // What the judge prints (compiler warnings, once per process) is no part of the verdict.
    if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
      ::close(null);
    }
    int code = 0;
    try {
      KernelArgs got, expected;
      const oracle::Verdict v =
          judge_compiling_row(m, kernel, args, row, jo, in_child ? &got : nullptr, in_child ? &expected : nullptr);
      write_all(fds[1], to_json(v).dump());
      ::close(fds[1]);
      if (in_child) in_child(v, got, expected);
    } catch (const std::exception& e) {
      write_all(fds[1], json{{"error", e.what()}}.dump());
      code = 3;
    }
    ::_exit(code);
  }
  ::close(fds[1]);
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
  std::string buf;
  bool timed_out = false;
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    ::poll(&p, 1, 100);
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      char chunk[4096];
      const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
      if (n <= 0) break;
      buf.append(chunk, static_cast<size_t>(n));
    }
    if (!timed_out && timeout > 0 && Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      timed_out = true;
    }
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  json j;
  try {
    if (!buf.empty()) j = json::parse(buf);
  } catch (const json::exception&) {
    j = json();
  }
  if (j.is_object() && j.contains("outcome")) return from_json(j);
  if (timed_out) return abnormal(oracle::Outcome::Timeout, "time limit", "case ran longer than " + std::to_string(timeout) + " s");
  if (WIFSIGNALED(status))
    return abnormal(oracle::Outcome::Crash, "native crash", std::string("judge killed by ") + strsignal(WTERMSIG(status)));
  const std::string why = j.is_object() && j.contains("error") ? j["error"].get<std::string>() : "no verdict";
  return abnormal(oracle::Outcome::Crash, "native crash", "judge exited with status " + std::to_string(WEXITSTATUS(status)) + ": " + why);
}

std::string error_kind(const oracle::Verdict& v) {
  if (v.rule != "error agreement") return "";
  const size_t p = v.detail.find("error[");
  if (p == std::string::npos) return "";
  const size_t e = v.detail.find(']', p);
  return e == std::string::npos ? "" : v.detail.substr(p + 6, e - p - 6);
}

ReducePredicate same_signature(const std::string& kernel, const std::string& signature, double timeout,
                               const std::string& error, const std::string& row) {
  return [kernel, signature, timeout, error, row](const Module& m, const KernelArgs& a) {
    const oracle::Verdict v = judge_isolated(m, kernel, a, timeout, {}, {}, row);
    return v.failed() && v.signature() == signature && (error.empty() || error_kind(v) == error);
  };
}

std::string attribute_pass(const std::string& kir, const std::string& kernel, const KernelArgs& args, double timeout,
                           const std::string& row) {
  auto m = load_verified(kir, "program.kir");
  for (const char* pass : {"fusion", "epilogue", "row-fusion", "task-partition"}) {
    oracle::JudgeOptions jo;
    jo.skip_passes = {pass};
    if (judge_isolated(*m, kernel, args, timeout, jo, {}, row).outcome == oracle::Outcome::Pass) return pass;
  }
  return "";
}

ReduceFindingResult reduce_finding(const std::string& dir, const ReduceFindingOptions& o) {
  const Reproducer rep = read_reproducer_meta(dir);
  apply_build_settings(rep);
  auto m = load_verified(rep.program, rep.program_path);
  const KernelArgs args = reproducer_args(dir, *m);
  ReduceFindingResult res;
  const oracle::Verdict now = judge_isolated(*m, rep.kernel, args, o.case_timeout, {}, {}, rep.config_row);
  res.signature = rep.signature.empty() ? now.signature() : rep.signature;
  if (!now.failed() || now.signature() != res.signature)
    throw std::runtime_error(dir + " does not fail as recorded (" + res.signature + "); now: " + now.str());
  res.reduced = reduce_program(rep.program, rep.kernel, args,
                               same_signature(rep.kernel, res.signature, o.case_timeout, error_kind(now), rep.config_row),
                               o.reduce);
  if (!res.reduced.initial_fails)
    throw std::runtime_error(dir + " failed as recorded once, then not when the reduction started (a flaky finding?)");

  FindingMeta meta;
  try {
    std::ifstream f(fs::path(dir) / "case.json");
    const json c = json::parse(f);
    meta.origin = c.value("origin", "");
    meta.campaign_seed = c.value("campaign_seed", uint64_t{0});
    meta.index = c.value("index", int64_t{-1});
    meta.case_seed = c.value("case_seed", uint64_t{0});
    meta.size = c.value("size", 0);
    meta.shrink_steps = c.value("shrink_steps", 0);
    meta.cxx_opt = rep.cxx_opt;
    meta.pass = c.value("pass", "");
    meta.config_row = rep.config_row;
  } catch (const json::exception&) {
  }
  meta.reduce_steps = static_cast<int>(res.reduced.steps.size());

  res.out_dir = o.out.empty() ? (fs::path(dir) / "reduced").string() : o.out;
  fs::remove_all(res.out_dir);
  const ReduceResult& rr = res.reduced;
  auto rm = load_verified(rr.kir, "program.kir");
  const std::string out_dir = res.out_dir, kernel = rep.kernel;
  res.verdict = judge_isolated(
      *rm, kernel, rr.args, o.case_timeout, {},
      [&](const oracle::Verdict& v, const KernelArgs& got, const KernelArgs& expected) {
        write_reproducer(out_dir, rr.kir, kernel, rr.dims, rr.args, v, meta, &got, &expected);
      },
      rep.config_row);
  if (!fs::exists(fs::path(out_dir) / "case.json"))  // the judge died: the finding without outputs
    write_reproducer(out_dir, rr.kir, kernel, rr.dims, rr.args, res.verdict, meta);
  return res;
}

ReducedFinding reduce_for_campaign(const std::string& kir, const std::string& kernel, const KernelArgs& args,
                                   const oracle::Verdict& v, double seconds, const std::string& row) {
  ReducedFinding rf;
  if (seconds <= 0 || !v.failed()) return rf;
  ReduceOptions ro;
  ro.time_limit = seconds;
  try {
    ReduceResult rr = reduce_program(kir, kernel, args, same_signature(kernel, v.signature(), seconds, error_kind(v), row), ro);
    if (rr.steps.empty()) return rf;
    auto m = load_verified(rr.kir, "program.kir");
    oracle::Verdict rv = judge_compiling_row(*m, kernel, rr.args, row, {}, &rf.got, &rf.expected);
    if (!rv.failed() || rv.signature() != v.signature() || error_kind(rv) != error_kind(v)) return rf;
    rf.reduced = true;
    rf.kir = rr.kir;
    rf.args = rr.args;
    rf.dims = rr.dims;
    rf.verdict = rv;
    rf.steps = static_cast<int>(rr.steps.size());
  } catch (const std::exception&) {
    rf = ReducedFinding{};
  }
  return rf;
}

}  // namespace kir::fuzz
