// The persistent worker pool that executes the tasks of a compiled kernel (rule C1): run() hands
// out every task index of [0, ntasks) exactly once, in dynamically sized chunks taken from an
// atomic counter, to the workers and the calling thread, and returns only after all of them
// finished (join). A task index is a coordinate of the workset, never a thread id.
// Idle workers spin briefly before sleeping, since a cold wake-up costs ~160 us and kernels
// often call run() back to back. Tasks run with the default floating-point environment (C9).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cpu/rt/kir_abi.h"

namespace kir::cpu::rt {

class WorkerPool {
 public:
  // `threads` counts the calling thread: a pool of n threads starts n-1 workers (n < 1 counts
  // as 1: everything runs on the caller).
  explicit WorkerPool(int threads);
  ~WorkerPool();  // not while a run() is in progress
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs fn(ctx, t) for every t in [0, ntasks) exactly once and returns after all finished.
  // fn must not throw (it is a C function; an escaping exception terminates). Called from inside
  // a task (of any pool), the tasks run inline on the calling thread. Concurrent run() calls from
  // different threads on one pool take turns. In a process forked after the pool started (the
  // campaign judges candidates in forked children) the tasks run inline on the caller: the
  // workers stayed in the parent, and the pool's state may have been copied mid-job.
  void run(int64_t ntasks, kir_task_fn fn, void* ctx);

  // The process-wide pool: KIR_THREADS threads if that is set to a positive integer, else
  // std::thread::hardware_concurrency() (capped by the CPUs this process may run on). Created
  // on first use, never destroyed.
  static WorkerPool& global();
  // The threads global() has, or will have when it is made (without making it).
  static int global_threads();

 private:
  void worker_main();
  bool wait_for_job(uint64_t seen);  // false: stop
  void work(int64_t ntasks, kir_task_fn fn, void* ctx, int64_t chunk) noexcept;

  std::vector<std::thread> workers_;
  // The fork generation the workers were started in (see worker_pool.cpp): in a child process
  // forked later the workers do not exist, and every run() executes inline.
  uint64_t generation_ = 0;
  std::mutex run_mutex_;  // one job at a time

  // The job. Written by run() only while epoch_ is odd and no worker is inside_ a job.
  kir_task_fn fn_ = nullptr;
  void* ctx_ = nullptr;
  int64_t ntasks_ = 0;
  int64_t chunk_ = 1;

  // Even: job epoch_/2 published (or none yet); odd: run() is writing the next job.
  alignas(64) std::atomic<uint64_t> epoch_{0};
  alignas(64) std::atomic<int64_t> next_{0};  // next task index to hand out
  alignas(64) std::atomic<int64_t> done_{0};  // tasks finished
  alignas(64) std::atomic<int> inside_{0};    // workers that entered the current job
  alignas(64) std::atomic<int> sleepers_{0};  // workers blocked on wake_
  std::atomic<bool> caller_waiting_{false};   // run() blocked on joined_
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_, joined_;
};

// Schedule perturbation for reproducing timing-dependent findings (`kir repro`): with a seed
// other than 0 every pool hands out one task at a time and, before and after each task, waits a
// pseudo-random while (up to a few microseconds of spinning, or a yield), so that the
// interleavings of workers and caller vary from run to run. 0 (the default) turns it off. Also set
// by the environment variable KIR_SCHEDULE_JITTER=<seed>.
void set_schedule_jitter(uint64_t seed);
uint64_t schedule_jitter();

// The kir_env::run_tasks trampoline: `pool` is a WorkerPool* (nullptr: run inline on the caller).
void pool_run_tasks(void* pool, int64_t ntasks, kir_task_fn fn, void* ctx) noexcept;

}  // namespace kir::cpu::rt
