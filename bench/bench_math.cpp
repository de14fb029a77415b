// Throughput of the correctly rounded f32 exp, sin, log, erf (kir::num::eval: double fast path
// with MPFR fallback) beside glibc's own expf, sinf, logf, erff on the same inputs in the same
// run; prints values/second and the slowdown ratio kir / glibc (target: < 10x).
#include <benchmark/benchmark.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "numerics/math.h"

namespace {

using kir::DType;
using kir::num::MathFn;

struct Case { const char* name; MathFn fn; float (*libm)(float); float lo, hi; };
const Case kCases[] = {
    {"exp", MathFn::Exp, ::expf, -80.f, 80.f},
    {"sin", MathFn::Sin, ::sinf, -100.f, 100.f},
    {"log", MathFn::Log, ::logf, 1e-6f, 1000.f},
    {"erf", MathFn::Erf, ::erff, -5.f, 5.f},
};

std::vector<float> inputs(const Case& c) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(c.lo, c.hi);
  std::vector<float> v(4096);
  for (auto& x : v) x = u(rng);
  return v;
}

void bm_kir(benchmark::State& st, const Case* c) {
  const auto in = inputs(*c);
  uint64_t acc = 0;
  for (auto _ : st)
    for (float x : in) acc += kir::num::eval(c->fn, DType::F32, std::bit_cast<uint32_t>(x));
  benchmark::DoNotOptimize(acc);
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

void bm_glibc(benchmark::State& st, const Case* c) {
  const auto in = inputs(*c);
  float acc = 0;
  for (auto _ : st)
    for (float x : in) {
      float y = c->libm(x);
      benchmark::DoNotOptimize(y);
      acc += y;
    }
  benchmark::DoNotOptimize(acc);
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

// Console output plus a record of items/second per benchmark for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> rate;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("items_per_second");
      if (it != r.counters.end()) rate[r.benchmark_name()] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : kCases) {
    benchmark::RegisterBenchmark((std::string("cr_") + c.name + "_f32").c_str(), bm_kir, &c);
    benchmark::RegisterBenchmark((std::string("glibc_") + c.name + "f").c_str(), bm_glibc, &c);
  }
  benchmark::Initialize(&argc, argv);
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  std::printf("\n%-6s %14s %14s %8s\n", "func", "kir values/s", "glibc values/s", "ratio");
  for (const Case& c : kCases) {
    const double k = rep.rate[std::string("cr_") + c.name + "_f32"];
    const double g = rep.rate[std::string("glibc_") + c.name + "f"];
    if (k > 0 && g > 0) std::printf("%-6s %14.3e %14.3e %7.2fx\n", c.name, k, g, g / k);
  }
  benchmark::Shutdown();
  return 0;
}
