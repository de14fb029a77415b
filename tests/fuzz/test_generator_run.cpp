// Generated programs run on the reference interpreter: at least 90% without a run-time error
// (the generator guards divisors, shift amounts, float->integer casts and data-dependent
// coordinates); the failure rate and the reasons seen are printed.
#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>
#include <map>

#include "fuzz/gen/args.h"
#include "fuzz/gen/gen.h"
#include "fuzz_common.h"
#include "interp/interpreter.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

// "op 'rem': integer division by zero ..." -> "op 'rem': integer division by zero"
std::string reason(const std::string& what) {
  auto p = what.find("runtime error");
  std::string r = p == std::string::npos ? what : what.substr(p);
  return r.substr(0, std::min<size_t>(r.size(), 90));
}

}  // namespace

TEST_CASE("the interpreter runs at least 90% of generated programs", "[fuzz]") {
  const int n = 500;
  int ran = 0, failed = 0;
  std::map<std::string, int> reasons;
  std::map<std::string, uint64_t> example;
  double run_s = 0;
  for (uint64_t seed = 1000; seed < 1000 + n; ++seed) {
    const GeneratedCase c = sample_case(seed, test::size_for(seed)).value();
    std::string why;
    auto m = test::load_case(c, why);
    INFO("seed " << seed << "\n" << c.kir << why);
    REQUIRE(m);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      auto args = kernel_args(c, *m);
      interp::Interpreter it(*m);
      it.run_kernel(c.kernel, args);
      ++ran;
    } catch (const std::exception& e) {
      ++failed;
      const std::string r = reason(e.what());
      if (!reasons[r]++) example[r] = seed;
    }
    run_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::cout << "interpreter: " << ran << "/" << n << " generated programs ran (" << failed << " failed, "
            << 100.0 * failed / n << "%), " << static_cast<int>(n / run_s) << " runs/s\n";
  for (const auto& [r, k] : reasons) std::cout << "  " << k << "x " << r << " (seed " << example[r] << ")\n";
  CHECK(ran >= n * 9 / 10);
}
