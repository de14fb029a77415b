// kir_bench_backend (issue 13, deliverable 5): kir's CPU backend against anchors measured in the
// same run — oneDNN (and OpenBLAS, Eigen) for contracts, the machine's own STREAM triad for
// memory-bound kernels, SLEEF (and libmvec) for vector math — plus dispatch overhead and
// compile/load times. Prints the peak numbers and one table of ratios with targets; every kir
// result is checked once against the anchor or a reference (a row reads CHECK FAILED and the
// exit status is 1 when it disagrees beyond the stated bound). Never used as a timed test.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/backend/anchors.h"
#include "bench/backend/cases.h"
#include "bench/backend/harness.h"
#include "bench/backend/kir_cases.h"
#include "bench/backend/peak.h"

using namespace kbench;

int main(int argc, char** argv) {
  Options opt = parse_options(argc, argv);
  // kir's process-wide pool is not used (each kir call brings a pool of the measured size):
  // give it no worker threads so nothing of it competes for the two cores.
  setenv("KIR_THREADS", "1", 1);

  ForeignLoad load;
  std::vector<std::string> notes;
  auto note = [&](const std::string& s) {
    notes.push_back(s);
    std::fprintf(stderr, "%s\n", s.c_str());
  };
  note(fmt("machine: %u hardware threads, FMA ISA %s, vector math ISA %s", std::thread::hardware_concurrency(), fma_isa().c_str(),
           vecmath::isa().c_str()));
  note("oneDNN " + onednn::version() + "; " + openblas::config());
  if (openblas::config().find("running core Prescott") != std::string::npos && fma_isa() != "scalar")
    note("WARNING: OpenBLAS did not recognize this CPU and runs its SSE3 kernels; set OPENBLAS_CORETYPE=SkylakeX (AVX-512) "
         "or Haswell (AVX2) as scripts/bench.sh does");

  // Peak: FMA throughput and triad bandwidth.
  std::map<int, double> triad;
  {
    std::string fl = "peak f32 FMA (registers):", tr;
    for (int t : thread_counts(opt)) fl += fmt(" %d thr %.1f GFLOP/s;", t, fma_peak_gflops(t));
    note(fl);
    TriadInfo ti = triad_info();
    tr = fmt("triad a=b+s*c, %zu M elements per array (%.0f MiB each; LLC %.0f MiB%s):", ti.elements_per_array >> 20,
             static_cast<double>(ti.elements_per_array) * 4 / 1048576, static_cast<double>(ti.llc_bytes) / 1048576,
             ti.capped_by_memory ? ", capped by available memory" : ", arrays >= 4x LLC");
    for (int t : thread_counts(opt)) {
      triad[t] = triad_gbs(t);
      tr += fmt(" %d thr %.1f GB/s;", t, triad[t]);
    }
    release_triad_arrays();
    note(tr);
  }
  for (int t : thread_counts(opt)) {
    const int omp = onednn::set_threads(t);
    const int eig = eigen::set_threads(t);
    note(fmt("threads %d: oneDNN sees omp_get_max_threads() = %d, Eigen nbThreads() = %d, OpenBLAS openblas_set_num_threads(%d), "
             "kir WorkerPool(%d)", t, omp, eig, t, t));
  }

  std::fprintf(stderr, "compiling the kir kernels (fresh artifact cache)...\n");
  kir_side::Kernels ks;
  for (const auto& s : ks.compile_stats())
    if (!ks.error(s.kernel).empty()) note("kir @" + s.kernel + " does not compile: " + ks.error(s.kernel));

  std::vector<Row> rows;
  Bench b{opt, ks, rows, triad};
  std::vector<int64_t> squares = {256, 512, 1024, 2048};
  if (opt.large) squares.push_back(4096);
  for (int64_t s : squares)
    b.f32_contract(fmt("f32 contract %lld^3", static_cast<long long>(s)), s, s, s, s >= 1024 ? 1.0 : 0.0, true);
  b.f32_contract("f32 contract 64x4096x4096 (skinny)", 64, 4096, 4096, 0.9, false);
  b.matvec(4096, 4096);
  b.bf16_contract(1024);
  b.int8_contract(1024);
  b.mx_contract(1024);
  b.sparse_contract(1024);
  b.flash_attention(256, 4096);
  b.q4k_matvec(4096, 4096);
  b.fused_gelu(1024);
  b.rows_case(true, 4096, 1024);
  b.rows_case(false, 4096, 1024);
  for (int64_t n : {int64_t{1} << 20, int64_t{16} << 20, int64_t{64} << 20}) b.chain(n);
  for (int64_t n : {int64_t{1} << 20, int64_t{16} << 20, int64_t{64} << 20}) b.sum(n);
  for (int64_t n : {int64_t{1} << 20, int64_t{16} << 20, int64_t{64} << 20}) b.isum(n);
  b.vecmath_case(vecmath::Fn::Exp, kir::num::MathFn::Exp, "vexp", -88.f, 88.f, true);
  b.vecmath_case(vecmath::Fn::Tanh, kir::num::MathFn::Tanh, "vtanh", -9.f, 9.f, false);
  b.vecmath_case(vecmath::Fn::Erf, kir::num::MathFn::Erf, "verf", -4.f, 4.f, false);
  b.vecmath_case(vecmath::Fn::Log, kir::num::MathFn::Log, "vlog", 1e-3f, 1e3f, false);
  b.vecmath_case(vecmath::Fn::Sin, kir::num::MathFn::Sin, "vsin", -100.f, 100.f, false);
  b.vecmath_case(vecmath::Fn::Cos, kir::num::MathFn::Cos, "vcos", -100.f, 100.f, false);
  b.dispatch();
  b.compile_rows();

  note(load.report());
  const char* legend =
      "kir/anchor = kir rate / anchor rate (higher is better); triad anchors: the rate is bytes moved / time and the "
      "anchor time is what the triad bandwidth needs for those bytes; cpu/wall = process CPU time / wall time of the "
      "best run (about the number of busy threads); best of N runs after a warm-up, one run for cases slower than 1 s.";
  std::printf("\n");
  for (const auto& n : notes) std::printf("%s\n", n.c_str());
  std::printf("%s\n\n", legend);
  print_table(stdout, rows, opt.markdown);
  if (!opt.markdown_file.empty()) {
    if (std::FILE* f = std::fopen(opt.markdown_file.c_str(), "w")) {
      std::fprintf(f, "# kir_bench_backend results\n\n");
      for (const auto& n : notes) std::fprintf(f, "- %s\n", n.c_str());
      std::fprintf(f, "\n%s\n\n", legend);
      print_table(f, rows, true);
      std::fclose(f);
    } else {
      std::fprintf(stderr, "cannot write %s\n", opt.markdown_file.c_str());
    }
  }
  bool failed = false;
  for (const Row& r : rows) failed = failed || r.check_failed;
  if (failed) std::printf("\nCHECK FAILED: at least one kir result disagrees with its anchor or reference (see the table)\n");
  return failed ? 1 : 0;
}
