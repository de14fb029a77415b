// Time per value of the correctly rounded math (kir::num::eval: own double kernels for f32 with
// an MPFR fallback; long double for f64) beside glibc's own functions of the same format on the
// same inputs in the same run: expf, exp2f, logf, sinf, cosf, tanhf, erff for f32 (target: kir
// within 1.5x of glibc) and exp, log, sin for f64 (glibc is not correctly rounded there; the
// ratio shows what the fast common path costs). Prints values/second and the ratio kir / glibc.
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

struct Case {
  const char* name;  // kir's function name and dtype, e.g. "exp f32"
  MathFn fn;
  DType dtype;
  float (*libm_f)(float);     // f32 cases
  double (*libm_d)(double);   // f64 cases
  double lo, hi;
};
const Case kCases[] = {
    {"exp_f32", MathFn::Exp, DType::F32, ::expf, nullptr, -80, 80},
    {"exp2_f32", MathFn::Exp2, DType::F32, ::exp2f, nullptr, -120, 120},
    {"log_f32", MathFn::Log, DType::F32, ::logf, nullptr, 1e-6, 1000},
    {"sin_f32", MathFn::Sin, DType::F32, ::sinf, nullptr, -100, 100},
    {"cos_f32", MathFn::Cos, DType::F32, ::cosf, nullptr, -100, 100},
    {"tanh_f32", MathFn::Tanh, DType::F32, ::tanhf, nullptr, -10, 10},
    {"erf_f32", MathFn::Erf, DType::F32, ::erff, nullptr, -5, 5},
    {"exp_f64", MathFn::Exp, DType::F64, nullptr, ::exp, -700, 700},
    {"log_f64", MathFn::Log, DType::F64, nullptr, ::log, 1e-6, 1000},
    {"sin_f64", MathFn::Sin, DType::F64, nullptr, ::sin, -100, 100},
};

// 4096 inputs uniform in [lo, hi], as the dtype's bit patterns.
std::vector<uint64_t> inputs(const Case& c) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(c.lo, c.hi);
  std::vector<uint64_t> v(4096);
  for (auto& x : v)
    x = c.dtype == DType::F32 ? std::bit_cast<uint32_t>(static_cast<float>(u(rng))) : std::bit_cast<uint64_t>(u(rng));
  return v;
}

// kir's eval_n (how the interpreter applies a math op to a tensor: one dispatch per call)
void bm_kir(benchmark::State& st, const Case* c) {
  const auto in = inputs(*c);
  std::vector<uint64_t> out(in.size());
  for (auto _ : st) {
    kir::num::eval_n(c->fn, c->dtype, in.data(), out.data(), in.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

// kir's eval, one call per value (dispatch on the function and dtype every time)
void bm_kir_one(benchmark::State& st, const Case* c) {
  const auto in = inputs(*c);
  uint64_t acc = 0;
  for (auto _ : st)
    for (uint64_t x : in) acc += kir::num::eval(c->fn, c->dtype, x);
  benchmark::DoNotOptimize(acc);
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

void bm_glibc(benchmark::State& st, const Case* c) {
  const auto in = inputs(*c);
  double acc = 0;
  for (auto _ : st)
    for (uint64_t x : in) {
      const double y = c->libm_f ? c->libm_f(std::bit_cast<float>(static_cast<uint32_t>(x))) : c->libm_d(std::bit_cast<double>(x));
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
    benchmark::RegisterBenchmark((std::string("kir_") + c.name).c_str(), bm_kir, &c);
    benchmark::RegisterBenchmark((std::string("kir1_") + c.name).c_str(), bm_kir_one, &c);
    benchmark::RegisterBenchmark((std::string("glibc_") + c.name).c_str(), bm_glibc, &c);
  }
  benchmark::Initialize(&argc, argv);
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  std::printf("\n%-9s %14s %14s %14s %16s %16s\n", "function", "eval_n val/s", "eval val/s", "glibc val/s",
              "eval_n/glibc", "eval/glibc");
  for (const Case& c : kCases) {
    const double k = rep.rate[std::string("kir_") + c.name];
    const double k1 = rep.rate[std::string("kir1_") + c.name];
    const double g = rep.rate[std::string("glibc_") + c.name];
    if (k > 0 && k1 > 0 && g > 0)
      std::printf("%-9s %14.3e %14.3e %14.3e %15.2fx %15.2fx\n", c.name, k, k1, g, g / k, g / k1);
  }
  std::printf("(log2 is not one of kir's math functions; f32 target: <= 1.5x)\n");
  benchmark::Shutdown();
  return 0;
}
