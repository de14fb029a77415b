// Runtime cases (cases.h): exp/tanh/erf over 1M f32 against SLEEF u10 and libmvec (one thread,
// with max ulp error against the numerics library's correctly rounded values), the warm dispatch
// overhead of a 1-element kernel, and the cold-compile and warm-load times of the kernels.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "numerics/dtype.h"

#include "bench/backend/cases.h"

namespace kbench {
namespace {

// Floats in a total order as integers (adjacent floats differ by 1; -0 and +0 coincide).
// ---- vector math vs SLEEF u10 (1 thread) ----
int64_t ordered(float f) {
  int32_t i = std::bit_cast<int32_t>(f);
  return i >= 0 ? i : -static_cast<int64_t>(i & 0x7FFFFFFF);
}
float from_ordered(int64_t k) {
  return k >= 0 ? std::bit_cast<float>(static_cast<uint32_t>(k)) : std::bit_cast<float>(static_cast<uint32_t>(-k) | 0x80000000u);
}
double ulps(float got, float want) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : 1e9;
  return static_cast<double>(std::llabs(ordered(got) - ordered(want)));
}

}  // namespace

void Bench::vecmath_case(vecmath::Fn f, kir::num::MathFn mf, const char* kernel, float lo, float hi, bool targeted) {
  const int64_t N = 1 << 20;
  const std::string name = fmt("%s f32 1M [%g, %g]", vecmath::name(f), static_cast<double>(lo), static_cast<double>(hi));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(N);
  // Throughput on uniform random inputs in [lo, hi]. Accuracy on those and on a sweep: n bit
  // patterns evenly spaced in the ordered encoding over [lo, hi] (every binade, tiny and
  // subnormal inputs included, which would dominate a timing with microcode assists).
  Buffer<float> x(n), sw(n), yk(n), ys(n), ym(n), ref(n), ref_sw(n);
  fill_uniform(x.data(), n, lo, hi, 91);
  const int64_t k0 = ordered(lo), k1 = ordered(hi);
  for (size_t i = 0; i < n; ++i)
    sw[i] = from_ordered(k0 + static_cast<int64_t>(static_cast<double>(k1 - k0) * static_cast<double>(i) / static_cast<double>(n - 1)));
  auto cr = [&](float v) { return std::bit_cast<float>(static_cast<uint32_t>(kir::num::eval(mf, kir::DType::F32, std::bit_cast<uint32_t>(v)))); };
  for (size_t i = 0; i < n; ++i) {
    ref[i] = cr(x[i]);
    ref_sw[i] = cr(sw[i]);
  }
  const int t = 1;
  KirRun kr = measure_kir(ks, kernel, {{"x", {x.data(), {N}}}, {"z", {yk.data(), {N}}}}, {{"N", N}}, t, opt.reps);
  AnchorRun sl = measure_anchor([&] { return std::function<void()>([&] { vecmath::sleef(f, x.data(), ys.data(), n); }); }, opt.reps);
  AnchorRun mv = measure_anchor([&] { return std::function<void()>([&] { vecmath::libmvec(f, x.data(), ym.data(), n); }); }, opt.reps);
  double uk = 0, us = 0, um = 0;
  auto accumulate = [&](const Buffer<float>& want, bool with_kir) {
    for (size_t i = 0; i < n; ++i) {
      us = std::max(us, ulps(ys[i], want[i]));
      um = std::max(um, ulps(ym[i], want[i]));
      if (with_kir) uk = std::max(uk, ulps(yk[i], want[i]));
    }
  };
  accumulate(ref, kr.ok());
  // The sweep: one untimed run of each.
  vecmath::sleef(f, sw.data(), ys.data(), n);
  vecmath::libmvec(f, sw.data(), ym.data(), n);
  bool kir_sweep = kr.ok();
  if (kir_sweep) {
    try {
      ks.bind(kernel, {{"x", {sw.data(), {N}}}, {"z", {yk.data(), {N}}}}, {{"N", N}}, t)->run();
    } catch (const std::exception&) {
      kir_sweep = false;
      uk = INFINITY;
    }
  }
  accumulate(ref_sw, kir_sweep);
  Row r;
  r.name = name;
  r.threads = t;
  set_kir(r, kr);
  set_anchor(r, "SLEEF u10 " + vecmath::isa(), sl);
  r.work = static_cast<double>(n);
  r.unit = "Gelem/s";
  r.goal = targeted ? Goal::RatioAtLeast : Goal::Info;
  r.target = 1.0;
  r.check = kr.ok() ? fmt("max ulp vs correctly rounded (random + 1M sweep): kir %.0f, SLEEF %.0f (target kir <= 1)", uk, us)
                    : fmt("max ulp: SLEEF %.0f", us);
  if (kr.ok() && uk > 1) r.check_failed = true;
  add(r);
  Row rm = r;
  rm.goal = Goal::Info;
  rm.check_failed = false;
  set_anchor(rm, "libmvec " + vecmath::isa(), mv);
  rm.check = fmt("max ulp: libmvec %.0f", um);
  add(rm);
}

// ---- warm dispatch of a 1-element kernel ----
void Bench::dispatch() {
  const std::string name = "dispatch 1-element copy (warm)";
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  float x = 3.5f, z = 0.f;
  const int calls = 20000;
  for (int t : thread_counts(opt)) {
    Row r;
    r.name = name;
    r.threads = t;
    r.goal = Goal::ValueAtMost;
    r.target = 5;
    r.value_unit = "us";
    if (std::string why = ks.error("copy"); !why.empty()) {
      r.kir_note = "not implemented: " + why;
    } else {
      try {
        auto call = ks.bind("copy", {{"x", {&x, {1}}}, {"z", {&z, {1}}}}, {{"N", 1}}, t);
        Timing tm = time_best([&] {
          for (int i = 0; i < calls; ++i) call->run();
        }, opt.reps);
        r.value = tm.seconds / calls * 1e6;
        r.kir_par = tm.cpu_per_wall;
        r.check = fmt("output %s; us per call over %d back-to-back calls", z == x ? "correct" : "WRONG", calls);
        if (z != x) r.check_failed = true;
      } catch (const std::exception& e) {
        r.kir_note = "error: " + first_line(e.what());
        r.check_failed = true;
      }
    }
    add(r);
  }
}

// ---- compile (cold cache) and load (warm cache hit) ----
void Bench::compile_rows() {
  const std::string cold = "compile, cold cache (mean/kernel)", warm = "load, warm cache hit (mean/kernel)";
  const auto& st = ks.compile_stats();
  std::vector<double> c, w;
  bool all_hit = true;
  for (const auto& s : st)
    if (s.cold_s > 0) {
      c.push_back(s.cold_s);
      if (!std::isnan(s.warm_s)) w.push_back(s.warm_s);
      all_hit = all_hit && s.reloaded_without_compile;
    }
  auto mean = [](const std::vector<double>& v) { double s = 0; for (double x : v) s += x; return v.empty() ? kNaN : s / static_cast<double>(v.size()); };
  auto mx = [](const std::vector<double>& v) { return v.empty() ? kNaN : *std::max_element(v.begin(), v.end()); };
  if (want(cold)) {
    Row r;
    r.name = cold;
    r.goal = Goal::Info;  // no target for compile time
    r.value_unit = "ms";
    r.value = mean(c) * 1e3;
    r.check = fmt("%zu kernels; first (builds the precompiled header) %.0f ms, max %.0f ms", c.size(),
                  c.empty() ? kNaN : c.front() * 1e3, mx(c) * 1e3);
    add(r);
  }
  if (want(warm)) {
    Row r;
    r.name = warm;
    r.goal = Goal::ValueAtMost;
    r.target = 5;
    r.value_unit = "ms";
    r.value = mean(w) * 1e3;
    r.check = fmt("max %.2f ms; construct+passes+serialize+key+dlopen; all hits without compiling: %s", mx(w) * 1e3,
                  all_hit ? "yes" : "NO");
    add(r);
  }
}

}  // namespace kbench
