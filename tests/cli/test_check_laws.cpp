// `kir run --check-laws` as a user meets it (issue 11 item 6, checklist L9.3, L9.5): every bundled
// example keeps its region_fold / region_scan laws on generated inputs, float results compared
// under the numerics contract (rounding differences inside the enclosures are not breaks), and a
// planted wrong combine exits 1 with the differing elements listed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_tool.h"

namespace {

std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> out;
  const auto root = std::filesystem::path(KIR_SOURCE_DIR) / "examples";
  for (const auto& dir : {root, root / "reference"})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".kir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("[L9.3][L9.5] kir run --check-laws passes every example on generated inputs", "[cli][L9.3][L9.5]") {
  const auto files = example_files();
  REQUIRE(files.size() >= 10);
  for (const auto& f : files)
    for (int seed = 0; seed <= 3; ++seed) {
      const auto r = kir::test::run_kir("run --check-laws --seed " + std::to_string(seed) + " " + f.string());
      INFO(f.string() << " --seed " << seed << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.out.find("laws: ok (") != std::string::npos);
    }
}

TEST_CASE("[L9.3] kir run --check-laws exits 1 on a float combine off by more than rounding and lists the elements",
          "[cli][L9.3]") {
  // Column sums of x[N, 2]; the combine adds 2^-12 to column 1 only.
  const std::string text = R"(fn @add(%a: f32[2], %b: f32[2]) -> f32[2] {
  %r = add(%a, %b) : f32[2]
  return(%r)
}

fn @comb(%a: f32[2], %b: f32[2]) -> f32[2] {
  %s = add(%a, %b) : f32[2]
  %e0 = const() {value = 0.0} : f32
  %e1 = const() {value = 0.000244140625} : f32
  %eps = join(%e0, %e1) : f32[2]
  %r = add(%s, %eps) : f32[2]
  return(%r)
}

fn @summ(%x: f32[S, 2]) -> f32[2] {
  %z = const() {value = 0.0} : f32
  %zc = full(%z) : f32[2]
  %r = reduce(%x, %zc) {axes = [0], combine = @add} : f32[2]
  return(%r)
}

kernel @k(%x: In<f32[N, 2]>, %o: Out<f32[2]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %c2 = const() {value = 2} : index
  %dn = domain(%c0, %n) : domain<N>
  %d2 = domain(%c0, %c2) : domain<2>
  %i = indices(%dn) : index[N]
  %j = indices(%d2) : index[2]
  %ib = broadcast(%i) {dims = [0]} : index[N, 2]
  %jb = broadcast(%j) {dims = [1]} : index[N, 2]
  %rel = relation(%ib, %jb) : relation<2 -> [N, 2]>
  %v = view.load(%x, %rel) : f32[N, 2]
  %z = const() {value = 0.0} : f32
  %zc = full(%z) : f32[2]
  %s = region_fold(%v, %zc) {axis = 0, combine = @comb, segments = [1, 1, 0], summarize = @summ} : f32[2]
  %orel = relation(%j) : relation<1 -> [2]>
  view.store(%o, %orel, %s)
}
)";
  const auto path = std::filesystem::temp_directory_path() / ("kir_cli_laws_" + std::to_string(::getpid()) + ".kir");
  std::ofstream(path) << text;
  const auto r = kir::test::run_kir("run --check-laws --dim N=6 " + path.string());
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find("region_fold breaks the homomorphism law on segments [0, 1) [1, 2)") != std::string::npos);
  CHECK(r.out.find("1 of 2 elements differ beyond their enclosures: element (1): ") != std::string::npos);
  CHECK(r.out.find("do not meet") != std::string::npos);
  CHECK(r.out.find("laws: ok") == std::string::npos);
  // Without the planted offset the same program passes: its rounding differences are legal.
  std::string lawful = text;
  lawful.replace(lawful.find("%r = add(%s, %eps)"), 18, "%r = add(%a, %b)  ");
  std::ofstream(path) << lawful;
  const auto ok = kir::test::run_kir("run --check-laws --dim N=6 " + path.string());
  INFO(ok.out);
  CHECK(ok.code == 0);
  std::filesystem::remove(path);
}
