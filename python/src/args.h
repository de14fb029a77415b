// Kernel arguments from Python values, bound the way `kir run` binds them (tools/cmd_run.cpp,
// tools/kernel_inputs.h): the given views and scalars first, then extents from the views, `dims`
// (--dim), the kernel's default invocation, else 8 (with a note); parameters not given are
// generated from `seed` like kir run's inputs (Out views start undefined). And the outputs back.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "bind_ir.h"
#include "interp/interpreter.h"

namespace kir::py_kir {

struct BoundArgs {
  std::map<std::string, interp::KernelArg> args;
  std::vector<std::string> notes;  // "note: extent N is not fixed by the inputs; using 8 ..."
};

// Needs the GIL. `args` is a dict name -> value (None: not given), `dims` None or a dict.
BoundArgs bind_args(const PyModule& pm, const Function& k, py::handle args, py::handle dims, uint64_t seed);

// A runtime or constexpr scalar of dtype d from a Python value: bool, int, float, a NumPy scalar
// or 0-d array, or a str (a decimal or a 0x bit pattern, as `kir run --input NAME=VALUE`).
num::Scalar scalar_arg(py::handle v, DType d, const std::string& what);

// Out/InOut views of `args` as name -> NumPy array (carrier dtypes); `undefined` receives the
// count of elements never written per view.
py::dict outputs_of(const Function& k, const std::map<std::string, interp::KernelArg>& args, py::dict* undefined = nullptr,
                    py::dict* dtypes = nullptr);

// The extent symbols of k's views as `args` bind them.
py::dict dims_of(const Function& k, const std::map<std::string, interp::KernelArg>& args);

}  // namespace kir::py_kir
