// The packed contract implementations (contract.packed.avx512 / avx2 / portable; C6, C7, C11):
// each runs natively against the interpreter evaluating the order it declares (sequential-fused:
// one fma per term, host std::fma — an implementation independent of the micro-kernels) bit for
// bit, over shapes that exercise every tail (M, N below, at and above the micro-tile and the
// MC/NC/KC blocks, K = 0 and 1), transposed and strided operands, several reduce pairs, f64 and
// f16/bf16 operands; every result also lies in the reassociation envelope of the exact sum.
#include <cmath>
#include <random>

#include "backend_test.h"
#include "backends/cpu/impl/config.h"
#include "backends/cpu/ir/printer.h"
#include "backends/cpu/runtime/capabilities.h"
#include "numerics/envelope.h"

using namespace kir;

namespace {

// One row per implementation (impl/config_rows.yaml); rows whose ISA this CPU lacks are skipped.
std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  if (cpu::rt::host_capabilities().avx2 && cpu::rt::host_capabilities().fma) rows.push_back("avx2-6x2");
  if (cpu::rt::host_capabilities().avx512f) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-8x3");
    rows.push_back("avx512-6x4");
  }
  return rows;
}

std::vector<double> random_values(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

struct Shape3 {
  int64_t m, k, n;
};

}  // namespace

TEST_CASE("packed f32 contract: every row agrees with the declared fused order over all tails", "[C6][C7][C11]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  // Micro-tiles are 4x4, 6x16, 12x32, 8x48 and 6x64; blocks MC 64..144, KC 128..512, NC >= 1024.
  const std::vector<Shape3> shapes = {{1, 1, 1},   {1, 7, 70},  {5, 3, 17},   {6, 16, 64},  {7, 257, 33},
                                      {13, 2, 65}, {37, 29, 45}, {193, 9, 31}, {25, 300, 97}, {200, 130, 1030}};
  uint32_t seed = 1;
  for (const auto& row : runnable_rows()) {
    for (const auto& s : shapes) {
      INFO("M=" << s.m << " K=" << s.k << " N=" << s.n);
      std::map<std::string, interp::KernelArg> args = {
          {"a", btest::view(DType::F32, {s.m, s.k}, random_values(static_cast<size_t>(s.m * s.k), seed++))},
          {"b", btest::view(DType::F32, {s.k, s.n}, random_values(static_cast<size_t>(s.k * s.n), seed++))},
          {"c", btest::view(DType::F32, {s.m, s.n})}};
      btest::differential(*m, "mm", args, row);
    }
  }
}

TEST_CASE("packed contract: tiles of at most four rows read A and B in place (gemv), in the same order",
          "[C6][C7][C11]") {
  // M <= 4 takes the gemv kernel, M = 5 the packed loops; N around the micro-tiles and over the
  // gemv's column block of 1024, K around the KC blocks; A transposed (its k stride is not 1) and B strided (its
  // column stride is 2) read through their strides.
  struct Case {
    std::string dt;
    bool transpose;
  };
  for (const Case& cs : {Case{"f32", false}, Case{"f32", true}, Case{"f64", false}}) {
    auto m = btest::load(btest::matmul_kir(cs.dt, cs.dt, cs.transpose));
    const DType d = cs.dt == "f32" ? DType::F32 : DType::F64;
    uint32_t seed = 40;
    for (const auto& row : runnable_rows())
      for (int64_t M : {1, 2, 4, 5})
        for (int64_t N : {1, 17, 64, 100, 1030})
          for (int64_t K : {1, 9, 300}) {
            INFO(cs.dt << (cs.transpose ? " transposed" : "") << " M=" << M << " K=" << K << " N=" << N);
            auto big = random_values(static_cast<size_t>(K * 2 * N), seed++);
            interp::HostView b = btest::view(d, {K, 2 * N}, big);
            b.shape = {K, N};
            b.strides = {2 * N, 2};
            std::map<std::string, interp::KernelArg> args = {
                {"a", btest::view(d, cs.transpose ? interp::Shape{K, M} : interp::Shape{M, K},
                                  random_values(static_cast<size_t>(M * K), seed++))},
                {"b", b},
                {"c", btest::view(d, {M, N})}};
            btest::differential(*m, "mm", args, row);
          }
  }
  // The expansion: tiles of at most 4 rows call the gemv kernel on the operands themselves.
  const std::string after = btest::ir_after(*btest::load(btest::matmul_kir("f32", "f32", false)), "mm", "portable-4x4",
                                            "expand");
  INFO(after);
  CHECK(after.find("if le.index(sub.index(%m1, %m0), 4) {") != std::string::npos);
  CHECK(after.find("kernel gemv.f32.portable %acc#12[%m0, %n0] (load %av#10[%m0, 0], 0, 1, load %bv#11[0, %n0], 0, 1, "
                   "%K, sub.index(%m1, %m0), sub.index(%n1, %n0))") != std::string::npos);
}

TEST_CASE("packed contract: the result lies in the reassociation envelope of the exact sum", "[C6][L7.6]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  const int64_t M = 9, K = 300, N = 21;
  auto a = random_values(static_cast<size_t>(M * K), 7), b = random_values(static_cast<size_t>(K * N), 8);
  // Cancellation-heavy: every other term of row 0 negated.
  for (int64_t k = 0; k < K; k += 2) a[static_cast<size_t>(k)] = -a[static_cast<size_t>(k)];
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {M, K}, a)},
                                                  {"b", btest::view(DType::F32, {K, N}, b)},
                                                  {"c", btest::view(DType::F32, {M, N})}};
  auto out = btest::differential(*m, "mm", args, runnable_rows().back());
  auto c = btest::values(btest::out_view(out, "c"));
  auto av = btest::values(std::get<interp::HostView>(args.at("a")));
  auto bv = btest::values(std::get<interp::HostView>(args.at("b")));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      std::vector<double> x(static_cast<size_t>(K)), y(static_cast<size_t>(K));
      for (int64_t k = 0; k < K; ++k) {
        x[static_cast<size_t>(k)] = av[static_cast<size_t>(i * K + k)];
        y[static_cast<size_t>(k)] = bv[static_cast<size_t>(k * N + j)];
      }
      auto env = num::dot_envelope(x, y, DType::F32);
      CHECK(env.contains(c[static_cast<size_t>(i * N + j)]));
    }
}

TEST_CASE("packed contract: transposed lhs, f64, f16 and bf16 operands", "[C6][C7]") {
  struct Case {
    std::string dt, acc;
    bool transpose;
  };
  for (const Case& cs : {Case{"f32", "f32", true}, Case{"f64", "f64", false}, Case{"f64", "f64", true},
                         Case{"f16", "f32", false}, Case{"bf16", "f32", true}, Case{"f32", "f64", false}}) {
    INFO(cs.dt << " -> " << cs.acc << (cs.transpose ? " transposed" : ""));
    auto m = btest::load(btest::matmul_kir(cs.dt, cs.acc, cs.transpose));
    const DType d = cs.dt == "f32" ? DType::F32 : cs.dt == "f64" ? DType::F64 : cs.dt == "f16" ? DType::F16 : DType::BF16;
    const DType acc = cs.acc == "f32" ? DType::F32 : DType::F64;
    for (const auto& row : runnable_rows()) {
      const int64_t M = 19, K = 33, N = 41;
      interp::Shape ash = cs.transpose ? interp::Shape{K, M} : interp::Shape{M, K};
      std::map<std::string, interp::KernelArg> args = {
          {"a", btest::view(d, ash, random_values(static_cast<size_t>(M * K), 3))},
          {"b", btest::view(d, {K, N}, random_values(static_cast<size_t>(K * N), 4))},
          {"c", btest::view(acc, {M, N})}};
      btest::differential(*m, "mm", args, row);
    }
  }
}

TEST_CASE("packed contract: strided and offset views are packed through their strides", "[C6][C8]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  const int64_t M = 14, K = 20, N = 35;
  // %a is every other column of a 14 x 41 matrix, starting at column 1.
  auto big = random_values(static_cast<size_t>(M * 41), 11);
  interp::HostView a = btest::view(DType::F32, {M, 41}, big);
  a.shape = {M, K};
  a.strides = {41, 2};
  a.offset = 1;
  std::map<std::string, interp::KernelArg> args = {
      {"a", a}, {"b", btest::view(DType::F32, {K, N}, random_values(static_cast<size_t>(K * N), 12))},
      {"c", btest::view(DType::F32, {M, N})}};
  for (const auto& row : runnable_rows()) btest::differential(*m, "mm", args, row);
}

TEST_CASE("packed contract: K = 0 gives +0, -0 products keep -0, NaN and Inf propagate", "[C6][L7.6]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  for (const auto& row : runnable_rows()) {
    std::map<std::string, interp::KernelArg> empty = {{"a", btest::view(DType::F32, {3, 0})},
                                                     {"b", btest::view(DType::F32, {0, 5})},
                                                     {"c", btest::view(DType::F32, {3, 5}, std::vector<double>(15, 7.0))}};
    auto out = btest::differential(*m, "mm", empty, row);
    for (uint64_t bits : btest::out_view(out, "c").storage->bits) CHECK(bits == 0);  // +0, not -0
    // Row 0: (-0)(1) + (-0)(0) = -0; row 1: 1 + inf * 0 = NaN; row 2: inf * 1 + 2 * 0 = inf.
    const double inf = INFINITY;
    std::map<std::string, interp::KernelArg> sp = {
        {"a", btest::view(DType::F32, {3, 2}, {-0.0, -0.0, 1, inf, inf, 2})},
        {"b", btest::view(DType::F32, {2, 1}, {1, 0})},
        {"c", btest::view(DType::F32, {3, 1})}};
    auto o2 = btest::differential(*m, "mm", sp, row);
    const auto& bits = btest::out_view(o2, "c").storage->bits;
    CHECK(bits[0] == 0x80000000u);
    CHECK(bits[1] == 0x7FC00000u);  // the canonical NaN, not x86's default NaN 0xFFC00000
    CHECK(bits[2] == 0x7F800000u);
  }
}

TEST_CASE("packed contract: every NaN of the result is canonical, whatever the operands' payloads", "[C6][C7][L7.6]") {
  // Fmas carry an operand NaN's sign and payload and give a negative default NaN for Inf * 0;
  // the language's result is the canonical NaN either way (a bitcast of the result sees the bits).
  // Gemv (M <= 4) and packed paths (M = 7: micro-tile tails; 37 x 300 x 45: two KC blocks).
  struct Case {
    DType d;
    std::vector<uint64_t> payloads;
  };
  for (const Case& cs : {Case{DType::F32, {0x7FC12345u, 0xFFC00001u, 0x7F800001u}},
                         Case{DType::F64, {0x7FF8000000012345ull, 0xFFF8000000000001ull, 0x7FF0000000000001ull}}}) {
    const std::string dt = cs.d == DType::F32 ? "f32" : "f64";
    auto m = btest::load(btest::matmul_kir(dt, dt, false));
    const uint64_t inf = num::inf_bits(cs.d), zero = 0;
    uint32_t seed = 90;
    for (const auto& row : runnable_rows())
      for (auto [M, K, N] : {Shape3{2, 9, 70}, Shape3{7, 5, 33}, Shape3{37, 300, 45}}) {
        INFO(dt << " M=" << M << " K=" << K << " N=" << N);
        interp::HostView a = btest::view(cs.d, {M, K}, random_values(static_cast<size_t>(M * K), seed++));
        interp::HostView b = btest::view(cs.d, {K, N}, random_values(static_cast<size_t>(K * N), seed++));
        auto& ab = a.storage->bits;
        auto& bb = b.storage->bits;
        ab[static_cast<size_t>(0 * K + 1)] = cs.payloads[0];      // row 0: a quiet NaN with a payload
        bb[static_cast<size_t>(2 * N + 3)] = cs.payloads[1];      // column 3: a negative NaN
        ab[static_cast<size_t>((M - 1) * K + 4 % K)] = cs.payloads[2];  // last row: a signaling NaN
        ab[static_cast<size_t>(1 * K + 0)] = inf;                 // row 1, column N-1: Inf * 0
        bb[static_cast<size_t>(0 * N + N - 1)] = zero;
        std::map<std::string, interp::KernelArg> args = {{"a", a}, {"b", b}, {"c", btest::view(cs.d, {M, N})}};
        auto out = btest::differential(*m, "mm", args, row);
        CHECK(btest::require_canonical_nans(btest::out_view(out, "c")) >= static_cast<size_t>(N + M - 1));
      }
  }
}

TEST_CASE("packed contract: one fma per term, known answer where mul-then-add differs", "[C6][L7.6]") {
  // Terms: 1 * -1 = -1, then (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24. Fused: -1 + that, rounded once:
  // 2^-11 + 2^-24 (0x3A000400). Rounding the product first (a tie, to even) loses 2^-24: 2^-11.
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  const double e = 1.0 + std::ldexp(1.0, -12);
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {1, 2}, {1, e})},
                                                  {"b", btest::view(DType::F32, {2, 1}, {-1, e})},
                                                  {"c", btest::view(DType::F32, {1, 1})}};
  for (const auto& row : runnable_rows()) {
    auto out = btest::differential(*m, "mm", args, row);
    CHECK(btest::out_view(out, "c").storage->bits[0] == 0x3A000400u);
  }
  // The interpreter's plain sequential order (contract.sequential's) gives the other answer.
  interp::Options o;
  o.accumulation = interp::AccumulationOrder::Sequential;
  auto iargs = args;
  iargs["c"] = btest::view(DType::F32, {1, 1});
  interp::Interpreter(*m, o).run_kernel("mm", iargs);
  CHECK(btest::out_view(iargs, "c").storage->bits[0] == 0x3A000000u);
}

TEST_CASE("packed contract: several reduce pairs are flattened row-major", "[C6][C7]") {
  auto m = btest::load(R"(
kernel @mm(%a: In<f32[M, P, Q]>, %b: In<f32[P, Q, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %p = dim(%a) {axis = 1} : index
  %q = dim(%a) {axis = 2} : index
  %n = dim(%b) {axis = 2} : index
  %dm = domain(%zero, %m) : domain<M>
  %dp = domain(%zero, %p) : domain<P>
  %dq = domain(%zero, %q) : domain<Q>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ip = indices(%dp) : index[P]
  %iq = indices(%dq) : index[Q]
  %in = indices(%dn) : index[N]
  %a0 = broadcast(%im) {dims = [0]} : index[M, P, Q]
  %a1 = broadcast(%ip) {dims = [1]} : index[M, P, Q]
  %a2 = broadcast(%iq) {dims = [2]} : index[M, P, Q]
  %arel = relation(%a0, %a1, %a2) : relation<3 -> [M, P, Q]>
  %b0 = broadcast(%ip) {dims = [0]} : index[P, Q, N]
  %b1 = broadcast(%iq) {dims = [1]} : index[P, Q, N]
  %b2 = broadcast(%in) {dims = [2]} : index[P, Q, N]
  %brel = relation(%b0, %b1, %b2) : relation<3 -> [P, Q, N]>
  %av = view.load(%a, %arel) : f32[M, P, Q]
  %bv = view.load(%b, %brel) : f32[P, Q, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0], [2, 1]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {7, 5, 9}, random_values(315, 21))},
                                                  {"b", btest::view(DType::F32, {5, 9, 18}, random_values(810, 22))},
                                                  {"c", btest::view(DType::F32, {7, 18})}};
  for (const auto& row : runnable_rows()) btest::differential(*m, "mm", args, row);
  // No packing kernel takes a flattened k: the panels are packed by loops of the CPU IR, the
  // flat k split back into (p, q) by floordiv and rem.
  const std::string after = btest::ir_after(*m, "mm", "portable-4x4", "expand");
  INFO(after);
  CHECK(after.find("kernel pack.") == std::string::npos);
  CHECK(after.find("loop %jp = 0 to floordiv.index(add.index(%nc, 3), 4) step 1") != std::string::npos);
  CHECK(after.find("rem.index(add.index(%pc, %kk") != std::string::npos);
}

TEST_CASE("packed contract: its expansion is real CPU IR (golden)", "[C7][C11]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  std::string source;
  const std::string after = btest::ir_after(*m, "mm", "portable-4x4", "expand", &source);
  // The binding is written into the op and kept; the five loops, both packings and the
  // micro-kernel call are statements of the program.
  CHECK(after.find("row portable-4x4") != std::string::npos);
  CHECK(after.find(" contract.packed.portable {mr=4, nv=4, task_m=0, task_n=0, mc=64, nc=1024, kc=128} "
                   "order sequential-fused") != std::string::npos);
  const char* golden[] = {
      "loop %jc = %n0 to %n1 step 1024",
      "loop %pc = 0 to %K step 128",
      "let %kc = min.index(128, sub.index(%K, %pc))",
      // Both operands are packed by the catalog's packing kernel: B's block [pc, jc] of nc x kc
      // (free axis 1, k axis 0), A's block [ic, pc] of mc x kc (free axis 0, k axis 1).
      "kernel pack.f32.f32.w4 %acc_bpanel#16[0] (load %bv#11[%pc, %jc], 1, 0, %nc, %kc, %kc)",
      "loop %ic = %m0 to %m1 step 64",
      "kernel pack.f32.f32.w4 %acc_apanel#15[0] (load %av#10[%ic, %pc], 0, 1, %mc, %kc, %kc)",
      "kernel gemm.f32.portable.4x4 %acc#12[add.index(%ic, %ir), add.index(%jc, %jr)] (load "
      "%acc_apanel#15[mul.index(%ir, %kc)], load %acc_bpanel#16[mul.index(%jr, %kc)], %kc, min.index(4, "
      "sub.index(%mc, %ir)), min.index(4, sub.index(%nc, %jr)), eq.index(%pc, 0), eq.index(add.index(%pc, %kc), %K))",
  };
  for (const char* g : golden) {
    INFO(g << "\n---\n" << after);
    CHECK(after.find(g) != std::string::npos);
  }
  CHECK(source.find("kir_uk::pack<4, 1>(&") != std::string::npos);
  CHECK(source.find("kir_uk::gemm_portable<float, 4, 4>(") != std::string::npos);
}

TEST_CASE("packed contract inside a loop: its panels are allocated where the tasks can see them", "[C6][C5]") {
  // Found by a differential campaign: a contract in a reduce's combine helper runs inside the
  // fold loop; the panels' extents are lets of the contract's task, so the panels must be
  // allocated inside that task, not hoisted out of the loop.
  auto m = btest::load(R"(
fn @add_1(%a: u8[1], %b: u8[1]) -> u8[1] {
  %r = add(%a, %b) : u8[1]
  return(%r)
}

fn @combine2(%a: i64, %b: i64) -> i64 {
  %v0 = or(%a, %b) : i64
  %v1 = const() {value = 0x1.999999999999ap-4} : f64
  %v2 = full(%v1) : f64[2, 2]
  %v3 = const() {value = 0x1.8p+1} : f64
  %v4 = full(%v3) : f64[2, 1]
  %v5 = contract(%v2, %v4) {batch = [], reduce = [[0, 0]]} : f64[2, 1]
  %v6 = cmp(%v5, %v5) {pred = eq} : bool[2, 1]
  %v7 = const() {value = 0x0p+0} : f64
  %v8 = broadcast(%v7) {dims = []} : f64[2, 1]
  %v9 = select(%v6, %v5, %v8) : f64[2, 1]
  %v10 = max(%v9, %v8) : f64[2, 1]
  %v11 = const() {value = 0x1.fep+7} : f64
  %v12 = broadcast(%v11) {dims = []} : f64[2, 1]
  %v13 = min(%v10, %v12) : f64[2, 1]
  %v14 = cast(%v13) : u8[2, 1]
  %v15 = cast(%v5) : bool[2, 1]
  %v16 = cmp(%v5, %v5) {pred = eq} : bool[2, 1]
  %v17 = select(%v16, %v5, %v8) : f64[2, 1]
  %v18 = max(%v17, %v8) : f64[2, 1]
  %v19 = min(%v18, %v12) : f64[2, 1]
  %v20 = cast(%v19) : u8[2, 1]
  %v21 = select(%v15, %v14, %v20) : u8[2, 1]
  %v22 = const() {value = 0} : u8
  %v23 = broadcast(%v22) {dims = []} : u8[1]
  %v24 = reduce(%v20, %v23) {axes = [0], combine = @add_1} : u8[1]
  return(%v0)
}

kernel @fuzz(%in0: In<i64[M]>, %out3: Out<i64[1]>) invocation {M = 3} {
  %v0 = const() {value = 0} : index
  %v1 = dim(%in0) {axis = 0} : index
  %v2 = domain(%v0, %v1) : domain<M>
  %v3 = indices(%v2) : index[M]
  %v4 = relation(%v3) : relation<1 -> [M]>
  %v5 = view.load(%in0, %v4) : i64[M]
  %v6 = const() {value = 0} : i64
  %v7 = reduce(%v5, %v6) {axes = [0], combine = @combine2} : i64
  %v8 = relation(%v0) : relation<1 -> []>
  view.store(%out3, %v8, %v7)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"in0", btest::view(DType::I64, {3}, {1, 2, 4})},
                                                  {"out3", btest::view(DType::I64, {1})}};
  auto out = btest::differential(*m, "fuzz", args);
  CHECK(btest::values(btest::out_view(out, "out3")) == std::vector<double>{7});
}

TEST_CASE("packed contract: a result stored unchanged is written into the view, at any strides", "[C5][C6][C8]") {
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  auto opt = btest::options();
  opt.config_row = runnable_rows().back();
  std::ostringstream dump;
  opt.print_after_all = &dump;
  cpu::compile_to_source(*m, "mm", opt);
  const std::string text = dump.str();
  const auto at = text.find("// ----- CPU IR after result-forwarding");
  REQUIRE(at != std::string::npos);
  const std::string after = text.substr(at, text.find("// ----- CPU IR after loop-formation") - at);
  CHECK(after.find(" %c#2[add.index(%ic, %ir), add.index(%jc, %jr)]") != std::string::npos);  // the kernel writes %c
  CHECK(after.find("compute %c#2") == std::string::npos);                                   // no copy left
  // A column-major output view (column stride M): the micro-kernel stores through both strides.
  const int64_t M = 21, K = 17, N = 26;
  interp::HostView c = btest::view(DType::F32, {M, N});
  c.strides = {1, M};
  std::map<std::string, interp::KernelArg> args = {
      {"a", btest::view(DType::F32, {M, K}, random_values(static_cast<size_t>(M * K), 31))},
      {"b", btest::view(DType::F32, {K, N}, random_values(static_cast<size_t>(K * N), 32))},
      {"c", c}};
  for (const auto& row : runnable_rows()) btest::differential(*m, "mm", args, row);
}

TEST_CASE("packed contract: a result read twice keeps its buffer and its copy", "[C5]") {
  auto m = btest::load(R"(
kernel @mm(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %c: Out<f32[M, N]>, %d: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
  %twice = add(%acc, %acc) : f32[M, N]
  view.store(%d, %crel, %twice)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {9, 5}, random_values(45, 41))},
                                                  {"b", btest::view(DType::F32, {5, 7}, random_values(35, 42))},
                                                  {"c", btest::view(DType::F32, {9, 7})},
                                                  {"d", btest::view(DType::F32, {9, 7})}};
  auto out = btest::differential(*m, "mm", args, runnable_rows().back());
  auto c = btest::values(btest::out_view(out, "c")), d = btest::values(btest::out_view(out, "d"));
  for (size_t i = 0; i < c.size(); ++i) CHECK(d[i] == 2 * c[i]);
}
