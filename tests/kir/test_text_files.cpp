// File-driven suites: every tests/kir/valid file parses, verifies and prints canonically with
// fmt idempotent; every tests/kir/invalid file is rejected with its expected rule and message.
#include <catch2/catch.hpp>

#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"
#include "tests/kir/file_suite.h"

using namespace kir;

namespace {
// Parses and, when that succeeds, verifies one test file; the diagnostics of both steps.
Diagnostics parse_and_verify(const std::string& src, const std::string& file) {
  Diagnostics d;
  auto m = parse_module(src, file, d);
  if (m) verify_module(*m, d);
  return d;
}
}  // namespace

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
    Diagnostics d = parse_and_verify(src, path.string());
    INFO(d.render(src));
    CHECK(d.has_errors());
    test::check_expectations(d, expects);
  }
}

namespace {
// Runs the invalid files whose expectations name `rule`; there must be at least one.
void check_invalid_files_for(const std::string& rule) {
  size_t n = 0;
  for (const auto& path : test::kir_files("invalid")) {
    std::string src = test::read_text(path);
    auto expects = test::expectations(src);
    bool names_rule = false;
    for (const auto& e : expects) names_rule = names_rule || e.rule == rule;
    if (!names_rule) continue;
    ++n;
    INFO(path.string());
    test::check_expectations(parse_and_verify(src, path.string()), expects);
  }
  INFO("no invalid file expects " << rule);
  CHECK(n > 0);
}

// Verifies the valid files that declare `// covers: ... rule ...`; there must be at least one.
void check_valid_files_covering(const std::string& rule) {
  size_t n = 0;
  for (const auto& path : test::kir_files("valid")) {
    std::string src = test::read_text(path);
    auto pos = src.find("// covers:");
    if (pos == std::string::npos) continue;
    std::string line = src.substr(pos, src.find('\n', pos) - pos) + " ";
    if (line.find(" " + rule + " ") == std::string::npos) continue;
    ++n;
    INFO(path.string());
    Diagnostics d;
    auto m = parse_module(src, path.string(), d);
    REQUIRE(m);
    CHECK(verify_module(*m, d));
  }
  INFO("no valid file covers " << rule);
  CHECK(n > 0);
}
}  // namespace

// Per-rule views of the file suites, so that each rule's coverage is visible by its tag.
TEST_CASE("L1.2 helper results and returns", "[L1.2]") { check_invalid_files_for("L1.2"); }
TEST_CASE("L2.1 In views are read-only", "[L2.1]") { check_invalid_files_for("L2.1"); }
TEST_CASE("L3.5 non-contiguous members need an index relation", "[L3.5]") { check_invalid_files_for("L3.5"); }
TEST_CASE("L4.8 .shape exists only for tensors and views", "[L4.8]") { check_invalid_files_for("L4.8"); }
TEST_CASE("L6.3 no ordered; tensor predicates use select", "[L6.3]") { check_invalid_files_for("L6.3"); }
TEST_CASE("L6.4 no state_stream", "[L6.4]") { check_invalid_files_for("L6.4"); }
TEST_CASE("L11.2 packed integers are not a scaled-contract format", "[L11.2]") { check_invalid_files_for("L11.2"); }
TEST_CASE("L15.5 there is no canonical copy", "[L15.5]") { check_invalid_files_for("L15.5"); }
TEST_CASE("L14.1 ragged groups compose from subregions and relations", "[L14.1]") { check_valid_files_covering("L14.1"); }
TEST_CASE("L5.2 whole-domain stores need no parallel", "[L5.2]") { check_valid_files_covering("L5.2"); }
TEST_CASE("L3.2 reverse order uses a forward counter", "[L3.2]") { check_valid_files_covering("L3.2"); }
