// WorkerPool (worker_pool.h). A job is published through epoch_: run() makes it odd, waits until
// no worker is inside the previous job, writes the job fields and makes it even again. A worker
// enters by incrementing inside_ and then re-reading epoch_ (both seq_cst, so either run() sees
// the worker inside or the worker sees the odd epoch and backs off): inside a job, its fields
// cannot change. Late workers (woken after the job finished) enter, find no task and leave, so
// run() never waits for a sleeping worker to wake up.
#include "backends/cpu/runtime/worker_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "backends/cpu/runtime/fp_env.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sched.h>
#endif
#include <pthread.h>
#include <mutex>

namespace kir::cpu::rt {
namespace {

// How long an idle worker (or a joining caller) spins before blocking.
constexpr std::chrono::microseconds kSpin{50};

// Set while this thread executes tasks of some pool (always on worker threads): a run() from
// there executes its tasks inline.
thread_local bool t_in_task = false;

struct InTask {
  bool prev = t_in_task;
  InTask() { t_in_task = true; }
  ~InTask() { t_in_task = prev; }
  InTask(const InTask&) = delete;
  InTask& operator=(const InTask&) = delete;
};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

std::atomic<uint64_t> g_jitter{[] {
  const char* s = std::getenv("KIR_SCHEDULE_JITTER");
  return s ? std::strtoull(s, nullptr, 10) : 0ull;
}()};

// A pseudo-random pause (schedule perturbation): a yield one time in eight, else 0..2047 spins.
void jitter_pause(uint64_t seed, int64_t task) noexcept {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(task) +
               static_cast<uint64_t>(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
  z ^= z >> 29;
  if ((z & 7) == 0) {
    std::this_thread::yield();
    return;
  }
  for (uint64_t i = 0, n = (z >> 3) & 2047; i < n; ++i) cpu_relax();
}

void run_inline(int64_t ntasks, kir_task_fn fn, void* ctx) noexcept {
  for (int64_t t = 0; t < ntasks; ++t) fn(ctx, t);
}

// Spins until pred() or kSpin elapsed; returns pred().
template <class Pred>
bool spin_until(Pred pred) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    for (int i = 0; i < 32; ++i) {
      if (pred()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() - start > kSpin) return pred();
  }
}

int default_threads() {
  if (const char* s = std::getenv("KIR_THREADS")) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (end != s && *end == '\0' && v > 0 && v <= 4096) return static_cast<int>(v);
  }
  int n = static_cast<int>(std::thread::hardware_concurrency());
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    n = n > 0 ? std::min(n, CPU_COUNT(&set)) : CPU_COUNT(&set);
#endif
  return std::max(n, 1);
}

// Incremented in every child process fork() creates (pthread_atfork): a pool compares it with
// the generation its workers were started in. A child has only the forking thread, and copies
// of the pool's counters and mutexes as they were at that instant — a worker may have been
// inside a job or holding a mutex — so the child must not wait for workers.
std::atomic<uint64_t> g_fork_generation{0};

void count_fork_in_child() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

WorkerPool::WorkerPool(int threads) {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, count_fork_in_child); });
  generation_ = g_fork_generation.load(std::memory_order_relaxed);
  const int n = std::max(threads, 1) - 1;
  workers_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { worker_main(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lk(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void WorkerPool::run(int64_t ntasks, kir_task_fn fn, void* ctx) {
  if (ntasks <= 0) return;
  if (t_in_task) return run_inline(ntasks, fn, ctx);
  FpEnvGuard fp;
  InTask in_task;
  if (workers_.empty() || ntasks == 1 || g_fork_generation.load(std::memory_order_relaxed) != generation_)
    return run_inline(ntasks, fn, ctx);

  std::lock_guard<std::mutex> one_job(run_mutex_);
  const uint64_t e = epoch_.load(std::memory_order_relaxed);
  epoch_.store(e + 1);
  // Only stragglers of a finished job can be inside (each about to leave), unless descheduled.
  while (!spin_until([&] { return inside_.load() == 0; })) std::this_thread::yield();
  const int64_t chunk = g_jitter.load(std::memory_order_relaxed) ? 1 : std::max<int64_t>(1, ntasks / (int64_t{threads()} * 8));
  fn_ = fn;
  ctx_ = ctx;
  ntasks_ = ntasks;
  chunk_ = chunk;
  next_.store(0, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  caller_waiting_.store(false, std::memory_order_relaxed);
  epoch_.store(e + 2);

  if (const int sleeping = sleepers_.load(); sleeping > 0) {
    const int64_t helpers = std::min<int64_t>((ntasks + chunk - 1) / chunk - 1, threads() - 1);
    { std::lock_guard<std::mutex> lk(mutex_); }
    if (helpers >= sleeping) {
      wake_.notify_all();
    } else {
      for (int64_t i = 0; i < helpers; ++i) wake_.notify_one();
    }
  }

  work(ntasks, fn, ctx, chunk);

  auto all_done = [&] { return done_.load() == ntasks; };
  if (!spin_until(all_done)) {
    caller_waiting_.store(true);
    std::unique_lock<std::mutex> lk(mutex_);
    joined_.wait(lk, all_done);
  }
}

void WorkerPool::work(int64_t ntasks, kir_task_fn fn, void* ctx, int64_t chunk) noexcept {
  for (;;) {
    const int64_t begin = next_.fetch_add(chunk, std::memory_order_relaxed);
    if (begin >= ntasks) return;
    const int64_t end = std::min(ntasks, begin + chunk);
    const uint64_t jitter = g_jitter.load(std::memory_order_relaxed);
    for (int64_t t = begin; t < end; ++t) {
      if (jitter) jitter_pause(jitter, t);
      fn(ctx, t);
      if (jitter) jitter_pause(jitter + 1, t);
    }
    // seq_cst pairs with run()'s caller_waiting_ store and done_ load (no lost wake-up).
    if (done_.fetch_add(end - begin) + (end - begin) == ntasks && caller_waiting_.load()) {
      std::lock_guard<std::mutex> lk(mutex_);
      joined_.notify_one();
    }
  }
}

bool WorkerPool::wait_for_job(uint64_t seen) {
  auto ready = [&] {
    const uint64_t e = epoch_.load();
    return stop_.load(std::memory_order_relaxed) || (e % 2 == 0 && e != seen);
  };
  while (!spin_until(ready)) {
    std::unique_lock<std::mutex> lk(mutex_);
    sleepers_.fetch_add(1);
    // Wakes on an odd epoch too (a job being written), then spins for it.
    wake_.wait(lk, [&] { return stop_.load() || epoch_.load() != seen; });
    sleepers_.fetch_sub(1);
  }
  return !stop_.load();
}

void WorkerPool::worker_main() {
  t_in_task = true;  // a run() from a task of this thread executes inline
  uint64_t seen = 0;
  while (wait_for_job(seen)) {
    inside_.fetch_add(1);
    const uint64_t e = epoch_.load();
    if (e % 2 == 0 && e != seen) {
      seen = e;
      FpEnvGuard fp;
      work(ntasks_, fn_, ctx_, chunk_);
    }
    inside_.fetch_sub(1);
  }
}

void set_schedule_jitter(uint64_t seed) { g_jitter.store(seed, std::memory_order_relaxed); }
uint64_t schedule_jitter() { return g_jitter.load(std::memory_order_relaxed); }

void pool_run_tasks(void* pool, int64_t ntasks, kir_task_fn fn, void* ctx) noexcept {
  if (pool == nullptr) {
    for (int64_t t = 0; t < ntasks; ++t) fn(ctx, t);
    return;
  }
  static_cast<WorkerPool*>(pool)->run(ntasks, fn, ctx);
}

int WorkerPool::global_threads() { return default_threads(); }

WorkerPool& WorkerPool::global() {
  static WorkerPool* pool = new WorkerPool(default_threads());
  return *pool;
}

}  // namespace kir::cpu::rt
