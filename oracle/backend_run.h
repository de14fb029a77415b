// Running a kernel on the CPU backend with the interpreter's arguments (kir run --backend cpu,
// kir spec run --backend cpu): the same views, runtime scalars and constexpr values become a
// specialization, native views over copies of the storages, and the extent bindings; after the
// call, Out/InOut storages hold what the native code wrote. A native fault is a located error.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "interp/interpreter.h"

namespace kir::oracle {

struct BackendRunResult {
  std::shared_ptr<cpu::NativeKernel> kernel;
  bool compiled = false;  // false: the artifact came from the cache
};

// The constexpr/enum arguments of `args` as a specialization of kernel `k`.
cpu::Specialization specialization_of(const Module& m, const Function& k,
                                      const std::map<std::string, interp::KernelArg>& args);

// The compile step alone: kernel `name` specialized on the constexpr arguments and view facts of
// `args` (batches build many of these into one object with cpu::build_kernels).
cpu::CompiledSource compile_for_args(const Module& m, const std::string& name,
                                     const std::map<std::string, interp::KernelArg>& args, const cpu::CompileOptions& opt = {});

// The call step alone, on a kernel built from compile_for_args(m, name, args'), where args'
// agrees with `args` on the specialized facts. Updates Out/InOut views of `args` in place;
// throws FaultError (fault.h: kind, op, location, coordinate and the located message) on a native
// fault or an argument it cannot bind.
void call_on_backend(const cpu::NativeKernel& kernel, const Module& m, const std::string& name,
                     std::map<std::string, interp::KernelArg>& args);

// The interpreter's options for comparing with `p` bit for bit: accumulation=sequential, and
// for every op bound to an implementation that declares another order (Program::bindings) that
// order at the op's location (reduce implementations declaring "lanes": reduce_lanes_at).
interp::Options declared_order_options(const cpu::Program& p);

// A native call bound once to `args` (views packed into native storages, scalars, extents) and
// repeatable: `kir tune` times call() alone. write_back() copies Out/InOut storages into the
// host views of `args`. Throws std::runtime_error like call_on_backend while binding.
class BoundCall {
 public:
  BoundCall(const cpu::NativeKernel& kernel, const Module& m, const std::string& name,
            std::map<std::string, interp::KernelArg>& args);
  kir_fault call();
  void write_back();

 private:
  const cpu::NativeKernel& kernel_;
  std::vector<std::vector<uint8_t>> storage_;
  std::vector<kir_view> views_;
  std::vector<interp::HostView*> hosts_;
  std::vector<uint64_t> scalars_;
  std::vector<int64_t> extents_;
};

// One program of a batch build: its loaded kernel, or the message of its compile or build error.
struct BatchProgram {
  std::shared_ptr<cpu::NativeKernel> native;
  std::string error;
};
// Compiles programs 0..n-1 (`compile(i)`; a throw is that program's error) and builds them into
// one shared object through the artifact cache. When the batch does not build, each program is
// compiled and built alone, so only the programs that break it carry an error.
std::vector<BatchProgram> build_batch(size_t n, const std::function<cpu::CompiledSource(size_t)>& compile);

// Compiles (through the artifact cache), loads and calls kernel `name`. Out/InOut views of
// `args` are updated in place (every element then counts as defined). Throws std::runtime_error
// with a located message on a compile error or a native fault.
BackendRunResult run_on_backend(const Module& m, const std::string& name, std::map<std::string, interp::KernelArg>& args,
                                const cpu::CompileOptions& opt = {});

}  // namespace kir::oracle
