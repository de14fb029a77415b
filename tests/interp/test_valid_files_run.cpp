// Every kernel of every file in tests/kir/valid/ runs in the interpreter without error through
// `kir run` (inputs generated from the seed, small --dim extents, literal runtime scalars where
// the kernel needs particular ones). Kernels that need specific tensor inputs are listed with the
// reason; they must still end with a located run-time error, never a crash, and are run with
// suitable inputs by the test named in the reason.
#include <filesystem>
#include <map>

#include "interp_test.h"
#include "tests/kir/file_suite.h"
#include "tests/run_tool.h"

using namespace kir;

namespace {

// file name -> kernel -> extra `kir run` arguments (runtime scalars the kernel needs in range).
const std::map<std::string, std::map<std::string, std::string>> kScalars = {
    {"core_domains.kir", {{"window", " --input b=1 --input e=3"}}},  // subregion [b, e) of domain<N = 3>
};

// file name -> kernel -> why generated inputs cannot work.
const std::map<std::string, std::map<std::string, std::string>> kNeedsInputs = {
    {"ragged_groups.kir",
     {{"ragged_row_sums",
       "offsets must be non-decreasing prefix offsets within [0, R]; random offsets give out-of-range subregion "
       "bounds (run with real offsets in test_ops_memory2.cpp [L14.1])"}}},
};

}  // namespace

TEST_CASE("every kernel in tests/kir/valid runs in the interpreter", "[interp][valid-files]") {
  int kernels = 0;
  for (const auto& path : test::kir_files("valid")) {
    const std::string text = test::read_text(path);
    Diagnostics d;
    auto m = parse_module(text, path.string(), d);
    REQUIRE(m);
    for (const auto& f : m->functions) {
      if (!f->is_kernel()) continue;
      ++kernels;
      const std::string file = path.filename().string();
      std::string extra;
      if (auto sit = kScalars.find(file); sit != kScalars.end() && sit->second.count(f->name)) extra = sit->second.at(f->name);
      auto r = kir::test::run_kir("run " + path.string() + " --kernel " + f->name + " --seed 7" + test::small_dims(*f) +
                                  extra);
      INFO(file << " @" << f->name << "\n" << r.out);
      auto fit = kNeedsInputs.find(file);
      if (fit != kNeedsInputs.end() && fit->second.count(f->name)) {
        INFO("needs specific inputs: " << fit->second.at(f->name));
        CHECK((r.code == 0 || (r.code == 1 && r.out.find("runtime error") != std::string::npos)));
        continue;
      }
      if (file == "types_all.kir" && f->name == "views") {  // an empty body: its Out view is never written
        CHECK(r.code == 3);
        CHECK(r.out.find("never wrote 6 of 6 elements of Out view %y") != std::string::npos);
        continue;
      }
      CHECK(r.code == 0);
    }
  }
  CHECK(kernels >= 7);
}
