// A campaign records the backend's coverage map (fuzz/campaign/coverage_table.h): the cells its
// workers' judged runs reached arrive in the summary and in summary.json, and the directed mode
// (`--target CELL`) runs only programs whose code has the cell, so the cell is reached.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "fuzz/campaign/campaign.h"
#include "fuzz/campaign/coverage_table.h"
#include "tests/fuzz/fuzz_common.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

CampaignOptions small_campaign(const std::string& tag, uint64_t seed, int64_t cases) {
  CampaignOptions o;
  o.gen = test::only_family("contract_epilogue");
  o.seed = seed;
  o.max_cases = cases;
  o.time_limit = 0;
  o.jobs = 1;
  o.batch = static_cast<int>(cases);
  o.progress = false;
  o.out = (std::filesystem::temp_directory_path() / ("kir-cov-" + tag + "-" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(o.out);
  return o;
}

uint64_t sum_with(const cpu::CoverageMap& m, const std::string& part) {
  uint64_t n = 0;
  for (const auto& [cell, c] : m.cells)
    if (cell.find(part) != std::string::npos) n += c;
  return n;
}

}  // namespace

TEST_CASE("a campaign's summary and summary.json carry the coverage map of its runs", "[coverage][campaign]") {
  auto o = small_campaign("map", 5, 12);
  std::ostringstream log;
  const CampaignSummary s = run_campaign(o, log);
  INFO(log.str() << s.table() << coverage_table(s.coverage));
  REQUIRE(s.cases == 12);
  CHECK(s.findings == 0);
  // Every case of the family runs at least one contract (a program the backend does not support
  // is unsupported and not run).
  CHECK(sum_with(s.coverage, "impl:contract.") + static_cast<uint64_t>(s.unsupported) >= 12);
  CHECK(sum_with(s.coverage, "/path:") > 0);
  // The active rows' implementation cells are listed even when no program was built from them.
  CHECK(s.coverage.cells.count("impl:contract.packed.portable@portable-4x4") == 1);
  std::ifstream in(std::filesystem::path(o.out) / "summary.json");
  const auto j = nlohmann::json::parse(in);
  REQUIRE(j.contains("coverage"));
  CHECK(j["coverage"]["cells"].get<size_t>() == s.coverage.cells.size());
  CHECK(j["coverage"]["map"]["impl:contract.packed.portable@portable-4x4"].get<uint64_t>() ==
        s.coverage.cells.at("impl:contract.packed.portable@portable-4x4"));
  std::filesystem::remove_all(o.out);
}

TEST_CASE("directed mode: only programs with the target cell run, and the cell is reached", "[coverage][campaign]") {
  auto o = small_campaign("target", 9, 24);
  o.target = "/path:gemv";
  std::ostringstream log;
  const CampaignSummary s = run_campaign(o, log);
  INFO(log.str() << s.table() << coverage_table(s.coverage));
  REQUIRE(s.cases == 24);
  CHECK(s.findings == 0);
  const int64_t ran = s.cases - s.unsupported;
  CHECK(ran > 0);
  // Every program that ran has a gemv branch; at least one took it.
  CHECK(sum_with(s.coverage, "impl:contract.packed.") >= static_cast<uint64_t>(ran));
  CHECK(sum_with(s.coverage, "/path:gemv") > 0);
  std::filesystem::remove_all(o.out);
}

TEST_CASE("the printed map puts the classes of one subject on one line", "[coverage]") {
  cpu::CoverageMap m;
  m.add_counts({"x/KC:none", "x/KC:partial", "impl:x@row"}, {3, 0, 1});
  const std::string t = coverage_table(m);
  CHECK(t.find("coverage: 2 of 3 cells reached\n") == 0);
  CHECK(t.find("  x/KC  none 3, partial 0\n") != std::string::npos);
  CHECK(t.find("  impl:x@row  1\n") != std::string::npos);
  CHECK(coverage_table(m, true).find("  x/KC  partial 0\n") != std::string::npos);
}
