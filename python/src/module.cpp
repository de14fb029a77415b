// intent._kir: the native part of the intent Python package (docs/python-package.md). Thin
// bindings of the kir libraries: load (parse, normalize, verify), Module, run (the interpreter
// or the CPU backend, as `kir run`), the numerics, the op-spec manifests and the oracle's verdict.
// Every failure raises KirError with located diagnostics.
#include "common.h"

namespace kir::py_kir {
void bind_ir(py::module_& m);
void bind_run(py::module_& m);
void bind_numerics(py::module_& m);
void bind_spec(py::module_& m);
void bind_oracle(py::module_& m);
}  // namespace kir::py_kir

PYBIND11_MODULE(_kir, m) {
  namespace k = kir::py_kir;
  m.doc() = "Native bindings of the kir toolkit (KIR loading, the reference interpreter, the CPU backend, numerics, "
            "op-spec manifests, the differential oracle). Use the intent package's modules rather than this one.";
  k::register_kir_error(m);
  k::bind_ir(m);
  k::bind_run(m);
  k::bind_numerics(m);
  k::bind_spec(m);
  k::bind_oracle(m);
}
