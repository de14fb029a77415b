// `kir report` from the command line: a planted wrong kernel (the broken fixture manifest, and a
// backend mutant) is a FAIL naming its worst element, the comparison with a baseline marks the
// regression and the improvement, and bad input is a clear error with exit 2 (usage) or 1.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "interp/npy.h"
#include "numerics/format.h"
#include "tests/run_tool.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string src(const std::string& rel) { return std::string(KIR_SOURCE_DIR) + "/" + rel; }

std::string out_dir(const std::string& name) {
  const fs::path p = fs::path(KIR_BINARY_DIR) / "report-tests" / name;
  fs::remove_all(p);
  return p.string();
}

json load(const std::string& dir) {
  std::ifstream f(dir + "/report.json");
  REQUIRE(f);
  return json::parse(f);
}

const json* find_case(const json& doc, const std::string& op) {
  for (const auto& c : doc["cases"])
    if (c["op"] == op) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("report: the broken fixture is a FAIL with its worst element, which the saved inputs explain", "[report]") {
  const std::string dir = out_dir("broken");
  auto r = kir::test::run_kir("report " + src("tests/oracle/data/broken/ops") + " --no-math -o " + dir);
  INFO(r.out);
  REQUIRE(r.code == 1);
  CHECK(r.out.find("FAIL ScaleFwdOp/") != std::string::npos);
  CHECK(r.out.find("against the reference kernel") != std::string::npos);
  const json doc = load(dir);
  const json* c = find_case(doc, "ScaleFwdOp");
  REQUIRE(c != nullptr);
  CHECK((*c)["verdict"] == "FAIL");
  const json& w = (*c)["reference"]["worst"];
  REQUIRE(w.is_object());
  // The kernel subtracts the bias where the reference adds it: got = exact - 2 * bias[col].
  const auto bias = kir::interp::read_npy(dir + "/" + (*c)["repro"].get<std::string>() + "/inputs/bias.npy");
  const int64_t col = w["coord"][1];
  const double b = kir::num::to_double(kir::interp::npy_to_tensor(bias, kir::DType::F32).bits.at(static_cast<size_t>(col)), kir::DType::F32);
  const double got = std::stod(w["got"].get<std::string>()), exact = std::stod(w["exact"].get<std::string>());
  CHECK(std::fabs((exact - got) - 2 * b) <= 1e-5 * std::max(1.0, std::fabs(exact)));
  CHECK(doc["summary"]["fail"].get<int>() >= 1);
  CHECK(fs::exists(dir + "/report.md"));
  CHECK(fs::exists(dir + "/report.html"));
}

TEST_CASE("report: a backend mutant is a FAIL under the contract, a regression against the baseline", "[report]") {
  const std::string good = out_dir("relu-good"), bad = out_dir("relu-bad"), back = out_dir("relu-back");
  const std::string kernel = src("tests/report/data/relu_select.kir");
  auto a = kir::test::run_kir("report " + kernel + " --no-math -o " + good);
  INFO(a.out);
  REQUIRE(a.code == 0);
  const json gdoc = load(good);
  REQUIRE(gdoc["cases"].size() == 1);
  CHECK(gdoc["cases"][0]["verdict"] == "PASS");
  CHECK(gdoc["cases"][0]["outputs"][0]["max_ulps"] == 0.0);
  CHECK(gdoc["math"]["samples"] == 0);

  auto b = kir::test::run_kir("report " + kernel + " --no-math -o " + bad + " --baseline " + good + "/report.json",
                              "KIR_MUTANT=select_swapped");
  INFO(b.out);
  REQUIRE(b.code == 1);
  const json bdoc = load(bad);
  const json& c = bdoc["cases"][0];
  CHECK(c["verdict"] == "FAIL");
  CHECK(c["contract"]["outcome"] == "wrong");
  CHECK(c["reason"].get<std::string>().find("select") != std::string::npos);
  CHECK(c["outputs"][0]["outside_bound"].get<int>() > 0);
  CHECK(!c["outputs"][0]["worst"].empty());
  REQUIRE(bdoc["baseline"]["rows"].size() == 1);
  CHECK(bdoc["baseline"]["rows"][0]["change"] == "regression");
  CHECK(bdoc["baseline"]["rows"][0]["what"] == "verdict PASS -> FAIL");
  CHECK(bdoc["summary"]["regressions"] == 1);

  // Rendering the good report against the bad one: the same row is an improvement.
  auto d = kir::test::run_kir("report --from " + good + "/report.json --baseline " + bad + "/report.json -o " + back);
  INFO(d.out);
  CHECK(d.code == 0);
  CHECK(load(back)["baseline"]["rows"][0]["change"] == "improvement");
}

TEST_CASE("report: bad input is a clear error", "[report]") {
  const std::string dir = out_dir("errors");
  auto missing = kir::test::run_kir("report no/such/path -o " + dir);
  CHECK(missing.code == 2);
  CHECK(missing.out.find("no such file or directory: no/such/path") != std::string::npos);
  auto backend = kir::test::run_kir("report " + src("tests/report/data/relu_select.kir") + " --backend gpu -o " + dir);
  CHECK(backend.code == 2);
  CHECK(backend.out.find("--backend must be cpu") != std::string::npos);
  auto ops = kir::test::run_kir("report " + src("tests/report/data/relu_select.kir") + " --ops Nope -o " + dir);
  CHECK(ops.code == 2);
  CHECK(ops.out.find("no case matches --ops") != std::string::npos);
  fs::create_directories(dir);
  {
    std::ofstream f(dir + "/bad.json");
    f << "{\n  \"schema\": \"kir-report/1\",\n  \"cases\": [,]\n}\n";
  }
  auto baseline = kir::test::run_kir("report " + src("tests/report/data/relu_select.kir") + " --no-math --baseline " + dir + "/bad.json -o " + dir);
  CHECK(baseline.code == 1);
  CHECK(baseline.out.find(dir + "/bad.json:3:") != std::string::npos);
  {
    std::ofstream f(dir + "/other.json");
    f << "{\"cases\": []}\n";
  }
  auto other = kir::test::run_kir("report --from " + dir + "/other.json -o " + dir);
  CHECK(other.code == 1);
  CHECK(other.out.find("not a kir report") != std::string::npos);
}

TEST_CASE("report: the math section measures the backend beside glibc", "[report]") {
  const std::string dir = out_dir("math");
  auto r = kir::test::run_kir("report " + src("tests/report/data/relu_select.kir") +
                              " --math-samples 200 --math-functions exp,sqrt --math-dtypes f32 -o " + dir);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const json doc = load(dir);
  CHECK(doc["math"]["samples"] == 200);
  REQUIRE(doc["math"]["functions"].size() == 2);
  for (const auto& row : doc["math"]["functions"]) {
    CHECK(row["dtype"] == "f32");
    CHECK(row["verdict"] == "PASS");
    CHECK(row["count"].get<int>() >= 200);
  }
}
