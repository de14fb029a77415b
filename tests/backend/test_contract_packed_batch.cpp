// Batched packed contracts (contract.packed.* / contract.packed_i8.* with batch pairs; C6, C7):
// the tasks run over the batch elements, each a packed matrix product at its batch coordinates.
// Every runnable row agrees with the interpreter bit for bit — one batch pair (bmm), two batch
// pairs whose axes sit at different positions in the two operands, an i8 bmm, batch extents 0
// and 1 — and the expansion is checked as CPU IR; a product whose lhs free axis precedes a batch
// axis is left to the sequential implementation, which agrees too.
#include <random>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  if (cpu::rt::host_capabilities().avx2 && cpu::rt::host_capabilities().fma) rows.push_back("avx2-6x2");
  if (cpu::rt::host_capabilities().avx512f) rows.push_back("avx512-12x2");
  return rows;
}

std::vector<double> random_values(size_t n, uint32_t seed, bool ints) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::uniform_int_distribution<int> i(-128, 127);
  std::vector<double> v(n);
  for (auto& x : v) x = ints ? i(g) : u(g);
  return v;
}

std::string list(const std::string& dims) {
  std::string out;
  for (char d : dims) out += (out.empty() ? "" : ", ") + std::string(1, d);
  return out;
}

// %name loaded through the identity relation over its axes `dims` (one letter per axis).
std::string load(const std::string& name, const std::string& dims, const std::string& dt) {
  std::string t, args;
  for (size_t p = 0; p < dims.size(); ++p) {
    const std::string v = "%" + name + std::to_string(p);
    t += "  " + v + " = broadcast(%i" + dims[p] + ") {dims = [" + std::to_string(p) + "]} : index[" + list(dims) + "]\n";
    args += (p ? ", " : "") + v;
  }
  t += "  %" + name + "rel = relation(" + args + ") : relation<" + std::to_string(dims.size()) + " -> [" + list(dims) + "]>\n";
  t += "  %" + name + "v = view.load(%" + name + ", %" + name + "rel) : " + dt + "[" + list(dims) + "]\n";
  return t;
}

// %c = contract(%a, %b) over the given axes (letters; each extent is read from the first
// operand that has it), stored into %c.
std::string batched_kir(const std::string& dt, const std::string& acc, const std::string& a, const std::string& b,
                        const std::string& c, const std::string& batch, const std::string& reduce) {
  std::string t = "kernel @k(%a: In<" + dt + "[" + list(a) + "]>, %b: In<" + dt + "[" + list(b) + "]>, %c: Out<" + acc +
                  "[" + list(c) + "]>) {\n  %zero = const() {value = 0} : index\n";
  std::string seen;
  for (const auto& [op, dims] : {std::pair<std::string, std::string>{"a", a}, {"b", b}})
    for (size_t p = 0; p < dims.size(); ++p) {
      if (seen.find(dims[p]) != std::string::npos) continue;
      seen += dims[p];
      const std::string X(1, dims[p]);
      t += "  %n" + X + " = dim(%" + op + ") {axis = " + std::to_string(p) + "} : index\n";
      t += "  %d" + X + " = domain(%zero, %n" + X + ") : domain<" + X + ">\n";
      t += "  %i" + X + " = indices(%d" + X + ") : index[" + X + "]\n";
    }
  t += load("a", a, dt) + load("b", b, dt);
  t += "  %r = contract(%av, %bv) {batch = " + batch + ", reduce = " + reduce + "} : " + acc + "[" + list(c) + "]\n";
  t += load("c", c, acc).substr(0, load("c", c, acc).find("  %cv"));
  t += "  view.store(%c, %crel, %r)\n}\n";
  return t;
}

int64_t count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
}

void run(const Module& m, DType dt, DType acc, const std::vector<int64_t>& a, const std::vector<int64_t>& b,
         const std::vector<int64_t>& c, uint32_t seed, const std::string& row) {
  const bool ints = dt == DType::I8;
  std::map<std::string, interp::KernelArg> args = {
      {"a", btest::view(dt, a, random_values(static_cast<size_t>(count(a)), seed, ints))},
      {"b", btest::view(dt, b, random_values(static_cast<size_t>(count(b)), seed + 1, ints))},
      {"c", btest::view(acc, c)}};
  btest::differential(m, "k", args, row);
}

}  // namespace

TEST_CASE("batched packed contract: bmm over every row and tail, batch 0, 1 and 3", "[C6][C7]") {
  auto m = btest::load(batched_kir("f32", "f32", "BMK", "BKN", "BMN", "[[0, 0]]", "[[2, 1]]"));
  uint32_t seed = 1;
  for (const auto& row : runnable_rows())
    for (int64_t B : {0, 1, 3})
      for (auto [M, K, N] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {3, 7, 5}, {13, 0, 9}, {37, 29, 45}}) {
        INFO("B=" << B << " M=" << M << " K=" << K << " N=" << N);
        run(*m, DType::F32, DType::F32, {B, M, K}, {B, K, N}, {B, M, N}, seed, row);
        seed += 2;
      }
}

TEST_CASE("batched packed contract: two batch pairs at different positions in the operands", "[C6][C7]") {
  // a[H, B, M, K] x b[B, H, K, N] -> c[H, B, M, N] with batch pairs (H: 0 <-> 1, B: 1 <-> 0).
  auto m = btest::load(batched_kir("f64", "f64", "HBMK", "BHKN", "HBMN", "[[0, 1], [1, 0]]", "[[3, 2]]"));
  for (const auto& row : runnable_rows()) run(*m, DType::F64, DType::F64, {2, 3, 6, 11}, {3, 2, 11, 7}, {2, 3, 6, 7}, 40, row);
}

TEST_CASE("batched packed contract: i8 x i8 into i32 (VNNI form) per batch element", "[C6][C7]") {
  auto m = btest::load(batched_kir("i8", "i32", "BMK", "BKN", "BMN", "[[0, 0]]", "[[2, 1]]"));
  for (const auto& row : runnable_rows()) run(*m, DType::I8, DType::I32, {3, 17, 21}, {3, 21, 19}, {3, 17, 19}, 60, row);
}

TEST_CASE("batched packed contract: tasks over the batch elements, the kernel at their coordinates (golden)", "[C7][C11]") {
  auto m = btest::load(batched_kir("f32", "f32", "BMK", "BKN", "BMN", "[[0, 0]]", "[[2, 1]]"));
  const std::string after = btest::ir_after(*m, "k", "portable-4x4", "expand");
  const char* golden[] = {
      "contract.packed.portable {",
      "let %tiles = mul.index(floordiv.index(add.index(%M, sub.index(%task_rows, 1)), %task_rows), %tasks_n)",
      "tasks %tile < mul.index(%tiles, %B)",
      "let %b0 = floordiv.index(%tile, %tiles)",
      "let %t = rem.index(%tile, %tiles)",
      "kernel pack.f32.f32.w4 %r_bpanel#",
      "(load %bv#",
      "[%b0, %pc, %jc], 2, 1, %nc, %kc, %kc)",
      "[%b0, %ic, %pc], 1, 2, %mc, %kc, %kc)",
      "kernel gemm.f32.portable.4x4 %r#",
      "[%b0, add.index(%ic, %ir), add.index(%jc, %jr)]",
  };
  for (const char* g : golden) {
    INFO(g << "\n---\n" << after);
    CHECK(after.find(g) != std::string::npos);
  }
}

TEST_CASE("batched contract: an lhs free axis before a batch axis takes the sequential implementation", "[C6][C11]") {
  // a[M, B, K] x b[B, K, N] -> c[M, B, N]: the result's rows are not its second-to-last axis.
  auto m = btest::load(batched_kir("f32", "f32", "MBK", "BKN", "MBN", "[[1, 0]]", "[[2, 1]]"));
  const std::string after = btest::ir_after(*m, "k", "portable-4x4", "select");
  CHECK(after.find("contract.sequential") != std::string::npos);
  run(*m, DType::F32, DType::F32, {5, 2, 3}, {2, 3, 4}, {5, 2, 4}, 80, "portable-4x4");
}
