// Contract cases (cases.h): f32 square and skinny contracts against oneDNN (with OpenBLAS and
// Eigen rows), the 1xKxN matvec against the triad bandwidth, bf16 and int8 contracts against
// oneDNN's, and the fused contract+bias+erf-GELU against oneDNN matmul then eltwise. f32 results
// are checked against oneDNN relative to sum|a||b| (the worst-case bound of two f32 summation
// orders is 2 K u of it); int8 exactly.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "bench/backend/cases.h"
#include "numerics/kquant.h"

namespace kbench {

// ---- f32 contracts: kir vs oneDNN (target), OpenBLAS and Eigen (info) ----
void Bench::f32_contract(const std::string& name, int64_t M, int64_t K, int64_t N, double target, bool others) {
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  Buffer<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N)), ck(static_cast<size_t>(M * N)),
      cd(static_cast<size_t>(M * N)), co(static_cast<size_t>(M * N)), scale(static_cast<size_t>(M * N));
  fill_uniform(a.data(), a.size(), -1.f, 1.f, 11 + static_cast<uint64_t>(M));
  fill_uniform(b.data(), b.size(), -1.f, 1.f, 12 + static_cast<uint64_t>(N));
  openblas::set_threads(2);
  openblas::abs_product(M, K, N, a.data(), b.data(), scale.data());
  pause_ms(300);
  const double bound = 2.0 * static_cast<double>(K) * kU;
  const double flops = 2.0 * static_cast<double>(M) * static_cast<double>(K) * static_cast<double>(N);
  for (int t : thread_counts(opt)) {
    std::fill(ck.data(), ck.data() + ck.size(), std::nanf(""));
    KirRun kr = measure_kir(ks, "gemm_f32", {{"a", {a.data(), {M, K}}}, {"b", {b.data(), {K, N}}}, {"c", {ck.data(), {M, N}}}},
                            {{"M", M}, {"K", K}, {"N", N}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::F32, M, K, N, a.data(), b.data(), nullptr, cd.data());
      return std::function<void()>([mm] { mm->run(); });
    }, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "oneDNN f32", dn);
    r.work = flops;
    r.unit = "GFLOP/s";
    r.goal = target > 0 ? Goal::RatioAtLeast : Goal::Info;
    r.target = target;
    if (kr.ok() && dn.error.empty()) {
      double d = max_scaled_diff(ck.data(), cd.data(), scale.data(), ck.size());
      r.check = fmt("max|kir-oneDNN|/sum|ab| %.1e (bound %.1e)", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
    if (!others) continue;
    pause_ms(50);
    openblas::set_threads(t);
    AnchorRun ob = measure_anchor([&] {
      return std::function<void()>([&] { openblas::sgemm(M, K, N, a.data(), b.data(), co.data()); });
    }, opt.reps);
    pause_ms(300);  // OpenBLAS workers busy-wait after a call
    Row ro = r;
    ro.check.clear();
    ro.check_failed = false;  // the kir row carries the kir check
    ro.goal = Goal::Info;
    set_anchor(ro, "OpenBLAS sgemm", ob);
    if (ob.error.empty() && dn.error.empty())
      ro.check = fmt("anchor check: max|OpenBLAS-oneDNN|/sum|ab| %.1e", max_scaled_diff(co.data(), cd.data(), scale.data(), co.size()));
    add(ro);
    const int eigen_threads = eigen::set_threads(t);
    AnchorRun eg = measure_anchor([&] {
      return std::function<void()>([&] { eigen::sgemm(M, K, N, a.data(), b.data(), co.data()); });
    }, opt.reps);
    pause_ms(50);
    Row re = ro;
    set_anchor(re, fmt("Eigen (%d thr)", eigen_threads), eg);
    if (eg.error.empty() && dn.error.empty())
      re.check = fmt("anchor check: max|Eigen-oneDNN|/sum|ab| %.1e", max_scaled_diff(co.data(), cd.data(), scale.data(), co.size()));
    add(re);
  }
}

// ---- matvec 1xKxN: kir bandwidth over the matrix vs the triad (target), oneDNN (info) ----
void Bench::matvec(int64_t K, int64_t N) {
  const std::string name = fmt("f32 matvec 1x%lldx%lld", static_cast<long long>(K), static_cast<long long>(N));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  Buffer<float> a(static_cast<size_t>(K)), b(static_cast<size_t>(K * N)), ck(static_cast<size_t>(N)), cd(static_cast<size_t>(N)),
      scale(static_cast<size_t>(N));
  fill_uniform(a.data(), a.size(), -1.f, 1.f, 21);
  fill_uniform(b.data(), b.size(), -1.f, 1.f, 22);
  openblas::set_threads(1);
  openblas::abs_product(1, K, N, a.data(), b.data(), scale.data());
  const double bytes = 4.0 * static_cast<double>(K) * static_cast<double>(N);
  const double bound = 2.0 * static_cast<double>(K) * kU;
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "gemm_f32", {{"a", {a.data(), {1, K}}}, {"b", {b.data(), {K, N}}}, {"c", {ck.data(), {1, N}}}},
                            {{"M", 1}, {"K", K}, {"N", N}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::F32, 1, K, N, a.data(), b.data(), nullptr, cd.data());
      return std::function<void()>([mm] { mm->run(); });
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
    if (kr.ok() && dn.error.empty()) {
      double d = max_scaled_diff(ck.data(), cd.data(), scale.data(), ck.size());
      r.check = fmt("max|kir-oneDNN|/sum|ab| %.1e (bound %.1e); rate = matrix bytes/time", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
    Row ro = r;
    ro.goal = Goal::Info;
    ro.check = "(same kir run)";
    ro.check_failed = false;
    set_anchor(ro, "oneDNN f32", dn);
    add(ro);
  }
}

// ---- bf16 and int8 contracts vs oneDNN ----
void Bench::bf16_contract(int64_t S) {
  const std::string name = fmt("bf16 contract %lld^3 (f32 acc)", static_cast<long long>(S));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(S * S);
  Buffer<float> af(n), bf(n), ck(n), cd(n), scale(n);
  Buffer<uint16_t> a(n), b(n);
  fill_uniform(af.data(), n, -1.f, 1.f, 31);
  fill_uniform(bf.data(), n, -1.f, 1.f, 32);
  for (size_t i = 0; i < n; ++i) {
    a[i] = to_bf16(af[i]);
    b[i] = to_bf16(bf[i]);
    af[i] = from_bf16(a[i]);
    bf[i] = from_bf16(b[i]);
  }
  openblas::set_threads(2);
  openblas::abs_product(S, S, S, af.data(), bf.data(), scale.data());
  pause_ms(300);
  const double bound = 2.0 * static_cast<double>(S) * kU;
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "gemm_bf16", {{"a", {a.data(), {S, S}}}, {"b", {b.data(), {S, S}}}, {"c", {ck.data(), {S, S}}}},
                            {{"M", S}, {"K", S}, {"N", S}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::BF16, S, S, S, a.data(), b.data(), nullptr, cd.data());
      return std::function<void()>([mm] { mm->run(); });
    }, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "oneDNN bf16", dn);
    r.work = 2.0 * static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(S);
    r.unit = "GFLOP/s";
    r.goal = Goal::RatioAtLeast;
    r.target = 0.9;
    if (kr.ok() && dn.error.empty()) {
      double d = max_scaled_diff(ck.data(), cd.data(), scale.data(), n);
      r.check = fmt("max|kir-oneDNN|/sum|ab| %.1e (bound %.1e)", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
  }
}

void Bench::int8_contract(int64_t S) {
  const std::string name = fmt("i8 contract %lld^3 (i32 acc)", static_cast<long long>(S));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(S * S);
  Buffer<int8_t> a(n), b(n);
  Buffer<int32_t> ck(n), cd(n);
  uint64_t seed = 41;
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int8_t>(mix(seed) & 0xFF);
    b[i] = static_cast<int8_t>(mix(seed) & 0xFF);
  }
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "gemm_i8", {{"a", {a.data(), {S, S}}}, {"b", {b.data(), {S, S}}}, {"c", {ck.data(), {S, S}}}},
                            {{"M", S}, {"K", S}, {"N", S}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::S8, S, S, S, a.data(), b.data(), nullptr, cd.data());
      return std::function<void()>([mm] { mm->run(); });
    }, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "oneDNN s8s8s32", dn);
    r.work = 2.0 * static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(S);
    r.unit = "GOP/s";
    r.goal = Goal::RatioAtLeast;
    r.target = 0.9;
    if (kr.ok() && dn.error.empty()) {
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i) bad += ck[i] != cd[i];
      r.check = fmt("kir == oneDNN exactly: %zu of %zu differ", bad, n);
      if (bad) r.check_failed = true;
    }
    add(r);
  }
}

// ---- fused contract + bias + erf GELU vs oneDNN matmul(+bias) then eltwise ----
void Bench::fused_gelu(int64_t S) {
  const std::string name = fmt("f32 contract+bias+gelu %lld^3", static_cast<long long>(S));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const size_t n = static_cast<size_t>(S * S);
  Buffer<float> a(n), b(n), bias(static_cast<size_t>(S)), ck(n), cd(n), cp(n), scale(n);
  fill_uniform(a.data(), n, -1.f, 1.f, 51);
  fill_uniform(b.data(), n, -1.f, 1.f, 52);
  fill_uniform(bias.data(), bias.size(), -1.f, 1.f, 53);
  openblas::set_threads(2);
  openblas::abs_product(S, S, S, a.data(), b.data(), scale.data());
  pause_ms(300);
  // GELU is 1.13-Lipschitz; the anchor's erf approximation adds a few ulp of the result.
  const double bound = (4.0 * static_cast<double>(S) + 64) * kU;
  for (size_t i = 0; i < n; ++i) scale[i] += std::fabs(bias[i % static_cast<size_t>(S)]);
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "gemm_bias_gelu",
                            {{"a", {a.data(), {S, S}}}, {"b", {b.data(), {S, S}}}, {"bias", {bias.data(), {S}}}, {"c", {ck.data(), {S, S}}}},
                            {{"M", S}, {"K", S}, {"N", S}}, t, opt.reps);
    pause_ms(50);
    onednn::set_threads(t);
    AnchorRun dn = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::F32BiasThenGelu, S, S, S, a.data(), b.data(), bias.data(), cd.data());
      return std::function<void()>([mm] { mm->run(); });
    }, opt.reps);
    AnchorRun dp = measure_anchor([&] {
      auto mm = std::make_shared<onednn::Matmul>(onednn::MatmulKind::F32BiasGeluPost, S, S, S, a.data(), b.data(), bias.data(), cp.data());
      return std::function<void()>([mm] { mm->run(); });
    }, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "oneDNN matmul+bias, eltwise gelu", dn);
    r.work = 2.0 * static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(S);
    r.unit = "GFLOP/s";
    r.goal = Goal::RatioAtLeast;
    r.target = 1.2;
    if (kr.ok() && dn.error.empty()) {
      std::vector<float> s2(n);
      for (size_t i = 0; i < n; ++i) s2[i] = scale[i] + std::fabs(cd[i]);
      double d = max_scaled_diff(ck.data(), cd.data(), s2.data(), n);
      r.check = fmt("max|kir-oneDNN|/(sum|ab|+|bias|+|y|) %.1e (bound %.1e)", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
    Row rp = r;
    rp.goal = Goal::Info;
    rp.check_failed = false;
    set_anchor(rp, "oneDNN matmul w/ post-ops", dp);
    rp.check = "(same kir run; reference anchor: one fused primitive)";
    add(rp);
  }
}

}  // namespace kbench

namespace kbench {

// ---- MX e4m3 contract (e8m0 scales per 32 along K) into f32: the packed implementation against
// the scalar sequential one (the same op into f64, rounded to f32) and against the f32 packed
// contract over the operands prescaled here, which gives the same bits (same order, same fmas) ----
namespace {
float e4m3_value(uint8_t c) {
  const int e = (c >> 3) & 15, m = c & 7;
  const float v = e == 0 ? std::ldexp(static_cast<float>(m), -9) : std::ldexp(static_cast<float>(8 + m), e - 10);
  return (c & 0x80) ? -v : v;
}
}  // namespace

void Bench::mx_contract(int64_t S) {
  const std::string name = fmt("MX e4m3 contract %lld^3 (G=32, f32 acc)", static_cast<long long>(S));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const int64_t G = S / 32;
  const size_t n = static_cast<size_t>(S * S), ns = static_cast<size_t>(S * G);
  Buffer<uint8_t> a(n), b(n), as(ns), bs(ns);
  Buffer<float> af(n), bf(n), ck(n), cs(n), cf(n), scale(n);
  uint64_t seed = 51;
  auto code = [&] {
    for (;;) {
      const auto c = static_cast<uint8_t>(mix(seed) & 0xFF);
      if ((c & 0x7F) != 0x7F) return c;  // not NaN
    }
  };
  for (size_t i = 0; i < n; ++i) {
    a[i] = code();
    b[i] = code();
  }
  for (size_t i = 0; i < ns; ++i) {
    as[i] = static_cast<uint8_t>(120 + mix(seed) % 15);
    bs[i] = static_cast<uint8_t>(120 + mix(seed) % 15);
  }
  // A'(m, k) = a * 2^(as[m, k / 32] - 127); B'(k, n) = b * 2^(bs[n, k / 32] - 127): exact in f32.
  for (int64_t i = 0; i < S; ++i)
    for (int64_t k = 0; k < S; ++k) {
      const size_t at = static_cast<size_t>(i * S + k);
      af[at] = std::ldexp(e4m3_value(a[at]), as[static_cast<size_t>(i * G + k / 32)] - 127);
      bf[static_cast<size_t>(k * S + i)] =
          std::ldexp(e4m3_value(b[static_cast<size_t>(k * S + i)]), bs[static_cast<size_t>(i * G + k / 32)] - 127);
    }
  openblas::set_threads(2);
  openblas::abs_product(S, S, S, af.data(), bf.data(), scale.data());
  pause_ms(300);
  const double bound = 2.0 * static_cast<double>(S) * kU;
  const std::map<std::string, kir_side::View> mx = {{"a", {a.data(), {S, G, 32}}},
                                                    {"as", {as.data(), {S, G}}},
                                                    {"b", {b.data(), {G, 32, S}}},
                                                    {"bs", {bs.data(), {S, G}}}};
  const std::map<std::string, int64_t> ext = {{"M", S}, {"G", G}, {"N", S}};
  for (int t : thread_counts(opt)) {
    auto views = mx;
    views["c"] = {ck.data(), {S, S}};
    KirRun kr = measure_kir(ks, "gemm_mx_e4m3", views, ext, t, opt.reps);
    pause_ms(50);
    views["c"] = {cs.data(), {S, S}};
    KirRun seq = measure_kir(ks, "gemm_mx_e4m3_seq", views, ext, t, opt.reps);
    pause_ms(50);
    KirRun f32 = measure_kir(ks, "gemm_f32", {{"a", {af.data(), {S, S}}}, {"b", {bf.data(), {S, S}}}, {"c", {cf.data(), {S, S}}}},
                             {{"M", S}, {"K", S}, {"N", S}}, t, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "kir scaled_contract.sequential (f64 acc)", seq);
    r.work = 2.0 * static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(S);
    r.unit = "GFLOP/s";
    r.goal = Goal::Info;
    if (kr.ok() && seq.ok()) {
      const double d = max_scaled_diff(ck.data(), cs.data(), scale.data(), n);
      r.check = fmt("max|packed-sequential|/sum|ab| %.1e (bound %.1e)", d, bound);
      if (!(d <= bound)) r.check_failed = true;
    }
    add(r);
    Row rf = r;
    set_anchor(rf, "kir f32 packed contract (prescaled)", f32);
    rf.check.clear();
    rf.check_failed = false;
    if (kr.ok() && f32.ok()) {
      const bool same = std::memcmp(ck.data(), cf.data(), n * sizeof(float)) == 0;
      rf.check = same ? "bitwise equal to the f32 packed contract" : "DIFFERS from the f32 packed contract";
      rf.check_failed = !same;
    }
    add(rf);
  }
}

// 2:4 sparse f32, S x S (dense K = S, S / 2 kept per row) times S x S: sparse_contract.packed
// against sparse_contract.sequential (a batch of one, not the packed kind) and the dense f32
// packed contract of the same size (the decompressed A, zeros at the dropped positions).
void Bench::sparse_contract(int64_t S) {
  const std::string name = fmt("2:4 sparse f32 contract %lld^3", static_cast<long long>(S));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const int64_t C = S / 2;
  const size_t n = static_cast<size_t>(S * S), nc = static_cast<size_t>(S * C);
  Buffer<float> v(nc), b(n), dense(n), ck(n), cs(n), cf(n);
  Buffer<uint8_t> meta(nc);
  uint64_t seed = 61;
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (size_t i = 0; i < n; ++i) dense[i] = 0.0f;
  for (int64_t i = 0; i < S; ++i)
    for (int64_t q = 0; q < S / 4; ++q) {
      const auto& p = pairs[mix(seed) % 6];
      for (int t = 0; t < 2; ++t) {
        const size_t at = static_cast<size_t>(i * C + q * 2 + t);
        v[at] = static_cast<float>(static_cast<int64_t>(mix(seed) % 2001) - 1000) / 256.0f;
        meta[at] = static_cast<uint8_t>(p[t]);
        dense[static_cast<size_t>(i * S + q * 4 + p[t])] = v[at];
      }
    }
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<float>(static_cast<int64_t>(mix(seed) % 2001) - 1000) / 256.0f;
  pause_ms(300);
  const std::map<std::string, kir_side::View> sp = {{"v", {v.data(), {S, C}}}, {"meta", {meta.data(), {S, C}}},
                                                    {"b", {b.data(), {S, S}}}};
  const std::map<std::string, int64_t> ext = {{"M", S}, {"C", C}, {"N", S}};
  for (int t : thread_counts(opt)) {
    auto views = sp;
    views["c"] = {ck.data(), {S, S}};
    KirRun kr = measure_kir(ks, "gemm_sparse24", views, ext, t, opt.reps);
    pause_ms(50);
    views["c"] = {cs.data(), {S, S}};
    KirRun seq = measure_kir(ks, "gemm_sparse24_seq", views, ext, t, opt.reps);
    pause_ms(50);
    KirRun f32 = measure_kir(ks, "gemm_f32", {{"a", {dense.data(), {S, S}}}, {"b", {b.data(), {S, S}}}, {"c", {cf.data(), {S, S}}}},
                             {{"M", S}, {"K", S}, {"N", S}}, t, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "kir sparse_contract.sequential", seq);
    r.work = static_cast<double>(S) * static_cast<double>(S) * static_cast<double>(S);  // 2 flops per kept term
    r.unit = "GFLOP/s (kept)";
    r.goal = Goal::Info;
    if (kr.ok() && seq.ok()) r.check = "sequential rounds each product: not compared bitwise";
    add(r);
    Row rf = r;
    set_anchor(rf, "kir f32 packed contract (dense, zeros kept)", f32);
    rf.check.clear();
    rf.check_failed = false;
    add(rf);
  }
}

// q4_K x q8_K matvec, N rows of K / 256 super-blocks (random q4_K bytes with modest d and dmin,
// x quantized by the numerics library): quantized_dot.q4k_q8k.<isa> (the default row) against the
// scalar expansion quantized_dot.q4k_q8k (the portable row) and against the triad. Rate = the q4_K
// weight bytes read (144 per super-block) / time. Both results must be numerics'
// vec_dot_q4_K_q8_K of each row bit for bit.
void Bench::q4k_matvec(int64_t N, int64_t K) {
  const std::string name = fmt("q4_K x q8_K matvec %lldx%lld", static_cast<long long>(N), static_cast<long long>(K));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const int64_t NB = K / 256;
  const size_t nblk = static_cast<size_t>(N * NB);
  Buffer<uint16_t> d(nblk), dmin(nblk);
  Buffer<uint8_t> sc(nblk * 12), qs(nblk * 128);
  Buffer<float> xd(static_cast<size_t>(NB)), yk(static_cast<size_t>(N)), ys(static_cast<size_t>(N));
  Buffer<int8_t> xq(static_cast<size_t>(K));
  Buffer<int16_t> xb(static_cast<size_t>(K / 16));
  std::vector<kir::num::BlockQ4K> w(nblk);
  uint64_t seed = 71;
  for (size_t i = 0; i < nblk; ++i) {
    auto& b = w[i];
    b.d = static_cast<uint16_t>(0x1800 + mix(seed) % 0x800);  // 2^-9 .. 2^-7
    b.dmin = static_cast<uint16_t>(0x1800 + mix(seed) % 0x800);
    for (auto& s : b.scales) s = static_cast<uint8_t>(mix(seed));
    for (auto& q : b.qs) q = static_cast<uint8_t>(mix(seed));
    d[i] = b.d;
    dmin[i] = b.dmin;
    std::memcpy(&sc[i * 12], b.scales.data(), 12);
    std::memcpy(&qs[i * 128], b.qs.data(), 128);
  }
  std::vector<float> xf(static_cast<size_t>(K));
  fill_uniform(xf.data(), xf.size(), -1.f, 1.f, 72);
  const auto x = *kir::num::quantize_row_q8_K(xf);
  for (int64_t b = 0; b < NB; ++b) {
    xd[static_cast<size_t>(b)] = x[static_cast<size_t>(b)].d;
    std::memcpy(&xq[static_cast<size_t>(b * 256)], x[static_cast<size_t>(b)].qs.data(), 256);
    std::memcpy(&xb[static_cast<size_t>(b * 16)], x[static_cast<size_t>(b)].bsums.data(), 32);
  }
  std::vector<float> want_y(static_cast<size_t>(N));
  for (int64_t n = 0; n < N; ++n)
    want_y[static_cast<size_t>(n)] =
        *kir::num::vec_dot_q4_K_q8_K(std::span<const kir::num::BlockQ4K>(w.data() + n * NB, static_cast<size_t>(NB)), x);
  pause_ms(300);
  std::map<std::string, kir_side::View> views = {
      {"w_d", {d.data(), {N, NB}}},           {"w_dmin", {dmin.data(), {N, NB}}},   {"w_scales", {sc.data(), {N, NB, 12}}},
      {"w_qs", {qs.data(), {N, NB, 128}}},    {"x_d", {xd.data(), {NB}}},           {"x_qs", {xq.data(), {K}}},
      {"x_bsums", {xb.data(), {K / 16}}}};
  const std::map<std::string, int64_t> ext = {{"N", N}, {"NB", NB}};
  const double bytes = 144.0 * static_cast<double>(nblk);
  auto bitwise = [&](const Buffer<float>& y) { return std::memcmp(y.data(), want_y.data(), want_y.size() * sizeof(float)) == 0; };
  for (int t : thread_counts(opt)) {
    views["y"] = {yk.data(), {N}};
    KirRun kr = measure_kir(ks, "qdot_q4k", views, ext, t, opt.reps);
    pause_ms(50);
    views["y"] = {ys.data(), {N}};
    KirRun seq = measure_kir(ks, "qdot_q4k_scalar", views, ext, t, opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    r.anchor = fmt("triad %d thr", t);
    r.anchor_s = bytes / (triad.at(t) * 1e9);
    r.work = bytes;
    r.unit = "GB/s";
    r.goal = Goal::Info;
    if (kr.ok()) {
      r.check = bitwise(yk) ? "bitwise numerics' vec_dot_q4_K_q8_K per row; rate = q4_K bytes/time"
                            : "DIFFERS from numerics' vec_dot_q4_K_q8_K";
      r.check_failed = !bitwise(yk);
    }
    add(r);
    Row rs = r;
    set_anchor(rs, "kir quantized_dot.q4k_q8k (scalar)", seq);
    rs.check.clear();
    rs.check_failed = false;
    if (seq.ok()) {
      rs.check = bitwise(ys) ? "scalar: bitwise numerics' too" : "scalar DIFFERS from numerics'";
      rs.check_failed = !bitwise(ys);
    }
    add(rs);
  }
}

// Single-head attention, M queries x N keys, D = E = 64 (flash_attn): the default row folds the
// keys in blocks of region_block (region_fold.blocks: the scores of one block, M x B, stay in
// cache) against the same kernel with the whole key axis as one segment (row
// avx512-12x2-whole: M x N scores materialized). The two segmentations round differently, so
// the check compares them to a double-precision softmax.
void Bench::flash_attention(int64_t M, int64_t N) {
  const std::string name = fmt("flash attention %lldx%lld, D=E=64", static_cast<long long>(M), static_cast<long long>(N));
  if (!want(name)) return;
  std::fprintf(stderr, "%s\n", name.c_str());
  const int64_t D = 64, E = 64;
  Buffer<float> q(static_cast<size_t>(M * D)), k(static_cast<size_t>(N * D)), v(static_cast<size_t>(N * E)),
      ob(static_cast<size_t>(M * E)), ow(static_cast<size_t>(M * E));
  fill_uniform(q.data(), q.size(), -2.f, 2.f, 71);
  fill_uniform(k.data(), k.size(), -2.f, 2.f, 72);
  fill_uniform(v.data(), v.size(), -2.f, 2.f, 73);
  pause_ms(300);
  const std::map<std::string, int64_t> ext = {{"M", M}, {"N", N}, {"D", D}, {"E", E}};
  // Reference rows (the first 8 queries) in double.
  std::vector<double> ref(static_cast<size_t>(8 * E), 0.0);
  for (int64_t i = 0; i < 8 && i < M; ++i) {
    std::vector<double> s(static_cast<size_t>(N));
    double mx = -1e300, l = 0;
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0;
      for (int64_t c = 0; c < D; ++c) acc += static_cast<double>(q[static_cast<size_t>(i * D + c)]) * k[static_cast<size_t>(j * D + c)];
      s[static_cast<size_t>(j)] = acc * 0.125;
      mx = std::max(mx, s[static_cast<size_t>(j)]);
    }
    for (int64_t j = 0; j < N; ++j) {
      const double p = std::exp(s[static_cast<size_t>(j)] - mx);
      l += p;
      for (int64_t c = 0; c < E; ++c) ref[static_cast<size_t>(i * E + c)] += p * v[static_cast<size_t>(j * E + c)];
    }
    for (int64_t c = 0; c < E; ++c) ref[static_cast<size_t>(i * E + c)] /= l;
  }
  auto err = [&](const Buffer<float>& o) {
    double e = 0;
    for (size_t i = 0; i < ref.size(); ++i) e = std::max(e, std::fabs(o[i] - ref[i]));
    return e;
  };
  for (int t : thread_counts(opt)) {
    KirRun kr = measure_kir(ks, "flash_attn", {{"q", {q.data(), {M, D}}}, {"k", {k.data(), {N, D}}}, {"v", {v.data(), {N, E}}}, {"o", {ob.data(), {M, E}}}},
                            ext, t, opt.reps);
    pause_ms(50);
    KirRun whole = measure_kir(ks, "flash_attn_whole",
                               {{"q", {q.data(), {M, D}}}, {"k", {k.data(), {N, D}}}, {"v", {v.data(), {N, E}}}, {"o", {ow.data(), {M, E}}}}, ext, t,
                               opt.reps);
    Row r;
    r.name = name;
    r.threads = t;
    set_kir(r, kr);
    set_anchor(r, "kir whole key axis (region_block 0)", whole);
    r.work = 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(D + E);
    r.unit = "GFLOP/s";
    r.goal = Goal::Info;
    if (kr.ok() && whole.ok()) {
      const double eb = err(ob), ew = err(ow);
      r.check = fmt("max|o-ref| blocks %.1e, whole %.1e (first 8 rows, bound 1e-4)", eb, ew);
      r.check_failed = !(eb < 1e-4 && ew < 1e-4);
    }
    add(r);
  }
}

}  // namespace kbench
