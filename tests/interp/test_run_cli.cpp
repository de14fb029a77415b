// `kir run` end to end: every bundled example runs out of the box (surface files are normalized
// first), outputs are summarized and written as .npy that read back; errors exit 1 with the
// op/location message. Also the .npy reader/writer round trip for every dtype carrier.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "interp/npy.h"
#include "tests/run_tool.h"
#include "interp_test.h"

using namespace kir;

namespace {

using Run = kir::test::ToolRun;

Run kir_cmd(const std::string& args) { return kir::test::run_kir(args); }

std::filesystem::path tmp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("kir_run_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("every bundled example runs with kir run", "[interp][cli]") {
  std::filesystem::path dir = std::filesystem::path(KIR_SOURCE_DIR) / "examples";
  int count = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".kir") continue;
    ++count;
    auto r = kir_cmd("run " + e.path().string() + " --dim M=3 --dim N=5 --dim K=4 --dim P=2");
    INFO(e.path().string() << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("%") != std::string::npos);
  }
  CHECK(count >= 5);
}

TEST_CASE("kir run reads .npy inputs and writes .npy outputs", "[interp][cli]") {
  auto d = tmp_dir("npy");
  interp::write_npy((d / "x.npy").string(), DType::F32, {2, 2},
                    {num::from_double(1, DType::F32), num::from_double(2, DType::F32), num::from_double(3, DType::F32),
                     num::from_double(4, DType::F32)});
  interp::write_npy((d / "s.npy").string(), DType::F32, {2}, {num::from_double(10, DType::F32), num::from_double(-1, DType::F32)});
  auto r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "scale_rows_parallel.kir").string() +
                   " --input x=" + (d / "x.npy").string() + " --input s=" + (d / "s.npy").string() + " --output " + (d / "out").string());
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("%y: f32[2, 2] {10, 20, -3, -4}") != std::string::npos);
  auto y = interp::npy_to_tensor(interp::read_npy((d / "out" / "y.npy").string()), DType::F32);
  CHECK(y.shape == interp::Shape{2, 2});
  CHECK(y.bits[3] == num::from_double(-4, DType::F32));
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run reports a run-time error with location and exits 1", "[interp][cli][L13.1]") {
  auto d = tmp_dir("err");
  interp::write_npy((d / "ids.npy").string(), DType::I32, {3}, {1, 2, 50});
  auto r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "histogram.kir").string() + " --input ids=" +
                   (d / "ids.npy").string() + " --input mask=random:1 --dim V=4");
  // mask is random: either lane 2 is active (range error) or not (ok); with all-true mask it must fail.
  interp::write_npy((d / "m.npy").string(), DType::Bool, {3}, {1, 1, 1});
  r = kir_cmd("run " + (std::filesystem::path(KIR_SOURCE_DIR) / "examples" / "histogram.kir").string() + " --input ids=" +
              (d / "ids.npy").string() + " --input mask=" + (d / "m.npy").string() + " --dim V=4");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("histogram.kir:") != std::string::npos);
  CHECK(r.out.find("runtime error[histogram-range]") != std::string::npos);
  CHECK(r.out.find("(2)") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --trace prints one line per op; --break-on nan stops at the producer", "[interp][cli]") {
  auto d = tmp_dir("trace");
  auto path = d / "nan.kir";
  {
    std::ofstream(path) << "kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {\n"
                           "  %c0 = const() {value = 0} : index\n"
                           "  %n = dim(%x) {axis = 0} : index\n"
                           "  %d = domain(%c0, %n) : domain<N>\n"
                           "  %i = indices(%d) : index[N]\n"
                           "  %r = relation(%i) : relation<1 -> [N]>\n"
                           "  %v = view.load(%x, %r) : f32[N]\n"
                           "  %l = log(%v) : f32[N]\n"
                           "  view.store(%y, %r, %l)\n"
                           "}\n";
  }
  interp::write_npy((d / "x.npy").string(), DType::F32, {3}, {num::from_double(1, DType::F32), num::from_double(-1, DType::F32), 0});
  auto r = kir_cmd("run " + path.string() + " --trace --input x=" + (d / "x.npy").string());
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("nan.kir:8:3: log %l = f32[3] {0, nan, -inf}") != std::string::npos);
  r = kir_cmd("run " + path.string() + " --break-on nan --input x=" + (d / "x.npy").string());
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("nan.kir:8:3: runtime error[break-on]: op 'log'") != std::string::npos);
  CHECK(r.out.find("%v = -1") != std::string::npos);
  CHECK(r.out.find("at (1)") != std::string::npos);
  std::filesystem::remove_all(d);
}

TEST_CASE(".npy round trip for every dtype (small formats as carriers)", "[interp][npy]") {
  auto d = tmp_dir("rt");
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    std::vector<uint64_t> bits = {0, 1, num::width_mask(t) & 0x5a5a5a5a5a5a5a5aull};
    if (t == DType::Bool) bits = {0, 1, 1};
    auto p = (d / (std::string(name(t)) + ".npy")).string();
    interp::write_npy(p, t, {3}, bits);
    auto back = interp::npy_to_tensor(interp::read_npy(p), t);
    INFO(name(t));
    CHECK(back.bits == bits);
    CHECK(back.shape == interp::Shape{3});
  }
  std::filesystem::remove_all(d);
}

TEST_CASE("kir run --policy parallel=canonical|reverse|shuffle:SEED orders the points", "[interp][cli][L5.1]") {
  auto d = tmp_dir("policy");
  auto path = d / "order.kir";
  {
    // seen[i] = the position of point i in the execution order (an atomic counter).
    std::ofstream(path) << "kernel @k(%seen: Out<i32[N]>) {\n"
                           "  %c0 = const() {value = 0} : index\n"
                           "  %n = dim(%seen) {axis = 0} : index\n"
                           "  %d = domain(%c0, %n) : domain<N>\n"
                           "  %z = const() {value = 0} : i32\n"
                           "  %one = const() {value = 1} : i32\n"
                           "  %cnt = buffer.alloc(%z) : buffer<i32[1]>\n"
                           "  %r0 = relation(%c0) : relation<1 -> []>\n"
                           "  parallel(%d) region(%i: index) {\n"
                           "    %old = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32\n"
                           "    %ri = relation(%i) : relation<1 -> []>\n"
                           "    view.store(%seen, %ri, %old)\n"
                           "    yield()\n"
                           "  }\n"
                           "}\n";
  }
  auto run = [&](const std::string& policy) { return kir_cmd("run " + path.string() + " --dim N=4 " + policy); };
  auto r = run("");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("{0, 1, 2, 3}") != std::string::npos);
  r = run("--policy parallel=canonical");
  CHECK(r.code == 0);
  CHECK(r.out.find("{0, 1, 2, 3}") != std::string::npos);
  r = run("--policy parallel=reverse");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("{3, 2, 1, 0}") != std::string::npos);
  auto s1 = run("--policy parallel=shuffle:7");
  auto s2 = run("--policy parallel=shuffle:7");
  INFO(s1.out);
  CHECK(s1.code == 0);
  CHECK(s1.out == s2.out);  // a seed names one order
  CHECK(run("--policy parallel=sideways").code == 2);
  CHECK(run("--policy parallel=shuffle:x").code == 2);
  std::filesystem::remove_all(d);
}
