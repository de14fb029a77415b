// File-driven suites: every tests/kir/valid file parses, verifies and prints canonically with
// fmt idempotent; every tests/kir/invalid file is rejected with its expected rule and message.
#include <catch2/catch.hpp>

#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"
#include "tests/kir/file_suite.h"

using namespace kir;

TEST_CASE("valid KIR files verify and fmt is idempotent", "[kir][text][L19.1]") {
  auto files = test::kir_files("valid");
  REQUIRE(files.size() > 0);
  for (const auto& path : files) {
    INFO(path.string());
    std::string src = test::read_text(path);
    Diagnostics d;
    auto m = parse_module(src, path.string(), d);
    INFO(d.render(src));
    REQUIRE(m);
    CHECK(verify_module(*m, d));
    INFO(d.render(src));
    std::string once = print_module(*m);
    Diagnostics d2;
    auto m2 = parse_module(once, path.string() + ".fmt", d2);
    INFO(once);
    INFO(d2.render(once));
    REQUIRE(m2);
    CHECK(print_module(*m2) == once);
  }
}

TEST_CASE("invalid KIR files are rejected with their expected rule", "[kir][verify]") {
  auto files = test::kir_files("invalid");
  REQUIRE(files.size() > 0);
  for (const auto& path : files) {
    INFO(path.string());
    std::string src = test::read_text(path);
    auto expects = test::expectations(src);
    REQUIRE(!expects.empty());
    Diagnostics d;
    auto m = parse_module(src, path.string(), d);
    if (m) verify_module(*m, d);
    INFO(d.render(src));
    CHECK(d.has_errors());
    for (const auto& e : expects) {
      INFO("expected " << e.rule << " \"" << e.fragment << "\"");
      CHECK(d.contains(e.rule, e.fragment));
    }
  }
}
