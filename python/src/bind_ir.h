// intent._kir.load and intent._kir.Module: KIR text → canonical, verified module.
#pragma once
#include <memory>
#include <string>

#include "common.h"

namespace kir::py_kir {

// A loaded canonical module (shared with every run that uses it).
struct PyModule {
  std::shared_ptr<const Module> module;
  std::string file;        // the name locations use
  std::string source;      // the text it was loaded from
  bool normalized = false; // surface forms were rewritten
  const Function& kernel(const std::string& name) const;  // KirFailure when there is none
  // The kernel `name`, or the only kernel when `name` is empty.
  const Function& choose(const std::string& name) const;
};

// A Module argument (KirFailure for anything else).
std::shared_ptr<PyModule> module_arg(py::handle m);

std::shared_ptr<PyModule> load_module(const std::string& text, const std::string& file);

void bind_ir(py::module_& m);

}  // namespace kir::py_kir
