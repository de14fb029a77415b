// File-driven manifest tests: every tests/specs/data/invalid/*.yaml must produce each message
// fragment named by its `# expect:` lines; every tests/specs/data/valid/*.yaml must validate clean.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {
std::vector<std::string> files_in(const std::string& sub) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KIR_SOURCE_DIR) + "/tests/specs/data/" + sub))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}
SpecDiags run(const std::string& path) {
  Manifest m;
  SpecDiags d;
  load_types_text(spec_test::types_text(), "types.yaml", m, d);
  load_family_text(spec_test::read_text(path), path, m, d);
  validate(m, d);
  return d;
}
}  // namespace

TEST_CASE("invalid spec files report their expected messages", "[M7][M9][M13][M14][M15][M16]") {
  auto files = files_in("invalid");
  REQUIRE(files.size() >= 5);
  for (const auto& f : files) {
    auto d = run(f);
    std::string text = spec_test::read_text(f);
    size_t pos = 0, expects = 0;
    while ((pos = text.find("# expect: ", pos)) != std::string::npos) {
      size_t end = text.find('\n', pos);
      std::string frag = text.substr(pos + 10, end - pos - 10);
      INFO(f << "\n" << d.render());
      CHECK(d.contains(frag));
      ++expects;
      pos = end;
    }
    CHECK(expects > 0);
  }
}

TEST_CASE("valid spec files validate clean", "[M7][M9]") {
  for (const auto& f : files_in("valid")) {
    Manifest m;
    SpecDiags d;
    load_types_text(spec_test::types_text(), "types.yaml", m, d);
    load_family_text(spec_test::read_text(f), f, m, d);
    validate(m, d);
    INFO(f << "\n" << d.render());
    CHECK_FALSE(d.has_errors());
  }
}
