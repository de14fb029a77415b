// Generated integer inputs that index something are drawn within the extent they index
// (tools/index_ranges.h, docs/run.md): a gather's ids fall in [0, V) for every V, not in a fixed
// [0, 8) that would run out of bounds below 8 and never reach the rows above it.
#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/run_tool.h"

namespace {

const char* kGather = R"(kernel @gather(%ids: In<i32[T]>, %table: In<f32[V, D]>, %out: Out<f32[T, D]>) {
  %zero = const() {value = 0} : index
  %t = dim(%ids) {axis = 0} : index
  %d = dim(%table) {axis = 1} : index
  %dt = domain(%zero, %t) : domain<T>
  %dd = domain(%zero, %d) : domain<D>
  %it = indices(%dt) : index[T]
  %id = indices(%dd) : index[D]
  %rel = relation(%it) : relation<1 -> [T]>
  %iv = view.load(%ids, %rel) : i32[T]
  %ix = cast(%iv) : index[T]
  %rows = broadcast(%ix) {dims = [0]} : index[T, D]
  %cols = broadcast(%id) {dims = [1]} : index[T, D]
  %trel = relation(%rows, %cols) : relation<2 -> [T, D]>
  %g = view.load(%table, %trel) : f32[T, D]
  %tb = broadcast(%it) {dims = [0]} : index[T, D]
  %orel = relation(%tb, %cols) : relation<2 -> [T, D]>
  view.store(%out, %orel, %g)
}
)";

std::string gather_file() {
  const std::string path = std::string(KIR_BINARY_DIR) + "/cli-index-inputs-gather.kir";
  std::ofstream(path) << kGather;
  return path;
}

}  // namespace

TEST_CASE("kir run draws generated ids within the extent they index", "[cli]") {
  const std::string f = gather_file();
  // Three rows: ids drawn in [0, 8) would index rows 3..7, out of bounds.
  auto small = kir::test::run_kir("run " + f + " --dim V=3 --dim T=64 --dim D=2");
  INFO(small.out);
  CHECK(small.code == 0);
  // A thousand rows: the ids spread over them (64 draws below 8 out of 1000 has odds 10^-70).
  auto big = kir::test::run_kir("run " + f + " --dim V=1000 --dim T=64 --dim D=2 --dump iv");
  INFO(big.out);
  REQUIRE(big.code == 0);
  std::smatch m;
  const std::string out = big.out;
  REQUIRE(std::regex_search(out, m, std::regex("%iv = i32\\[64\\] min=(-?[0-9]+) max=(-?[0-9]+)")));
  CHECK(std::stoi(m[1]) >= 0);
  CHECK(std::stoi(m[2]) >= 8);
  CHECK(std::stoi(m[2]) < 1000);
  std::filesystem::remove(f);
}
