// `kir run --backend cpu` judges the native run with the oracle's verdict and prints the rule
// that decided: `check: pass (bit-exact)`, `check: pass (atomic interleaving: any order of the
// atomic adds)`, `check: pass (error agreement: ...)`, `check: FAIL (bit-exact) wrong: ...`.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_tool.h"

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("kir_verdict_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// A one-dimensional little-endian int32 .npy file.
std::string npy_i32(const std::string& name, const std::vector<int32_t>& v) {
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  for (int32_t x : v) out.append(reinterpret_cast<const char*>(&x), 4);
  return temp_file(name, out);
}

const char* kContended = R"(kernel @k(%x: In<f32[N]>, %c: InOut<f32[B]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %b = dim(%c) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  parallel(%d) region(%p: index) {
    %r = relation(%p) : relation<1 -> []>
    %v = view.load(%x, %r) : f32
    %bi = rem(%p, %b) : index
    %rb = relation(%bi) : relation<1 -> []>
    %old = atomic.rmw(%c, %rb, %v) {kind = add, order = acq_rel} : f32
    yield()
  }
}
)";

const char* kRelu = R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %zf = const() {value = 0.0} : f32
  %zb = broadcast(%zf) {dims = []} : f32[N]
  %pos = cmp(%v, %zb) {pred = gt} : bool[N]
  %r = select(%pos, %v, %zb) : f32[N]
  view.store(%y, %rel, %r)
}
)";

const char* kDiv = R"(kernel @k(%y: In<i32[N]>, %z: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%y) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %hundred = const() {value = 100} : i32
  parallel(%d) region(%p: index) {
    %r = relation(%p) : relation<1 -> []>
    %v = view.load(%y, %r) : i32
    %q = div(%hundred, %v) : i32
    view.store(%z, %r, %q)
    yield()
  }
}
)";

}  // namespace

TEST_CASE("kir run --backend cpu prints the rule that passed: bit-exact", "[cli][verdict]") {
  const std::string f = temp_file("relu.kir", kRelu);
  auto r = kir::test::run_kir("run " + f + " --dim N=64 --seed 3 --backend cpu");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("check: pass (bit-exact): 64 elements bit-identical to the interpreter\ncpu: built from config row ") !=
        std::string::npos);
}

TEST_CASE("kir run --backend cpu passes contended float atomics on every run", "[cli][verdict][atomics]") {
  const std::string f = temp_file("contended.kir", kContended);
  int reordered = 0;
  for (int run = 0; run < 10; ++run) {
    auto r = kir::test::run_kir("run " + f + " --dim N=200000 --dim B=3 --seed 1 --backend cpu", "KIR_THREADS=2");
    INFO("run " << run << "\n" << r.out);
    REQUIRE(r.code == 0);
    const bool exact = r.out.find("check: pass (bit-exact): 3 elements bit-identical to the interpreter") != std::string::npos;
    const bool other = r.out.find("check: pass (atomic interleaving: any order of the atomic adds): 3 elements, ") != std::string::npos;
    CHECK((exact || other));
    reordered += other;
  }
  WARN(reordered << " of 10 runs added in another order than the interpreter's");
}

TEST_CASE("kir run --backend cpu prints a failed rule and exits 1", "[cli][verdict]") {
  const std::string f = temp_file("relu_mutant.kir", kRelu);
  auto r = kir::test::run_kir("run " + f + " --dim N=64 --seed 3 --backend cpu", "KIR_MUTANT=select_swapped");
  INFO(r.out);
  if (r.out.find("this kir was built without mutants") != std::string::npos) return;
  CHECK(r.code == 1);
  CHECK(r.out.find("kir run: the CPU backend disagrees with the interpreter:\ncheck: FAIL (bit-exact) wrong: ") !=
        std::string::npos);
  CHECK(r.out.find("elements outside the allowed set") != std::string::npos);
  CHECK(r.out.find("; allowed: exactly ") != std::string::npos);
}

TEST_CASE("kir run --backend cpu: the same fault on both sides is error agreement, exit 1", "[cli][verdict][faults]") {
  const std::string f = temp_file("div.kir", kDiv);
  const std::string y = npy_i32("y.npy", {1, 1, 1, 0, 1, 1, 1, 1});
  auto r = kir::test::run_kir("run " + f + " --input y=" + y + " --backend cpu");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("error[backend]: integer division by zero in `div` at (3)") != std::string::npos);
  CHECK(r.out.find("check: pass (error agreement: both report division-by-zero at (3))") != std::string::npos);
}
