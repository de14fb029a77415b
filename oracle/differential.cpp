// Backend versus interpreter on one invocation (differential.h).
#include "oracle/differential.h"

#include <sstream>

#include "numerics/format.h"
#include "numerics/value_text.h"
#include "oracle/backend_run.h"
#include "oracle/verdict.h"

namespace kir::oracle {
std::map<std::string, interp::KernelArg> clone_args(const std::map<std::string, interp::KernelArg>& args) {
  std::map<std::string, interp::KernelArg> out;
  for (const auto& [n, a] : args) {
    if (const auto* h = std::get_if<interp::HostView>(&a)) {
      interp::HostView c = *h;
      c.storage = std::make_shared<interp::Storage>(*h->storage);
      c.storage->serial = interp::next_storage_serial();
      out.emplace(n, c);
    } else {
      out.emplace(n, a);
    }
  }
  return out;
}

std::string Differential::str() const {
  std::ostringstream s;
  if (!interp_error.empty()) s << "interpreter: " << interp_error << "\n";
  if (!backend_error.empty()) s << "backend: " << backend_error << "\n";
  for (const auto& m : mismatches) {
    s << "%" << m.view << ": " << m.mismatches << " of " << m.elements << " elements differ from the interpreter; first at (";
    for (size_t i = 0; i < m.first_coord.size(); ++i) s << (i ? ", " : "") << m.first_coord[i];
    s << "): backend " << m.got << ", interpreter " << m.want << "\n";
  }
  if (ok()) s << elements << " elements bit-identical to the interpreter\n";
  return s.str();
}

Differential run_differential(const Module& m, const std::string& kernel,
                              const std::map<std::string, interp::KernelArg>& args,
                              std::map<std::string, interp::KernelArg>* backend_args, const cpu::CompileOptions& opt) {
  Differential d;
  auto iargs = clone_args(args);
  auto bargs = clone_args(args);
  // The backend first: its bindings declare the accumulation order the interpreter follows.
  interp::Options io;
  io.accumulation = interp::AccumulationOrder::Sequential;
  try {
    auto r = run_on_backend(m, kernel, bargs, opt);
    d.compiled = r.compiled;
    d.config_row = r.kernel->program().config_row;
    io = declared_order_options(r.kernel->program());
  } catch (const std::exception& e) {
    d.backend_error = e.what();
  }
  try {
    interp::Interpreter it(m, io);
    it.run_kernel(kernel, iargs);
  } catch (const std::exception& e) {
    d.interp_error = e.what();
  }
  if (d.interp_error.empty() && d.backend_error.empty()) {
    const Function* k = m.find_function(kernel);
    for (const kir::Value* p : k->params()) {
      if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
      const auto& hi = std::get<interp::HostView>(iargs.at(p->name));
      const auto& hb = std::get<interp::HostView>(bargs.at(p->name));
      ViewMismatch vm;
      vm.view = p->name;
      DType dt = hi.storage->dtype;
      const auto& a = hb.storage->bits;
      const auto& b = hi.storage->bits;
      vm.elements = static_cast<int64_t>(b.size());
      d.elements += vm.elements;
      for (size_t i = 0; i < b.size(); ++i) {
        if (!hi.storage->is_defined(static_cast<int64_t>(i))) continue;  // never written by the kernel
        if (same_result(dt, a[i], b[i])) continue;
        if (vm.mismatches++ == 0) {
          vm.first_coord = interp::unravel(static_cast<int64_t>(i), hi.shape);
          vm.got = num::format_value(num::Scalar{dt, a[i]});
          vm.want = num::format_value(num::Scalar{dt, b[i]});
        }
      }
      if (vm.mismatches) d.mismatches.push_back(vm);
      // Native code keeps no record of what it wrote; the interpreter's run of the same inputs
      // does, so the backend's outputs report the elements the kernel never wrote too.
      hb.storage->defined = hi.storage->defined;
    }
  }
  if (backend_args) *backend_args = std::move(bargs);
  return d;
}

}  // namespace kir::oracle
