// oneDNN anchor (anchors.h): matmul f32, bf16 -> f32, s8 x s8 -> s32, matmul+bias followed by a
// separate eltwise gelu_erf primitive, matmul with bias and a gelu_erf post-op, and the softmax
// and layer normalization primitives, all on plain row-major memory bound to caller buffers.
// Threads: Debian's libdnnl runs on GNU OpenMP; omp_set_num_threads sets the calling thread's
// nthreads ICV, which the OpenMP parallel regions oneDNN opens from this thread obey. Primitives
// are created after the call (oneDNN picks blockings from omp_get_max_threads at creation).
#include <dnnl.hpp>
#include <omp.h>

#include "bench/backend/anchors.h"

namespace kbench::onednn {

using dnnl::memory;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {
dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}
}  // namespace

int set_threads(int n) {
  omp_set_num_threads(n);
  return omp_get_max_threads();
}

std::string version() {
  const dnnl_version_t* v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " (cpu runtime " + (v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other") + ")";
}

struct Matmul::Impl {
  dnnl::stream stream{engine()};
  memory a, b, bias, c;
  dnnl::matmul mm;
  dnnl::eltwise_forward gelu;
  bool has_bias = false, separate_gelu = false;
};

Matmul::Matmul(MatmulKind kind, int64_t M, int64_t K, int64_t N, const void* a, const void* b, const float* bias, void* c)
    : impl_(std::make_unique<Impl>()) {
  dt in = kind == MatmulKind::BF16 ? dt::bf16 : kind == MatmulKind::S8 ? dt::s8 : dt::f32;
  dt out = kind == MatmulKind::S8 ? dt::s32 : dt::f32;
  memory::desc a_md({M, K}, in, tag::ab), b_md({K, N}, in, tag::ab), c_md({M, N}, out, tag::ab);
  Impl& I = *impl_;
  I.a = memory(a_md, engine(), const_cast<void*>(a));
  I.b = memory(b_md, engine(), const_cast<void*>(b));
  I.c = memory(c_md, engine(), c);
  dnnl::primitive_attr attr;
  I.has_bias = kind == MatmulKind::F32BiasGeluPost || kind == MatmulKind::F32BiasThenGelu;
  if (kind == MatmulKind::F32BiasGeluPost) {
    dnnl::post_ops po;
    po.append_eltwise(1.f, dnnl::algorithm::eltwise_gelu_erf, 0.f, 0.f);
    attr.set_post_ops(po);
  }
  if (I.has_bias) {
    memory::desc bias_md({1, N}, dt::f32, tag::ab);
    I.bias = memory(bias_md, engine(), const_cast<float*>(bias));
    I.mm = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, bias_md, c_md), attr, engine()));
  } else {
    I.mm = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), attr, engine()));
  }
  if (kind == MatmulKind::F32BiasThenGelu) {
    I.separate_gelu = true;
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_gelu_erf, c_md, 0.f, 0.f);
    I.gelu = dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, engine()));
  }
}

Matmul::~Matmul() = default;

void Matmul::run() {
  Impl& I = *impl_;
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, I.a}, {DNNL_ARG_WEIGHTS, I.b}, {DNNL_ARG_DST, I.c}};
  if (I.has_bias) args.emplace(DNNL_ARG_BIAS, I.bias);
  I.mm.execute(I.stream, args);
  if (I.separate_gelu) I.gelu.execute(I.stream, {{DNNL_ARG_SRC, I.c}, {DNNL_ARG_DST, I.c}});
  I.stream.wait();
}

struct RowOp::Impl {
  dnnl::stream stream{engine()};
  memory x, y, gamma, beta;
  dnnl::primitive p;
  bool layer_norm = false;
};

RowOp::RowOp(RowKind kind, int64_t M, int64_t N, const float* x, const float* gamma, const float* beta, float* y)
    : impl_(std::make_unique<Impl>()) {
  Impl& I = *impl_;
  memory::desc md({M, N}, dt::f32, tag::ab), vd({N}, dt::f32, tag::a);
  I.x = memory(md, engine(), const_cast<float*>(x));
  I.y = memory(md, engine(), y);
  if (kind == RowKind::Softmax) {
    dnnl::softmax_forward::desc d(dnnl::prop_kind::forward_inference, md, 1);
    I.p = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(d, engine()));
  } else {
    I.layer_norm = true;
    I.gamma = memory(vd, engine(), const_cast<float*>(gamma));
    I.beta = memory(vd, engine(), const_cast<float*>(beta));
    dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_inference, md, 1e-5f,
                                              dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift);
    I.p = dnnl::layer_normalization_forward(dnnl::layer_normalization_forward::primitive_desc(d, engine()));
  }
}

RowOp::~RowOp() = default;

void RowOp::run() {
  Impl& I = *impl_;
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, I.x}, {DNNL_ARG_DST, I.y}};
  if (I.layer_norm) {
    args.emplace(DNNL_ARG_SCALE, I.gamma);
    args.emplace(DNNL_ARG_SHIFT, I.beta);
  }
  I.p.execute(I.stream, args);
  I.stream.wait();
}

}  // namespace kbench::onednn
