// Backend versus interpreter on one invocation (differential.h).
#include "oracle/differential.h"

#include <deque>

#include "oracle/backend_run.h"

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
  std::string s = "check: " + verdict.summary() + "\n";
  if (!verdict.failed()) return s;
  const std::string body = verdict.str();  // its first line repeats the summary
  return s + body.substr(body.find('\n') + 1);
}

Differential run_differential(const Module& m, const std::string& kernel,
                              const std::map<std::string, interp::KernelArg>& args,
                              std::map<std::string, interp::KernelArg>* backend_args, const cpu::CompileOptions& opt) {
  Differential d;
  auto bargs = clone_args(args);
  std::shared_ptr<cpu::NativeKernel> native;
  try {
    std::deque<cpu::CompiledSource> one;
    one.push_back(compile_for_args(m, kernel, args, opt));
    native = cpu::build_kernels(std::move(one), opt.cache).front();
  } catch (const std::exception& e) {
    d.backend_error = e.what();
    d.verdict = compile_failure_verdict(e.what());
    auto iargs = clone_args(args);
    try {
      interp::Interpreter it(m);
      it.run_kernel(kernel, iargs);
    } catch (const std::exception& ie) {
      d.interp_error = ie.what();
    }
    if (backend_args) *backend_args = std::move(bargs);
    return d;
  }
  d.compiled = native->artifact().compiled;
  d.config_row = native->program().config_row;
  std::map<std::string, interp::KernelArg> expected;
  d.verdict = judge(m, kernel, args, *native, {}, &bargs, &expected);
  d.backend_error = d.verdict.backend_fault.message;
  d.interp_error = d.verdict.interp_fault.message;
  d.elements = d.verdict.compared;
  if (d.backend_error.empty() && d.interp_error.empty()) {
    const Function* k = m.find_function(kernel);
    for (const kir::Value* p : k->params()) {
      if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
      std::get<interp::HostView>(bargs.at(p->name)).storage->defined =
          std::get<interp::HostView>(expected.at(p->name)).storage->defined;
    }
  }
  if (backend_args) *backend_args = std::move(bargs);
  return d;
}

}  // namespace kir::oracle
