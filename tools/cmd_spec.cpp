// `kir spec validate [PATHS] [--op NAME]` and `kir spec instantiate FILE --op NAME [--row LABEL]`:
// check op-spec manifests (messages `file:line:col: [level] Op: text`, sorted) and turn their
// workload rows into concrete calls printed as JSON, optionally with input data as .npy files;
// `kir spec run [PATHS] [--op] [--row] [--json FILE]` runs them (oracle/spec_run.h).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "oracle/spec_run.h"

#include "specs/src/datagen.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

nlohmann::json to_json(const specs::Value& v) {
  using T = specs::Value::T;
  switch (v.t) {
    case T::None: return nullptr;
    case T::Bool: return v.b;
    case T::Int:
      if (specs::fits_i64(v.i)) return static_cast<int64_t>(v.i.get_si());
      return v.i.get_str();
    case T::Float: return v.f;
    case T::Str: return v.s;
    case T::Seq: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& x : v.seq) a.push_back(to_json(x));
      return a;
    }
    case T::Adt: {
      nlohmann::json f = nlohmann::json::object();
      for (const auto& [k, x] : v.adt->fields) f[k] = to_json(x);
      return {{"kind", v.adt->ctor}, {"fields", f}};
    }
  }
  return nullptr;
}

nlohmann::json call_json(const specs::Call& c) {
  nlohmann::json j;
  j["case_id"] = c.case_id;
  j["label"] = c.label;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : c.params) params[k] = to_json(v);
  j["params"] = params;
  nlohmann::json ts = nlohmann::json::array();
  for (const auto& t : c.tensors) {
    nlohmann::json tj;
    tj["name"] = t.name;
    tj["role"] = t.role == specs::Role::Input ? "input" : t.role == specs::Role::Output ? "output" : "ctor";
    tj["present"] = t.present;
    if (t.present) {
      nlohmann::json shape = nlohmann::json::array();
      for (const auto& d : t.shape) shape.push_back(specs::fits_i64(d) ? nlohmann::json(static_cast<int64_t>(d.get_si())) : nlohmann::json(d.get_str()));
      tj["shape"] = shape;
      tj["dtype"] = t.dtype;
      if (t.values) tj["values"] = to_json(*t.values);
      if (t.cpu) tj["device"] = "cpu";
    }
    ts.push_back(tj);
  }
  j["tensors"] = ts;
  nlohmann::json ix = nlohmann::json::object();
  for (const auto& [k, v] : c.ix) ix[k] = to_json(v);
  j["ix"] = ix;
  if (c.flops) j["roofline"]["flops"] = to_json(*c.flops);
  if (c.bytes) j["roofline"]["bytes"] = to_json(*c.bytes);
  return j;
}

struct InstArgs {
  std::string file, op, row, npy_dir;
  bool special = false;
};

int run_instantiate(const InstArgs& a) {
  specs::Manifest m;
  specs::SpecDiags d;
  specs::load_paths({a.file}, m, d);
  const specs::OpSpec* op = m.op(a.op);
  if (!op) {
    std::cerr << d.render() << a.file << ": no op named '" << a.op << "'\n";
    return 1;
  }
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
    auto j = call_json(c);
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

struct RunArgs {
  std::vector<std::string> paths;
  std::string op, row, json, backend = "interp";
  bool special = false;
};

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
      if (bad) std::cout << "FAIL " << what << ": " << c.message << (c.message.empty() ? "" : " ") << c.backend_message << "\n";
      return;
    }
    std::cout << std::left << std::setw(5) << oracle::status_name(c.status);
    if (c.backend != oracle::CaseResult::Status::Skip) std::cout << " cpu:" << std::setw(5) << oracle::status_name(c.backend);
    std::cout << " " << what << " " << std::fixed << std::setprecision(3) << c.seconds << " s";
    if (!c.message.empty()) std::cout << ": " << c.message;
    if (!c.backend_message.empty()) std::cout << (c.message.empty() ? ": " : "; ") << "cpu: " << c.backend_message;
    std::cout << "\n";
  };
  std::vector<std::string> paths = a.paths.empty() ? std::vector<std::string>{"specs"} : a.paths;
  oracle::SpecRunSummary sum = oracle::run_spec_workloads(paths, opts);
  if (!sum.diagnostics.empty()) (sum.manifest_errors ? std::cerr : std::cout) << sum.diagnostics;
  if (sum.manifest_errors) {
    std::cerr << "kir spec run: the manifests have errors; nothing was run\n";
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
  if (cpu)
    std::cout << "cpu backend: " << sum.count_backend(oracle::CaseResult::Status::Pass) << " cases bit-identical to the interpreter, "
              << cpu_fails << " failed; artifacts: " << sum.artifacts_compiled << " compiled, " << sum.artifacts_loaded
              << " loaded from the cache\n";
  if (!a.json.empty()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& c : sum.cases)
      j.push_back({{"op", c.op}, {"label", c.label}, {"case_id", c.case_id}, {"status", oracle::status_name(c.status)},
                   {"message", c.message}, {"seconds", c.seconds}, {"backend", oracle::status_name(c.backend)},
                   {"backend_message", c.backend_message}, {"compiled", c.compiled}});
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
  auto* v = spec->add_subcommand("validate", "check manifests for every rule (default PATHS: specs)");
  v->add_option("paths", *paths, "manifest files or folders");
  v->add_option("--op", *vop, "check only this op");
  v->callback([paths, vop, &exit_code] {
    std::vector<std::string> p = paths->empty() ? std::vector<std::string>{"specs"} : *paths;
    specs::ValidateOptions opts;
    opts.only_op = *vop;
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
  i->callback([ia, &exit_code] { exit_code = run_instantiate(*ia); });

  auto ra = std::make_shared<RunArgs>();
  auto* r = spec->add_subcommand("run", "run every workload row through the interpreter, checked against the reference kernel");
  r->add_option("paths", ra->paths, "manifest files or folders (default: specs)");
  r->add_option("--op", ra->op, "run only this op");
  r->add_option("--row", ra->row, "run only the rows with this label");
  r->add_option("--json", ra->json, "write a JSON summary of every case to this file");
  r->add_flag("--special", ra->special, "inject special values (0, -0, inf, nan, extremes) into float inputs");
  r->add_option("--backend", ra->backend,
                "interp (default) or cpu: also run every case natively on the CPU backend, checked bit for bit against "
                "the interpreter");
  r->callback([ra, &exit_code] { exit_code = run_workloads(*ra); });
}

}  // namespace kir::tools
