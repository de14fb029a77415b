// The kir side of kir_bench_backend: the benchmark kernels as KIR text, compiled through the CPU
// backend's public API (parse, normalize, verify, kir::cpu::build_kernel) into a fresh temporary
// artifact cache (timed: cold compile), loaded again from a copy of that cache (timed: warm
// cache-hit load), and called on dense row-major buffers with a worker pool of a chosen size.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kbench::kir_side {

// A dense row-major view of caller memory.
struct View {
  void* data;
  std::vector<int64_t> shape;
};

struct CompileStat {
  std::string kernel;
  double cold_s = 0;   // build_kernel into an empty cache (construct, passes, C++ compile, dlopen)
  double warm_s = 0;   // build_kernel from a cache that has the object (no compile; a fresh dlopen)
  bool compiled = false, reloaded_without_compile = false;
};

// A kernel bound to its views and extents, callable on a pool of `threads` threads (the
// process-wide pool is not used: each Call owns a kir::cpu::rt::WorkerPool of its size).
class Call {
 public:
  virtual ~Call() = default;
  virtual void run() = 0;  // throws std::runtime_error on a kernel fault
};

class Kernels {
 public:
  Kernels();  // compiles every kernel (see the file comment); never throws for a kernel
  ~Kernels();  // removes the temporary caches
  // "" when the kernel compiled, else the backend's message.
  std::string error(const std::string& kernel) const;
  const std::vector<CompileStat>& compile_stats() const { return stats_; }
  // views by parameter name, extents by symbol name (M, K, N).
  std::unique_ptr<Call> bind(const std::string& kernel, const std::map<std::string, View>& views,
                             const std::map<std::string, int64_t>& extents, int threads) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<CompileStat> stats_;
};

}  // namespace kbench::kir_side
