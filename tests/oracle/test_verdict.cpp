// The oracle's verdict (oracle/verdict.h, issue 12 item 1). A backend that differs from the
// interpreter is simulated by judging module A against the native code of a program B with the
// same parameters: B legal (another summation order, another atomic order) must pass, B wrong
// must fail with the element, both values and the rule. Values are chosen by hand so that the
// orders give different bits: 1 + 1e8 rounds to 1e8 in f32 (the 1 is lost), so summing
// {1, 1e8, -1e8, 0.5} forwards gives 0.5 and backwards gives 1.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>

#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "oracle/backend_run.h"
#include "oracle/verdict.h"

using namespace kir;

namespace {

std::unique_ptr<Module> parse_ok(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "v.kir", d);
  REQUIRE(m);
  const bool ok = verify_module(*m, d);
  INFO(d.render(text));
  REQUIRE(ok);
  return m;
}

std::shared_ptr<cpu::NativeKernel> native_of(const Module& m, const std::map<std::string, interp::KernelArg>& args) {
  std::deque<cpu::CompiledSource> one;
  one.push_back(oracle::compile_for_args(m, "k", args));
  return cpu::build_kernels(std::move(one)).front();
}

uint64_t f32(double v) { return num::from_double(v, DType::F32); }

std::map<std::string, interp::KernelArg> sum_args() {
  std::map<std::string, interp::KernelArg> a;
  a["x"] = interp::make_host_view(DType::F32, {4}, {f32(1), f32(1e8), f32(-1e8), f32(0.5)});
  a["ones"] = interp::make_host_view(DType::F32, {4, 1}, {f32(1), f32(1), f32(1), f32(1)});
  a["y"] = interp::make_host_view(DType::F32, {1});
  return a;
}

// y[0] = sum_k x[k] * ones[k] as a contract, reading x forwards or backwards; `plus` is added.
std::string dot_kernel(bool backwards, const std::string& plus = "0.0") {
  return std::string(R"(
kernel @k(%x: In<f32[K]>, %ones: In<f32[K, 1]>, %y: Out<f32[1]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<K>
  %i = indices(%d) : index[K]
  %last = sub(%n, %c1) : index
  %lastb = broadcast(%last) {dims = []} : index[K]
)") + "  %ix = " + (backwards ? "sub(%lastb, %i)" : "max(%i, %i)") + R"( : index[K]
  %rx = relation(%ix) : relation<1 -> [K]>
  %xv = view.load(%x, %rx) : f32[K]
  %oi = broadcast(%i) {dims = [0]} : index[K, 1]
  %oz = broadcast(%c0) {dims = []} : index[K, 1]
  %ro = relation(%oi, %oz) : relation<2 -> [K, 1]>
  %ov = view.load(%ones, %ro) : f32[K, 1]
  %s = contract(%xv, %ov) {batch = [], reduce = [[0, 0]]} : f32[1]
  %p0 = const() {value = )" + plus + R"(} : f32
  %p = broadcast(%p0) {dims = []} : f32[1]
  %t = add(%s, %p) : f32[1]
  %z = broadcast(%c0) {dims = []} : index[1]
  %r0 = relation(%z) : relation<1 -> [1]>
  view.store(%y, %r0, %t)
}
)";
}

}  // namespace

TEST_CASE("a backend result equal to the interpreter's passes bit-exact", "[oracle][verdict]") {
  auto m = parse_ok(dot_kernel(false));
  auto args = sum_args();
  auto v = oracle::judge(*m, "k", args, *native_of(*m, args));
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.compared == 1);
  CHECK(v.rule == "bit-exact");
}

TEST_CASE("another summation order of a contract passes inside the reassociation envelope", "[oracle][verdict]") {
  auto a = parse_ok(dot_kernel(false));
  auto b = parse_ok(dot_kernel(true));
  auto args = sum_args();
  std::map<std::string, interp::KernelArg> got, expected;
  auto v = oracle::judge(*a, "k", args, *native_of(*b, args), {}, &got, &expected);
  // The two orders really differ: forwards 0.5, backwards 1 (see the file comment).
  CHECK(std::get<interp::HostView>(expected.at("y")).storage->bits[0] == f32(0.5));
  CHECK(std::get<interp::HostView>(got.at("y")).storage->bits[0] == f32(1));
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule == "reassociation envelope");
}

TEST_CASE("a value outside the envelope is wrong, with element, values and rule", "[oracle][verdict]") {
  auto a = parse_ok(dot_kernel(false));
  auto b = parse_ok(dot_kernel(false, "1000.0"));
  auto args = sum_args();
  auto v = oracle::judge(*a, "k", args, *native_of(*b, args));
  CHECK(v.outcome == oracle::Outcome::Wrong);
  CHECK(v.wrong == 1);
  REQUIRE(v.diffs.size() == 1);
  CHECK(v.diffs[0].output == "y");
  CHECK(v.diffs[0].coord == std::vector<int64_t>{0});
  CHECK(v.diffs[0].got == "1000.5");
  CHECK(v.diffs[0].expected == "0.5");
  CHECK(v.op == "add");  // the stored value's definition
  CHECK(v.location == "v.kir:20:3");
  CHECK(v.dtype == "f32");
  // y is the contract's result stored unchanged (+0), so its envelope decides: the exact sum is
  // 1.5 and the cancellation makes the envelope wide, but not 1000 wide.
  CHECK(v.diffs[0].allowed.find("of the exact 1.5 (reassociation envelope)") != std::string::npos);
  CHECK(v.signature() == "wrong|reassociation envelope|add|f32");
  CHECK(v.str().find("%y(0): got 1000.5, expected 0.5") != std::string::npos);
}

namespace {

// acc[0] += x[j] atomically by every point i of a parallel, j = i (forwards) or K-1-i.
std::string atomic_kernel(bool backwards) {
  return std::string(R"(
kernel @k(%x: In<f32[K]>, %acc: InOut<f32[1]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %last = sub(%n, %c1) : index
  %d = domain(%c0, %n) : domain<K>
  %r0 = relation(%c0) : relation<1 -> []>
  parallel(%d) region(%i: index) {
)") + "    %j = " + (backwards ? "sub(%last, %i)" : "max(%i, %i)") + R"( : index
    %rj = relation(%j) : relation<1 -> []>
    %v = view.load(%x, %rj) : f32
    %old = atomic.rmw(%acc, %r0, %v) {kind = add, order = relaxed} : f32
    yield()
  }
}
)";
}

std::map<std::string, interp::KernelArg> atomic_args() {
  std::map<std::string, interp::KernelArg> a;
  a["x"] = interp::make_host_view(DType::F32, {4}, {f32(1), f32(1e8), f32(-1e8), f32(0.5)});
  a["acc"] = interp::make_host_view(DType::F32, {1});
  return a;
}

}  // namespace

TEST_CASE("another order of float atomic adds passes as a reachable interleaving", "[oracle][verdict]") {
  auto a = parse_ok(atomic_kernel(false));
  auto b = parse_ok(atomic_kernel(true));
  auto args = atomic_args();
  std::map<std::string, interp::KernelArg> got, expected;
  auto v = oracle::judge(*a, "k", args, *native_of(*b, args), {}, &got, &expected);
  CHECK(std::get<interp::HostView>(expected.at("acc")).storage->bits[0] == f32(0.5));  // forwards
  CHECK(std::get<interp::HostView>(got.at("acc")).storage->bits[0] == f32(1));         // backwards
  CHECK(v.outcome == oracle::Outcome::Pass);
  CHECK(v.rule == "atomic interleaving");
}

// The same with the old value of every add stored to seen[i]: the interleaving is observed, so
// only the schedules the interpreter reaches are legal.
std::string observed_atomic_kernel(bool backwards) {
  std::string k = atomic_kernel(backwards);
  k.replace(k.find("%acc: InOut<f32[1]>"), std::string("%acc: InOut<f32[1]>").size(), "%acc: InOut<f32[1]>, %seen: Out<f32[K]>");
  k.replace(k.find("    yield()"), 0,
            "    %ri = relation(%i) : relation<1 -> []>\n    view.store(%seen, %ri, %old)\n");
  return k;
}

TEST_CASE("an atomic result no interleaving reaches is wrong under the interleaving rule", "[oracle][verdict]") {
  auto a = parse_ok(observed_atomic_kernel(false));
  auto args = atomic_args();
  args["seen"] = interp::make_host_view(DType::F32, {4});
  // The backend of a program that adds x[K-1-i] twice cannot be explained by any order of A.
  std::string twice = observed_atomic_kernel(true);
  twice.replace(twice.find("    %ri = "), 0, "    %old2 = atomic.rmw(%acc, %r0, %v) {kind = add, order = relaxed} : f32\n");
  auto b = parse_ok(twice);
  auto v = oracle::judge(*a, "k", args, *native_of(*b, args));
  CHECK(v.outcome == oracle::Outcome::Wrong);
  CHECK(v.rule == "atomic interleaving");
  CHECK(v.op == "atomic.rmw");
}

TEST_CASE("an unobserved atomic sum far from every order of its adds is wrong", "[oracle][verdict]") {
  auto a = parse_ok(atomic_kernel(false));
  auto args = atomic_args();
  // A backend adding 100 per point gives 400 in any order, outside the envelope of the sum 1.5
  // of {1, 1e8, -1e8, 0.5}, whose bound 4 u (2e8 + 1.5) is about 48.
  std::string hundreds = atomic_kernel(false);
  const std::string load = "    %v = view.load(%x, %rj) : f32\n";
  hundreds.replace(hundreds.find(load), load.size(), "    %v = const() {value = 100.0} : f32\n");
  auto b = parse_ok(hundreds);
  std::map<std::string, interp::KernelArg> got, expected;
  auto v = oracle::judge(*a, "k", args, *native_of(*b, args), {}, &got, &expected);
  INFO(v.str());
  CHECK(std::get<interp::HostView>(got.at("acc")).storage->bits[0] == f32(400));
  CHECK(v.outcome == oracle::Outcome::Wrong);
  CHECK(v.rule == "atomic interleaving");
  CHECK(v.rule_detail == "any order of the atomic adds");
  REQUIRE(v.diffs.size() == 1);
  CHECK(v.diffs[0].allowed.find("of the exact 1.5 (reassociation envelope of 4 atomic adds in any order)") != std::string::npos);
}

TEST_CASE("errors must agree: both failing passes, a result where the interpreter fails is a missed error",
          "[oracle][verdict]") {
  auto args = sum_args();
  args["x"] = interp::make_host_view(DType::F32, {4}, {f32(1), f32(2), f32(3), f32(4)});
  // Reading x[K] (one past the end) is an error in both.
  std::string oob = dot_kernel(true);
  oob.replace(oob.find("%ix = sub(%lastb, %i)"), std::string("%ix = sub(%lastb, %i)").size(), "%ix = add(%lastb, %i)");
  auto bad = parse_ok(oob);
  auto both = oracle::judge(*bad, "k", args, *native_of(*bad, args));
  CHECK(both.outcome == oracle::Outcome::Pass);
  CHECK(both.rule == "error agreement");
  auto good = parse_ok(dot_kernel(false));
  auto missed = oracle::judge(*bad, "k", args, *native_of(*good, args));
  CHECK(missed.outcome == oracle::Outcome::MissedError);
  INFO(missed.detail);
  CHECK(missed.detail.find("runtime error[out-of-bounds]") != std::string::npos);
  auto spurious = oracle::judge(*good, "k", args, *native_of(*bad, args));
  CHECK(spurious.outcome == oracle::Outcome::SpuriousError);
  CHECK(spurious.signature() == "spurious-error|error agreement||");
}
