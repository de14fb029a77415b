// The shared helpers of the cases (cases.h): deterministic data, kir and anchor measurements that
// degrade to notes, and the row bookkeeping of Bench.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "bench/backend/cases.h"

namespace kbench {

void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
void fill_uniform(float* p, size_t n, float lo, float hi, uint64_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = lo + (hi - lo) * static_cast<float>(mix(seed) >> 40) * 0x1p-24f;
}

uint16_t to_bf16(float f) {  // round to nearest even (inputs are finite)
  uint32_t u = std::bit_cast<uint32_t>(f);
  u += 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
float from_bf16(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

KirRun measure_kir(const kir_side::Kernels& ks, const std::string& kernel, const std::map<std::string, kir_side::View>& views,
                   const std::map<std::string, int64_t>& extents, int threads, int reps) {
  KirRun r;
  if (std::string e = ks.error(kernel); !e.empty()) {
    r.note = "not implemented: " + e;
    return r;
  }
  try {
    auto call = ks.bind(kernel, views, extents, threads);
    r.t = time_best([&] { call->run(); }, reps);
  } catch (const std::exception& e) {
    r.note = "error: " + first_line(e.what());
    r.failed = true;
  }
  return r;
}

AnchorRun measure_anchor(const std::function<std::function<void()>()>& make, int reps) {
  AnchorRun a;
  try {
    auto run = make();
    a.t = time_best(run, reps);
  } catch (const std::exception& e) {
    a.error = first_line(e.what());
    a.t.seconds = kNaN;
  }
  return a;
}

void set_kir(Row& r, const KirRun& k) {
  if (k.ok()) {
    r.kir_s = k.t.seconds;
    r.kir_par = k.t.cpu_per_wall;
  } else {
    r.kir_note = k.note;
    r.check_failed = r.check_failed || k.failed;
  }
}
void set_anchor(Row& r, const std::string& name, const AnchorRun& a) {
  r.anchor = a.error.empty() ? name : name + " (error: " + a.error + ")";
  r.anchor_s = a.t.seconds;
  r.anchor_par = a.error.empty() ? a.t.cpu_per_wall : kNaN;
}
void set_anchor(Row& r, const std::string& name, const KirRun& k) {
  set_anchor(r, name, AnchorRun{k.t, k.note});
  if (!k.ok()) r.anchor_s = kNaN;
}

namespace {

void log_row(const Row& r) {
  const std::string kir = !r.kir_note.empty()       ? std::string("n/a")
                          : !r.value_unit.empty() ? fmt("%.3g %s", r.value, r.value_unit.c_str())
                                                  : fmt_time(r.kir_s);
  std::fprintf(stderr, "  %-34s t=%d kir %-12s %-22s %-10s %s\n", r.name.c_str(), r.threads, kir.c_str(),
               r.anchor.substr(0, 22).c_str(), fmt_time(r.anchor_s).c_str(), r.check.c_str());
}

}  // namespace

double max_scaled_diff(const float* x, const float* y, const float* scale, size_t n, double floor_scale) {
  double m = 0;
  for (size_t i = 0; i < n; ++i) {
    double d = std::fabs(static_cast<double>(x[i]) - y[i]) / std::max(static_cast<double>(scale[i]), floor_scale);
    if (!(d <= m)) m = d;  // NaN propagates
  }
  return m;
}

bool Bench::want(const std::string& name) const { return wanted(opt, name); }

void Bench::add(const Row& r) {
  rows.push_back(r);
  log_row(r);
}

}  // namespace kbench
