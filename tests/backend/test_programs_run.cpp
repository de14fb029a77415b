// Every kernel under examples/ and tests/kir/valid/ runs on the CPU backend through
// `kir run --backend cpu` and agrees bit for bit with the interpreter (the command cross-checks
// and exits 1 on any difference); `kir spec run --backend cpu` passes every bundled case and a
// second run in the same artifact cache compiles nothing.
#include <filesystem>
#include <map>

#include "backend_test.h"
#include "tests/kir/file_suite.h"
#include "tests/run_tool.h"

using namespace kir;

namespace {


// Kernels whose generated inputs are invalid for them: both sides must report an error.
const std::map<std::string, std::string> kNeedsInputs = {
    {"ragged_row_sums", "offsets must be non-decreasing prefix offsets within [0, R]"},
};

void run_file(const std::filesystem::path& path, int& kernels) {
  const std::string text = test::read_text(path);
  Diagnostics d;
  auto m = parse_module(text, path.string(), d);
  REQUIRE(m);
  for (const auto& f : m->functions) {
    if (!f->is_kernel()) continue;
    ++kernels;
    std::string extra = f->name == "window" ? " --input b=1 --input e=3" : "";
    auto r = test::run_kir("run " + path.string() + " --kernel " + f->name + " --backend cpu --seed 7" +
                           test::small_dims(*f) + extra);
    INFO(path.filename().string() << " @" << f->name << "\n" << r.out);
    if (kNeedsInputs.count(f->name)) {
      CHECK(r.code == 1);
      CHECK(r.out.find("error[backend]") != std::string::npos);
      continue;
    }
    if (f->name == "views") {  // types_all.kir's empty kernel: its Out view is never written (exit 3)
      CHECK(r.code == 3);
      CHECK(r.out.find("never wrote 6 of 6 elements of Out view %y") != std::string::npos);
      continue;
    }
    CHECK(r.code == 0);
    CHECK(r.out.find("bit-identical to the interpreter") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("every example kernel runs on the CPU backend and agrees with the interpreter", "[C2][C14][backend-files]") {
  int kernels = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KIR_SOURCE_DIR) + "/examples"))
    if (e.path().extension() == ".kir") run_file(e.path(), kernels);
  CHECK(kernels >= 10);
}

TEST_CASE("every kernel in tests/kir/valid runs on the CPU backend and agrees with the interpreter", "[C2][C14][backend-files]") {
  int kernels = 0;
  for (const auto& path : test::kir_files("valid")) run_file(path, kernels);
  CHECK(kernels >= 8);
}

TEST_CASE("kir spec run --backend cpu passes every bundled case; a second run compiles nothing", "[C2][C12][backend-spec]") {
  const std::string specs = std::string(KIR_SOURCE_DIR) + "/specs";
  auto first = test::run_kir("spec run " + specs + " --backend cpu");
  INFO(first.out);
  CHECK(first.code == 0);
  CHECK(first.out.find("0 failed; artifacts:") != std::string::npos);
  auto second = test::run_kir("spec run " + specs + " --backend cpu --op GemmFwdOp");
  INFO(second.out);
  CHECK(second.code == 0);
  CHECK(second.out.find("artifacts: 0 compiled") != std::string::npos);
}
