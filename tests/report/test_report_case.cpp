// One case of kir report measured end to end (report/report_case.h) on hand-computed inputs:
// the exact result is the exact sum rounded once, the contract's bound kind follows from where the
// output comes from, and the error statistics match values derived by hand.
#include <cmath>
#include <deque>

#include "oracle/backend_run.h"
#include "report/report_case.h"
#include "tests/backend/backend_test.h"

using namespace kir;
using nlohmann::json;

namespace {

json run_case(const Module& m, const std::string& kernel, std::map<std::string, interp::KernelArg> args) {
  report::ReportCase c;
  c.id = c.op = kernel;
  c.source = "test.kir";
  c.module = &m;
  c.kernel = kernel;
  c.args = std::move(args);
  std::deque<cpu::CompiledSource> one;
  one.push_back(oracle::compile_for_args(m, kernel, c.args, btest::options()));
  report::Built b;
  b.native = cpu::build_kernels(std::move(one), &btest::cache()).front();
  return report::measure_case(c, b, "");
}

const std::string kRowSum = R"(
fn @add_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = add(%a, %b) : f32[R]
  return(%r)
}

kernel @rows(%x: In<f32[M, N]>, %y: Out<f32[M]>) {
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
  %v = view.load(%x, %rel) : f32[M, N]
  %zf = const() {value = 0.0} : f32
  %id = full(%zf) : f32[M]
  %s = reduce(%v, %id) {axes = [1], combine = @add_acc} : f32[M]
  %orel = relation(%ri) : relation<1 -> [M]>
  view.store(%y, %orel, %s)
}
)";

}  // namespace

TEST_CASE("report: a stored sum is measured against the exact sum inside its envelope", "[report]") {
  // Row 0: 1 + 4 * 2^-24. Every left fold from 1 (or 0) stays at 1 (each 1 + 2^-24 ties to 1);
  // the exact sum 1 + 2^-22 is an f32, 2 ulps above 1. Row 1: 2 + 2 = 4 exactly.
  auto m = btest::load(kRowSum);
  const double t = std::ldexp(1.0, -24);
  auto out = run_case(*m, "rows", {{"x", btest::view(DType::F32, {2, 5}, {1, t, t, t, t, 2, 2, 0, 0, 0})},
                                   {"y", btest::view(DType::F32, {2})}});
  REQUIRE(out["verdict"] == "PASS");
  REQUIRE(out["outputs"].size() == 1);
  const json& o = out["outputs"][0];
  CHECK(o["bound_kind"] == "envelope");
  CHECK(o["elements"] == 2);
  CHECK(o["mismatches"] == 1);
  CHECK(o["max_ulps"] == 2.0);
  CHECK(o["mean_ulps"] == 1.0);
  CHECK(o["outside_bound"] == 0);
  CHECK(o["max_bound_ulps"].get<double>() >= 2.0);
  REQUIRE(o["worst"].size() == 1);  // only elements with an error
  CHECK(o["worst"][0]["coord"] == json::array({0}));
  CHECK(o["worst"][0]["got"] == "1");
  CHECK(o["worst"][0]["ulps"] == 2.0);
  int64_t two = 0, zero = 0;
  for (const auto& h : o["histogram"]) {
    if (h["bucket"] == "2") two = h["count"];
    if (h["bucket"] == "0") zero = h["count"];
  }
  CHECK(two == 1);
  CHECK(zero == 1);
}

TEST_CASE("report: a contract under an epilogue is judged in the backend's declared order", "[report]") {
  // c = a·b + bias with a = [1, 2^-24, 2^-24], b = [1, 1, 1], bias = 0.5. The declared sequential
  // order gives a·b = 1 (each 1 + 2^-24 ties to 1), so c = 1.5; the exact a·b = 1 + 2^-23 gives
  // c = 1.5 + 2^-23, one ulp above.
  auto m = btest::load(R"(
kernel @mmb(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %bias: In<f32[N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %mm = dim(%a) {axis = 0} : index
  %k = dim(%b) {axis = 0} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %mm) : domain<M>
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
  %nrel = relation(%in) : relation<1 -> [N]>
  %bias_v = view.load(%bias, %nrel) : f32[N]
  %bb = broadcast(%bias_v) {dims = [1]} : f32[M, N]
  %sum = add(%acc, %bb) : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %sum)
}
)");
  const double t = std::ldexp(1.0, -24);
  auto out = run_case(*m, "mmb", {{"a", btest::view(DType::F32, {1, 3}, {1, t, t})},
                                  {"b", btest::view(DType::F32, {3, 1}, {1, 1, 1})},
                                  {"bias", btest::view(DType::F32, {1}, {0.5})},
                                  {"c", btest::view(DType::F32, {1, 1})}});
  REQUIRE(out["verdict"] == "PASS");
  const json& o = out["outputs"][0];
  CHECK(o["bound_kind"] == "declared-order");
  CHECK(o["max_ulps"] == 1.0);
  CHECK(o["outside_bound"] == 0);
  CHECK(std::stod(o["worst"][0]["exact"].get<std::string>()) == 1.5 + std::ldexp(1.0, -23));
  CHECK(o["worst"][0]["got"] == "1.5");
}

TEST_CASE("report: an output with one defined result has an exact bound and no error", "[report]") {
  auto m = btest::load(R"(
kernel @twice(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %s = add(%v, %v) : f32[N]
  view.store(%y, %rel, %s)
}
)");
  auto out = run_case(*m, "twice", {{"x", btest::view(DType::F32, {3}, {1, -2.5, 3e38})}, {"y", btest::view(DType::F32, {3})}});
  REQUIRE(out["verdict"] == "PASS");
  const json& o = out["outputs"][0];
  CHECK(o["bound_kind"] == "exact");
  CHECK(o["elements"] == 3);
  CHECK(o["max_ulps"] == 0.0);
  CHECK(o["mismatches"] == 0);
  CHECK(o["worst"].empty());
  CHECK(o["max_ratio"].is_null());
}

TEST_CASE("report: a case that cannot run is SKIP or FAIL with its reason", "[report]") {
  report::ReportCase c;
  c.id = c.op = "Nothing";
  c.skip = "no paired kernel";
  auto out = report::measure_case(c, {}, "");
  CHECK(out["verdict"] == "SKIP");
  CHECK(out["reason"] == "no paired kernel");
  CHECK(out["contract"]["outcome"] == "not-run");
  c.skip.clear();
  c.error = "input generation: bad";
  CHECK(report::measure_case(c, {}, "")["verdict"] == "FAIL");
}
