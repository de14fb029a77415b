// The packed integer contract implementations (contract.packed_i8.avx512 / portable; C6, C7,
// C11): i8 x i8 and u8 x u8 into i32, packed as u8 x i8 with offsets and exact correction terms. Each
// result is checked bit for bit against the interpreter and against a sum computed here in
// 64-bit integers and wrapped to 32 bits (an implementation independent of both), over shapes
// that exercise every tail (M, N below, at and above the micro-tile and the blocks; K = 0, 1,
// and around the groups of four), both signednesses, the extreme values, transposed and
// strided operands, and sums that wrap.
#include <random>

#include "backend_test.h"
#include "backends/cpu/ir/printer.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

// One row per implementation of the integer form; rows whose ISA this CPU lacks are skipped.
std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  if (cpu::rt::host_capabilities().avx2 && cpu::rt::host_capabilities().fma) rows.push_back("avx2-6x2");
  if (cpu::rt::host_capabilities().avx512_vnni) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-8x3");
  }
  return rows;
}

DType dtype_of(const std::string& s) { return s == "i8" ? DType::I8 : DType::U8; }

std::vector<double> random_bytes(DType d, size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(d == DType::I8 ? -128 : 0, d == DType::I8 ? 127 : 255);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  // The extremes, where the offsets matter most.
  if (n > 0) v[0] = d == DType::I8 ? -128 : 255;
  if (n > 1) v[n - 1] = d == DType::I8 ? 127 : 0;
  return v;
}

// C = A (M x K, row-major, or K x M when transposed) times B (K x N), in 64-bit integers,
// wrapped to 32 bits.
std::vector<double> expected(const std::vector<double>& a, const std::vector<double>& b, int64_t M, int64_t K, int64_t N,
                             bool transpose) {
  std::vector<double> c(static_cast<size_t>(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += static_cast<int64_t>(a[static_cast<size_t>(transpose ? k * M + i : i * K + k)]) *
             static_cast<int64_t>(b[static_cast<size_t>(k * N + j)]);
      c[static_cast<size_t>(i * N + j)] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(s)));
    }
  return c;
}

struct Shape3 {
  int64_t m, k, n;
};

}  // namespace

TEST_CASE("packed i8 contract: every row and both signednesses are exact over all tails", "[C6][C7][C11][L10.2]") {
  // Micro-tiles 4x4 (portable), 6x2 and 12x32 / 8x48 (VNNI); K around the groups of four and
  // the KC blocks (128 portable, 256 avx2, 512 avx512).
  const std::vector<Shape3> shapes = {{1, 1, 1},    {1, 0, 5},    {3, 3, 17},  {5, 4, 33},   {6, 5, 64},
                                      {13, 7, 65},  {12, 8, 32},  {37, 29, 45}, {25, 257, 97}, {17, 515, 49},
                                      {150, 9, 130}};
  uint32_t seed = 100;
  for (const std::string dt : {"i8", "u8"}) {
    const std::string adt = dt, bdt = dt;
    auto m = btest::load(btest::matmul_kir(dt, "i32", false));
    for (const auto& row : runnable_rows())
      for (const auto& s : shapes) {
        INFO(dt << " row " << row << " M=" << s.m << " K=" << s.k << " N=" << s.n);
        auto a = random_bytes(dtype_of(adt), static_cast<size_t>(s.m * s.k), seed++);
        auto b = random_bytes(dtype_of(bdt), static_cast<size_t>(s.k * s.n), seed++);
        std::map<std::string, interp::KernelArg> args = {{"a", btest::view(dtype_of(adt), {s.m, s.k}, a)},
                                                        {"b", btest::view(dtype_of(bdt), {s.k, s.n}, b)},
                                                        {"c", btest::view(DType::I32, {s.m, s.n})}};
        auto out = btest::differential(*m, "mm", args, row);
        CHECK(btest::values(btest::out_view(out, "c")) == expected(a, b, s.m, s.k, s.n, false));
      }
  }
}

TEST_CASE("packed i8 contract: sums wrap modulo 2^32, as integer contracts do", "[C6][L10.2]") {
  // 40000 * 255 * 255 = 2601000000 = 2^32 - 1693967296: the i32 result is -1693967296.
  // 40000 * (-128) * (-128) = 655360000 (no wrap); 40000 * (-128) * 127 = -650240000;
  // 140000 * (-128) * (-128) = 2293760000 = 2^32 - 2001207296.
  struct Case {
    const char* dt;
    int64_t K;
    double av, bv, want;
  };
  for (const Case& c : {Case{"u8", 40000, 255, 255, -1693967296.0}, Case{"i8", 40000, -128, -128, 655360000.0},
                        Case{"i8", 40000, -128, 127, -650240000.0}, Case{"i8", 140000, -128, -128, -2001207296.0}}) {
    const int64_t K = c.K;
    auto m = btest::load(btest::matmul_kir(c.dt, "i32", false));
    for (const auto& row : runnable_rows()) {
      INFO(c.dt << " K=" << K << " row " << row);
      std::map<std::string, interp::KernelArg> args = {
          {"a", btest::view(dtype_of(c.dt), {2, K}, std::vector<double>(static_cast<size_t>(2 * K), c.av))},
          {"b", btest::view(dtype_of(c.dt), {K, 3}, std::vector<double>(static_cast<size_t>(3 * K), c.bv))},
          {"c", btest::view(DType::I32, {2, 3})}};
      auto out = btest::differential(*m, "mm", args, row);
      CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>(6, c.want));
    }
  }
}

TEST_CASE("packed i8 contract: transposed and strided operands", "[C6][C8]") {
  const int64_t M = 19, K = 23, N = 41;
  auto m = btest::load(btest::matmul_kir("u8", "i32", true));
  auto a = random_bytes(DType::U8, static_cast<size_t>(M * K), 7);
  // %b is every other column of a K x (2N + 1) matrix, starting at column 1.
  auto big = random_bytes(DType::U8, static_cast<size_t>(K * (2 * N + 1)), 8);
  interp::HostView bv = btest::view(DType::U8, {K, 2 * N + 1}, big);
  bv.shape = {K, N};
  bv.strides = {2 * N + 1, 2};
  bv.offset = 1;
  std::vector<double> b(static_cast<size_t>(K * N));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j) b[static_cast<size_t>(k * N + j)] = big[static_cast<size_t>(k * (2 * N + 1) + 1 + 2 * j)];
  std::map<std::string, interp::KernelArg> args = {
      {"a", btest::view(DType::U8, {K, M}, a)}, {"b", bv}, {"c", btest::view(DType::I32, {M, N})}};
  for (const auto& row : runnable_rows()) {
    INFO("row " << row);
    auto out = btest::differential(*m, "mm", args, row);
    CHECK(btest::values(btest::out_view(out, "c")) == expected(a, b, M, K, N, true));
  }
}

TEST_CASE("packed i8 contract: its expansion is real CPU IR (golden)", "[C7][C11]") {
  std::string source;
  const std::string i8 = btest::ir_after(*btest::load(btest::matmul_kir("i8", "i32", false)), "mm", "portable-4x4",
                                         "expand", &source);
  const std::string u8 = btest::ir_after(*btest::load(btest::matmul_kir("u8", "i32", false)), "mm", "portable-4x4",
                                         "expand");
  CHECK(i8.find(" contract.packed_i8.portable {mr=4, nv=4, task_m=0, task_n=0, mc=64, nc=1024, kc=128}\n") !=
        std::string::npos);
  struct Golden {
    const std::string* ir;
    const char* text;
  };
  const Golden golden[] = {
      {&i8, "let %kcp = mul.index(floordiv.index(add.index(%kc, 3), 4), 4)"},
      // i8 operands: A is packed as a + 128; B's panel comes with the column terms -128 * sum_k b,
      // A's with row terms 0.
      {&i8, "kernel pack.i8.i8.w4 %acc_bpanel#16[0] (load %bv#11[%pc, %jc], 1, 0, %nc, %kc, %kcp, load "
            "%acc_colterms#18[0], -128:i32)"},
      {&i8, "kernel pack.i8.u8.w4 %acc_apanel#15[0] (load %av#10[%ic, %pc], 0, 1, %mc, %kc, %kcp, load "
            "%acc_rowterms#17[0], 0:i32)"},
      // u8 operands: B is packed as b - 128, A's panel comes with the row terms 128 * sum_k a.
      {&u8, "kernel pack.u8.i8.w4 %acc_bpanel#16[0] (load %bv#11[%pc, %jc], 1, 0, %nc, %kc, %kcp, load "
            "%acc_colterms#18[0], 0:i32)"},
      {&u8, "kernel pack.u8.u8.w4 %acc_apanel#15[0] (load %av#10[%ic, %pc], 0, 1, %mc, %kc, %kcp, load "
            "%acc_rowterms#17[0], 128:i32)"},
      {&i8, "kernel gemm.u8i8.portable.4x4 %acc#12[add.index(%ic, %ir), add.index(%jc, %jr)] (load "
            "%acc_apanel#15[mul.index(%ir, %kcp)], load %acc_bpanel#16[mul.index(%jr, %kcp)], %kc, min.index(4, "
            "sub.index(%mc, %ir)), min.index(4, sub.index(%nc, %jr)), eq.index(%pc, 0), load %acc_rowterms#17[%ir], "
            "load %acc_colterms#18[%jr])"},
  };
  for (const auto& g : golden) {
    INFO(g.text << "\n---\n" << *g.ir);
    CHECK(g.ir->find(g.text) != std::string::npos);
  }
  CHECK(source.find("kir_uk::igemm_portable<4, 4>(") != std::string::npos);
  CHECK(source.find("kir_uk::pack<4, 4>(") != std::string::npos);
  CHECK(source.find("[](int8_t x) { return uint8_t(uint8_t(x) ^ 0x80u); }") != std::string::npos);
}

TEST_CASE("packed i8 contract: a row without an implementation of the integer form is rejected", "[C11]") {
  btest::WithRows rows(
      "rows:\n  - name: float-only\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}\n"
      "    local: {mr: 4, nv: 4}\n    implementations: [contract.packed.portable, contract.sequential]\n");
  auto m = btest::load(btest::matmul_kir("i8", "i32", false));
  try {
    cpu::compile_to_source(*m, "mm", btest::options());
    FAIL("compiled without an applicable implementation");
  } catch (const cpu::BackendError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("contract.sequential: a dense i8/u8 matrix product into i32, the kind the packed integer "
                 "implementations realize") != std::string::npos);
    CHECK(w.find("contract.packed.portable: the accumulator is i32, not f32 or f64") != std::string::npos);
  }
}
