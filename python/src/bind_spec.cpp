// intent._kir's op-spec manifest functions (intent.spec wraps them): `kir spec validate`,
// `kir spec instantiate` and `kir spec run` (tools/cmd_spec.cpp) as functions returning Python data.
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "common.h"
#include "oracle/spec_run.h"
#include "specs/src/call_json.h"
#include "specs/src/datagen.h"
#include "specs/src/dtypes.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"

namespace kir::py_kir {

namespace {

std::vector<std::string> paths_arg(py::handle p) {
  std::vector<std::string> out;
  auto one = [&](py::handle x) { out.push_back(py::str(py::module_::import("os").attr("fspath")(x)).cast<std::string>()); };
  if (py::isinstance<py::str>(p) || py::hasattr(p, "__fspath__")) one(p);
  else
    for (auto x : p) one(x);
  if (out.empty()) throw KirFailure("no manifest paths given");
  return out;
}

py::dict spec_diag(const specs::SpecDiag& d) {
  py::dict x;
  x["file"] = d.loc.file;
  x["line"] = d.loc.line;
  x["col"] = d.loc.col;
  x["level"] = specs::level_name(d.level);
  x["severity"] = d.level == specs::Level::Warning ? "warning" : "error";
  x["op"] = d.op;
  x["rule"] = d.check();  // the check ID closing the message ("... [C27]")
  x["message"] = d.text;
  x["text"] = d.str();
  return x;
}

py::list diag_list(const specs::SpecDiags& d) {
  py::list out;
  for (const auto& x : d.sorted()) out.append(spec_diag(x));
  return out;
}

// Never raises for problems in the manifests: every one is an entry of the result.
py::list validate(py::handle paths_obj, const std::optional<std::string>& op) {
  std::vector<std::string> paths;
  try {
    paths = paths_arg(paths_obj);
  } catch (const std::exception& e) {
    py::list out;
    py::dict x;
    x["file"] = "";
    x["line"] = 0;
    x["col"] = 0;
    x["level"] = "loader";
    x["severity"] = "error";
    x["op"] = "";
    x["rule"] = "";
    x["message"] = std::string("bad paths argument: ") + e.what();
    x["text"] = x["message"];
    out.append(x);
    return out;
  }
  specs::SpecDiags d;
  try {
    py::gil_scoped_release release;
    specs::Manifest m;
    specs::load_paths(paths, m, d);
    specs::ValidateOptions opts;
    if (op) {
      opts.only_op = *op;
      d = specs::validate_op(m, d, *op, opts);
    } else {
      specs::validate(m, d, opts);
    }
  } catch (const std::exception& e) {
    d.add(specs::Loc{paths[0], 0, 0}, specs::Level::Loader, "", std::string("validation stopped: ") + e.what());
  }
  return diag_list(d);
}

py::array tensor_data_array(const specs::TensorData& t) {
  py::module_ np = py::module_::import("numpy");
  py::bytes raw(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size());
  py::object a = np.attr("frombuffer")(raw, np.attr("dtype")(t.npy_descr));
  std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end());
  py::tuple sh = py::cast(shape);
  return a.attr("reshape")(sh).attr("copy")();
}

py::list instantiate(py::handle paths_obj, const std::optional<std::string>& op_name, const std::optional<std::string>& row,
                     bool force, bool special, std::optional<uint32_t> seed) {
  const std::vector<std::string> paths = paths_arg(paths_obj);
  specs::Manifest m;
  specs::SpecDiags loaded;
  {
    py::gil_scoped_release release;
    specs::load_paths(paths, m, loaded);
  }
  if (m.ops.empty()) throw KirFailure(loaded.render() + "no ops in " + paths[0]);
  std::vector<const specs::OpSpec*> ops;
  if (op_name) {
    const specs::OpSpec* op = m.op(*op_name);
    if (!op) throw KirFailure(loaded.render() + paths[0] + ": no op named '" + *op_name + "'");
    ops.push_back(op);
  } else {
    for (const auto& o : m.ops) ops.push_back(&o);
  }
  py::list out;
  for (const specs::OpSpec* op : ops) {
    // The validation gate of `kir spec instantiate`: an op that does not validate is refused.
    specs::SpecDiags vd;
    {
      py::gil_scoped_release release;
      vd = specs::validate_op(m, loaded, op->name);
    }
    std::string invalid;
    if (vd.has_errors()) {
      for (const auto& x : vd.sorted())
        if (x.level != specs::Level::Warning) {
          invalid = x.str();
          break;
        }
      if (!force) {
        std::string text = vd.render();
        text += "op '" + op->name + "' does not validate (" + std::to_string(vd.error_count()) +
                " error(s)); refusing to instantiate an invalid manifest (force=True proceeds anyway)";
        std::vector<DiagInfo> diags;
        for (const auto& x : vd.sorted()) {
          DiagInfo di;
          di.file = x.loc.file;
          di.line = x.loc.line;
          di.col = x.loc.col;
          di.severity = x.level == specs::Level::Warning ? "warning" : "error";
          di.message = x.text;
          di.rule = x.check();
          diags.push_back(di);
        }
        throw KirFailure(text, diags);
      }
    }
    specs::InstantiateOptions iopts;
    if (row) iopts.only_label = *row;
    specs::SpecDiags rd;
    std::vector<specs::Call> calls;
    {
      py::gil_scoped_release release;
      calls = specs::instantiate_op(*op, m, rd, iopts);
    }
    if (rd.has_errors()) throw KirFailure(rd.render());
    for (const auto& c : calls) {
      py::dict e;
      e["op"] = c.op;
      e["row"] = c.label;
      e["case_id"] = c.case_id;
      py::object j = json_to_python(specs::call_json(c).dump());
      e["params"] = j["params"];
      e["call"] = j;
      specs::DataOptions dopt;
      dopt.inject_special = special;
      if (seed) dopt.seed = *seed;
      std::vector<specs::TensorData> data;
      {
        py::gil_scoped_release release;
        data = specs::generate_inputs(*op, c, dopt);
      }
      py::dict inputs, dtypes, kir_dtypes;
      for (const auto& t : data) {
        inputs[py::str(t.name)] = tensor_data_array(t);
        dtypes[py::str(t.name)] = t.dtype;
        kir_dtypes[py::str(t.name)] = specs::kir_dtype_name(t.dtype);  // "" when kir has none
      }
      e["inputs"] = inputs;
      e["dtypes"] = dtypes;
      e["kir_dtypes"] = kir_dtypes;
      if (!invalid.empty()) e["invalid_manifest"] = invalid;
      out.append(e);
    }
  }
  return out;
}

py::dict spec_run(py::handle paths_obj, const std::string& backend, const std::optional<std::string>& op,
                  const std::optional<std::string>& row, bool special) {
  const std::vector<std::string> paths = paths_arg(paths_obj);
  if (backend != "interp" && backend != "cpu") throw KirFailure("backend takes \"interp\" or \"cpu\", got '" + backend + "'");
  oracle::SpecRunOptions opts;
  if (op) opts.only_op = *op;
  if (row) opts.only_row = *row;
  opts.inject_special = special;
  opts.backend_cpu = backend == "cpu";
  oracle::SpecRunSummary sum;
  {
    py::gil_scoped_release release;
    sum = oracle::run_spec_workloads(paths, opts);
  }
  py::dict r;
  py::list cases;
  for (const auto& c : sum.cases) {
    py::dict x;
    x["op"] = c.op;
    x["label"] = c.label;
    x["case_id"] = c.case_id;
    x["status"] = std::string(oracle::status_name(c.status));
    x["message"] = c.message;
    x["seconds"] = c.seconds;
    x["backend"] = std::string(oracle::status_name(c.backend));
    x["backend_message"] = c.backend_message;
    x["compiled"] = c.compiled;
    cases.append(x);
  }
  r["cases"] = cases;
  r["passed"] = sum.count(oracle::CaseResult::Status::Pass);
  r["failed"] = sum.count(oracle::CaseResult::Status::Fail);
  r["skipped"] = sum.count(oracle::CaseResult::Status::Skip);
  r["backend"] = backend;
  r["backend_passed"] = sum.count_backend(oracle::CaseResult::Status::Pass);
  r["backend_failed"] = sum.count_backend(oracle::CaseResult::Status::Fail);
  r["artifacts_compiled"] = sum.artifacts_compiled;
  r["artifacts_loaded"] = sum.artifacts_loaded;
  r["diagnostics"] = sum.diagnostics;
  r["manifest_errors"] = sum.manifest_errors;
  r["ok"] = !sum.manifest_errors && sum.count(oracle::CaseResult::Status::Fail) == 0 &&
            sum.count_backend(oracle::CaseResult::Status::Fail) == 0;
  return r;
}

}  // namespace

void bind_spec(py::module_& m) {
  m.def(
      "spec_validate",
      [](py::object paths, std::optional<std::string> op) { return validate(paths, op); }, py::arg("paths"),
      py::arg("op") = py::none(),
      "kir spec validate: every diagnostic of the manifests as a dict (an empty list when they validate); never raises.");
  m.def(
      "spec_instantiate",
      [](py::object paths, std::optional<std::string> op, std::optional<std::string> row, bool force, bool special,
         std::optional<uint32_t> seed) { return guarded([&] { return instantiate(paths, op, row, force, special, seed); }); },
      py::arg("paths"), py::arg("op") = py::none(), py::arg("row") = py::none(), py::kw_only(), py::arg("force") = false,
      py::arg("special") = false, py::arg("seed") = py::none(),
      "kir spec instantiate: the workload rows of an op (every op when op is None) as calls with generated inputs.");
  m.def(
      "spec_run",
      [](py::object paths, std::string backend, std::optional<std::string> op, std::optional<std::string> row, bool special) {
        return guarded([&] { return spec_run(paths, backend, op, row, special); });
      },
      py::arg("paths"), py::arg("backend") = "interp", py::kw_only(), py::arg("op") = py::none(), py::arg("row") = py::none(),
      py::arg("special") = false, "kir spec run: every workload case through the paired and reference kernels; a report dict.");
}

}  // namespace kir::py_kir
