// `kir run --break-on nan|inf` stops where a computation produces the value (issue 15, item 2):
// not at the -inf a program writes as a max identity, not at its `full` or broadcast, not at a
// masked read whose -inf fill is never used, and not at ops that only pass on a value that is
// already there.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "interp/npy.h"
#include "numerics/format.h"
#include "tests/run_tool.h"

using namespace kir;

TEST_CASE("break-on passes over identities written as -inf in the examples", "[interp][cli][L7.6]") {
  for (const char* f : {"softmax", "flash_attention", "running_max", "causal_linear_attention", "mamba_chunk_scan"}) {
    const auto path = std::filesystem::path(KIR_SOURCE_DIR) / "examples" / (std::string(f) + ".kir");
    const auto r = kir::test::run_kir("run " + path.string() + " --break-on inf --break-on nan");
    INFO(f << "\n" << r.out);
    CHECK(r.code == 0);
  }
}

TEST_CASE("break-on inf skips a masked read's -inf fill and stops at the op that overflows", "[interp][cli][L15.2]") {
  const auto dir = std::filesystem::temp_directory_path() / ("kir_break_on_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kir = dir / "masked.kir";
  // %shifted reads x two places ahead, -inf where that is past the end; exp(100 x) overflows for
  // x = 10 (line 18), which is where the run must stop.
  std::ofstream(kir) << R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %c2 = const() {value = 2} : index
  %c2b = broadcast(%c2) {dims = []} : index[N]
  %j = add(%i, %c2b) : index[N]
  %nb = broadcast(%n) {dims = []} : index[N]
  %ok = cmp(%j, %nb) {pred = lt} : bool[N]
  %ninf = const() {value = -inf} : f32
  %r = relation(%j, %ok) : relation<1 -> [N], masked>
  %shifted = view.load(%x, %r, %ninf) : f32[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %big = const() {value = 100.0} : f32
  %bigb = broadcast(%big) {dims = []} : f32[N]
  %s = mul(%v, %bigb) : f32[N]
  %e = exp(%s) : f32[N]
  view.store(%y, %rel, %e)
  view.store(%z, %rel, %shifted)
}
)";
  auto npy = [&](const std::string& name, std::vector<double> xs) {
    std::vector<uint64_t> bits;
    for (double x : xs) bits.push_back(num::from_double(x, DType::F32));
    interp::write_npy((dir / name).string(), DType::F32, {static_cast<int64_t>(xs.size())}, bits);
    return (dir / name).string();
  };
  {
    const auto r = kir::test::run_kir("run " + kir.string() + " --break-on inf --input x=" + npy("small.npy", {0, 0.5, 0.25}));
    INFO(r.out);
    CHECK(r.code == 0);  // the fills of z (-inf past the end) are the program's, not a computation's
  }
  const auto r = kir::test::run_kir("run " + kir.string() + " --break-on inf --input x=" + npy("big.npy", {0, 10, 0.25}));
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("masked.kir:19:3: runtime error[break-on]: op 'exp': result %e is inf") != std::string::npos);
  CHECK(r.out.find("at (1)") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("errors, break-on reports and trace lines inside loops name the loop variables", "[interp][cli][L5.1][L6.1]") {
  const auto dir = std::filesystem::temp_directory_path() / ("kir_loops_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kir = dir / "loops.kir";
  // y[p] = x[p + t] for every t: reads past the end at p = 1, t = 2 (extent 3, canonical order)
  std::ofstream(kir) << R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%p: index) {
    for(%d) region(%t: index) {
      %q = add(%p, %t) : index
      %r = relation(%q) : relation<1 -> []>
      %v = view.load(%x, %r) : f32
      %w = relation(%p) : relation<1 -> []>
      view.store(%y, %w, %v)
      yield()
    }
    yield()
  }
}
)";
  auto r = kir::test::run_kir("run " + kir.string() + " --dim N=3");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("loops.kir:9:7: runtime error[out-of-bounds]: op 'view.load'") != std::string::npos);
  CHECK(r.out.find("(in parallel %p = 1, for %t = 2)") != std::string::npos);
  r = kir::test::run_kir("run " + kir.string() + " --dim N=3 --trace");
  CHECK(r.out.find("loops.kir:5:3: parallel %p = 0\n") != std::string::npos);
  CHECK(r.out.find("loops.kir:6:5: for %t = 2\n") != std::string::npos);
  std::filesystem::remove_all(dir);
}
