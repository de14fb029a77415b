// The machine's measured peak, the yardstick of the bandwidth cases: FMA throughput on registers
// (AVX-512 or AVX2, chosen at run time) and a STREAM-style triad over arrays much larger than
// the last-level cache, each at a given number of std::threads.
#pragma once
#include <cstddef>
#include <string>

namespace kbench {

std::string fma_isa();                // "avx512f", "avx2+fma" or "scalar"
double fma_peak_gflops(int threads);  // f32 GFLOP/s (an FMA counts 2 flops)

struct TriadInfo {
  size_t elements_per_array = 0;
  size_t llc_bytes = 0;
  bool capped_by_memory = false;  // arrays smaller than 4x LLC because memory is short
};
TriadInfo triad_info();
// a[i] = b[i] + s*c[i]: GB/s counting 12 bytes per element (two reads, one write; STREAM's
// convention, no write-allocate traffic). Arrays are allocated once, on first use, and first
// touched by the thread that later works on them.
double triad_gbs(int threads);
void release_triad_arrays();

}  // namespace kbench
