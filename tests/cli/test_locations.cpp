// Every trace line and run-time error of `kir run` names an author's file:line:col, including
// lines inside the ops and helpers `kir normalize` generates for surface shorthands (issue 15,
// item 1): they carry the location of the shorthand they came from, never <unknown>.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/run_tool.h"

namespace {

namespace fs = std::filesystem;

// (file, kernel) for every kernel of the examples and the bundled op kernels.
std::vector<std::pair<fs::path, std::string>> all_kernels() {
  std::vector<std::pair<fs::path, std::string>> out;
  const fs::path root(KIR_SOURCE_DIR);
  for (const auto& dir : {root / "examples", root / "examples" / "reference", root / "specs" / "kernels"})
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".kir") continue;
      std::ifstream in(e.path());
      for (std::string line; std::getline(in, line);)
        if (line.rfind("kernel @", 0) == 0) out.emplace_back(e.path(), line.substr(8, line.find('(') - 8));
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("no trace line or run-time error of any example or bundled kernel lacks a location", "[cli][L19.1]") {
  const auto kernels = all_kernels();
  REQUIRE(kernels.size() >= 60);
  size_t traced = 0;
  for (const auto& [file, kernel] : kernels) {
    // Default extents do not suit every bundled kernel (some need manifest inputs); a run that
    // stops with a run-time error must still name its place.
    const auto r = kir::test::run_kir("run " + file.string() + " --kernel " + kernel + " --trace");
    INFO(file.string() << " @" << kernel << "\n" << r.out.substr(0, 2000));
    CHECK(r.out.find("<unknown>") == std::string::npos);
    CHECK(r.out.find(file.filename().string() + ":") != std::string::npos);
    if (r.code == 0) ++traced;
  }
  CHECK(traced >= 50);
}

TEST_CASE("trace lines inside a generated combine name the shorthand's line", "[cli][L8.2][L19.1]") {
  const fs::path file = fs::path(KIR_SOURCE_DIR) / "examples" / "cumsum_surface.kir";
  const auto r = kir::test::run_kir("run " + file.string() + " --trace");
  REQUIRE(r.code == 0);
  // the scan that `%prefix = cumsum(...)` becomes adds inside the generated __kir_sum_f32_r1
  std::ifstream in(file);
  int line_no = 0, cumsum_line = 0;
  for (std::string line; std::getline(in, line);)
    if (++line_no, line.find("= cumsum(") != std::string::npos) cumsum_line = line_no;
  REQUIRE(cumsum_line > 0);
  CHECK(r.out.find("cumsum_surface.kir:" + std::to_string(cumsum_line) + ":3: add %r = ") != std::string::npos);
}
