// The coverage map (driver/coverage.h): the Cover statements the implementations place count,
// in the generated code, exactly the times each path, tail class, task split and epilogue ran.
// The expected counts are worked out by hand from the blocking of a small config row (in the
// comments), independently of the expansion's own arithmetic.
#include "backend_test.h"
#include "backends/cpu/driver/coverage.h"

using namespace kir;

namespace {

// A portable row with tiny blocks (NR = nv = 2 on the portable ISA, one element per vector).
const std::string kRows =
    "rows:\n  - name: cov\n    shared: {task_m: 5, task_n: 6, mc: 4, nc: 4, kc: 3}\n    local: {mr: 2, nv: 2}\n"
    "    implementations: [contract.packed.portable, contract.sequential, reduce.fold, scan.fold, quantize.q8k, "
    "quantized_dot.q4k_q8k, scaled_contract.sequential, sparse_contract.sequential, histogram.serial]\n";

std::map<std::string, interp::KernelArg> mm_args(int64_t m, int64_t k, int64_t n) {
  auto fill = [](int64_t count) {
    std::vector<double> v(static_cast<size_t>(count));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 7) - 3;
    return v;
  };
  return {{"a", btest::view(DType::F32, {m, k}, fill(m * k))},
          {"b", btest::view(DType::F32, {k, n}, fill(k * n))},
          {"c", btest::view(DType::F32, {m, n})}};
}

// Runs `kernel` on the backend (row `cov`) inside a coverage scope; returns the map.
cpu::CoverageMap covered(const Module& m, const std::string& kernel, std::map<std::string, interp::KernelArg> args) {
  auto opt = btest::options();
  opt.config_row = "cov";
  cpu::CoverageMap map;
  cpu::CoverageScope scope(map);
  oracle::run_on_backend(m, kernel, args, opt);
  return map;
}

uint64_t count(const cpu::CoverageMap& m, const std::string& cell) {
  auto it = m.cells.find(cell);
  return it == m.cells.end() ? UINT64_MAX : it->second;  // UINT64_MAX: the program has no such cell
}

// c = a @ b + v (a broadcast row vector): the add is the contract's epilogue.
std::string gemm_bias() {
  std::string t = btest::matmul_kir("f32", "f32", false);
  t.replace(t.find("%c: Out<"), 0, "%v: In<f32[N]>, ");
  t.replace(t.find("  %crel"), 0,
            "  %vrel = relation(%in) : relation<1 -> [N]>\n  %vv = view.load(%v, %vrel) : f32[N]\n"
            "  %vb = broadcast(%vv) {dims = [1]} : f32[M, N]\n  %y = add(%acc, %vb) : f32[M, N]\n");
  t.replace(t.find("view.store(%c, %crel, %acc)"), 27, "view.store(%c, %crel, %y)");
  return t;
}

}  // namespace

TEST_CASE("coverage: the packed contract counts its paths, task splits and every tail class", "[C6][C11][coverage]") {
  btest::WithRows rows(kRows);
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  // M = 7, K = 7, N = 9 with task tiles 5 x 6: rows [0,5) [5,7) and columns [0,6) [6,9), four
  // tasks, both splits uneven. The two tasks of 2 rows take the gemv kernel, the two of 5 rows
  // the blocked path. MC = 4, NC = 4, KC = 3, MR = 2, NR = 2.
  const auto c = covered(*m, "mm", mm_args(7, 7, 9));
  CHECK(count(c, "impl:contract.packed.portable@cov") == 1);
  CHECK(count(c, "dtype:contract.packed.portable:f32xf32->f32") == 1);
  CHECK(count(c, "contract.packed.portable/task-rows:uneven") == 1);
  CHECK(count(c, "contract.packed.portable/task-cols:uneven") == 1);
  CHECK(count(c, "contract.packed.portable/KC:partial") == 1);  // 7 = 3 + 3 + 1
  CHECK(count(c, "contract.packed.portable/path:gemv") == 2);
  CHECK(count(c, "contract.packed.portable/path:packed") == 2);
  CHECK(count(c, "contract.packed.portable/path:no-terms") == 0);
  // Each blocked task has 5 rows: one MC block of 4, one of 1.
  CHECK(count(c, "contract.packed.portable/MC:partial") == 2);
  // Task columns: 6 = 4 + 2 (partial), 3 (only a tail).
  CHECK(count(c, "contract.packed.portable/NC:partial") == 1);
  CHECK(count(c, "contract.packed.portable/NC:only-tail") == 1);
  // NC blocks of 4, 2 and 3 columns: NR = 2 divides 4 and 2; 3 = 2 + 1.
  CHECK(count(c, "contract.packed.portable/NR:none") == 2);
  CHECK(count(c, "contract.packed.portable/NR:partial") == 1);
  // Per NC block (3) and K block (3): MC blocks of 4 rows (whole micro-tiles) and 1 row.
  CHECK(count(c, "contract.packed.portable/MR:none") == 9);
  CHECK(count(c, "contract.packed.portable/MR:only-tail") == 9);
  CHECK(count(c, "contract.packed.portable/MR:partial") == 0);
  // Inside the blocked path a micro-tile loop always has a row: no empty class to reach.
  CHECK(count(c, "contract.packed.portable/MR:empty") == UINT64_MAX);
  CHECK(count(c, "contract.packed.portable/KC:empty") == 0);
}

TEST_CASE("coverage: K = 0 takes the no-terms path and counts no blocked tail", "[C6][coverage]") {
  btest::WithRows rows(kRows);
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  const auto c = covered(*m, "mm", mm_args(3, 0, 4));  // one task of 3 x 4
  CHECK(count(c, "contract.packed.portable/KC:empty") == 1);
  CHECK(count(c, "contract.packed.portable/path:no-terms") == 1);
  CHECK(count(c, "contract.packed.portable/path:gemv") == 0);
  CHECK(count(c, "contract.packed.portable/task-rows:one") == 1);
  CHECK(count(c, "contract.packed.portable/task-cols:one") == 1);
}

TEST_CASE("coverage: an epilogue counts the path it ran on (blocks, gemv tiles)", "[C5][coverage]") {
  btest::WithRows rows(kRows);
  auto m = btest::load(gemm_bias());
  auto args = mm_args(6, 4, 5);
  args["v"] = btest::view(DType::F32, {5}, {1, 2, 3, 4, 5});
  // Rows [0,5) (blocked: NC blocks [0,4) [4,5) x MC blocks [0,4) [4,5), each gets the epilogue
  // after its last K block) and [5,6) (gemv: the whole tile).
  const auto c = covered(*m, "mm", args);
  CHECK(count(c, "contract.packed.portable/epilogue:add@block") == 4);
  CHECK(count(c, "contract.packed.portable/epilogue:add@gemv") == 1);
  CHECK(count(c, "contract.packed.portable/epilogue:add@no-terms") == 0);
}

TEST_CASE("coverage: nothing is counted outside a scope, and scopes nest", "[coverage]") {
  btest::WithRows rows(kRows);
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  auto args = mm_args(2, 2, 2);
  auto opt = btest::options();
  opt.config_row = "cov";
  oracle::run_on_backend(*m, "mm", args, opt);  // no scope: no effect anywhere
  cpu::CoverageMap outer, inner;
  {
    cpu::CoverageScope a(outer);
    {
      cpu::CoverageScope b(inner);
      oracle::run_on_backend(*m, "mm", args, opt);
    }
    CHECK(cpu::active_coverage() == &outer);
  }
  CHECK(cpu::active_coverage() == nullptr);
  CHECK(count(inner, "contract.packed.portable/path:gemv") == 1);
  CHECK(outer.cells.empty());
}

TEST_CASE("coverage: the exchange format round-trips and rejects malformed lines", "[coverage]") {
  cpu::CoverageMap a;
  a.add_counts({"x:none", "x:partial", "x:none"}, {2, 0, 3});
  CHECK(a.cells.at("x:none") == 5);
  CHECK(a.cells.at("x:partial") == 0);
  cpu::CoverageMap b;
  b.parse(a.serialize());
  CHECK(b.cells == a.cells);
  CHECK_THROWS_WITH(b.parse("x:none=12\nbroken\n"), Catch::Contains("coverage line 2"));
  CHECK_THROWS_WITH(b.parse("x=1a\n"), Catch::Contains("is not a number"));
}
