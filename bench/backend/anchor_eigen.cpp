// Eigen anchor (anchors.h): a row-major f32 matrix product through Eigen::Map. This file is
// compiled with OpenMP (Eigen parallelizes its GEMM only then; Eigen::setNbThreads sets the
// count) and with -march=native, since Eigen picks its SIMD width at compile time and would
// otherwise run SSE2 code against kir's host-tuned code (bench/CMakeLists.txt).
#include <Eigen/Core>

#include "bench/backend/anchors.h"

namespace kbench::eigen {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

int set_threads(int n) {
  Eigen::setNbThreads(n);
  return Eigen::nbThreads();
}

void sgemm(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* c) {
  Eigen::Map<const RowMat> A(a, M, K), B(b, K, N);
  Eigen::Map<RowMat> C(c, M, N);
  C.noalias() = A * B;
}

}  // namespace kbench::eigen
