// The region families (fuzz/gen/fam_region.cpp) with high weights: their programs verify, the
// laws of every region_fold/region_scan executed hold (Options::check_laws), and the results
// under the per-element and random segmentations pass the verdict against the canonical ones,
// so a backend's choice of segmentation can never be a false alarm.
#include <catch2/catch.hpp>

#include <iostream>

#include "fuzz/campaign/case_args.h"
#include "fuzz_common.h"
#include "oracle/differential.h"
#include "oracle/verdict.h"

using namespace kir;

TEST_CASE("region_fold/region_scan programs verify, keep their laws and any segmentation passes", "[fuzz]") {
  fuzz::GenOptions g;
  g.family_weights = {{"region_fold", 40}, {"region_scan", 40}, {"faults", 0}};  // a fault would end a run before its region ops
  int folds = 0, scans = 0, ran = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    const auto c = fuzz::sample_case(seed * 104729, fuzz::test::size_for(seed), g).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    INFO("seed " << seed << "\n" << c.kir << why);
    REQUIRE(m);
    const auto args = fuzz::case_args(*m, c);
    for (auto seg : {interp::Segmentation::Whole, interp::Segmentation::PerElement, interp::Segmentation::Random}) {
      interp::Options o;
      o.accumulation = interp::AccumulationOrder::Sequential;
      o.segmentation = seg;
      o.segmentation_seed = seed;
      o.check_laws = seg == interp::Segmentation::Whole;
      o.law_seed = seed;
      auto results = oracle::clone_args(args);
      std::string err;
      interp::Interpreter it(*m, o);
      try {
        it.run_kernel(c.kernel, results);
      } catch (const std::exception& e) {
        err = e.what();
      }
      if (o.check_laws) {
        INFO(it.law_report().str());
        CHECK(it.law_report().ok());
        folds += static_cast<int>(it.law_report().folds_checked);
        scans += static_cast<int>(it.law_report().scans_checked);
        ran += err.empty();
        continue;
      }
      auto v = oracle::judge_result(*m, c.kernel, args, results, err);
      INFO(v.str());
      CHECK(!v.failed());
    }
  }
  std::cout << "region programs: " << ran << "/120 ran; laws checked on " << folds << " region_fold and " << scans
            << " region_scan executions\n";
  CHECK(ran >= 100);
  CHECK(folds >= 50);
  CHECK(scans >= 50);
}
