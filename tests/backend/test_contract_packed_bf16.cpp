// The packed bf16 contract (contract.packed_bf16.avx512 / portable; C6, C7, C11, L7.3): bf16 x
// bf16 into f32, k packed in pairs, each pair taken second first with one fma per term (the
// declared order sequential-fused-pairs). The AVX-512 kernel runs vdpbf16ps where the panels'
// exponent ranges prove it exact and f32 fmas elsewhere. Each result is checked bit for bit
// against the interpreter under the declared order and against the order evaluated here with
// std::fmaf, over shapes that exercise every tail (M, N around the micro-tiles and blocks; K = 0,
// 1, 2, 3, odd and even around KC), over data on both sides of the guard (subnormal inputs,
// products below 2^-126 or above 2^127, Inf and NaN, subnormal partial sums carried between KC
// blocks), and by hand-computed answers that only the pairs order gives.
#include <cmath>
#include <cstring>
#include <random>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  const auto& caps = cpu::rt::host_capabilities();
  if (caps.avx2 && caps.fma) rows.push_back("avx2-6x2");
  if (caps.avx512f) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-8x3");
  }
  return rows;
}

// Random bf16 values (as doubles, each exactly a bf16) with exponents in [lo, hi] and either sign.
std::vector<double> random_bf16(size_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> e(lo, hi), m(0, 127), sign(0, 1);
  std::vector<double> v(n);
  for (auto& x : v) x = std::ldexp(1.0 + m(g) / 128.0, e(g)) * (sign(g) ? -1.0 : 1.0);
  return v;
}

// C = A (M x K) B (K x N) in the declared order: per element from -0, the pairs (2q, 2q + 1)
// second first, one fmaf per term, a last unpaired k last; no terms give +0.
std::vector<double> expected(const std::vector<double>& a, const std::vector<double>& b, int64_t M, int64_t K, int64_t N) {
  std::vector<double> c(static_cast<size_t>(M * N));
  auto A = [&](int64_t i, int64_t k) { return static_cast<float>(a[static_cast<size_t>(i * K + k)]); };
  auto B = [&](int64_t k, int64_t j) { return static_cast<float>(b[static_cast<size_t>(k * N + j)]); };
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = K == 0 ? 0.0f : -0.0f;
      for (int64_t k = 0; k + 1 < K; k += 2) {
        acc = std::fmaf(A(i, k + 1), B(k + 1, j), acc);
        acc = std::fmaf(A(i, k), B(k, j), acc);
      }
      if (K % 2 == 1) acc = std::fmaf(A(i, K - 1), B(K - 1, j), acc);
      c[static_cast<size_t>(i * N + j)] = acc;
    }
  return c;
}

bool same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) && std::isnan(y[i])) continue;
    if (x[i] != y[i] || std::signbit(x[i]) != std::signbit(y[i])) return false;
  }
  return true;
}

struct Shape3 {
  int64_t m, k, n;
};

std::vector<double> run(const Module& m, const std::string& row, const std::vector<double>& a, const std::vector<double>& b,
                        const Shape3& s) {
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::BF16, {s.m, s.k}, a)},
                                                  {"b", btest::view(DType::BF16, {s.k, s.n}, b)},
                                                  {"c", btest::view(DType::F32, {s.m, s.n})}};
  auto out = btest::differential(*&m, "mm", args, row);
  return btest::values(btest::out_view(out, "c"));
}

}  // namespace

TEST_CASE("packed bf16 contract: every row agrees with the pairs order over all tails", "[C6][C7][C11][L7.3]") {
  // Micro-tiles 4x4 (portable), 6x16, 12x32 and 8x48; KC 128 / 256 / 512, so K = 515 and 1025
  // cross KC blocks with an odd tail.
  const std::vector<Shape3> shapes = {{1, 1, 1},    {1, 0, 5},    {2, 2, 3},     {3, 3, 17},   {5, 4, 33},
                                      {6, 5, 64},   {13, 7, 65},  {12, 8, 32},   {37, 29, 45}, {25, 257, 97},
                                      {17, 515, 49}, {9, 1025, 40}, {150, 9, 130}};
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  uint32_t seed = 300;
  for (const auto& row : runnable_rows())
    for (const auto& s : shapes) {
      INFO("row " << row << " M=" << s.m << " K=" << s.k << " N=" << s.n);
      auto a = random_bf16(static_cast<size_t>(s.m * s.k), -20, 20, seed++);
      auto b = random_bf16(static_cast<size_t>(s.k * s.n), -20, 20, seed++);
      CHECK(same_bits(run(*m, row, a, b, s), expected(a, b, s.m, s.k, s.n)));
    }
}

TEST_CASE("packed bf16 contract: only the pairs order gives these sums", "[C6][L7.3]") {
  // [1, 2^25, -2^25, 1] . [1, 1, 1, 1] (f32 ulp 4 at 2^25, so 2^25 + 1 rounds to 2^25): in k
  // order ((1 + 2^25) - 2^25) + 1 = 1; in pairs, second first, ((2^25 + 1) + 1) - 2^25 = 0.
  // Five terms [2^25, 1, 1, -2^25, 1]: pairs give (((1 + 2^25) - 2^25) + 1) + 1 = 2.
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  const double big = std::ldexp(1.0, 25);
  for (const auto& row : runnable_rows()) {
    INFO("row " << row);
    CHECK(run(*m, row, {1, big, -big, 1}, {1, 1, 1, 1}, {1, 4, 1}) == std::vector<double>{0.0});
    CHECK(run(*m, row, {big, 1, 1, -big, 1}, {1, 1, 1, 1, 1}, {1, 5, 1}) == std::vector<double>{2.0});
    // A single -0 product stays -0 (the odd pad adds -0, which changes nothing).
    auto z = run(*m, row, {-0.0}, {1}, {1, 1, 1});
    CHECK((z.size() == 1 && z[0] == 0.0 && std::signbit(z[0])));
  }
}

TEST_CASE("packed bf16 contract: data vdpbf16ps would flush or misround takes the exact path", "[C6][L7.3]") {
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  const double tiny = std::ldexp(1.0, -70), sub = std::ldexp(1.0, -130), huge = std::ldexp(1.0, 70);
  struct Case {
    const char* what;
    std::vector<double> a, b, want;
  };
  const double inf = HUGE_VAL;
  const std::vector<Case> cases = {
      // 2^-70 * 2^-70 = 2^-140, a subnormal f32 (flushed to 0 by vdpbf16ps).
      {"subnormal product", {tiny, 0}, {tiny, 0}, {std::ldexp(1.0, -140)}},
      // A subnormal bf16 input: 2^-130 * 2^10 = 2^-120.
      {"subnormal input", {sub, 0}, {1024, 0}, {std::ldexp(1.0, -120)}},
      // Normal products cancelling to a subnormal sum: 2^-100 (1 + 2^-7) 2^-20 - 2^-120 = 2^-127.
      {"subnormal sum", {std::ldexp(1 + 1.0 / 128, -100), -std::ldexp(1.0, -100)}, {std::ldexp(1.0, -20), std::ldexp(1.0, -20)},
       {std::ldexp(1.0, -127)}},
      // 2^70 * 2^70 = 2^140 overflows f32 to +Inf.
      {"overflowing product", {huge, 1}, {huge, 0}, {inf}},
      {"Inf and NaN inputs", {inf, 1}, {1, 1}, {inf}},
  };
  for (const auto& row : runnable_rows())
    for (const auto& c : cases) {
      INFO("row " << row << ": " << c.what);
      const int64_t K = static_cast<int64_t>(c.a.size());
      auto got = run(*m, row, c.a, c.b, {1, K, 1});
      CHECK(same_bits(got, c.want));
      CHECK(same_bits(got, expected(c.a, c.b, 1, K, 1)));
    }
  // A subnormal partial sum carried in C from one KC block into the next: K = KC + 2, the first
  // block ends at 2^-140, the second holds only zeros (their ranges alone would allow the
  // instruction, which would flush C to 0).
  for (const auto& row : runnable_rows()) {
    const int64_t KC = row == "portable-4x4" ? 128 : row == "avx2-6x2" ? 256 : 512;
    const int64_t K = KC + 2;
    std::vector<double> a(static_cast<size_t>(K), 0.0), b(static_cast<size_t>(K), 0.0);
    a[0] = tiny;
    b[0] = tiny;
    INFO("row " << row << ": a subnormal C between KC blocks, K = " << K);
    CHECK(same_bits(run(*m, row, a, b, {1, K, 1}), {std::ldexp(1.0, -140)}));
  }
}

TEST_CASE("packed bf16 contract: transposed and strided operands", "[C6][C8]") {
  const int64_t M = 19, K = 23, N = 41;
  auto m = btest::load(btest::matmul_kir("bf16", "f32", true));
  auto at = random_bf16(static_cast<size_t>(K * M), -8, 8, 11);  // %a is K x M
  auto big = random_bf16(static_cast<size_t>(K * (2 * N + 1)), -8, 8, 12);
  interp::HostView bv = btest::view(DType::BF16, {K, 2 * N + 1}, big);
  bv.shape = {K, N};
  bv.strides = {2 * N + 1, 2};
  bv.offset = 1;
  std::vector<double> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k) a[static_cast<size_t>(i * K + k)] = at[static_cast<size_t>(k * M + i)];
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j) b[static_cast<size_t>(k * N + j)] = big[static_cast<size_t>(k * (2 * N + 1) + 1 + 2 * j)];
  std::map<std::string, interp::KernelArg> args = {
      {"a", btest::view(DType::BF16, {K, M}, at)}, {"b", bv}, {"c", btest::view(DType::F32, {M, N})}};
  for (const auto& row : runnable_rows()) {
    INFO("row " << row);
    auto out = btest::differential(*m, "mm", args, row);
    CHECK(same_bits(btest::values(btest::out_view(out, "c")), expected(a, b, M, K, N)));
  }
}

TEST_CASE("packed bf16 contract: its expansion is real CPU IR (golden)", "[C7][C11]") {
  std::string source;
  const std::string ir =
      btest::ir_after(*btest::load(btest::matmul_kir("bf16", "f32", false)), "mm", "portable-4x4", "expand", &source);
  INFO(ir);
  CHECK(ir.find(" contract.packed_bf16.portable {mr=4, nv=4, task_m=0, task_n=0, mc=64, nc=1024, kc=128} order "
                "sequential-fused-pairs") != std::string::npos);
  const char* golden[] = {
      "let %kcp = mul.index(floordiv.index(add.index(%kc, 1), 2), 2)",
      // B pads an odd k with +0, A with -0 (0x8000); each writes its micro-panels' ranges.
      "kernel pack.bf16.bf16.w4 %acc_bpanel#16[0] (load %bv#11[%pc, %jc], 1, 0, %nc, %kc, %kcp, load %acc_branges#18[0], 0:i32)",
      "kernel pack.bf16.bf16.w4 %acc_apanel#15[0] (load %av#10[%ic, %pc], 0, 1, %mc, %kc, %kcp, load %acc_aranges#17[0], "
      "32768:i32)",
      "kernel gemm.bf16.portable.4x4 %acc#12[add.index(%ic, %ir), add.index(%jc, %jr)] (load %acc_apanel#15[mul.index(%ir, "
      "%kcp)], load %acc_bpanel#16[mul.index(%jr, %kcp)], %kc, min.index(4, sub.index(%mc, %ir)), min.index(4, "
      "sub.index(%nc, %jr)), eq.index(%pc, 0), load %acc_aranges#17[floordiv.index(%ir, 4)], load "
      "%acc_branges#18[floordiv.index(%jr, 4)], eq.index(add.index(%pc, %kc), %K))",
  };
  for (const char* g : golden) {
    INFO(g);
    CHECK(ir.find(g) != std::string::npos);
  }
  CHECK(source.find("kir_uk::bgemm_portable<4, 4>(") != std::string::npos);
  CHECK(source.find("kir_uk::pack_bf16<4>(") != std::string::npos);
  const std::string avx = btest::ir_after(*btest::load(btest::matmul_kir("bf16", "f32", false)), "mm", "avx512-12x2", "expand");
  CHECK(avx.find(" contract.packed_bf16.avx512 {mr=12, nv=2,") != std::string::npos);
  CHECK(avx.find("kernel gemm.bf16.avx512.12x2 ") != std::string::npos);
}

TEST_CASE("packed bf16 contract: a row without an implementation of the bf16 form is rejected", "[C11]") {
  btest::WithRows rows(
      "rows:\n  - name: float-only\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}\n"
      "    local: {mr: 4, nv: 4}\n    implementations: [contract.packed.portable, contract.sequential]\n");
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  try {
    cpu::compile_to_source(*m, "mm", btest::options());
    FAIL("compiled without an applicable implementation");
  } catch (const cpu::BackendError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("contract.sequential: a dense bf16 matrix product into f32, the kind the packed bf16 implementations "
                 "realize") != std::string::npos);
    CHECK(w.find("contract.packed.portable: a bf16 matrix product into f32 (the kind of contract.packed_bf16)") !=
          std::string::npos);
  }
}

TEST_CASE("packed bf16 contract: an odd KC is rejected with the reason", "[C11]") {
  btest::WithRows rows(
      "rows:\n  - name: odd-kc\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 127}\n"
      "    local: {mr: 4, nv: 4}\n    implementations: [contract.packed_bf16.portable, contract.sequential]\n");
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  try {
    cpu::compile_to_source(*m, "mm", btest::options());
    FAIL("compiled with an odd KC");
  } catch (const cpu::BackendError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("kc 127 is odd (a KC block must hold whole k pairs)") != std::string::npos);
  }
}

TEST_CASE("packed bf16 contract: every NaN of the result is canonical, whatever the operands' payloads", "[C6][L7.3]") {
  // A bf16 NaN widens to an f32 NaN with its payload, and fmas carry it (or give x86's negative
  // default NaN for Inf * 0); the language's result is the canonical f32 NaN 0x7FC00000.
  auto m = btest::load(btest::matmul_kir("bf16", "f32", false));
  uint32_t seed = 700;
  for (const auto& row : runnable_rows())
    for (const auto& s : {Shape3{2, 5, 9}, Shape3{13, 7, 65}, Shape3{17, 515, 49}}) {
      INFO("row " << row << " M=" << s.m << " K=" << s.k << " N=" << s.n);
      interp::HostView a = btest::view(DType::BF16, {s.m, s.k}, random_bf16(static_cast<size_t>(s.m * s.k), -20, 20, seed++));
      interp::HostView b = btest::view(DType::BF16, {s.k, s.n}, random_bf16(static_cast<size_t>(s.k * s.n), -20, 20, seed++));
      a.storage->bits[1] = 0x7FC1;                                   // row 0: a NaN with a payload
      b.storage->bits[static_cast<size_t>(2 * s.n + 3)] = 0xFFC1;    // column 3: a negative NaN
      a.storage->bits[static_cast<size_t>(s.k)] = 0x7F80;            // row 1 x column N-1: Inf * 0
      b.storage->bits[static_cast<size_t>(s.n - 1)] = 0;
      std::map<std::string, interp::KernelArg> args = {{"a", a}, {"b", b}, {"c", btest::view(DType::F32, {s.m, s.n})}};
      auto out = btest::differential(*m, "mm", args, row);
      CHECK(btest::require_canonical_nans(btest::out_view(out, "c")) >= static_cast<size_t>(s.n + s.m));
    }
}
