// `kir run FILE`: run a kernel in the reference interpreter (issue 4 item 4). Inputs come from
// .npy files, literal scalars or a seed (inputs not given are generated from --seed); extents not
// fixed by the inputs come from --dim NAME=N, then the kernel's `invocation {...}`, else 8 (with a
// note). Prints a summary of every Out/InOut view (shape, dtype, min/max, NaN count, undefined
// elements) and writes them as .npy to --output DIR. --trace prints one line per executed op;
// --break-on nan|inf stops at the first op producing one; --dump NAME prints every definition of
// an intermediate value; --envelope prints one envelope-log line (interp/envelope_log.h) per
// reduce/scan/contract execution; --policy parallel=canonical|reverse|shuffle:SEED picks the
// order of the points of every parallel, --policy atomics=interleaved:SEED interleaves their
// atomics under a seeded scheduler, --policy region=whole|element|random:SEED|blocks:B segments every
// region_fold/region_scan, --policy lanes=L[:C] folds every reduce in the CPU backend's lanes
// order, --policy accumulation=canonical|sequential picks how the contract
// family accumulates float results (interp::AccumulationOrder); --check-laws checks the
// seed-section-9 laws of every region_fold/region_scan executed (random segmentations from
// --seed; the two sides compared under the numerics contract, interp/laws.h) and prints the
// report, exit 1 when a law breaks. --max-steps N, --time-limit S and
// --max-depth N bound the run (interp::Options max_steps, time_limit, max_depth): exhausting one
// is a located error, exit 1.
// Surface files are normalized first. Exit: 0 ok, 1 error, 2 usage.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "interp/envelope_log.h"
#include "interp/interpreter.h"
#include "interp/run_options.h"
#include "interp/npy.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"
#include "tools/backend_flags.h"
#include "tools/commands.h"
#include "tools/expect_outputs.h"
#include "tools/json_report.h"
#include "tools/kernel_inputs.h"
#include "kir/load.h"
#include "numerics/format.h"

namespace kir::tools {
namespace {

struct RunArgs {
  std::string path, kernel, output;
  std::vector<std::string> inputs, dims, break_on, policies, dumps, expects;
  uint64_t ulps = 0;
  bool json = false;
  mutable nlohmann::json report;  // with --json: what the run reports, printed once at the end
  uint64_t seed = 0;
  bool trace = false;
  bool envelope = false;
  bool check_laws = false;
  bool progress = false, no_progress = false;  // the progress line: forced / never (default: on a terminal)
  uint64_t max_steps = 0;  // 0: interp::Options' default
  double time_limit = 0;   // seconds; 0: none
  int max_depth = 0;       // 0: interp::Options' default
  std::string backend = "interp";
  bool no_check = false;
  BackendFlags flags;
};

int fail_usage(const std::string& msg) {
  std::cerr << "kir run: " << msg << "\n";
  return 2;
}

// Prints (and with --output writes) the Out/InOut views of a finished run. An Out element the
// kernel never wrote makes the result incomplete: it is reported and the run exits 3 (the .npy,
// when written, holds 0 there and says so). An output holding NaN or inf gets a one-line hint.
int report_outputs(const RunArgs& a, const Function& k, std::map<std::string, interp::KernelArg>& args) {
  if (!a.output.empty()) std::filesystem::create_directories(a.output);
  int incomplete = 0;
  for (const kir::Value* p : k.params()) {
    if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
    const auto& h = std::get<interp::HostView>(args[p->name]);
    interp::Tensor t;
    t.dtype = h.storage->dtype;
    t.shape = h.shape;
    t.bits = h.storage->bits;
    int64_t undefined = 0, first_undefined = -1;
    for (size_t i = 0; i < h.storage->defined.size(); ++i)
      if (h.storage->defined[i] == 0 && undefined++ == 0) first_undefined = static_cast<int64_t>(i);
    if (a.json) {
      a.report["outputs"][p->name] = output_json(h);
    } else {
      std::cout << "%" << p->name << ": " << interp::summarize(interp::Value(t));
      if (undefined) std::cout << " (" << undefined << " elements never written)";
      std::cout << "\n";
    }
    const std::string npy = (std::filesystem::path(a.output) / (p->name + ".npy")).string();
    if (!a.output.empty()) interp::write_npy(npy, t.dtype, t.shape, t.bits);
    if (undefined && p->type.access() == Access::Out) {
      ++incomplete;
      std::cerr << p->loc.str() << ": error: the kernel never wrote " << undefined << " of " << t.bits.size()
                << " elements of Out view %" << p->name << " (the first at "
                << interp::coord_str(interp::unravel(first_undefined, t.shape)) << "); the result is incomplete"
                << (a.output.empty() ? "" : " and " + npy + " holds 0 there") << "\n";
    }
    if (is_any_float(t.dtype))
      for (size_t i = 0; i < t.bits.size(); ++i) {
        const auto c = num::classify(t.bits[i], t.dtype);
        if (c != num::FpClass::NaN && c != num::FpClass::Infinite) continue;
        std::cerr << "kir run: %" << p->name << " holds " << (c == num::FpClass::NaN ? "nan" : "inf") << " (first at "
                  << interp::coord_str(interp::unravel(static_cast<int64_t>(i), t.shape)) << "); try --break-on "
                  << (c == num::FpClass::NaN ? "nan" : "inf") << " to stop where it is produced\n";
        break;
      }
  }
  if (a.json) a.report["status"] = incomplete ? 3 : 0;
  return incomplete ? 3 : 0;
}

// --backend cpu: the kernel runs natively; unless --no-check, the oracle's verdict judges it
// (oracle/verdict.h): the interpreter runs the same inputs under the backend's declared evaluation
// order, and every output must be bit-exact or another legal result (reassociation envelope,
// atomic interleaving), a run-time error the interpreter's fault (error agreement). The line
// `check: pass (RULE)` or `check: FAIL (RULE) ...` names the rule that decided.
int run_backend(const RunArgs& a, const Module& m, const Function& k, std::map<std::string, interp::KernelArg>& args) {
  if (a.trace || a.envelope || a.check_laws || !a.break_on.empty() || !a.dumps.empty() || !a.policies.empty() ||
      a.max_steps || a.time_limit > 0 || a.max_depth)
    return fail_usage("--trace, --envelope, --check-laws, --break-on, --dump, --policy, --max-steps, --time-limit and "
                      "--max-depth apply to the interpreter, not to --backend cpu");
  cpu::CompileOptions opt;
  if (std::string e = apply_backend_flags(a.flags, opt); !e.empty()) {
    std::cerr << e << "\n";
    return 1;
  }
  if (a.no_check) {
    oracle::run_on_backend(m, k.name, args, opt);
    const int status = report_outputs(a, k, args);
    const int expect = check_expectations(a.expects, a.ulps, k, args, std::cerr);
    return expect ? expect : status;
  }
  std::map<std::string, interp::KernelArg> out;
  auto d = oracle::run_differential(m, k.name, args, &out, opt);
  const oracle::Verdict& v = d.verdict;
  if (a.json)
    a.report["check"] = {{"outcome", oracle::outcome_name(v.outcome)}, {"rule", v.rule}, {"rule_detail", v.rule_detail},
                         {"summary", v.summary()}};
  const bool compile_error = !d.backend_error.empty() && v.backend_fault.empty();
  if (compile_error) {
    std::cerr << d.backend_error << "\n";
    return 1;
  }
  if (!d.backend_error.empty() || !d.interp_error.empty()) {
    if (!d.backend_error.empty()) std::cerr << d.backend_error << "\n";
    if (d.interp_error.empty()) std::cerr << "kir run: the interpreter ran these inputs without error\n";
    if (d.backend_error.empty())
      std::cerr << "kir run: the native run finished, but the interpreter reports an error the backend did not:\n"
                << d.interp_error << "\n";
    if (v.failed()) std::cerr << d.str();
    else if (!a.json) std::cout << d.str();
    return 1;
  }
  const int status = report_outputs(a, k, out);
  if (!d.ok()) {
    std::cerr << "kir run: the CPU backend disagrees with the interpreter:\n" << d.str();
    return 1;
  }
  if (a.json) a.report["config_row"] = d.config_row;
  else std::cout << d.str() << "cpu: built from config row " << d.config_row << "\n";
  const int expect = check_expectations(a.expects, a.ulps, k, out, std::cerr);
  return expect ? expect : status;
}

int run_text_or_json(const RunArgs& a);

// With --json, stdout holds one JSON object: the file, kernel and backend, then the outputs and
// status of a finished run, or the diagnostics of a file that does not load, or the run-time error.
int run(const RunArgs& a) {
  if (!a.json) return run_text_or_json(a);
  if (a.trace || a.envelope || !a.dumps.empty() || a.check_laws)
    return fail_usage("--json prints one JSON object; --trace, --envelope, --dump and --check-laws print text");
  a.report = {{"file", a.path}, {"backend", a.backend}};
  const int code = run_text_or_json(a);
  if (!a.report.contains("status")) a.report["status"] = code;
  if (code != 2) std::cout << a.report.dump(2) << "\n";
  return code;
}

int run_text_or_json(const RunArgs& a) {
  Diagnostics diags;
  std::string source;
  auto m = load_canonical(a.path, diags, source);
  if (!m) {
    if (a.json) a.report["diagnostics"] = diagnostics_json(diags);
    std::cerr << diags.render(source);
    return 1;
  }
  std::string err;
  const Function* k = choose_kernel(*m, a.kernel, a.path, err);
  if (!k) return fail_usage(err);
  if (a.json) a.report["kernel"] = k->name;
  InputSpec spec;
  if (std::string e = parse_input_spec(a.inputs, a.dims, a.seed, spec); !e.empty()) return fail_usage(e);
  std::map<std::string, interp::KernelArg> args;
  try {
    err = make_kernel_args(*k, spec, args, std::cerr);
    if (!err.empty()) return fail_usage(err);
    if (a.backend == "cpu") return run_backend(a, *m, *k, args);
    if (a.backend != "interp") return fail_usage("--backend takes interp or cpu, got '" + a.backend + "'");
    interp::Options opts;
    if (a.trace) opts.trace = &std::cout;
    interp::EnvelopeLog envelopes;
    if (a.envelope) opts.envelopes = &envelopes;
    for (const auto& b : a.break_on)
      if (auto e = interp::apply_break_on(b, opts); !e.empty()) return fail_usage("--break-on " + e);
    for (const auto& p : a.policies)
      if (auto e = interp::apply_policy(p, opts); !e.empty()) return fail_usage("--" + e);
    for (const auto& d : a.dumps)
      if (auto e = interp::apply_dump(d, *m, a.path, opts); !e.empty()) return fail_usage("--dump: " + e);
    opts.dump_out = &std::cout;
    opts.check_laws = a.check_laws;
    opts.law_seed = a.seed;
    if (a.max_steps) opts.max_steps = a.max_steps;
    opts.time_limit = a.time_limit;
    if (a.max_depth) opts.max_depth = a.max_depth;
    const bool progress = a.progress || (!a.no_progress && isatty(STDERR_FILENO));
    if (progress) opts.progress = &std::cerr;
    interp::Interpreter it(*m, opts);
    struct EndLine {  // clears the progress line however the run ends
      bool on;
      ~EndLine() {
        if (on) std::cerr << "\r\033[K" << std::flush;
      }
    } end_line{progress};
    it.run_kernel(k->name, args);
    for (size_t i = 0; i < envelopes.records.size(); ++i) std::cout << "envelope: " << envelopes.line(i) << "\n";
    const int status = report_outputs(a, *k, args);
    if (const int expect = check_expectations(a.expects, a.ulps, *k, args, std::cerr)) return expect;
    if (a.check_laws) {
      if (it.law_report().ok()) std::cout << "laws: " << it.law_report().str() << "\n";
      else std::cerr << it.law_report().str();
      if (!it.law_report().ok()) return 1;
    }
    return status;
  } catch (const interp::RuntimeError& e) {
    if (a.json) a.report["error"] = runtime_error_json(e);
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "kir run: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void register_run_command(CLI::App& app, int& exit_code) {
  static RunArgs args;
  auto* run_cmd = app.add_subcommand("run", "Run a kernel in the exact reference interpreter");
  run_cmd->add_option("FILE", args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  run_cmd->add_option("--kernel", args.kernel, "Kernel to run (default: the only kernel)");
  run_cmd->add_option("--input", args.inputs, "name=file.npy | name=random:SEED | name=VALUE (scalars, enum members)");
  run_cmd->add_option("--dim", args.dims, "NAME=N for extents the inputs do not fix (default 8)");
  run_cmd->add_option("--output", args.output, "Directory for the Out/InOut views as .npy");
  run_cmd->add_option("--expect", args.expects,
                      "NAME=FILE.npy: compare output %NAME with FILE (exit 1 on a difference; the worst elements are "
                      "printed)");
  run_cmd->add_flag("--json", args.json,
                    "Print one JSON object (outputs with dtype, shape, never-written and non-finite counts; or the "
                    "diagnostics; or the run-time error with its kind, op, location, coordinates and loops)");
  run_cmd->add_option("--ulps", args.ulps, "With --expect: float elements may differ by N ulps (default 0: bit for bit)");
  run_cmd->add_option("--seed", args.seed, "Seed of generated inputs (default 0)");
  run_cmd->add_flag("--trace", args.trace, "Print one line per executed op");
  run_cmd->add_flag("--envelope", args.envelope, "Print per reduce/scan/contract execution its uniqueness kind and reassociation envelope");
  run_cmd->add_option("--break-on", args.break_on, "Stop at the first op producing nan or inf");
  run_cmd->add_option("--dump", args.dumps, "Print every definition of value %NAME with all its elements (repeatable)");
  run_cmd->add_option("--policy", args.policies,
                      "parallel=canonical|reverse|shuffle:SEED (order of parallel points); atomics=sequential|interleaved:SEED; "
                      "region=whole|element|random:SEED|blocks:B (segmentation of region_fold/region_scan); "
                      "accumulation=canonical|sequential|sequential-fused|sequential-fused-pairs (float contract sums: "
                      "exact then rounded once, or term by term in reduce order, rounding each product, with one fma "
                      "per term, or fma per term in pairs of reduce points, the second first); lanes=L[:C] (every reduce in L lanes and blocks of C points, "
                      "the CPU backend's reduce.lanes order); scan=blocks:C (every scan in blocks of C points, the CPU "
                      "backend's scan.blocks order)");
  run_cmd->add_option("--backend", args.backend,
                      "interp (the exact interpreter, default) or cpu (native code from the CPU backend, judged "
                      "against the interpreter by the oracle's verdict: bit-exact, reassociation envelope, atomic "
                      "interleaving, error agreement)");
  run_cmd->add_flag("--no-check", args.no_check, "With --backend cpu: skip the verdict (no interpreter run)");
  run_cmd->add_option("--max-steps", args.max_steps,
                      "Step budget (default 2000000000): a step is one executed op, one region entered or one element "
                      "of work (an element produced or stored, a multiply-add of a contract)")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--time-limit", args.time_limit, "Stop the run after S seconds (a float; default: no limit)")
      ->check(CLI::PositiveNumber);
  run_cmd->add_flag("--progress", args.progress,
                    "Show a progress line on stderr for runs over a second (default: only when stderr is a terminal)");
  run_cmd->add_flag("--no-progress", args.no_progress, "Never show the progress line");
  run_cmd->add_option("--max-depth", args.max_depth,
                      "Limit on helper calls and nested regions executing at once (default 1000)")
      ->check(CLI::PositiveNumber);
  run_cmd->add_flag("--check-laws", args.check_laws,
                    "Check the laws of every region_fold/region_scan under several segmentations, float results "
                    "compared within their rounding enclosures (exit 1 when one breaks)");
  add_backend_flags(run_cmd, args.flags);
  run_cmd->callback([&exit_code] { exit_code = run(args); });
}

}  // namespace kir::tools
