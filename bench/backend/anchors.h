// The anchors of kir_bench_backend: the libraries kir's CPU backend is measured against in the
// same run (oneDNN, OpenBLAS, Eigen, SLEEF and glibc's libmvec). Each works on caller-owned,
// dense row-major buffers, and each has its own thread control (see the .cpp files).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kbench {

namespace onednn {
// oneDNN (Debian's build uses the GNU OpenMP runtime): omp_set_num_threads(n) on the calling
// thread, which is the thread that creates and executes the primitives. Primitives created
// after the call use n threads; returns omp_get_max_threads() afterwards.
int set_threads(int n);
std::string version();

enum class MatmulKind {
  F32,               // f32 x f32 -> f32
  BF16,              // bf16 x bf16 -> f32
  S8,                // s8 x s8 -> s32
  F32BiasGeluPost,   // f32 matmul with bias and a gelu_erf post-op (one primitive)
  F32BiasThenGelu,   // f32 matmul with bias, then a separate eltwise gelu_erf primitive in place
};
// C[M,N] = A[M,K] @ B[K,N] bound to the caller's buffers (bias: f32[N] for the bias kinds).
class Matmul {
 public:
  Matmul(MatmulKind kind, int64_t M, int64_t K, int64_t N, const void* a, const void* b, const float* bias, void* c);
  ~Matmul();
  void run();  // executes and waits

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class RowKind { Softmax, LayerNorm };
// Row-wise softmax or layer normalization (epsilon 1e-5, scale gamma and shift beta) of x[M,N].
class RowOp {
 public:
  RowOp(RowKind kind, int64_t M, int64_t N, const float* x, const float* gamma, const float* beta, float* y);
  ~RowOp();
  void run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
}  // namespace onednn

namespace openblas {
// openblas_set_num_threads (Debian's pthreads build of OpenBLAS).
void set_threads(int n);
void sgemm(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* c);
// scale[i,j] = sum_k |a[i,k]| * |b[k,j]| (one sgemm on absolute values, in double-free f32; used
// as the error scale of the f32 contract checks).
void abs_product(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* scale);
std::string config();
}  // namespace openblas

namespace eigen {
// Eigen::setNbThreads; effective only because anchor_eigen.cpp is compiled with OpenMP.
// Returns Eigen::nbThreads() afterwards.
int set_threads(int n);
void sgemm(int64_t M, int64_t K, int64_t N, const float* a, const float* b, float* c);
}  // namespace eigen

namespace vecmath {
enum class Fn { Exp, Tanh, Erf, Log, Sin, Cos };
const char* name(Fn f);
std::string isa();  // "avx512f" or "avx2" (the variant the functions below call)
// out[i] = f(in[i]) for i < n (n a multiple of 16) with SLEEF's u10 vector functions.
void sleef(Fn f, const float* in, float* out, size_t n);
// The same with glibc's libmvec vector functions (_ZGVeN16v_expf, ...).
void libmvec(Fn f, const float* in, float* out, size_t n);
}  // namespace vecmath

}  // namespace kbench
