// parallel_chunks: contiguous chunks handed out from an atomic counter to std::thread workers,
// each of which frees MPFR's thread-local caches before it exits (no leaks under ASan).
#include "report/math/math_parallel.h"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kir::report {

int worker_count(int threads) {
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void parallel_chunks(uint64_t n, int threads, const std::function<void(uint64_t, uint64_t)>& body) {
  if (n == 0) return;
  const uint64_t workers = std::min<uint64_t>(static_cast<uint64_t>(worker_count(threads)), n);
  // Several chunks per worker so that uneven costs (MPFR on hard inputs) balance out.
  const uint64_t chunk = std::max<uint64_t>(1, n / (workers * 16));
  std::atomic<uint64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      for (;;) {
        const uint64_t b = next.fetch_add(chunk);
        if (b >= n) break;
        body(b, std::min(n, b + chunk));
      }
    } catch (...) {
      std::lock_guard<std::mutex> g(error_mutex);
      if (!error) error = std::current_exception();
      next.store(n);
    }
    mpfr_free_cache();
  };
  std::vector<std::thread> pool;
  for (uint64_t i = 0; i < workers; ++i) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace kir::report
