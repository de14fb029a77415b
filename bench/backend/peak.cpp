// Measured peak of this machine (peak.h): FMA throughput on registers with 16 independent
// accumulators (enough to hide FMA latency on two ports; the results feed a volatile sink, and
// without -ffast-math the chains cannot be folded), compiled per ISA with target attributes and
// picked by __builtin_cpu_supports, best of 5 after a full-length warm-up (the clock ramps up); and a STREAM triad whose arrays are each at
// least 4x the last-level cache (STREAM's rule), capped to 40% of available memory.
#include "bench/backend/peak.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "bench/backend/harness.h"

namespace kbench {
namespace {

volatile float g_sink;

constexpr int64_t kFmaIters = 1 << 25;  // per thread; 16 regs x 16 lanes x 2 flops each

__attribute__((target("avx512f"))) void fma_loop_avx512(int64_t iters) {
  __m512 acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_ps(1.0f + static_cast<float>(i) * 1e-3f);
  const __m512 m = _mm512_set1_ps(0.999999f), a = _mm512_set1_ps(1e-7f);
  for (int64_t it = 0; it < iters; ++it) {
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_ps(acc[i], m, a);
  }
  __m512 s = acc[0];
  for (int i = 1; i < 16; ++i) s = _mm512_add_ps(s, acc[i]);
  float out[16];
  _mm512_storeu_ps(out, s);  // (not _mm512_reduce_add_ps: GCC 12 warns inside it)
  g_sink = out[0] + out[15];
}

__attribute__((target("avx2,fma"))) void fma_loop_avx2(int64_t iters) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(1.0f + static_cast<float>(i) * 1e-3f);
  const __m256 m = _mm256_set1_ps(0.999999f), a = _mm256_set1_ps(1e-7f);
  for (int64_t it = 0; it < iters; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], m, a);
  }
  __m256 s = acc[0];
  for (int i = 1; i < 12; ++i) s = _mm256_add_ps(s, acc[i]);
  float out[8];
  _mm256_storeu_ps(out, s);
  g_sink = out[0] + out[7];
}

void fma_loop_scalar(int64_t iters) {
  float acc[8];
  for (int i = 0; i < 8; ++i) acc[i] = 1.0f + static_cast<float>(i) * 1e-3f;
  for (int64_t it = 0; it < iters; ++it)
    for (int i = 0; i < 8; ++i) acc[i] = acc[i] * 0.999999f + 1e-7f;
  g_sink = acc[0] + acc[7];
}

// Flops of one fma_loop_* call with `iters` iterations.
double loop_flops(int64_t iters) {
  const std::string isa = fma_isa();
  if (isa == "avx512f") return static_cast<double>(iters) * 16 * 16 * 2;
  if (isa == "avx2+fma") return static_cast<double>(iters) * 12 * 8 * 2;
  return static_cast<double>(iters / 8) * 8 * 2;  // fma_loop runs iters/8 scalar iterations
}

void fma_loop(int64_t iters) {
  static const std::string isa = fma_isa();
  if (isa == "avx512f") fma_loop_avx512(iters);
  else if (isa == "avx2+fma") fma_loop_avx2(iters);
  else fma_loop_scalar(iters / 8);
}

// Runs body(t) on `threads` std::threads (t = 0..threads-1; thread 0 is the caller).
template <class F>
void on_threads(int threads, F body) {
  std::vector<std::thread> ts;
  for (int t = 1; t < threads; ++t) ts.emplace_back([&, t] { body(t); });
  body(0);
  for (auto& th : ts) th.join();
}

size_t llc_bytes() {
  for (int idx = 4; idx >= 2; --idx) {  // the highest cache level sysfs lists
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/size");
    std::string s;
    if (f >> s && !s.empty()) {
      size_t v = std::stoull(s);
      char u = s.back();
      if (u == 'K') v <<= 10;
      else if (u == 'M') v <<= 20;
      return v;
    }
  }
  long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return v > 0 ? static_cast<size_t>(v) : size_t{32} << 20;
}

size_t mem_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  size_t kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb << 10;
  return size_t{4} << 30;
}

struct TriadArrays {
  TriadInfo info;
  Buffer<float> a, b, c;
  int touched_threads = 0;
};
TriadArrays* g_triad = nullptr;

void triad_range(float* a, const float* b, const float* c, float s, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; ++i) a[i] = b[i] + s * c[i];
}

}  // namespace

std::string fma_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "avx512f";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "avx2+fma";
  return "scalar";
}

double fma_peak_gflops(int threads) {
  on_threads(threads, [](int) { fma_loop(kFmaIters); });  // warm-up: let the clock ramp up
  double best = 0;
  for (int r = 0; r < 5; ++r) {
    const double w0 = wall_seconds();
    on_threads(threads, [](int) { fma_loop(kFmaIters); });
    const double w = wall_seconds() - w0;
    best = std::max(best, loop_flops(kFmaIters) * threads / w / 1e9);
  }
  return best;
}

TriadInfo triad_info() {
  TriadInfo t;
  t.llc_bytes = llc_bytes();
  size_t n = std::max<size_t>(size_t{64} << 20, 4 * t.llc_bytes / sizeof(float));
  const size_t cap = mem_available_bytes() * 2 / 5 / (3 * sizeof(float));
  if (n > cap) {
    n = cap;
    t.capped_by_memory = true;
  }
  t.elements_per_array = n / 16 * 16;
  return t;
}

double triad_gbs(int threads) {
  if (!g_triad) {
    g_triad = new TriadArrays;
    g_triad->info = triad_info();
    const size_t n = g_triad->info.elements_per_array;
    g_triad->a = Buffer<float>(n);
    g_triad->b = Buffer<float>(n);
    g_triad->c = Buffer<float>(n);
  }
  TriadArrays& T = *g_triad;
  const size_t n = T.info.elements_per_array;
  auto part = [&](int t, int nt) { return std::pair<size_t, size_t>{n * static_cast<size_t>(t) / static_cast<size_t>(nt), n * static_cast<size_t>(t + 1) / static_cast<size_t>(nt)}; };
  if (T.touched_threads != threads) {  // first touch by the threads that will use the pages
    on_threads(threads, [&](int t) {
      auto [lo, hi] = part(t, threads);
      for (size_t i = lo; i < hi; ++i) {
        T.a[i] = 0.f;
        T.b[i] = 1.f + static_cast<float>(i & 1023) * 1e-3f;
        T.c[i] = 2.f;
      }
    });
    T.touched_threads = threads;
  }
  float* a = T.a.data();
  const float* b = T.b.data();
  const float* c = T.c.data();
  Timing tm = time_best([&] {
    on_threads(threads, [&](int t) {
      auto [lo, hi] = part(t, threads);
      triad_range(a, b, c, 3.0f, lo, hi);
    });
  }, 5, 10.0, 1e9);
  g_sink = a[n / 2];
  return 12.0 * static_cast<double>(n) / tm.seconds / 1e9;
}

void release_triad_arrays() {
  delete g_triad;
  g_triad = nullptr;
}

}  // namespace kbench
