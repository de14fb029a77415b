// intent._kir.run: `kir run` as a function (tools/cmd_run.cpp) — the interpreter with its
// policies, trace, break-on and limits, or the CPU backend judged against the interpreter by the
// oracle's verdict (oracle/verdict.h). The GIL is released while the kernel runs or compiles.
#include <pybind11/stl.h>

#include <optional>
#include <sstream>

#include "args.h"
#include "backends/cpu/provider/winner_cache.h"
#include "bind_ir.h"
#include "interp/interpreter.h"
#include "interp/run_options.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"

namespace kir::py_kir {

namespace {

// The result of run(): every Out/InOut view as a NumPy array, and what the run printed.
struct RunResult {
  py::dict outputs;    // name -> NumPy array (carrier dtypes: bf16 as uint16, e4m3 as uint8, ...)
  py::dict dtypes;     // name -> kir dtype of each output
  py::dict undefined;  // name -> elements never written
  py::dict dims;       // extent symbol -> N
  py::list trace;      // --trace lines
  py::list dump;       // --dump lines
  py::list notes;      // defaulted extents
  std::string backend = "interp";
  std::string check;       // cpu with check: the verdict's line, "pass (bit-exact): N elements bit-identical ..."
  std::string rule;        // cpu with check: the rule that decided ("bit-exact", "atomic interleaving", ...)
  std::string config_row;  // cpu: the config row the kernel was built from
  bool compiled = false;   // cpu: the artifact was compiled now (not loaded from the cache)
  uint64_t steps = 0;      // interp: steps executed
};

py::list lines_of(const std::string& s) {
  py::list out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.append(line);
  return out;
}

RunResult run_interp(const PyModule& pm, const Function& k, BoundArgs& b, const std::vector<std::string>& policy, bool trace,
                     const std::vector<std::string>& break_on, std::optional<uint64_t> max_steps,
                     std::optional<double> time_limit, std::optional<int> max_depth, const std::vector<std::string>& dump) {
  interp::Options opts;
  std::ostringstream trace_out, dump_out;
  if (trace) opts.trace = &trace_out;
  for (const auto& x : break_on)
    if (auto e = interp::apply_break_on(x, opts); !e.empty()) throw KirFailure("break_on " + e);
  for (const auto& p : policy)
    if (auto e = interp::apply_policy(p, opts); !e.empty()) throw KirFailure(e);
  for (const auto& d : dump)
    if (auto e = interp::apply_dump(d, *pm.module, pm.file, opts); !e.empty()) throw KirFailure("dump: " + e);
  opts.dump_out = &dump_out;
  if (max_steps) {
    if (*max_steps == 0) throw KirFailure("max_steps must be positive");
    opts.max_steps = *max_steps;
  }
  if (time_limit) {
    if (!(*time_limit > 0)) throw KirFailure("time_limit must be positive (seconds)");
    opts.time_limit = *time_limit;
  }
  if (max_depth) {
    if (*max_depth <= 0) throw KirFailure("max_depth must be positive");
    opts.max_depth = *max_depth;
  }
  RunResult r;
  try {
    py::gil_scoped_release release;
    interp::Interpreter it(*pm.module, opts);
    it.run_kernel(k.name, b.args);
    r.steps = it.steps();
  } catch (const interp::RuntimeError& e) {
    KirFailure f = failure_from(e);
    std::istringstream in(trace_out.str());
    for (std::string line; std::getline(in, line);) f.trace.push_back(line);
    throw f;
  }
  r.trace = lines_of(trace_out.str());
  r.dump = lines_of(dump_out.str());
  r.outputs = outputs_of(k, b.args, &r.undefined, &r.dtypes);
  return r;
}

// --backend cpu (run_backend in tools/cmd_run.cpp).
RunResult run_cpu(const PyModule& pm, const Function& k, BoundArgs& b, bool check) {
  cpu::CompileOptions opt;
  opt.winners = &cpu::default_winner_cache();  // as `kir run` without --no-winner
  RunResult r;
  r.backend = "cpu";
  if (!check) {
    oracle::BackendRunResult br;
    {
      py::gil_scoped_release release;
      br = oracle::run_on_backend(*pm.module, k.name, b.args, opt);
    }
    r.compiled = br.compiled;
    r.outputs = outputs_of(k, b.args, &r.undefined, &r.dtypes);
    return r;
  }
  std::map<std::string, interp::KernelArg> out;
  oracle::Differential d;
  {
    py::gil_scoped_release release;
    d = oracle::run_differential(*pm.module, k.name, b.args, &out, opt);
  }
  const bool compile_error = !d.backend_error.empty() && d.verdict.backend_fault.empty();
  if (compile_error) throw KirFailure(d.backend_error, diags_in_text(d.backend_error));
  if (!d.backend_error.empty()) {
    std::string text = d.backend_error;
    if (d.interp_error.empty()) text += "\nkir run: the interpreter ran these inputs without error";
    text += "\n" + d.str();  // the error agreement verdict
    while (text.back() == '\n') text.pop_back();
    throw KirFailure(text, diags_in_text(d.backend_error));
  }
  if (!d.interp_error.empty())
    throw KirFailure("kir run: the native run finished, but the interpreter reports an error the backend did not:\n" +
                         d.interp_error + "\n" + d.str(),
                     diags_in_text(d.interp_error));
  if (!d.ok()) throw KirFailure("kir run: the CPU backend disagrees with the interpreter:\n" + d.str());
  r.check = d.verdict.summary();
  r.rule = d.verdict.rule;
  r.config_row = d.config_row;
  r.compiled = d.compiled;
  r.outputs = outputs_of(k, out, &r.undefined, &r.dtypes);
  return r;
}

RunResult run(const PyModule& pm, py::handle kernel, py::handle args, py::handle backend_obj, py::handle dims,
              py::handle policy_obj, py::handle trace_obj, py::handle break_on_obj, py::handle max_steps_obj,
              py::handle check_obj, py::handle seed_obj, py::handle time_limit_obj, py::handle max_depth_obj,
              py::handle dump_obj) {
  const Function& k = pm.choose(opt_str(kernel, "kernel").value_or(""));
  const std::string backend = opt_str(backend_obj, "backend").value_or("interp");
  if (backend != "interp" && backend != "cpu") throw KirFailure("backend takes \"interp\" or \"cpu\", got '" + backend + "'");
  const std::vector<std::string> policy = str_list(policy_obj, "policy"), break_on = str_list(break_on_obj, "break_on"),
                                 dump = str_list(dump_obj, "dump");
  const bool trace = py::bool_(py::reinterpret_borrow<py::object>(trace_obj)), check = py::bool_(py::reinterpret_borrow<py::object>(check_obj));
  const std::optional<int64_t> steps = opt_int(max_steps_obj, "max_steps"), depth = opt_int(max_depth_obj, "max_depth");
  if (steps && *steps <= 0) throw KirFailure("max_steps must be positive");
  if (depth && (*depth <= 0 || *depth > 1000000)) throw KirFailure("max_depth must be in [1, 1000000]");
  const std::optional<double> time_limit = opt_float(time_limit_obj, "time_limit");
  const uint64_t seed = u64_arg(seed_obj, "seed");
  BoundArgs b = bind_args(pm, k, args, dims, seed);
  RunResult r;
  if (backend == "cpu") {
    if (trace || !break_on.empty() || !policy.empty() || steps || time_limit || depth || !dump.empty())
      throw KirFailure("trace, break_on, policy, max_steps, time_limit, max_depth and dump apply to the interpreter, "
                       "not to backend=\"cpu\"");
    r = run_cpu(pm, k, b, check);
  } else {
    r = run_interp(pm, k, b, policy, trace, break_on,
                   steps ? std::optional<uint64_t>(static_cast<uint64_t>(*steps)) : std::nullopt, time_limit,
                   depth ? std::optional<int>(static_cast<int>(*depth)) : std::nullopt, dump);
  }
  for (const auto& n : b.notes) r.notes.append(n);
  r.dims = dims_of(k, b.args);
  return r;
}

}  // namespace

void bind_run(py::module_& m) {
  py::class_<RunResult>(m, "RunResult", R"doc(
What run() returns.

outputs: dict name -> NumPy array for every Out/InOut view (small formats as their carriers:
bf16 uint16, e4m3/e5m2/e2m1/e8m0 uint8; intent.run wraps those in intent Array);
dtypes: name -> kir dtype; undefined: name -> elements the kernel never wrote; dims: the extents;
trace / dump: printed lines; notes: defaulted extents; backend; steps (interp); check (the
verdict's line, e.g. "pass (bit-exact): 64 elements bit-identical to the interpreter"), rule (the
rule that decided), config_row, compiled (cpu).
)doc")
      .def_readonly("outputs", &RunResult::outputs)
      .def_readonly("dtypes", &RunResult::dtypes)
      .def_readonly("undefined", &RunResult::undefined)
      .def_readonly("dims", &RunResult::dims)
      .def_readonly("trace", &RunResult::trace)
      .def_readonly("dump", &RunResult::dump)
      .def_readonly("notes", &RunResult::notes)
      .def_readonly("backend", &RunResult::backend)
      .def_readonly("check", &RunResult::check)
      .def_readonly("rule", &RunResult::rule)
      .def_readonly("config_row", &RunResult::config_row)
      .def_readonly("compiled", &RunResult::compiled)
      .def_readonly("steps", &RunResult::steps)
      .def("__repr__", [](const RunResult& r) {
        std::string names;
        for (auto [k, v] : r.outputs) names += (names.empty() ? "" : ", ") + py::str(k).cast<std::string>();
        return "<RunResult backend=" + r.backend + " outputs=[" + names + "]>";
      });

  m.def(
      "run",
      [](py::object module, py::object kernel, py::object args, py::object backend, py::object dims, py::object policy,
         py::object trace, py::object break_on, py::object max_steps, py::object check, py::object seed,
         py::object time_limit, py::object max_depth, py::object dump) {
        return guarded([&] {
          auto pm = module_arg(module);
          return run(*pm, kernel, args, backend, dims, policy, trace, break_on, max_steps, check, seed, time_limit,
                     max_depth, dump);
        });
      },
      py::arg("module"), py::arg("kernel") = py::none(), py::arg("args") = py::dict(), py::kw_only(),
      py::arg("backend") = "interp", py::arg("dims") = py::none(), py::arg("policy") = py::none(), py::arg("trace") = false,
      py::arg("break_on") = py::none(), py::arg("max_steps") = py::none(), py::arg("check") = true, py::arg("seed") = 0,
      py::arg("time_limit") = py::none(), py::arg("max_depth") = py::none(), py::arg("dump") = py::none(),
      R"doc(Run `kernel` of `module` as `kir run` does.

args: dict parameter name -> value: NumPy arrays for views (bool, int8..uint64, float16/32/64;
index as int64; bf16 and e4m3/e5m2/e2m1/e8m0 as intent Array or their uint16/uint8 bit patterns),
numbers (or str: a decimal or 0x bit pattern) for runtime scalars and constexprs, a member name
or value for constexpr enums. Parameters not given are bound like kir run's: extents from the
given views, then `dims`, then the kernel's default invocation, else 8 (a note); input views not
given are generated from `seed`. Views are copied: the arrays passed in are never modified.
backend="interp" (the exact interpreter: policy, trace, break_on, max_steps, time_limit,
max_depth, dump) or "cpu" (native code; check=True judges it with the oracle's verdict: the
interpreter runs under the backend's declared order and every output must be bit-exact or another
legal result — reassociation envelope, atomic interleaving — and an error the interpreter's fault).
Raises KirError on any failure (binding, run-time errors with their op and location, backend).)doc");
}

}  // namespace kir::py_kir
