// The verdict's atomic-interleaving rule for commutative atomics and its error-agreement rule
// with fault kind and coordinate (oracle/verdict.h, oracle/fault.h). Legal alternatives are built
// by hand (another order of float adds summed here in f32, the interpreter's fault under another
// parallel order); wrong ones are far off or name another kind or point.
#include <catch2/catch.hpp>

#include <deque>

#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"
#include "oracle/fault.h"
#include "oracle/verdict.h"
#include "tests/interp/interp_test.h"

using namespace kir;

namespace {

std::shared_ptr<cpu::NativeKernel> native_of(const Module& m, const std::map<std::string, interp::KernelArg>& args) {
  std::deque<cpu::CompiledSource> one;
  one.push_back(oracle::compile_for_args(m, "k", args));
  return cpu::build_kernels(std::move(one)).front();
}

// Every point p adds x[p] to c[p mod B] atomically; the atomic's old value is unused.
std::string contended_kernel(const std::string& dt) {
  return R"(
kernel @k(%x: In<)" + dt + R"([N]>, %c: InOut<)" + dt + R"([B]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %b = dim(%c) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  parallel(%d) region(%p: index) {
    %r = relation(%p) : relation<1 -> []>
    %v = view.load(%x, %r) : )" + dt + R"(
    %bi = rem(%p, %b) : index
    %rb = relation(%bi) : relation<1 -> []>
    %old = atomic.rmw(%c, %rb, %v) {kind = add, order = acq_rel} : )" + dt + R"(
    yield()
  }
}
)";
}

// n values uniform in [0.001, 0.101) from a fixed LCG, as f32.
std::vector<float> uniform_values(size_t n) {
  std::vector<float> v(n);
  uint64_t s = 12345;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(0.001 + 0.1 * static_cast<double>(s >> 11) / 9007199254740992.0);
  }
  return v;
}

uint64_t f32_bits(float f) { return num::from_double(f, DType::F32); }
float f32_value(uint64_t b) { return static_cast<float>(num::to_double(b, DType::F32)); }

std::map<std::string, interp::KernelArg> contended_args(const std::vector<float>& x) {
  std::vector<uint64_t> bits;
  for (float f : x) bits.push_back(f32_bits(f));
  std::map<std::string, interp::KernelArg> a;
  a["x"] = interp::make_host_view(DType::F32, {static_cast<int64_t>(x.size())}, bits);
  a["c"] = interp::make_host_view(DType::F32, {3}, {0, 0, 0});
  return a;
}

std::vector<uint64_t>& bits_of(std::map<std::string, interp::KernelArg>& a, const std::string& n) {
  return std::get<interp::HostView>(a.at(n)).storage->bits;
}

}  // namespace

TEST_CASE("contended float atomic adds pass the verdict on every native run", "[oracle][verdict][atomics]") {
  auto m = itest::load(contended_kernel("f32"));
  const auto args = contended_args(uniform_values(200000));
  auto native = native_of(*m, args);
  int differing = 0;
  for (int run = 0; run < 20; ++run) {
    auto v = oracle::judge(*m, "k", args, *native);
    INFO("run " << run << ": " << v.str());
    REQUIRE(v.outcome == oracle::Outcome::Pass);
    if (v.rule != "bit-exact") {
      CHECK(v.rule == "atomic interleaving");
      CHECK(v.rule_detail == "any order of the atomic adds");
      CHECK(v.accepted >= 1);
      ++differing;
    }
  }
  WARN(differing << " of 20 native runs added in another order than the interpreter's");
}

TEST_CASE("another order of the atomic adds passes; a sum far from every order fails", "[oracle][verdict][atomics]") {
  auto m = itest::load(contended_kernel("f32"));
  const std::vector<float> x = uniform_values(20000);
  const auto args = contended_args(x);
  // The interpreter runs the points in order: c[b] = ((0 + x[b]) + x[b+3]) + ... in f32.
  float forward[3] = {0, 0, 0}, backward[3] = {0, 0, 0};
  for (size_t p = 0; p < x.size(); ++p) forward[p % 3] += x[p];
  for (size_t p = x.size(); p-- > 0;) backward[p % 3] += x[p];
  REQUIRE(forward[0] != backward[0]);  // the orders really differ in f32

  auto results = oracle::clone_args(args);
  for (int b = 0; b < 3; ++b) bits_of(results, "c")[b] = f32_bits(backward[b]);
  std::map<std::string, interp::KernelArg> expected;
  auto v = oracle::judge_result(*m, "k", args, results, oracle::Fault{}, {}, &expected);
  INFO(v.str());
  for (int b = 0; b < 3; ++b) CHECK(f32_value(bits_of(expected, "c")[b]) == forward[b]);
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule == "atomic interleaving");
  CHECK(v.rule_detail == "any order of the atomic adds");
  CHECK(v.accepted >= 1);
  CHECK(v.summary().rfind("pass (atomic interleaving: any order of the atomic adds): 3 elements, ", 0) == 0);

  // About 340 summed from 6667 values near 0.05: no order of f32 adds is 1% off.
  bits_of(results, "c")[1] = f32_bits(forward[1] * 1.01f);
  auto w = oracle::judge_result(*m, "k", args, results, oracle::Fault{});
  INFO(w.str());
  CHECK(w.outcome == oracle::Outcome::Wrong);
  CHECK(w.rule == "atomic interleaving");
  CHECK(w.wrong == 1);
  CHECK(w.op == "atomic.rmw");
  REQUIRE(w.diffs.size() == 1);
  CHECK(w.diffs[0].output == "c");
  CHECK(w.diffs[0].coord == std::vector<int64_t>{1});
  CHECK(w.diffs[0].allowed.find("(reassociation envelope of 6667 atomic adds in any order)") != std::string::npos);
  CHECK(w.summary() == "FAIL (atomic interleaving: any order of the atomic adds) wrong: 1 of 3 elements outside the allowed set");
}

TEST_CASE("integer atomic adds give one result in any order: bit-exact", "[oracle][verdict][atomics]") {
  auto m = itest::load(contended_kernel("i32"));
  std::map<std::string, interp::KernelArg> args;
  std::vector<uint64_t> x;
  for (int i = 0; i < 10; ++i) x.push_back(static_cast<uint64_t>(i + 1));
  args["x"] = interp::make_host_view(DType::I32, {10}, x);
  args["c"] = interp::make_host_view(DType::I32, {3}, {0, 0, 0});
  auto results = oracle::clone_args(args);
  bits_of(results, "c") = {1 + 4 + 7 + 10, 2 + 5 + 8, 3 + 6 + 9};
  auto v = oracle::judge_result(*m, "k", args, results, oracle::Fault{});
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule == "bit-exact");
  bits_of(results, "c")[2] = 17;
  auto w = oracle::judge_result(*m, "k", args, results, oracle::Fault{});
  CHECK(w.outcome == oracle::Outcome::Wrong);
  CHECK(w.rule == "atomic interleaving");
  CHECK(w.rule_detail == "the atomic add gives one result in any order");
  REQUIRE(w.diffs.size() == 1);
  CHECK(w.diffs[0].allowed == "exactly 18");
}

namespace {

// z[p] = 100 / y[p] (i32) by the points of a parallel, or as one tensor op without one.
std::string div_kernel(bool parallel, const std::string& index = "%p") {
  if (parallel)
    return R"(
kernel @k(%y: In<i32[N]>, %z: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%y) {axis = 0} : index
  %last = sub(%n, %c1) : index
  %d = domain(%c0, %n) : domain<N>
  %hundred = const() {value = 100} : i32
  parallel(%d) region(%p: index) {
    %back = sub(%last, %p) : index
    %r = relation(%p) : relation<1 -> []>
    %ry = relation()" + index + R"() : relation<1 -> []>
    %v = view.load(%y, %ry) : i32
    %q = div(%hundred, %v) : i32
    view.store(%z, %r, %q)
    yield()
  }
}
)";
  return R"(
kernel @k(%y: In<i32[N]>, %z: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%y) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%y, %r) : i32[N]
  %h = const() {value = 100} : i32
  %hundred = broadcast(%h) {dims = []} : i32[N]
  %q = div(%hundred, %v) : i32[N]
  view.store(%z, %r, %q)
}
)";
}

// y of 12 elements, 0 at the given points, 1 elsewhere.
std::map<std::string, interp::KernelArg> div_args(std::initializer_list<int> zeros) {
  std::vector<uint64_t> y(12, 1);
  for (int z : zeros) y[static_cast<size_t>(z)] = 0;
  std::map<std::string, interp::KernelArg> a;
  a["y"] = interp::make_host_view(DType::I32, {12}, y);
  a["z"] = interp::make_host_view(DType::I32, {12});
  return a;
}

oracle::Fault interp_fault(const Module& m, std::map<std::string, interp::KernelArg> args, interp::ParallelOrder order) {
  interp::Options o;
  o.parallel_order = order;
  try {
    interp::Interpreter it(m, o);
    it.run_kernel("k", args);
  } catch (const interp::RuntimeError& e) {
    return oracle::fault_of(e);
  }
  FAIL("the interpreter ran without error");
  return {};
}

oracle::Fault hand_made(const std::string& kind, std::vector<int64_t> coord) {
  oracle::Fault f;
  f.kind = kind;
  f.coord = std::move(coord);
  f.message = "t.kir:1:1: error[backend]: hand-made " + kind;
  return f;
}

}  // namespace

TEST_CASE("faults carry kind, op, location and the first coordinate", "[oracle][verdict][faults]") {
  auto m = itest::load(div_kernel(true));
  const auto f = interp_fault(*m, div_args({3}), interp::ParallelOrder::Canonical);
  CHECK(f.kind == "division-by-zero");
  CHECK(f.op == "div");
  CHECK(f.location == "t.kir:14:5");
  CHECK(f.coord == std::vector<int64_t>{3});  // the parallel point
  auto t = itest::load(div_kernel(false));
  const auto g = interp_fault(*t, div_args({7}), interp::ParallelOrder::Canonical);
  CHECK(g.kind == "division-by-zero");
  CHECK(g.coord == std::vector<int64_t>{7});  // the element of the tensor op
  // A printed message parses to the same fault.
  const auto p = oracle::fault_from_message(f.message);
  CHECK(p.kind == f.kind);
  CHECK(p.op == f.op);
  CHECK(p.location == f.location);
  CHECK(p.coord == f.coord);
  const auto b = oracle::fault_from_message(
      "k.kir:10:3: error[backend]: index out of bounds in `view.load` at (2, 5) (native code of kernel @k) (kir explain "
      "out-of-bounds)");
  CHECK(b.kind == "out-of-bounds");
  CHECK(b.op == "view.load");
  CHECK(b.location == "k.kir:10:3");
  CHECK(b.coord == std::vector<int64_t>{2, 5});
}

TEST_CASE("error agreement compares the fault kind and coordinate", "[oracle][verdict][faults]") {
  auto m = itest::load(div_kernel(true));
  const auto args = div_args({3});
  const auto results = oracle::clone_args(args);
  auto same = oracle::judge_result(*m, "k", args, results, hand_made("division-by-zero", {3}));
  CHECK(same.outcome == oracle::Outcome::Pass);
  CHECK(same.rule == "error agreement");
  CHECK(same.rule_detail == "both report division-by-zero at (3)");
  CHECK(same.summary() == "pass (error agreement: both report division-by-zero at (3))");

  auto kind = oracle::judge_result(*m, "k", args, results, hand_made("out-of-bounds", {3}));
  INFO(kind.str());
  CHECK(kind.outcome == oracle::Outcome::Wrong);
  CHECK(kind.rule == "error agreement");
  CHECK(kind.op == "div");
  CHECK(kind.location == "t.kir:14:5");
  CHECK(kind.signature() == "wrong|error agreement|div|");
  CHECK(kind.detail.rfind("the backend reports out-of-bounds, coordinate (3); the interpreter reports division-by-zero in "
                          "`div` at t.kir:14:5, coordinate (3)",
                          0) == 0);
  CHECK(kind.detail.find("\ninterpreter: t.kir:14:5: runtime error[division-by-zero]") != std::string::npos);

  // Point 3 is the only one that faults: no order of the points reaches point 8 first.
  auto point = oracle::judge_result(*m, "k", args, results, hand_made("division-by-zero", {8}));
  CHECK(point.outcome == oracle::Outcome::Wrong);
  CHECK(point.detail.find("(and under none of the 4 other legal orders tried the backend's)") != std::string::npos);

  auto missed = oracle::judge_result(*m, "k", args, results, oracle::Fault{});
  CHECK(missed.outcome == oracle::Outcome::MissedError);
}

TEST_CASE("a fault another legal order of the points reaches first is accepted", "[oracle][verdict][faults]") {
  auto m = itest::load(div_kernel(true));
  const auto args = div_args({2, 9});
  const auto results = oracle::clone_args(args);
  CHECK(interp_fault(*m, args, interp::ParallelOrder::Canonical).coord == std::vector<int64_t>{2});
  const auto reverse = interp_fault(*m, args, interp::ParallelOrder::Reverse);
  CHECK(reverse.coord == std::vector<int64_t>{9});
  auto v = oracle::judge_result(*m, "k", args, results, reverse);
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule_detail == "both report division-by-zero at (9), the interpreter under parallel=reverse");
  // Point 5 does not fault in any order.
  auto w = oracle::judge_result(*m, "k", args, results, hand_made("division-by-zero", {5}));
  CHECK(w.outcome == oracle::Outcome::Wrong);
  // Without a parallel the order is fixed: element 9 is not the first fault.
  auto t = itest::load(div_kernel(false));
  auto x = oracle::judge_result(*t, "k", args, results, hand_made("division-by-zero", {9}));
  CHECK(x.outcome == oracle::Outcome::Wrong);
  CHECK(x.detail.find("other legal orders") == std::string::npos);
}

TEST_CASE("native faults are judged by kind and coordinate", "[oracle][verdict][faults]") {
  auto m = itest::load(div_kernel(true));
  const auto args = div_args({3});
  auto v = oracle::judge(*m, "k", args, *native_of(*m, args));
  INFO(v.str());
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule_detail == "both report division-by-zero at (3)");
  CHECK(v.backend_fault.op == "div");
  CHECK(v.backend_fault.location == "t.kir:14:5");
  // A backend that divides by y[N-1-p] faults at point 8.
  auto b = itest::load(div_kernel(true, "%back"));
  auto w = oracle::judge(*m, "k", args, *native_of(*b, args));
  INFO(w.str());
  CHECK(w.outcome == oracle::Outcome::Wrong);
  CHECK(w.rule == "error agreement");
  CHECK(w.backend_fault.coord == std::vector<int64_t>{8});
  // run_differential (kir run --backend cpu) reports the same verdict.
  auto d = oracle::run_differential(*m, "k", args);
  CHECK(d.agree());
  CHECK_FALSE(d.ok());
  CHECK(d.str() == "check: pass (error agreement: both report division-by-zero at (3))\n");
}

TEST_CASE("an interpreter stopped at its limit agrees with any backend error", "[oracle][verdict][faults]") {
  auto m = itest::load(R"(
kernel @k(%s: index, %z: Out<index[1]>) {
  %c0 = const() {value = 0} : index
  %d = domain(%c0, %s) : domain<%s>
  %i = indices(%d) : index[%s]
  %r = relation(%c0) : relation<1 -> []>
  view.store(%z, %r, %c0)
}
)");
  std::map<std::string, interp::KernelArg> args;
  args["s"] = interp::Scalar{DType::Index, uint64_t{1} << 40};  // 2^40 indices: above the interpreter's 2^28
  args["z"] = interp::make_host_view(DType::Index, {1});
  auto v = oracle::judge_result(*m, "k", args, oracle::clone_args(args), hand_made("out-of-bounds", {4}));
  INFO(v.str());
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.interp_fault.kind == "limit");
  CHECK(v.rule_detail == "the interpreter stopped (limit), the backend reports out-of-bounds at (4)");
}
