// reduce.lanes (C6, C7, L7.3): a float reduce of one component runs in L lanes — the point at
// coordinate c of the last reduced axis goes to lane c mod L, each lane folds from the identity,
// and the lanes that received a point are folded left to right. The interpreter evaluates the
// same declared order (Options::reduce_lanes_at), so the two agree bit for bit over every tail
// (extent 0, below L, L, L + 1, several groups plus a tail), for rows, columns, whole tensors,
// fused sources, max and f64. Known answers show the order is really the lanes order (it differs
// from the canonical fold), and the golden test shows the expansion.
#include <cmath>

#include "backend_test.h"

using namespace kir;

namespace {

// A kernel over a 2-D view %x whose loaded values are %v; `body` computes %s and stores it into %y.
std::string kernel2(const std::string& name, const std::string& out, const std::string& body) {
  return "kernel @" + name + "(%x: In<$t[M, N]>, %y: Out<$t[" + out + R"(]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %rows = domain(%zero, %m) : domain<M>
  %cols = domain(%zero, %n) : domain<N>
  %ri = indices(%rows) : index[M]
  %ci = indices(%cols) : index[N]
  %rb = broadcast(%ri) {dims = [0]} : index[M, N]
  %cb = broadcast(%ci) {dims = [1]} : index[M, N]
  %rel = relation(%rb, %cb) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : $t[M, N]
)" + body + "}\n\n";
}

std::string kernels() {
  const std::string per_row = "  %orel = relation(%ri) : relation<1 -> [M]>\n  view.store(%y, %orel, %s)\n";
  return R"(
fn @add_acc(%a: $t[R], %b: $t[R]) -> $t[R] {
  %r = add(%a, %b) : $t[R]
  return(%r)
}

fn @add_s(%a: $t, %b: $t) -> $t {
  %r = add(%a, %b) : $t
  return(%r)
}

fn @max_acc(%a: $t[R], %b: $t[R]) -> $t[R] {
  %r = max(%a, %b) : $t[R]
  return(%r)
}

)" + kernel2("rows", "M", R"(  %zf = const() {value = 0.0} : $t
  %id = full(%zf) : $t[M]
  %s = reduce(%v, %id) {axes = [1], combine = @add_acc} : $t[M]
)" + per_row) +
         kernel2("cols", "N", R"(  %zf = const() {value = 0.0} : $t
  %id = full(%zf) : $t[N]
  %s = reduce(%v, %id) {axes = [0], combine = @add_acc} : $t[N]
  %orel = relation(%ci) : relation<1 -> [N]>
  view.store(%y, %orel, %s)
)") +
         kernel2("all", "1", R"(  %zf = const() {value = 0.0} : $t
  %s = reduce(%v, %zf) {axes = [0, 1], combine = @add_s} : $t
  %orel = relation(%zero) : relation<1 -> []>
  view.store(%y, %orel, %s)
)") +
         kernel2("squares", "M", R"(  %sq = mul(%v, %v) : $t[M, N]
  %zf = const() {value = 0.0} : $t
  %id = full(%zf) : $t[M]
  %s = reduce(%sq, %id) {axes = [1], combine = @add_acc} : $t[M]
)" + per_row) +
         kernel2("rowmax", "M", R"(  %ninf = const() {value = -inf} : $t
  %id = full(%ninf) : $t[M]
  %s = reduce(%v, %id) {axes = [1], combine = @max_acc} : $t[M]
)" + per_row);
}

std::string text_for(const std::string& dtype) {
  std::string k = kernels();
  for (size_t p = 0; (p = k.find("$t", p)) != std::string::npos; p += dtype.size()) k.replace(p, 2, dtype);
  return k;
}

// Values with cancellation, so the order of additions shows in the bits.
std::vector<double> values_for(int64_t n, uint64_t seed) {
  std::vector<double> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const int e = static_cast<int>((s >> 33) % 40) - 20;
    x = std::ldexp(static_cast<double>((s >> 40) % 2001) - 1000.0, e);
  }
  return v;
}

std::map<std::string, interp::KernelArg> args2(DType d, int64_t m, int64_t n, const interp::Shape& out, uint64_t seed) {
  return {{"x", btest::view(d, {m, n}, values_for(m * n, seed))}, {"y", btest::view(d, out)}};
}

const char* kRowsL = R"(rows:
  - name: lanes-L
    shared: {task_m: 0, task_n: 0, mc: 64, nc: 256, kc: 64}
    local: {mr: 4, nv: 4, lanes: L, block: B}
    implementations: [contract.packed.portable, contract.sequential, reduce.fold, reduce.lanes, scan.fold]
)";

std::string rows_with_lanes(int64_t lanes, int64_t block = 0) {
  std::string t = kRowsL;
  t.replace(t.find("lanes-L"), 7, "lanes-" + std::to_string(lanes));
  t.replace(t.find("lanes: L"), 8, "lanes: " + std::to_string(lanes));
  t.replace(t.find("block: B"), 8, "block: " + std::to_string(block));
  return t;
}

}  // namespace

TEST_CASE("reduce.lanes: rows, columns, whole tensors, fused sources and max agree over every tail", "[C6][C7][L7.3]") {
  for (const char* dt : {"f32", "f64"}) {
    auto m = btest::load(text_for(dt));
    const DType d = std::string(dt) == "f32" ? DType::F32 : DType::F64;
    for (int64_t n : {0, 1, 7, 63, 64, 65, 129, 300}) {
      INFO(dt << " N = " << n);
      btest::differential(*m, "rows", args2(d, 3, n, {3}, static_cast<uint64_t>(n)));
      btest::differential(*m, "squares", args2(d, 2, n, {2}, static_cast<uint64_t>(n) + 1));
      btest::differential(*m, "rowmax", args2(d, 2, n, {2}, static_cast<uint64_t>(n) + 2));
      btest::differential(*m, "cols", args2(d, n, 5, {5}, static_cast<uint64_t>(n) + 3));
      btest::differential(*m, "all", args2(d, 3, n, {1}, static_cast<uint64_t>(n) + 4));
      btest::differential(*m, "all", args2(d, n, 2, {1}, static_cast<uint64_t>(n) + 5));
    }
  }
}

TEST_CASE("reduce.lanes: every lane count of the domain edge and between agrees", "[C6][C11]") {
  auto m = btest::load(text_for("f32"));
  for (int64_t lanes : {1, 2, 3, 16, 256}) {
    btest::WithRows rows(rows_with_lanes(lanes));
    for (int64_t n : {0, 1, 2, 5, 17, 257, 600}) {
      INFO("lanes " << lanes << " N = " << n);
      btest::differential(*m, "rows", args2(DType::F32, 2, n, {2}, static_cast<uint64_t>(n + lanes)));
      btest::differential(*m, "all", args2(DType::F32, 2, n, {1}, static_cast<uint64_t>(n + lanes)));
    }
  }
}

TEST_CASE("reduce.lanes: blocks (tasks for a one-element result, a loop otherwise) agree over every tail", "[C6][C4][L7.3]") {
  auto m = btest::load(text_for("f32"));
  for (auto [lanes, block] : {std::pair<int64_t, int64_t>{1, 1}, {1, 3}, {2, 4}, {4, 8}, {8, 64}}) {
    btest::WithRows rows(rows_with_lanes(lanes, block));
    for (int64_t n : {0, 1, 3, 7, 8, 9, 64, 65, 130, 1000}) {
      INFO("lanes " << lanes << " block " << block << " N = " << n);
      btest::differential(*m, "all", args2(DType::F32, 1, n, {1}, static_cast<uint64_t>(n + block)));
      btest::differential(*m, "all", args2(DType::F32, 3, n, {1}, static_cast<uint64_t>(n + block + 1)));
      btest::differential(*m, "rows", args2(DType::F32, 2, n, {2}, static_cast<uint64_t>(n + block + 2)));
      btest::differential(*m, "rowmax", args2(DType::F32, 2, n, {2}, static_cast<uint64_t>(n + block + 3)));
    }
  }
  // Known answer: [1e8, 1, -1e8, 1], one lane, blocks of two: (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0
  // (canonically 1), through the tasks of a one-element result and the loop of a row result.
  btest::WithRows rows(rows_with_lanes(1, 2));
  auto all = btest::differential(*m, "all", {{"x", btest::view(DType::F32, {1, 4}, {1e8, 1, -1e8, 1})}, {"y", btest::view(DType::F32, {1})}});
  CHECK(btest::values(btest::out_view(all, "y")) == std::vector<double>{0.0});
  auto row = btest::differential(*m, "rows", {{"x", btest::view(DType::F32, {1, 4}, {1e8, 1, -1e8, 1})}, {"y", btest::view(DType::F32, {1})}});
  CHECK(btest::values(btest::out_view(row, "y")) == std::vector<double>{0.0});
}

TEST_CASE("reduce.lanes: a block that is not a multiple of the lanes rejects the row, with the reason", "[C11]") {
  auto m = btest::load(text_for("f32"));
  btest::WithRows rows(rows_with_lanes(4, 6));
  try {
    cpu::compile_to_source(*m, "rows", btest::options());
    FAIL("the row was accepted");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("block is not a multiple of lanes") != std::string::npos);
  }
}

TEST_CASE("reduce.lanes: the known answer of the lanes order, which the canonical fold does not give", "[C6][L7.3]") {
  // [1e8, 1, -1e8, 1] in f32 (ulp of 1e8 is 8): the canonical fold gives ((1e8 + 1) - 1e8) + 1
  // = 1; two lanes give (1e8 - 1e8) + (1 + 1) = 2; three lanes give ((1e8 + 1) + 1) - 1e8 = 0.
  auto m = btest::load(text_for("f32"));
  auto args = [] { return std::map<std::string, interp::KernelArg>{{"x", btest::view(DType::F32, {1, 4}, {1e8, 1, -1e8, 1})}, {"y", btest::view(DType::F32, {1})}}; };
  for (auto [lanes, expect] : {std::pair<int64_t, double>{1, 1.0}, {2, 2.0}, {3, 0.0}}) {
    btest::WithRows rows(rows_with_lanes(lanes));
    auto out = btest::differential(*m, "rows", args());
    CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{expect});
  }
  // The comparison is not vacuous: the interpreter's canonical fold disagrees with two lanes.
  btest::WithRows rows(rows_with_lanes(2));
  auto bargs = args();
  oracle::run_on_backend(*m, "rows", bargs, btest::options());
  auto iargs = args();
  interp::Interpreter(*m).run_kernel("rows", iargs);
  CHECK(btest::values(btest::out_view(bargs, "y")) == std::vector<double>{2.0});
  CHECK(btest::values(btest::out_view(iargs, "y")) == std::vector<double>{1.0});
}

TEST_CASE("reduce.lanes: its expansion is real CPU IR (golden)", "[C7][C11]") {
  auto m = btest::load(text_for("f32"));
  std::string source;
  const std::string after = btest::ir_after(*m, "rows", "portable-4x4", "expand", &source);
  CHECK(after.find(" reduce.lanes {lanes=8, block=1024} order lanes") != std::string::npos);
  const char* golden[] = {
      "loop %blk = 0 to select.index(eq.index(%N, 0), 1, floordiv.index(add.index(%N, 1023), 1024)) step 1 {",
      " = 0 to 8 step 1 {",
      "let %len = sub.index(min.index(%N, add.index(mul.index(%blk, 1024), 1024)), mul.index(%blk, 1024))",
      "let %main = add.index(mul.index(%blk, 1024), sub.index(%len, rem.index(%len, 8)))",
      "loop %q0 = mul.index(%blk, 1024) to %main step 8 {",
      "add_nw.index(%q0, %lane#",
      "add_nw.index(%main, %lane#",
      "let %used = select.index(eq.index(%N, 0), 1, min.index(8, %len))",
      " = 1 to %used step 1 {",
      "if eq.index(%blk, 0) {",
  };
  for (const char* g : golden) {
    INFO(g << "\n---\n" << after);
    CHECK(after.find(g) != std::string::npos);
  }
  CHECK(source.find("kir_gen::StackBuf<float, 8>") != std::string::npos);
  // A one-element result: the blocks are tasks, each writing its partial; then the fold.
  const std::string all = btest::ir_after(*m, "all", "portable-4x4", "expand");
  INFO(all);
  CHECK(all.find("tasks %blk#") != std::string::npos);
  CHECK(all.find("select.index(eq.index(mul.index(%N, %M), 0), 1, floordiv.index(add.index(%N, 1023), 1024))") != std::string::npos);
  CHECK(all.find("store %s_partials#") != std::string::npos);
}
