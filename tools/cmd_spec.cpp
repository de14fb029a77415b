// `kir spec validate [PATHS] [--op NAME]` and `kir spec instantiate FILE --op NAME [--row LABEL]
// [--force]`: check op-spec manifests (messages `file:line:col: [level] Op: text`, sorted) and
// turn the workload rows of an op that validates into concrete calls printed as JSON
// (specs/src/call_json.h), optionally with input data as .npy files;
// `kir spec run [PATHS] [--op] [--row] [--case] [--json FILE] [--no-reference] [--keep-failures DIR]`
// runs them (oracle/spec_run.h), each failure with the command that reruns it.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "oracle/spec_run.h"

#include "specs/src/call_json.h"
#include "specs/src/datagen.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

struct InstArgs {
  std::string file, op, row, npy_dir;
  bool special = false;
  bool force = false;
};

// Instantiation never outruns validation: an op `kir spec validate FILE --op NAME` rejects is
// refused (exit 1, naming the op and its first error's rule), or with --force instantiated under
// a loud warning on stderr and an "invalid_manifest" entry in every call. Returns the first
// error's text when the op does not validate (empty when it does), after printing the refusal
// or the warning.
std::string validation_gate(const specs::Manifest& m, const specs::SpecDiags& loaded, const InstArgs& a, bool& refuse) {
  refuse = false;
  specs::SpecDiags vd = specs::validate_op(m, loaded, a.op);
  if (!vd.has_errors()) return "";
  std::string first, rule = "?";
  for (const auto& x : vd.sorted())
    if (x.level != specs::Level::Warning) {
      first = x.str();
      if (!x.rule().empty()) rule = x.rule();  // the check ID and the manifest rule: "C41, M4"
      break;
    }
  const std::string head = "kir spec instantiate: op '" + a.op + "' does not validate (" + std::to_string(vd.error_count()) +
                           " error(s)); first broken rule " + rule + ": " + first + "\n";
  if (!a.force) {
    std::cerr << vd.render() << head << "kir spec instantiate: refusing to instantiate an invalid manifest (--force proceeds anyway)\n";
    refuse = true;
    return first;
  }
  std::cerr << "kir spec instantiate: WARNING: --force: " << head.substr(std::string("kir spec instantiate: ").size())
            << "kir spec instantiate: WARNING: --force: proceeding on an INVALID manifest; the calls below may be wrong\n";
  return first;
}

int run_instantiate(const InstArgs& a) {
  specs::Manifest m;
  specs::SpecDiags d;
  specs::load_paths({a.file}, m, d);
  const specs::OpSpec* op = m.op(a.op);
  if (!op) {
    std::cerr << d.render() << a.file << ": no op named '" << a.op << "'\n";
    return 1;
  }
  bool refuse = false;
  const std::string invalid = validation_gate(m, d, a, refuse);
  if (refuse) return 1;
  specs::InstantiateOptions opts;
  opts.only_label = a.row;
  specs::SpecDiags rd;
  auto calls = specs::instantiate_op(*op, m, rd, opts);
  std::cerr << rd.render();
  if (!a.row.empty() && calls.empty() && !rd.has_errors()) {
    std::cerr << a.file << ": op '" << a.op << "' has no row labelled '" << a.row << "'\n";
    return 1;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : calls) {
    auto j = specs::call_json(c);
    if (!invalid.empty()) j["invalid_manifest"] = invalid;
    if (!a.npy_dir.empty()) {
      specs::DataOptions dopt;
      dopt.inject_special = a.special;
      std::string err;
      auto files = specs::write_inputs_npy(*op, c, a.npy_dir, dopt, err);
      if (!err.empty()) {
        std::cerr << "kir spec instantiate: " << err << "\n";
        return 1;
      }
      j["files"] = files;
    }
    out.push_back(j);
  }
  std::cout << out.dump(2) << "\n";
  return rd.has_errors() ? 1 : 0;
}

// `kir spec validate --json`: {"ops", "files", "errors", "warnings", "diagnostics": [{file, line, col,
// level, op, message, rule}]}, the rule being the check ID and checklist item ("C37, M7").
nlohmann::json validate_json(const specs::ValidateSummary& s) {
  nlohmann::json diags = nlohmann::json::array();
  size_t warnings = 0;
  for (const auto& d : s.shown.sorted()) {
    warnings += d.level == specs::Level::Warning;
    diags.push_back({{"file", d.loc.file}, {"line", d.loc.line}, {"col", d.loc.col}, {"level", specs::level_name(d.level)},
                     {"op", d.op}, {"message", d.message()}, {"rule", d.rule()}});
  }
  return {{"ops", s.ops}, {"files", s.files}, {"errors", s.shown.error_count()}, {"warnings", warnings}, {"diagnostics", diags}};
}

struct RunArgs {
  std::vector<std::string> paths;
  std::string op, row, case_id, json, backend = "interp", keep_failures;
  bool special = false;
  bool no_reference = false;
};

// The lines under a failing case: the command that reruns it and where --keep-failures saved it.
std::string failure_notes(const oracle::CaseResult& c) {
  std::string s;
  if (!c.repro.empty()) s += "  rerun: " + c.repro + "\n";
  if (!c.kept.empty()) s += "  kept: " + c.kept + "/\n";
  return s;
}

// One line per case (or a progress bar on a terminal, with failures printed as they happen),
// then the table of ops x cases, and the JSON summary file on request.
int run_workloads(const RunArgs& a) {
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  oracle::SpecRunOptions opts;
  opts.only_op = a.op;
  opts.only_row = a.row;
  opts.inject_special = a.special;
  if (a.backend != "interp" && a.backend != "cpu") {
    std::cerr << "kir spec run: --backend takes interp or cpu, got '" << a.backend << "'\n";
    return 2;
  }
  opts.backend_cpu = a.backend == "cpu";
  opts.only_case = a.case_id;
  opts.no_reference = a.no_reference;
  if (!a.keep_failures.empty()) {
    if (std::string why = oracle::prepare_keep_dir(a.keep_failures); !why.empty()) {
      std::cerr << "kir spec run: " << why << "\n";
      return 2;
    }
    opts.keep_failures = a.keep_failures;
  }
  if (a.no_reference)
    std::cout << "no reference: each case runs the paired kernel and checks the manifest rules (every present output fully "
                 "written, inputs not mutated untouched); parity with the manifest was checked on load; no reference kernel "
                 "is run or compared\n";
  opts.on_case = [tty](const oracle::CaseResult& c, size_t done, size_t total) {
    const bool bad = c.status == oracle::CaseResult::Status::Fail || c.backend == oracle::CaseResult::Status::Fail;
    const std::string what =
        c.op + (c.label.empty() ? "" : " [" + c.label + (c.case_id.empty() || c.case_id == c.label ? "" : " " + c.case_id) + "]");
    if (tty) {
      const int width = 30;
      const int filled = total ? static_cast<int>(width * done / total) : width;
      std::cout << "\r\033[K[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(width - filled), ' ')
                << "] " << done << "/" << total << " " << what << std::flush;
      if (bad || done == total) std::cout << "\n";
      if (bad)
        std::cout << "FAIL " << what << ": " << c.message << (c.message.empty() ? "" : " ") << c.backend_message << "\n"
                  << failure_notes(c);
      return;
    }
    std::cout << std::left << std::setw(5) << oracle::status_name(c.status);
    if (c.backend != oracle::CaseResult::Status::Skip) std::cout << " cpu:" << std::setw(5) << oracle::status_name(c.backend);
    std::cout << " " << what << " " << std::fixed << std::setprecision(3) << c.seconds << " s";
    if (!c.message.empty()) std::cout << ": " << c.message;
    if (!c.backend_message.empty()) std::cout << (c.message.empty() ? ": " : "; ") << "cpu " << c.backend_message;
    std::cout << "\n" << failure_notes(c);
  };
  std::vector<std::string> paths = a.paths.empty() ? std::vector<std::string>{"specs"} : a.paths;
  oracle::SpecRunSummary sum = oracle::run_spec_workloads(paths, opts);
  if (!sum.diagnostics.empty()) (sum.manifest_errors ? std::cerr : std::cout) << sum.diagnostics;
  if (sum.manifest_errors) {
    std::cerr << "kir spec run: the manifests have errors; nothing was run\n";
    return 1;
  }
  if (!a.case_id.empty() && sum.cases.empty()) {
    std::cerr << "kir spec run: no case with id '" << a.case_id << "' in the selected ops and rows (case ids: <label>[-<dtype>...])\n";
    return 1;
  }
  // Table: op, cases, passed, failed, skipped, seconds.
  struct Row {
    size_t cases = 0, pass = 0, fail = 0, skip = 0, cpu_pass = 0, cpu_fail = 0;
    double seconds = 0;
  };
  std::map<std::string, Row> table;
  for (const auto& c : sum.cases) {
    Row& r = table[c.op];
    ++r.cases;
    r.pass += c.status == oracle::CaseResult::Status::Pass;
    r.fail += c.status == oracle::CaseResult::Status::Fail;
    r.skip += c.status == oracle::CaseResult::Status::Skip;
    r.cpu_pass += c.backend == oracle::CaseResult::Status::Pass;
    r.cpu_fail += c.backend == oracle::CaseResult::Status::Fail;
    r.seconds += c.seconds;
  }
  size_t wname = 2;
  for (const auto& [n, r] : table) wname = std::max(wname, n.size());
  const bool cpu = opts.backend_cpu;
  std::cout << "\n" << std::left << std::setw(static_cast<int>(wname)) << "op" << "  cases  pass  fail  skip"
            << (cpu ? "  cpu pass  cpu fail" : "") << "  seconds\n";
  double total_s = 0;
  for (const auto& [n, r] : table) {
    std::cout << std::left << std::setw(static_cast<int>(wname)) << n << std::right << "  " << std::setw(5) << r.cases << "  "
              << std::setw(4) << r.pass << "  " << std::setw(4) << r.fail << "  " << std::setw(4) << r.skip;
    if (cpu) std::cout << "  " << std::setw(8) << r.cpu_pass << "  " << std::setw(8) << r.cpu_fail;
    std::cout << "  " << std::setw(7) << std::fixed << std::setprecision(2) << r.seconds << "\n";
    total_s += r.seconds;
  }
  const size_t fails = sum.count(oracle::CaseResult::Status::Fail);
  std::cout << table.size() << " ops, " << sum.cases.size() << " cases: " << sum.count(oracle::CaseResult::Status::Pass) << " passed, "
            << fails << " failed, " << sum.count(oracle::CaseResult::Status::Skip) << " skipped (" << std::fixed << std::setprecision(1)
            << total_s << " s)\n";
  const size_t cpu_fails = sum.count_backend(oracle::CaseResult::Status::Fail);
  if (cpu) {
    std::map<std::string, size_t> by_rule;  // passing cases per rule of the verdict
    for (const auto& c : sum.cases)
      if (c.backend == oracle::CaseResult::Status::Pass) ++by_rule[c.backend_rule.substr(0, c.backend_rule.find(':'))];
    std::string rules;
    for (const auto& [r, n] : by_rule) rules += (rules.empty() ? "" : ", ") + std::to_string(n) + " " + r;
    std::cout << "cpu backend: " << sum.count_backend(oracle::CaseResult::Status::Pass) << " cases pass the oracle's verdict"
              << (rules.empty() ? "" : " (" + rules + ")") << ", " << cpu_fails << " failed; artifacts: "
              << sum.artifacts_compiled << " compiled, " << sum.artifacts_loaded << " loaded from the cache\n";
  }
  if (a.no_reference) std::cout << "no reference kernel was run (--no-reference)\n";
  if (!opts.keep_failures.empty()) {
    size_t kept = 0;
    for (const auto& c : sum.cases) kept += !c.kept.empty();
    std::cout << (kept ? std::to_string(kept) + " failing case(s) kept in " + opts.keep_failures + "/<op>/<case>/ (inputs, kernel and "
                                                "reference outputs as .npy, command.sh)"
                       : "no failing case to keep in " + opts.keep_failures)
              << "\n";
  }
  if (!a.json.empty()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& c : sum.cases)
      j.push_back({{"op", c.op}, {"label", c.label}, {"case_id", c.case_id}, {"status", oracle::status_name(c.status)},
                   {"message", c.message}, {"seconds", c.seconds}, {"backend", oracle::status_name(c.backend)},
                   {"backend_message", c.backend_message}, {"backend_rule", c.backend_rule}, {"compiled", c.compiled}, {"repro", c.repro}, {"kept", c.kept}});
    std::ofstream out(a.json);
    if (!out) {
      std::cerr << "kir spec run: cannot write " << a.json << "\n";
      return 1;
    }
    out << j.dump(2) << "\n";
  }
  return fails || cpu_fails ? 1 : 0;
}

}  // namespace

void register_spec_commands(CLI::App& app, int& exit_code) {
  auto* spec = app.add_subcommand("spec", "op-spec manifests: validate, instantiate workloads");
  spec->require_subcommand(1);

  auto paths = std::make_shared<std::vector<std::string>>();
  auto vop = std::make_shared<std::string>();
  auto vjson = std::make_shared<bool>(false);
  auto* v = spec->add_subcommand("validate", "check manifests for every rule (default PATHS: specs)");
  v->add_option("paths", *paths, "manifest files or folders");
  v->add_option("--op", *vop, "check only this op");
  v->add_flag("--json", *vjson, "print one JSON object: counts and every diagnostic with file, line, col, level, op, rule");
  v->callback([paths, vop, vjson, &exit_code] {
    std::vector<std::string> p = paths->empty() ? std::vector<std::string>{"specs"} : *paths;
    specs::ValidateOptions opts;
    opts.only_op = *vop;
    if (*vjson) {
      const specs::ValidateSummary s = specs::validate_summary(p, opts);
      std::cout << validate_json(s).dump(2) << "\n";
      exit_code = s.shown.has_errors() ? 1 : 0;
      return;
    }
    std::string report;
    exit_code = specs::validate_paths(p, opts, report);
    (exit_code ? std::cerr : std::cout) << report;
  });

  auto ia = std::make_shared<InstArgs>();
  auto* i = spec->add_subcommand("instantiate", "turn an op's workload rows into concrete calls (JSON)");
  i->add_option("file", ia->file, "family file (types.yaml is found beside it)")->required();
  i->add_option("--op", ia->op, "op name")->required();
  i->add_option("--row", ia->row, "only the rows with this label");
  i->add_option("--npy", ia->npy_dir, "write every present input's data as .npy files into this folder");
  i->add_flag("--special", ia->special, "inject special values (0, -0, inf, nan, extremes) into float inputs");
  i->add_flag("--force", ia->force, "instantiate even when the op does not validate (with a warning)");
  i->callback([ia, &exit_code] { exit_code = run_instantiate(*ia); });

  auto ra = std::make_shared<RunArgs>();
  auto* r = spec->add_subcommand("run", "run every workload row through the interpreter, checked against the reference kernel");
  r->add_option("paths", ra->paths, "manifest files or folders (default: specs)");
  r->add_option("--op", ra->op, "run only this op");
  r->add_option("--row", ra->row, "run only the rows with this label");
  r->add_option("--case", ra->case_id, "run only the case with this case id (a row's dtype case, e.g. small-float64)");
  r->add_flag("--no-reference", ra->no_reference,
              "run no reference kernel: check the paired kernels against the manifest rules and parity only");
  r->add_option("--keep-failures", ra->keep_failures,
                "per failing case, save inputs, kernel and reference outputs (.npy) and command.sh in DIR/<op>/<case_id>/");
  r->add_option("--json", ra->json, "write a JSON summary of every case to this file");
  r->add_flag("--special", ra->special, "inject special values (0, -0, inf, nan, extremes) into float inputs");
  r->add_option("--backend", ra->backend,
                "interp (default) or cpu: also run every case natively on the CPU backend, judged by the oracle's verdict against "
                "the interpreter");
  r->callback([ra, &exit_code] { exit_code = run_workloads(*ra); });
}

}  // namespace kir::tools
