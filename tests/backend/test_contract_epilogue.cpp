// Epilogue fusion (passes/epilogue.cpp; C5, C6): the pointwise Compute after a packed contract
// (bias + erf GELU, an int8 dequantization) is applied to each MC x NC block once its last KC
// block is in, and to whole tiles on the paths without micro-tiles (K = 0, the gemv tiles of at most
// four rows). Each case runs every runnable row against the interpreter bit for bit over shapes
// that reach every tail; the golden tests check where the epilogue lands in the CPU IR, and the
// negative cases that a Compute which could fault, or which writes other coordinates, stays a
// separate pass.
#include <random>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  if (cpu::rt::host_capabilities().avx2 && cpu::rt::host_capabilities().fma) rows.push_back("avx2-6x2");
  if (cpu::rt::host_capabilities().avx512f) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-6x4");
  }
  return rows;
}

std::vector<double> random_values(size_t n, uint32_t seed, double lo, double hi) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

std::vector<double> random_ints(size_t n, uint32_t seed, int lo, int hi) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

// %acc = %a @ %b (operands `dt`, accumulator `acc`), then `tail` (KIR lines over %acc, the
// broadcast per-column vector %vb of dtype `vdt`, and the coordinates %im/%in), storing %y of
// `out` into %c through `crel` (given by `tail`).
std::string gemm_then(const std::string& dt, const std::string& acc, const std::string& vdt, const std::string& out,
                      const std::string& tail) {
  return "kernel @k(%a: In<" + dt + "[M, K]>, %b: In<" + dt + "[K, N]>, %v: In<" + vdt + "[N]>, %c: Out<" + out +
         R"([M, N]>) {
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
  %av = view.load(%a, %arel) : )" + dt + R"([M, K]
  %bv = view.load(%b, %brel) : )" + dt + R"([K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : )" + acc + R"([M, N]
  %vrel = relation(%in) : relation<1 -> [N]>
  %vv = view.load(%v, %vrel) : )" + vdt + R"([N]
  %vb = broadcast(%vv) {dims = [1]} : )" + vdt + R"([M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
)" + tail + "}\n";
}

// y = x * 1/2 * (1 + erf(x / sqrt 2)) with x = acc + bias, written in place of the result.
const std::string kGelu = R"(  %x = add(%acc, %vb) : f32[M, N]
  %half = const() {value = 0.5} : f32
  %halfb = broadcast(%half) {dims = []} : f32[M, N]
  %r2 = const() {value = 0x1.6a09e6p-1} : f32
  %r2b = broadcast(%r2) {dims = []} : f32[M, N]
  %one = const() {value = 1.0} : f32
  %oneb = broadcast(%one) {dims = []} : f32[M, N]
  %xs = mul(%x, %r2b) : f32[M, N]
  %e = erf(%xs) : f32[M, N]
  %e1 = add(%e, %oneb) : f32[M, N]
  %hx = mul(%x, %halfb) : f32[M, N]
  %y = mul(%hx, %e1) : f32[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %y)
)";

// y = f32(acc) * scale[j]: the i32 result cannot hold y, so the result buffer stays.
const std::string kDequant = R"(  %f = cast(%acc) : f32[M, N]
  %y = mul(%f, %vb) : f32[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %y)
)";

struct Shape3 {
  int64_t m, k, n;
};
// K = 0 (with and without the gemv path), tiles of at most four rows, micro-tile and KC/MC tails.
const std::vector<Shape3> kShapes = {{1, 1, 1},    {3, 5, 7},    {2, 0, 3},    {5, 0, 9},  {13, 2, 65},
                                     {37, 29, 45}, {25, 300, 97}, {150, 130, 200}};

std::map<std::string, interp::KernelArg> float_args(const Shape3& s, uint32_t seed) {
  return {{"a", btest::view(DType::F32, {s.m, s.k}, random_values(static_cast<size_t>(s.m * s.k), seed, -1, 1))},
          {"b", btest::view(DType::F32, {s.k, s.n}, random_values(static_cast<size_t>(s.k * s.n), seed + 1, -1, 1))},
          {"v", btest::view(DType::F32, {s.n}, random_values(static_cast<size_t>(s.n), seed + 2, -1, 1))},
          {"c", btest::view(DType::F32, {s.m, s.n})}};
}

}  // namespace

TEST_CASE("epilogue: contract + bias + erf GELU on every block agrees with the interpreter over all tails",
          "[C5][C6]") {
  auto m = btest::load(gemm_then("f32", "f32", "f32", "f32", kGelu));
  uint32_t seed = 1;
  for (const auto& row : runnable_rows())
    for (const auto& s : kShapes) {
      INFO("M=" << s.m << " K=" << s.k << " N=" << s.n);
      btest::differential(*m, "k", float_args(s, seed), row);
      seed += 3;
    }
}

TEST_CASE("epilogue: an i8 contract dequantized to f32 keeps its i32 result and agrees over all tails", "[C5][C6]") {
  auto m = btest::load(gemm_then("i8", "i32", "f32", "f32", kDequant));
  uint32_t seed = 100;
  for (const auto& row : runnable_rows())
    for (const auto& s : kShapes) {
      INFO("M=" << s.m << " K=" << s.k << " N=" << s.n);
      std::map<std::string, interp::KernelArg> args = {
          {"a", btest::view(DType::I8, {s.m, s.k}, random_ints(static_cast<size_t>(s.m * s.k), seed, -128, 127))},
          {"b", btest::view(DType::I8, {s.k, s.n}, random_ints(static_cast<size_t>(s.k * s.n), seed + 1, -128, 127))},
          {"v", btest::view(DType::F32, {s.n}, random_values(static_cast<size_t>(s.n), seed + 2, -0.01, 0.01))},
          {"c", btest::view(DType::F32, {s.m, s.n})}};
      btest::differential(*m, "k", args, row);
      seed += 3;
    }
}

TEST_CASE("epilogue: the GELU is applied to each MC x NC block after its last KC block, in place (golden)", "[C5][C7]") {
  auto m = btest::load(gemm_then("f32", "f32", "f32", "f32", kGelu));
  const std::string handed = btest::ir_after(*m, "k", "portable-4x4", "epilogue");
  // The Compute is now the contract's epilogue, reading the view it overwrites.
  CHECK(handed.find("-> (%c#3) acc f32 impl \"contract.packed.portable\"") != std::string::npos);
  CHECK(handed.find(" epilogue %c#3[%s0, %s1] for (%s0, %s1) = ") != std::string::npos);
  CHECK(handed.find("compute %c#3") == std::string::npos);
  const std::string after = btest::ir_after(*m, "k", "portable-4x4", "expand");
  const char* golden[] = {
      "kernel gemm.f32.portable.4x4 %c#3[add.index(%ic, %ir), add.index(%jc, %jr)]",
      "if eq.index(add.index(%pc, %kc), %K)",
      "loop %er#",  // the block's rows and columns
      " = 0 to %mc step 1",
      " = 0 to %nc step 1",
      "store %c#3[add.index(%ic, %er#",
      "erf.f32(",
      // The gemv tile and the K = 0 tile: the whole task tile.
      " = 0 to sub.index(%m1, %m0) step 1",
  };
  for (const char* g : golden) {
    INFO(g << "\n---\n" << after);
    CHECK(after.find(g) != std::string::npos);
  }
  CHECK(after.find("load %c#3[add.index(%ic, %er#") != std::string::npos);  // read back in place
}

TEST_CASE("epilogue: a result of another dtype is read from the result buffer (golden)", "[C5][C7]") {
  auto m = btest::load(gemm_then("i8", "i32", "f32", "f32", kDequant));
  const std::string after = btest::ir_after(*m, "k", "portable-4x4", "expand");
  INFO(after);
  CHECK(after.find("kernel gemm.u8i8.portable.4x4 %acc#") != std::string::npos);
  CHECK(after.find("if eq.index(add.index(%pc, %kc), %K)") != std::string::npos);
  CHECK(after.find("= mul.f32{op 26}(cast.i32->f32{op 24}(load %acc#") != std::string::npos);
}

TEST_CASE("epilogue: a Compute that may fault or writes other coordinates stays a separate pass", "[C5]") {
  // Integer division faults on a zero divisor: fused, the fault would come at another moment.
  auto div = btest::load(gemm_then("i8", "i32", "i32", "i32", R"(  %y = div(%acc, %vb) : i32[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %y)
)"));
  CHECK(btest::ir_after(*div, "k", "portable-4x4", "epilogue").find(" epilogue ") == std::string::npos);
  const Shape3 s{7, 9, 6};
  std::map<std::string, interp::KernelArg> args = {
      {"a", btest::view(DType::I8, {s.m, s.k}, random_ints(static_cast<size_t>(s.m * s.k), 5, -128, 127))},
      {"b", btest::view(DType::I8, {s.k, s.n}, random_ints(static_cast<size_t>(s.k * s.n), 6, -128, 127))},
      {"v", btest::view(DType::I32, {s.n}, {3, -7, 1, 100, -1, 9})},
      {"c", btest::view(DType::I32, {s.m, s.n})}};
  btest::differential(*div, "k", args, "portable-4x4");
  // Stored transposed (a square result through the relation (j, i)): not at its own coordinates.
  auto tr = btest::load(gemm_then("f32", "f32", "f32", "f32", R"(  %y = add(%acc, %vb) : f32[M, N]
  %crel = relation(%cn, %cm) : relation<2 -> [M, N]>
  view.store(%c, %crel, %y)
)"));
  CHECK(btest::ir_after(*tr, "k", "portable-4x4", "epilogue").find(" epilogue ") == std::string::npos);
  for (const auto& row : runnable_rows()) btest::differential(*tr, "k", float_args({9, 4, 9}, 77), row);
}

TEST_CASE("epilogue: a bitcast epilogue sees the canonical NaN of every NaN the contract produced", "[C5][C6][L7.6]") {
  // The differential fuzz campaign's finding: the fused epilogue read the micro-kernel's raw NaN
  // (its operand's payload, or x86's negative default NaN for Inf * 0) where the language has the
  // canonical one, and a bitcast to i32 made the difference visible.
  auto m = btest::load(gemm_then("f32", "f32", "f32", "i32", R"(  %y = bitcast(%acc) : i32[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %y)
)"));
  CHECK(btest::ir_after(*m, "k", "portable-4x4", "epilogue").find(" epilogue ") != std::string::npos);
  uint32_t seed = 300;
  for (const auto& row : runnable_rows())
    for (const auto& s : {Shape3{3, 5, 7}, Shape3{37, 29, 45}, Shape3{25, 300, 97}}) {
      INFO("M=" << s.m << " K=" << s.k << " N=" << s.n);
      auto args = float_args(s, seed);
      args["c"] = btest::view(DType::I32, {s.m, s.n});
      seed += 3;
      auto& a = std::get<interp::HostView>(args.at("a")).storage->bits;
      auto& b = std::get<interp::HostView>(args.at("b")).storage->bits;
      a[1] = 0x7FC12345u;                                    // row 0: a NaN with a payload
      b[static_cast<size_t>(s.n + 2)] = 0xFFC00001u;         // column 2: a negative NaN
      a[static_cast<size_t>(s.k)] = 0x7F800000u;             // row 1 x column N-1: Inf * 0
      b[static_cast<size_t>(s.n - 1)] = 0;
      auto out = btest::differential(*m, "k", args, row);
      const auto& c = btest::out_view(out, "c").storage->bits;
      for (int64_t j = 0; j < s.n; ++j) CHECK(c[static_cast<size_t>(j)] == 0x7FC00000u);
      for (int64_t i = 0; i < s.m; ++i) CHECK(c[static_cast<size_t>(i * s.n + 2)] == 0x7FC00000u);
      CHECK(c[static_cast<size_t>(s.n + s.n - 1)] == 0x7FC00000u);
    }
}
