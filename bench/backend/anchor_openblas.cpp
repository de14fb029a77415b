// OpenBLAS anchor (anchors.h): cblas_sgemm on row-major f32, and the |A|@|B| error scale the
// contract checks use. Threads: openblas_set_num_threads (Debian's libopenblas0-pthread; its
// idle threads busy-wait for a while after a call, so main.cpp pauses after OpenBLAS runs).
#include <cblas.h>

#include <cmath>
#include <vector>

#include "bench/backend/anchors.h"

extern "C" void openblas_set_num_threads(int num_threads);
extern "C" char* openblas_get_config(void);
extern "C" char* openblas_get_corename(void);

namespace kbench::openblas {

void set_threads(int n) { openblas_set_num_threads(n); }

std::string config() { return std::string(openblas_get_config()) + ", running core " + openblas_get_corename(); }

void sgemm(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K), 1.0f,
              a, static_cast<int>(K), b, static_cast<int>(N), 0.0f, c, static_cast<int>(N));
}

void abs_product(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* scale) {
  std::vector<float> aa(static_cast<size_t>(M * K)), bb(static_cast<size_t>(K * N));
  for (size_t i = 0; i < aa.size(); ++i) aa[i] = std::fabs(a[i]);
  for (size_t i = 0; i < bb.size(); ++i) bb[i] = std::fabs(b[i]);
  sgemm(M, K, N, aa.data(), bb.data(), scale);
}

}  // namespace kbench::openblas
