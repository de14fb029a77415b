// Robustness: malformed YAML, wrong node types, deep nesting, alias bombs and random byte
// mutations of the bundled spec files give diagnostics, never a crash, hang or exception.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <filesystem>

#include "tests/specs/spec_test_util.h"

using namespace spec_test;
using namespace kir::specs;

namespace {
// Loads, validates and instantiates; any exception escaping is a test failure.
SpecDiags run_all(const std::string& text, const std::string& stem = "gemm") {
  Manifest m;
  SpecDiags d;
  load_types_text(types_text(), "types.yaml", m, d);
  load_family_text(text, stem + ".yaml", m, d);
  validate(m, d);
  return d;
}
}  // namespace

TEST_CASE("malformed YAML is a located loader error", "[M19]") {
  auto d = run_all("GemmFwdOp: {family: gemm\n  status: [\n");
  CHECK(d.contains("YAML does not parse"));
  CHECK(d.render().find("gemm.yaml:") == 0);
}

TEST_CASE("a file that is not a mapping", "[M19]") {
  CHECK(run_all("- 1\n- 2\n").contains("must be a mapping"));
  CHECK(run_all("42\n").contains("must be a mapping"));
  CHECK(run_all("{}\n").contains("empty"));
}

TEST_CASE("wrong node types everywhere give errors", "[M19]") {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"  signature:", "  signature: 3\n  xsignature:"},
           {"    forall: {M: Dim, N: Dim, K: Dim, T: \"DType[float16 | bfloat16]\"}", "    forall: [M, N]"},
           {"    inputs:", "    inputs: [a, b]\n    xinputs:"},
           {"a: {dtype: T, shape: \"Mat[trans_a, M, K]\"}", "a: [1, 2]"},
           {"a: {dtype: T, shape: \"Mat[trans_a, M, K]\"}", "a: {dtype: [T], shape: {x: 1}}"},
           {"match: t", "match: {x: 1}"},
           {"cases:", "cases: 5\n        xcases:"},
           {"  workloads:", "  workloads: {a: 1}\n  xworkloads:"},
           {"{M: 64, N: 32, K: 16, label: small, dtype_cases: [{T: float16}]}", "[1, 2, 3]"},
           {"{M: 64, N: 32, K: 16, label: small, dtype_cases: [{T: float16}]}", "{M: [64], N: {a: 1}, K: x, label: [1], dtype_cases: 7}"},
           {"    flops: \"2 * M * N * K\"", "    flops: [1, 2]"},
           {"    - \"M >= 0\"", "    - {a: 1}"},
           {"  roofline:", "  composition: [1]\n  roofline:"},
       }) {
    auto text = edit(kGemm, from, to);
    REQUIRE(text.find("EDIT-NOT-FOUND") == std::string::npos);
    SpecDiags d;
    REQUIRE_NOTHROW(d = run_all(text));
    INFO(to);
    CHECK(d.has_errors());
  }
}

TEST_CASE("deeply nested YAML and expressions are errors", "[M19]") {
  std::string deep = "GemmFwdOp: " + std::string(3000, '[') + std::string(3000, ']') + "\n";
  REQUIRE_NOTHROW(run_all(deep));
  std::string expr(2000, '(');
  expr += "M" + std::string(2000, ')');
  auto d = run_all(edit(kGemm, "\"M >= 0\"", "\"" + expr + "\""));
  CHECK(d.contains("nests too deeply"));
}

TEST_CASE("an alias bomb stays cheap", "[M19]") {
  // Nine levels of eight references: 8^9 leaves if expanded; conversion budgets stop it.
  std::string anchors = "{M: &a0 [1, 1, 1, 1, 1, 1, 1, 1]";
  for (int k = 1; k <= 9; ++k) {
    std::string p = "*a" + std::to_string(k - 1);
    anchors += ", X" + std::to_string(k) + ": &a" + std::to_string(k) + " [" + p;
    for (int j = 1; j < 8; ++j) anchors += ", " + p;
    anchors += "]";
  }
  anchors += ", N: 8, K: *a9, label: small}";
  auto text = edit(kGemm, "{M: 64, N: 32, K: 16, label: small, dtype_cases: [{T: float16}]}", anchors);
  SpecDiags d;
  REQUIRE_NOTHROW(d = run_all(text));
  CHECK(d.has_errors());
}

TEST_CASE("random byte mutations of the library never crash", "[M19]") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KIR_SOURCE_DIR) + "/specs/ops"))
    files.push_back(read_text(e.path().string()));
  std::sort(files.begin(), files.end());
  rc::check("mutated spec files load and validate without exceptions", [&]() {
    const auto& base = files[*rc::gen::inRange<size_t>(0, files.size())];
    std::string text = base;
    int edits = *rc::gen::inRange(1, 6);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      size_t pos = *rc::gen::inRange<size_t>(0, text.size());
      int kind = *rc::gen::inRange(0, 3);
      char c = *rc::gen::elementOf(std::string("[]{}:,'\"*-_ 0123456789abcdXYZ\n#&|().!"));
      if (kind == 0) text[pos] = c;
      else if (kind == 1) text.insert(pos, 1, c);
      else text.erase(pos, 1);
    }
    run_all(text, "mutated");
  });
}
