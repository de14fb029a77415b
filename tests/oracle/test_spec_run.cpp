// `kir spec run` (issue 6 item 2) on the fixtures of tests/oracle/data: a correct kernel passes
// every row; a deliberately broken kernel is caught by the reference cross-check with op, row,
// output and worst element named; a kernel that reads an omitted optional input fails with the
// located run-time error; --row and --op select; --json writes one record per case.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "oracle/spec_run.h"
#include "tests/run_tool.h"

namespace {

std::string data(const std::string& sub) { return std::string(KIR_SOURCE_DIR) + "/tests/oracle/data/" + sub; }

bool has(const std::string& out, const std::string& frag) { return out.find(frag) != std::string::npos; }

}  // namespace

TEST_CASE("a correct kernel passes every row, with and without its optional input", "[oracle][M2]") {
  auto r = kir::test::run_kir("spec run " + data("good/ops"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r.out, "pass  ScaleFwdOp [with-bias]"));
  CHECK(has(r.out, "pass  ScaleFwdOp [no-bias]"));
  CHECK(has(r.out, "pass  ScaleFwdOp [empty]"));
  CHECK(has(r.out, "1 ops, 3 cases: 3 passed, 0 failed, 0 skipped"));
}

TEST_CASE("a broken kernel is caught with op, row, output and worst element", "[oracle]") {
  auto r = kir::test::run_kir("spec run " + data("broken/ops"));
  INFO(r.out);
  CHECK(r.code == 1);
  // Only the row that passes the bias exercises the bug (bias subtracted instead of added): with
  // random non-zero bias every one of the 3 x 5 elements differs.
  CHECK(has(r.out, "FAIL  ScaleFwdOp [with-bias]"));
  CHECK(has(r.out, "output 'y': 15 of 15 elements differ; worst at ("));
  CHECK(has(r.out, "reference "));
  CHECK(has(r.out, "pass  ScaleFwdOp [no-bias]"));
  CHECK(has(r.out, "2 passed, 1 failed"));
}

TEST_CASE("reading an omitted optional input is a located failure of that row", "[oracle][M2]") {
  auto r = kir::test::run_kir("spec run " + data("absent/ops") + " --row no-bias");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(has(r.out, "FAIL  ScaleFwdOp [no-bias]"));
  CHECK(has(r.out, "absent/kernels/ScaleFwdOp.kir:18:3"));
  CHECK(has(r.out, "view.load"));
  CHECK(has(r.out, "omitted optional input"));
  CHECK(has(r.out, "1 ops, 1 cases"));
}

TEST_CASE("--op selects an op and --json writes every case", "[oracle]") {
  auto json = std::filesystem::temp_directory_path() / ("kir_spec_run_" + std::to_string(::getpid()) + ".json");
  auto r = kir::test::run_kir("spec run " + data("broken/ops") + " --op ScaleFwdOp --json " + json.string());
  INFO(r.out);
  CHECK(r.code == 1);
  std::ifstream in(json);
  REQUIRE(in);
  nlohmann::json j = nlohmann::json::parse(in);
  REQUIRE(j.size() == 3);
  int fails = 0;
  for (const auto& c : j) {
    CHECK(c["op"] == "ScaleFwdOp");
    if (c["status"] == "FAIL") {
      ++fails;
      CHECK(c["label"] == "with-bias");
      CHECK(has(c["message"].get<std::string>(), "output 'y'"));
    }
  }
  CHECK(fails == 1);
  auto none = kir::test::run_kir("spec run " + data("good/ops") + " --op NoSuchOp");
  CHECK(has(none.out, "0 ops, 0 cases"));
  std::filesystem::remove(json);
}

TEST_CASE("the reference kernel sits in reference/ beside the paired kernel", "[oracle]") {
  CHECK(kir::oracle::reference_path("specs/kernels/GemmFwdOp.kir") == "specs/kernels/reference/GemmFwdOp.kir");
  CHECK(kir::oracle::reference_path("X.kir") == "./reference/X.kir");
}
