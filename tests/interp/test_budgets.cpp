// Depth and budgets of the reference interpreter (issue 11 item 5): a chain of thousands of
// helper calls and deeply nested regions end in a located depth error, never a crash; the step
// budget charges element work (a step is one executed op, one region entered or one element of
// work) and names a runaway while with its iteration count; the time limit stops a runaway
// loop; size-limit errors name the op or parameter that asked for the size. The big programs
// are generated here. Each test runs in well under a second.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tests/run_tool.h"
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

// Helpers @f0 .. @f{n-1}: @fi calls @f{i+1}, the last doubles its argument; kernel @k stores
// @f0(1.0) into %o. The call in @fi is at line 3 + 4 * i (the text starts with a newline).
std::string call_chain(int n) {
  std::string s = "\n";
  for (int i = 0; i < n; ++i) {
    s += "fn @f" + std::to_string(i) + "(%a: f32) -> f32 {\n";
    if (i + 1 < n) s += "  %r = call(%a) {callee = @f" + std::to_string(i + 1) + "} : f32\n";
    else s += "  %r = add(%a, %a) : f32\n";
    s += "  return(%r)\n}\n";
  }
  s += R"(kernel @k(%o: Out<f32[1]>) {
  %z = const() {value = 0} : index
  %x = const() {value = 1.0} : f32
  %y = call(%x) {callee = @f0} : f32
  %rel = relation(%z) : relation<1 -> []>
  view.store(%o, %rel, %y)
}
)";
  return s;
}

// `n` ifs nested in one kernel, the innermost yielding 1.0, stored into %o.
std::string nested_ifs(int n) {
  std::string s = "kernel @k(%o: Out<f32[1]>) {\n  %t = const() {value = true} : bool\n  %one = const() {value = 1.0} : f32\n";
  for (int i = 0; i < n; ++i) s += "  %v" + std::to_string(i) + " = if(%t) : f32 region() {\n";
  s += "  yield(%one)\n";
  for (int i = n; i-- > 0;) {
    s += "  } region() {\n  yield(%one)\n  }\n";
    s += i ? "  yield(%v" + std::to_string(i) + ")\n" : "";
  }
  s += "  %z = const() {value = 0} : index\n  %rel = relation(%z) : relation<1 -> []>\n  view.store(%o, %rel, %v0)\n}\n";
  return s;
}

const char* kRunawayWhile = R"(
kernel @k(%o: Out<i32[1]>) {
  %t = const() {value = true} : bool
  %c0 = const() {value = 0} : index
  %x = while(%c0) : index region(%a: index) {
    condition(%t, %a)
  } region(%b: index) {
    yield(%b)
  }
}
)";

std::string runtime_error(const Module& m, const interp::Options& opts, const std::map<std::string, interp::KernelArg>& args,
                          interp::ErrorKind kind = interp::ErrorKind::Limit) {
  interp::Interpreter it(m, opts);
  try {
    it.run_kernel("k", args);
  } catch (const interp::RuntimeError& e) {
    CHECK(e.kind() == kind);
    return e.what();
  }
  FAIL("expected a run-time error");
  return "";
}

// The number after `prefix` in `s` (-1 if absent).
long long number_after(const std::string& s, const std::string& prefix) {
  auto p = s.find(prefix);
  return p == std::string::npos ? -1 : std::atoll(s.c_str() + p + prefix.size());
}

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("kir_budget_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace

TEST_CASE("[L1.3] a chain of 5000 helper calls ends in a located depth error, not a crash", "[interp][L1.3][limits]") {
  auto m = load(call_chain(5000));  // parsing and verifying the chain needs no deep native recursion
  auto o = view(DType::F32, {1});
  const std::string msg = runtime_error(*m, {}, {{"o", o}});
  INFO(msg);
  // The call that went one level too deep: @f998 calls @f999 (the kernel body is level 1).
  CHECK(msg.find("t.kir:" + std::to_string(3 + 4 * 998) + ":3: runtime error[limit]: op 'call': ") == 0);
  CHECK(msg.find("nesting depth limit of 1000 exceeded") != std::string::npos);
  CHECK(msg.find("calls: @k -> @f0 -> @f1 -> ... (") != std::string::npos);
  CHECK(msg.find("-> @f997 -> @f998 -> @f999; raise it with --max-depth") != std::string::npos);
}

TEST_CASE("[L1.3] a chain of calls within the depth limit runs", "[interp][L1.3][limits]") {
  auto m = load(call_chain(900));
  auto o = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}});
  CHECK(values(o)[0] == 2.0);
}

TEST_CASE("[L6.1] nested regions count toward the depth limit like calls", "[interp][L6.1][limits]") {
  auto m = load(nested_ifs(150));
  auto o = view(DType::F32, {1});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}});  // 151 levels: fine
  CHECK(values(o)[0] == 1.0);
  interp::Options opts;
  opts.max_depth = 100;
  const std::string msg = runtime_error(*m, opts, {{"o", o}});
  INFO(msg);
  // The 100th level is the region of the 99th if (line 4 + 98); the 100th if cannot enter.
  CHECK(msg.find("t.kir:" + std::to_string(4 + 99) + ":3: runtime error[limit]: op 'if': nesting depth limit of 100") == 0);
}

TEST_CASE("[L6.1] nesting beyond the parser's limit is a located parse error, not a crash", "[interp][L6.1][limits]") {
  const std::string text = nested_ifs(5000);
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  const std::string out = d.render(text);
  INFO(out);
  CHECK(!m);
  CHECK(out.find("t.kir:") == 0);
  CHECK(out.find("nesting deeper than") != std::string::npos);
}

TEST_CASE("[L6.1] the step budget names a runaway while, its location and iteration count", "[interp][L6.1][limits]") {
  auto m = load(kRunawayWhile);
  interp::Options opts;
  opts.max_steps = 10000;
  auto o = view(DType::I32, {1});
  const std::string msg = runtime_error(*m, opts, {{"o", o}});
  INFO(msg);
  CHECK(msg.find("while at t.kir:5:3 still running after ") != std::string::npos);
  CHECK(msg.find(" iterations: step budget of 10000 exhausted") != std::string::npos);
  CHECK(msg.find("raise it with --max-steps") != std::string::npos);
  // Two steps per iteration (entering the condition and the body regions).
  const long long iterations = number_after(msg, "still running after ");
  CHECK(iterations >= 4990);
  CHECK(iterations <= 5000);
}

TEST_CASE("[L10.4] a contract charges one step per multiply-add", "[interp][L10.4][limits]") {
  auto m = load(R"(
fn @mm(%a: f32[M, K], %b: f32[K, N]) -> f32[M, N] {
  %p = contract(%a, %b) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  return(%p)
}
)");
  interp::Tensor t;
  t.dtype = DType::F32;
  t.shape = {64, 64};
  t.bits.assign(64 * 64, num::from_double(1.0, DType::F32));
  const std::vector<interp::Value> args{interp::Value(t), interp::Value(t)};
  interp::Interpreter it(*m);
  auto res = it.call_helper("mm", args);
  CHECK(res.at(0).tensor().bits[0] == num::from_double(64.0, DType::F32));
  CHECK(it.steps() >= 64 * 64 * 64);  // 262144 multiply-adds
  CHECK(it.steps() < 64 * 64 * 64 + 2 * 64 * 64 + 10);  // plus the result elements and the ops
  interp::Options opts;
  opts.max_steps = 100000;
  try {
    interp::Interpreter(*m, opts).call_helper("mm", args);
    FAIL("expected the step budget error");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("t.kir:3:3: runtime error[limit]: op 'contract': step budget of 100000 exhausted") == 0);
  }
}

TEST_CASE("[L6.1] the time limit stops a runaway while within twice the limit", "[interp][L6.1][limits]") {
  auto m = load(kRunawayWhile);
  interp::Options opts;
  opts.max_steps = UINT64_MAX;
  opts.time_limit = 0.2;
  auto o = view(DType::I32, {1});
  const auto t0 = std::chrono::steady_clock::now();
  const std::string msg = runtime_error(*m, opts, {{"o", o}});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(msg);
  CHECK(s >= 0.2);
  CHECK(s < 0.4);
  CHECK(msg.find("while at t.kir:5:3 still running after ") != std::string::npos);
  CHECK(msg.find("time limit of 0.2 s exceeded") != std::string::npos);
  CHECK(msg.find("raise it with --time-limit") != std::string::npos);
}

TEST_CASE("[L4.9] a tensor over the size limit is a located error", "[interp][L4.9][limits]") {
  auto m = load(R"(
kernel @k(%o: Out<f32[1]>) {
  %z = const() {value = 0.0} : f32
  %t = full(%z) : f32[32768, 32768]
}
)");
  auto o = view(DType::F32, {1});
  const std::string msg = runtime_error(*m, {}, {{"o", o}});
  INFO(msg);
  CHECK(msg.find("t.kir:4:3: runtime error[limit]: op 'full': shape [32768, 32768] has 1073741824 elements, which "
                 "exceeds the interpreter's limit of 2^28 elements") == 0);
}

TEST_CASE("[L6.1] kir run --max-steps stops a runaway while with its location and iteration count", "[interp][cli][L6.1][limits]") {
  const std::string f = temp_file("while.kir", kRunawayWhile);
  auto r = kir::test::run_kir("run " + f + " --max-steps 2000");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("while at " + f + ":5:3 still running after ") != std::string::npos);
  CHECK(r.out.find("iterations: step budget of 2000 exhausted") != std::string::npos);
  std::filesystem::remove(f);
}

TEST_CASE("[L6.1] kir run --time-limit stops a runaway while within twice the limit", "[interp][cli][L6.1][limits]") {
  const std::string f = temp_file("while_t.kir", kRunawayWhile);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = kir::test::run_kir("run " + f + " --time-limit 0.25");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(s < 0.5);
  CHECK(r.out.find("time limit of 0.25 s exceeded") != std::string::npos);
  std::filesystem::remove(f);
}

TEST_CASE("kir run --progress shows the running op and loop iteration of a long run", "[interp][cli][limits]") {
  const std::string f = temp_file("while_p.kir", kRunawayWhile);
  auto r = kir::test::run_kir("run " + f + " --progress --time-limit 1.6");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("\rkir run: 1") != std::string::npos);  // first written after a second
  CHECK(r.out.find(" steps; at `") != std::string::npos);
  CHECK(r.out.find("(in while at " + f + ":5:3, iteration ") != std::string::npos);
  CHECK(r.out.find("\r\033[K") != std::string::npos);  // the line is cleared before the error
  CHECK(r.out.find("time limit of 1.6 s exceeded") != std::string::npos);
  auto quiet = kir::test::run_kir("run " + f + " --no-progress --time-limit 1.2");
  CHECK(quiet.out.find("kir run: 1") == std::string::npos);
  std::filesystem::remove(f);
}

TEST_CASE("[L1.3] kir run on a chain of 5000 helper calls exits 1 with the depth error", "[interp][cli][L1.3][limits]") {
  const std::string f = temp_file("chain.kir", call_chain(5000));
  auto r = kir::test::run_kir("run " + f);
  INFO(r.out.substr(0, 2000));
  CHECK(r.code == 1);
  CHECK(r.out.find("nesting depth limit of 1000 exceeded") != std::string::npos);
  std::filesystem::remove(f);
  const std::string g = temp_file("chain300.kir", call_chain(300));
  r = kir::test::run_kir("run " + g + " --max-depth 200");
  CHECK(r.code == 1);
  CHECK(r.out.find("nesting depth limit of 200 exceeded") != std::string::npos);
  std::filesystem::remove(g);
}

TEST_CASE("kir run --dim beyond the size limit names the parameter", "[interp][cli][limits]") {
  const std::string f = temp_file("dim.kir", "kernel @k(%x: In<f32[N, N]>, %o: Out<f32[N]>) {\n}\n");
  auto r = kir::test::run_kir("run " + f + " --dim N=65536");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find(f + ":1:11: runtime error[limit]: parameter %x: shape [65536, 65536] has 4294967296 elements, which "
                   "exceeds the interpreter's limit of 2^28 elements") != std::string::npos);
  std::filesystem::remove(f);
}
