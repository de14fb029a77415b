// Generated programs run on the reference interpreter: at least 90% without a run-time error
// (the generator guards divisors, shift amounts, float->integer casts and data-dependent
// coordinates); the failure rate and the reasons seen are printed. The faults family's programs
// fault as built: at the element their data chooses, the first of two faults in program order.
#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <regex>

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

TEST_CASE("faults-family programs fault where their data says, and the others run", "[fuzz]") {
  const GenOptions o = test::only_family("faults");
  // "runtime error[KIND]: op 'div': ... at (7)"; an out-of-bounds read names the element as
  // "(relation point (7))".
  const std::regex kind(R"(runtime error\[([a-z-]+)\])"), element(R"((?:relation point| at) \((-?[0-9]+)\))");
  std::map<std::string, int> seen;  // "variant: error kind"
  int partial = 0, past_first = 0;
  for (uint64_t seed = 9000; seed < 9300; ++seed) {
    const GeneratedCase c = sample_case(seed, test::size_for(seed), o).value();
    auto has = [&](const std::string& f) { return std::find(c.families.begin(), c.families.end(), f) != c.families.end(); };
    if (!has("faults") || has("shift.unmasked")) continue;  // no faults step, or a fault of another family
    std::string variant;
    for (const auto& f : c.families)
      if (f.rfind("faults.", 0) == 0 && f.rfind("faults.source.", 0) != 0) variant = f;
    std::string why;
    auto m = test::load_case(c, why);
    INFO("seed " << seed << " " << variant << "\n" << c.kir << why);
    REQUIRE(m);
    std::string err;
    try {
      auto args = kernel_args(c, *m);
      interp::Interpreter it(*m);
      it.run_kernel(c.kernel, args);
    } catch (const std::exception& e) {
      err = e.what();
    }
    INFO("error: " << err);
    std::smatch k, at;
    const bool has_kind = std::regex_search(err, k, kind);
    ++seen[variant + ": " + (err.empty() ? "ran" : has_kind ? k[1].str() : "other")];
    if (variant == "faults.edge.for" || variant == "faults.atomic.float_add") {
      CHECK(err.empty());
    } else if (variant.rfind("faults.huge.", 0) == 0) {
      REQUIRE(has_kind);
      CHECK(k[1] == "out-of-bounds");
    } else if (variant.rfind("faults.partial.", 0) == 0 || variant == "faults.two") {
      REQUIRE(has_kind);
      CHECK((k[1] == "division-by-zero" || k[1] == "integer-overflow" || k[1] == "out-of-bounds" || k[1] == "invalid-cast"));
      REQUIRE(std::regex_search(err, at, element));
      // The fault is at the element the data chose; the first of two is never element 0.
      const int64_t e = std::stoll(at[1]);
      ++partial;
      past_first += e > 0;
      if (variant == "faults.two") CHECK(e > 0);
    }
  }
  std::cout << "faults family on the interpreter:";
  for (const auto& [v, n] : seen) std::cout << "\n  " << n << "x " << v;
  std::cout << "\n  " << past_first << " of " << partial << " faults of partly read values are past element 0\n";
  CHECK(partial >= 100);
  CHECK(past_first * 2 >= partial);
}
