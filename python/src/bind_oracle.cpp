// intent._kir.compare (intent.oracle wraps it): the differential oracle's verdict on one kernel
// invocation — the CPU backend against the interpreter, judged element by element under the
// numerics contract (oracle/verdict.h).
#include <pybind11/stl.h>

#include "args.h"
#include "oracle/verdict.h"

namespace kir::py_kir {

namespace {

py::list diffs_of(const oracle::Verdict& v) {
  py::list out;
  for (const auto& d : v.diffs) {
    py::dict x;
    x["output"] = d.output;
    x["coord"] = py::cast(d.coord);
    x["got"] = d.got;
    x["expected"] = d.expected;
    x["allowed"] = d.allowed;
    out.append(x);
  }
  return out;
}

oracle::Verdict compare(const PyModule& pm, py::handle kernel, py::handle args, py::handle dims, py::handle seed) {
  const Function& k = pm.choose(opt_str(kernel, "kernel").value_or(""));
  BoundArgs b = bind_args(pm, k, args, dims, u64_arg(seed, "seed"));
  py::gil_scoped_release release;
  return oracle::judge_compiling(*pm.module, k.name, b.args);
}

}  // namespace

void bind_oracle(py::module_& m) {
  py::class_<oracle::Verdict>(m, "Verdict", R"doc(
The oracle's verdict on one kernel invocation (oracle/verdict.h).

outcome: "pass", "wrong", "missed-error", "spurious-error", "unsupported", "crash", "timeout" or
"invalid-program"; rule: the rule that decided ("bit-exact", "reassociation envelope", "atomic
interleaving", "error agreement", ...); op / location: the op responsible as far as the oracle can
tell and its file:line:col; dtype; message: errors or a summary; compared / wrong: element counts;
diffs: the first wrong elements; failed: a finding (not pass, not unsupported); signature: what
de-duplicates findings.
)doc")
      .def_property_readonly("outcome", [](const oracle::Verdict& v) { return std::string(oracle::outcome_name(v.outcome)); })
      .def_readonly("rule", &oracle::Verdict::rule)
      .def_readonly("op", &oracle::Verdict::op)
      .def_readonly("location", &oracle::Verdict::location)
      .def_readonly("dtype", &oracle::Verdict::dtype)
      .def_readonly("message", &oracle::Verdict::detail)
      .def_readonly("compared", &oracle::Verdict::compared)
      .def_readonly("wrong", &oracle::Verdict::wrong)
      .def_property_readonly("diffs", &diffs_of)
      .def_property_readonly("failed", &oracle::Verdict::failed)
      .def_property_readonly("signature", &oracle::Verdict::signature)
      .def("__str__", &oracle::Verdict::str)
      .def("__bool__", [](const oracle::Verdict& v) { return !v.failed(); })
      .def("__repr__", [](const oracle::Verdict& v) {
        return "<Verdict " + std::string(oracle::outcome_name(v.outcome)) + (v.rule.empty() ? "" : " (" + v.rule + ")") + ">";
      });

  m.def(
      "compare",
      [](py::object module, py::object kernel, py::object args, py::object dims, py::object seed) {
        return guarded([&] { return compare(*module_arg(module), kernel, args, dims, seed); });
      },
      py::arg("module"), py::arg("kernel") = py::none(), py::arg("args") = py::dict(), py::kw_only(),
      py::arg("dims") = py::none(), py::arg("seed") = 0,
      R"doc(Compile `kernel` with the CPU backend, run it and the interpreter on the same arguments (bound as
run() binds them) and return the oracle's Verdict. A backend bug is a verdict, not an exception;
KirError only for arguments that do not bind.)doc");
}

}  // namespace kir::py_kir
