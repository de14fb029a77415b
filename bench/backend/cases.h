// The benchmark cases of kir_bench_backend and what they share: Bench runs one case at a time
// (kir at 1 and 2 threads, then its anchors), checks the kir result once, and appends rows; the
// helpers bind kir calls and anchors to a timing and turn failures into notes instead of aborts.
// Cases live in cases_contract.cpp (contracts), cases_memory.cpp (memory-bound rows, sums,
// pointwise) and cases_runtime.cpp (vector math, dispatch, compile/load).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/backend/anchors.h"
#include "bench/backend/harness.h"
#include "bench/backend/kir_cases.h"
#include "numerics/math.h"

namespace kbench {

inline constexpr double kU = 0x1p-24;  // f32 unit roundoff

void pause_ms(int ms);
// splitmix64: fast deterministic fill of large arrays.
uint64_t mix(uint64_t& s);
void fill_uniform(float* p, size_t n, float lo, float hi, uint64_t seed);
uint16_t to_bf16(float f);  // round to nearest even (finite inputs)
float from_bf16(uint16_t h);
std::string first_line(const std::string& s);

// A kir measurement, or the note that replaces it ("not implemented: ..." when the kernel did not
// compile, "error: ..." when the call faulted; the latter also fails the check).
struct KirRun {
  Timing t;
  std::string note;
  bool failed = false;
  bool ok() const { return note.empty(); }
};
KirRun measure_kir(const kir_side::Kernels& ks, const std::string& kernel, const std::map<std::string, kir_side::View>& views,
                   const std::map<std::string, int64_t>& extents, int threads, int reps);

// An anchor measurement that may fail (unsupported configuration): NaN time and a message.
// `make` builds the anchor (primitive creation is not timed) and returns the timed callable.
struct AnchorRun {
  Timing t;
  std::string error;
};
AnchorRun measure_anchor(const std::function<std::function<void()>()>& make, int reps);

void set_kir(Row& r, const KirRun& k);
void set_anchor(Row& r, const std::string& name, const AnchorRun& a);
// Another kir kernel as the anchor (an implementation compared with another): no time when it
// did not run.
void set_anchor(Row& r, const std::string& name, const KirRun& k);
// max over elements of |x - y| / scale (NaN propagates).
double max_scaled_diff(const float* x, const float* y, const float* scale, size_t n, double floor_scale = 1e-30);

struct Bench {
  Options opt;
  const kir_side::Kernels& ks;
  std::vector<Row>& rows;
  std::map<int, double> triad;  // GB/s by threads

  bool want(const std::string& name) const;
  void add(const Row& r);  // appends and logs a progress line to stderr

  // cases_contract.cpp
  void f32_contract(const std::string& name, int64_t M, int64_t K, int64_t N, double target, bool others);
  void matvec(int64_t K, int64_t N);
  void bf16_contract(int64_t S);
  void int8_contract(int64_t S);
  void mx_contract(int64_t S);
  void sparse_contract(int64_t S);
  void flash_attention(int64_t M, int64_t N);
  void q4k_matvec(int64_t N, int64_t K);
  void fused_gelu(int64_t S);
  // cases_memory.cpp
  void rows_case(bool softmax, int64_t M, int64_t N);
  void chain(int64_t N);
  void sum(int64_t N);
  void isum(int64_t N);
  Row sum_row(const std::string& name, int t, const KirRun& kr, double bytes);
  // cases_runtime.cpp
  void vecmath_case(vecmath::Fn f, kir::num::MathFn mf, const char* kernel, float lo, float hi, bool targeted);
  void dispatch();
  void compile_rows();
};

}  // namespace kbench
