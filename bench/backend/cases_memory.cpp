// Memory-bound cases (cases.h): row softmax and layer norm (against the triad bandwidth, with
// oneDNN's primitives as information rows), the pointwise chain (x*a+b)*c+y and the sum at 1M,
// 16M and 64M elements against the triad. Rates count the bytes a kernel must move (inputs read
// once, outputs written once); checks use a double reference or a bitwise scalar loop.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "bench/backend/cases.h"

namespace kbench {

// ---- row softmax / layer norm vs the triad (target) and oneDNN (info) ----
void Bench::rows_case(bool softmax, int64_t M, int64_t N) {
  const std::string name = fmt("%s rows %lldx%lld", softmax ? "softmax" : "layernorm", static_cast<long long>(M), static_cast<long long>(N));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(M * N);
  Buffer<float> x(n), yk(n), yd(n), gamma(static_cast<size_t>(N)), beta(static_cast<size_t>(N));
  fill_uniform(x.data(), n, softmax ? -8.f : -1.f, softmax ? 8.f : 3.f, 61);
  fill_uniform(gamma.data(), gamma.size(), 0.5f, 1.5f, 62);
  fill_uniform(beta.data(), beta.size(), -0.5f, 0.5f, 63);
  // Double-precision reference.
  std::vector<double> ref(n);
  for (int64_t i = 0; i < M; ++i) {
    const float* r = x.data() + i * N;
    double* o = ref.data() + i * N;
    if (softmax) {
      double mx = -INFINITY, s = 0;
      for (int64_t j = 0; j < N; ++j) mx = std::max(mx, static_cast<double>(r[j]));
      for (int64_t j = 0; j < N; ++j) s += o[j] = std::exp(r[j] - mx);
      for (int64_t j = 0; j < N; ++j) o[j] /= s;
    } else {
      double s = 0, v = 0;
      for (int64_t j = 0; j < N; ++j) s += r[j];
      const double mean = s / static_cast<double>(N);
      for (int64_t j = 0; j < N; ++j) v += (r[j] - mean) * (r[j] - mean);
      const double inv = 1.0 / std::sqrt(v / static_cast<double>(N) + static_cast<double>(0x1.4f8b58p-17f));
      for (int64_t j = 0; j < N; ++j) o[j] = (r[j] - mean) * inv * gamma[static_cast<size_t>(j)] + beta[static_cast<size_t>(j)];
    }
  }
  // softmax: relative error <= (N + 1) u (correctly rounded exp and div, sequential f32 sum);
  // layer norm: error relative to 1 + |y| within a generous 16 N u.
  const double bound = softmax ? 2.0 * static_cast<double>(N + 1) * kU : 16.0 * static_cast<double>(N) * kU;
  auto err = [&](const float* y) {
    double m = 0;
    for (size_t i = 0; i < n; ++i) {
      double d = std::fabs(y[i] - ref[i]) / (softmax ? std::fabs(ref[i]) : 1.0 + std::fabs(ref[i]));
      if (!(d <= m)) m = d;
    }
    return m;
  };
  const double bytes = 8.0 * static_cast<double>(n);
  for (int t : thread_counts(opt)) {
    std::map<std::string, kir_side::View> views{{"x", {x.data(), {M, N}}}, {"y", {yk.data(), {M, N}}}};
    if (!softmax) {
      views.emplace("gamma", kir_side::View{gamma.data(), {N}});
      views.emplace("beta", kir_side::View{beta.data(), {N}});
    }
    KirRun kr = measure_kir(ks, softmax ? "softmax" : "layernorm", views, {{"M", M}, {"N", N}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto op = std::make_shared<onednn::RowOp>(softmax ? onednn::RowKind::Softmax : onednn::RowKind::LayerNorm, M, N, x.data(),
                                                gamma.data(), beta.data(), yd.data());
      return std::function<void()>([op] { op->run(); });
    }, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    r.anchor = fmt("triad %d thr", t);
    r.anchor_s = bytes / (triad.at(t) * 1e9);
    r.work = bytes;
    r.unit = "GB/s";
    r.goal = Goal::RatioAtLeast;
    r.target = 0.9;
    if (kr.ok()) {
      double d = err(yk.data());
      r.check = fmt("max err vs double ref %.1e (bound %.1e)%s; bytes = read x + write y", d, bound,
                    dn.error.empty() ? fmt(", oneDNN %.1e", err(yd.data())).c_str() : "");
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
    Row ro = r;
    ro.goal = Goal::Info;
    ro.check = "(same kir run)";
    ro.check_failed = false;
    set_anchor(ro, softmax ? "oneDNN softmax" : "oneDNN layer_norm", dn);
    add(ro);
  }
}

// ---- pointwise chain and sum vs the triad ----
void Bench::chain(int64_t N) {
  const std::string name = fmt("chain (x*a+b)*c+y %lldM", static_cast<long long>(N >> 20));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(N);
  Buffer<float> x(n), y(n), z(n);
  fill_uniform(x.data(), n, -10.f, 10.f, 71);
  fill_uniform(y.data(), n, -10.f, 10.f, 72);
  const double bytes = 12.0 * static_cast<double>(n);
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "chain", {{"x", {x.data(), {N}}}, {"y", {y.data(), {N}}}, {"z", {z.data(), {N}}}}, {{"N", N}}, t, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    r.anchor = fmt("triad %d thr", t);
    r.anchor_s = bytes / (triad.at(t) * 1e9);
    r.work = bytes;
    r.unit = "GB/s";
    r.goal = Goal::RatioAtLeast;
    r.target = 0.9;
    if (kr.ok()) {
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i) {
        volatile float t0 = x[i] * 1.5f;  // one rounding per op, as KIR specifies
        volatile float t1 = t0 + 0.25f;
        volatile float t2 = t1 * -2.0f;
        float want = t2 + y[i];
        bad += std::bit_cast<uint32_t>(want) != std::bit_cast<uint32_t>(z[i]);
      }
      r.check = fmt("bitwise vs scalar C++: %zu of %zu differ; bytes = 2 reads + 1 write", bad, n);
      if (bad) r.check_failed = true;
    }
    add(r);
  }
}

void Bench::sum(int64_t N) {
  const std::string name = fmt("sum %lldM", static_cast<long long>(N >> 20));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(N);
  Buffer<float> x(n), z(1);
  fill_uniform(x.data(), n, -1.f, 1.f, 81);
  double exact = 0, abs_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    exact += x[i];
    abs_sum += std::fabs(x[i]);
  }
  // The worst-case bound n*u*sum|x| is vacuous at these sizes; this practical one is ~100x the
  // rounding error of any summation order here and 10x below the effect of one dropped or
  // doubled 1/64 chunk of the input.
  const double bound = 1e-5;
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "sum", {{"x", {x.data(), {N}}}, {"z", {z.data(), {1}}}}, {{"N", N}}, t, opt.reps);
    Row r = sum_row(name, t, kr, 4.0 * static_cast<double>(n));
    if (kr.ok()) {
      double d = std::fabs(z[0] - exact) / abs_sum;
      r.check = fmt("|kir-exact|/sum|x| %.1e (bound %.0e)", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
  }
}

// An i32 sum wraps, so every order gives the same bits: checked exactly.
void Bench::isum(int64_t N) {
  const std::string name = fmt("i32 sum %lldM", static_cast<long long>(N >> 20));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(N);
  Buffer<int32_t> x(n), z(1);
  uint32_t want_sum = 0, s = 91;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    x[i] = static_cast<int32_t>(s);
    want_sum += s;
  }
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "isum", {{"x", {x.data(), {N}}}, {"z", {z.data(), {1}}}}, {{"N", N}}, t, opt.reps);
    Row r = sum_row(name, t, kr, 4.0 * static_cast<double>(n));
    if (kr.ok()) {
      const bool same = static_cast<uint32_t>(z[0]) == want_sum;
      r.check = same ? "the wrapped sum, bitwise" : "differs from the wrapped sum";
      r.check_failed = !same;
    }
    add(r);
  }
}

Row Bench::sum_row(const std::string& name, int t, const KirRun& kr, double bytes) {
  Row r;
  r.name = name;
  r.threads = t;
  set_kir(r, kr);
  r.anchor = fmt("triad %d thr", t);
  r.anchor_s = bytes / (triad.at(t) * 1e9);
  r.work = bytes;
  r.unit = "GB/s";
  r.goal = Goal::RatioAtLeast;
  r.target = 0.9;
  return r;
}

}  // namespace kbench
