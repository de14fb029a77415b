// Which backend pass a finding depends on (issue 12: findings are de-duplicated by op, rule,
// dtype and pass): attribute_pass judges the failing kernel again without each optional pass.
// Planted bugs: a fusion mutant is attributed to fusion, a task-partition mutant to
// task-partition, a construction mutant to neither.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/mutants/mutants.h"
#include "fuzz/campaign/reduce/finding.h"
#include "interp/interpreter.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "tests/mutant_env.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

using kir::test::WithMutant;

// y = body(x) over one dynamic extent N, x = 0.1, 0.2, ... (f32).
std::string kernel(const std::string& body) {
  return R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
)" + body + R"(  view.store(%y, %rel, %r)
}
)";
}

KernelArgs args(int64_t n) {
  std::vector<uint64_t> x, y(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) x.push_back(num::from_double(0.1 * static_cast<double>(i + 1), DType::F32));
  KernelArgs a;
  a["x"] = interp::make_host_view(DType::F32, {n}, x);
  a["y"] = interp::make_host_view(DType::F32, {n}, y);
  return a;
}

// The kernel fails under the active mutant with every pass in place (else an attribution
// would be vacuous).
bool fails(const std::string& text, const KernelArgs& a) {
  Diagnostics d;
  auto m = parse_module(text, "k.kir", d);
  REQUIRE(m);
  REQUIRE(verify_module(*m, d));
  const oracle::Verdict v = judge_isolated(*m, "k", a, 60);
  INFO(v.str());
  return v.failed();
}

}  // namespace

TEST_CASE("a fusion mutant's finding is attributed to fusion", "[fuzz][attribution]") {
  if (!cpu::mutants_compiled_in()) return;
  WithMutant on("fusion_folds_roundtrip_cast");  // cast(cast(x, f16), f32) folded to x
  const std::string k = kernel("  %h = cast(%v) : f16[N]\n  %r = cast(%h) : f32[N]\n");
  REQUIRE(fails(k, args(5)));
  CHECK(attribute_pass(k, "k", args(5), 60) == "fusion");
}

TEST_CASE("a task-partition mutant's finding is attributed to task-partition", "[fuzz][attribution]") {
  if (!cpu::mutants_compiled_in()) return;
  WithMutant on("task_tail_dropped");  // the last, shorter block never runs
  const std::string k = kernel("  %r = add(%v, %v) : f32[N]\n");
  REQUIRE(fails(k, args(130)));
  CHECK(attribute_pass(k, "k", args(130), 60) == "task-partition");
}

TEST_CASE("a construction mutant's finding is attributed to no optional pass", "[fuzz][attribution]") {
  if (!cpu::mutants_compiled_in()) return;
  WithMutant on("broadcast_no_stretch");
  const std::string k = kernel(
      "  %c1 = const() {value = 1} : index\n  %d1 = domain(%c0, %c1) : domain<1>\n  %j = indices(%d1) : index[1]\n"
      "  %r1 = relation(%j) : relation<1 -> [1]>\n  %f = view.load(%x, %r1) : f32[1]\n"
      "  %b = broadcast(%f) {dims = [0]} : f32[N]\n  %r = add(%v, %b) : f32[N]\n");
  REQUIRE(fails(k, args(5)));
  CHECK(attribute_pass(k, "k", args(5), 60) == "");
}

TEST_CASE("only fusion, epilogue, row-fusion and task-partition can be left out of the pipeline", "[fuzz][attribution]") {
  Diagnostics d;
  auto m = parse_module(kernel("  %r = add(%v, %v) : f32[N]\n"), "k.kir", d);
  REQUIRE(m);
  cpu::CompileOptions co;
  co.skip_passes = {"lifetime"};
  CHECK_THROWS_WITH(cpu::compile_to_source(*m, "k", co), Catch::Contains("pass 'lifetime' cannot be skipped"));
  co.skip_passes = {"fusion", "epilogue", "row-fusion", "task-partition"};
  CHECK_NOTHROW(cpu::compile_to_source(*m, "k", co));
}
