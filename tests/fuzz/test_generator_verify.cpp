// The program generator's programs are valid by construction: every sampled program (and every
// shrink of one) parses and verifies; sampling is deterministic; options restrict what is
// generated. docs/fuzzing.md "Program generator".
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <chrono>
#include <iostream>

#include "fuzz/gen/args.h"
#include "fuzz/gen/gen.h"
#include "fuzz_common.h"

using namespace kir;
using namespace kir::fuzz;

TEST_CASE("every generated program parses and verifies", "[fuzz]") {
  const int n = 600;
  int ok = 0;
  double gen_s = 0, verify_s = 0;
  for (uint64_t seed = 0; seed < n; ++seed) {
    const auto t0 = std::chrono::steady_clock::now();
    const GeneratedCase c = sample_case(seed, test::size_for(seed)).value();
    const auto t1 = std::chrono::steady_clock::now();
    std::string why;
    auto m = test::load_case(c, why);
    verify_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    gen_s += std::chrono::duration<double>(t1 - t0).count();
    INFO("seed " << seed << "\n" << c.kir << why);
    REQUIRE(m);
    // One kernel, every extent symbol bound, an argument for every parameter.
    REQUIRE(m->find_function(c.kernel));
    CHECK(m->find_function(c.kernel)->is_kernel());
    CHECK_FALSE(c.dims.empty());
    CHECK_NOTHROW(kernel_args(c, *m));
    ++ok;
  }
  std::cout << "generator: " << n << " programs, " << static_cast<int>(n / gen_s) << " generated/s, "
            << static_cast<int>(n / verify_s) << " parsed+verified/s, verify rate " << ok << "/" << n << "\n";
}

TEST_CASE("generated programs verify under the RapidCheck runner", "[fuzz]") {
  const bool ok = rc::check("gen_case programs verify", [] {
    const GeneratedCase c = *gen_case();
    std::string why;
    RC_ASSERT(test::load_case(c, why) != nullptr);
  });
  CHECK(ok);
}

TEST_CASE("sampling is deterministic", "[fuzz]") {
  int distinct = 0;
  std::string previous;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const int size = test::size_for(seed);
    const GeneratedCase a = sample_case(seed, size).value(), b = sample_case(seed, size).value();
    INFO("seed " << seed);
    CHECK(a.kir == b.kir);
    CHECK(a.dims == b.dims);
    CHECK(a.families == b.families);
    REQUIRE(a.inputs.size() == b.inputs.size());
    for (size_t i = 0; i < a.inputs.size(); ++i) {
      CHECK(a.inputs[i].name == b.inputs[i].name);
      CHECK(a.inputs[i].shape == b.inputs[i].shape);
      CHECK(a.inputs[i].bits == b.inputs[i].bits);
      CHECK(a.inputs[i].strides == b.inputs[i].strides);
      CHECK(a.inputs[i].offset == b.inputs[i].offset);
    }
    distinct += a.kir != previous;
    previous = a.kir;
  }
  CHECK(distinct >= 55);  // different seeds give different programs
}

TEST_CASE("shrinks of a generated case are valid programs", "[fuzz]") {
  int checked = 0;
  for (uint64_t seed = 100; seed < 112; ++seed) {
    rc::Shrinkable<GeneratedCase> s = sample_case(seed, 80);
    // A few direct shrinks, then a path of first shrinks (what a failing property walks down).
    int taken = 0;
    for (auto it = s.shrinks(); taken < 6;) {
      auto next = it.next();
      if (!next) break;
      const GeneratedCase c = next->value();
      std::string why;
      INFO("seed " << seed << " shrink " << taken << "\n" << c.kir << why);
      CHECK(test::load_case(c, why));
      ++taken, ++checked;
    }
    for (int depth = 0; depth < 8; ++depth) {
      auto first = s.shrinks().next();
      if (!first) break;
      s = *first;
      const GeneratedCase c = s.value();
      std::string why;
      INFO("seed " << seed << " shrink path depth " << depth << "\n" << c.kir << why);
      CHECK(test::load_case(c, why));
      ++checked;
    }
  }
  CHECK(checked >= 50);
}

TEST_CASE("options restrict dtypes, families and atomics", "[fuzz]") {
  GenOptions o;
  o.dtypes = {DType::F32, DType::I32, DType::Bool, DType::Index};
  o.allow_atomics = false;
  o.family_weights["contract"] = 0;
  o.family_weights["contract_epilogue"] = 0;
  for (uint64_t seed = 0; seed < 80; ++seed) {
    const GeneratedCase c = sample_case(seed, 60, o).value();
    std::string why;
    INFO(c.kir << why);
    REQUIRE(test::load_case(c, why));
    for (const char* d : {"f16", "bf16", "f64", "e4m3", "e5m2", "e2m1", "e8m0"}) CHECK(c.kir.find(d) == std::string::npos);
    CHECK(c.kir.find("atomic.") == std::string::npos);
    CHECK(c.kir.find("scatter_reduce") == std::string::npos);
    CHECK(c.kir.find("= contract(") == std::string::npos);
  }
}
