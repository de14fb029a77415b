// A small parallel loop for the math section: the correctly rounded references (MPFR for f64) are
// the slow part and independent per input, so [0, n) is cut into contiguous chunks run on worker
// threads. Each worker frees MPFR's per-thread caches before it ends (MPFR is built thread-safe:
// its state, including the exponent range numerics/ sets, is thread-local).
#pragma once
#include <cstdint>
#include <functional>

namespace kir::report {

// The number of workers `threads` asks for (0: hardware concurrency, at least 1).
int worker_count(int threads);

// Calls body(begin, end) on disjoint chunks covering [0, n), on up to worker_count(threads)
// threads; returns when all are done. The first exception of a chunk is rethrown.
void parallel_chunks(uint64_t n, int threads, const std::function<void(uint64_t begin, uint64_t end)>& body);

}  // namespace kir::report
