// The rule table is complete and consistent: every ID the sources can print has an entry with an
// example and a fix; every rule of the conformance list has an entry; validator checks name the
// manifest rule they enforce; docs/rules.md is the table's rendering; `kir explain` prints it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "interp/error.h"
#include "kir/location.h"
#include "kir/rules/rule.h"
#include "tests/run_tool.h"

namespace fs = std::filesystem;
using kir::rules::Family;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The contents of the string literals of C++ source (comments skipped), one per element.
std::vector<std::string> cpp_literals(const std::string& src) {
  std::vector<std::string> out;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      i = src.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      i = src.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
    } else if (c == '\'') {  // a character literal ('"' must not open a string)
      size_t j = i + 1;
      while (j < src.size() && src[j] != '\'') j += src[j] == '\\' ? 2 : 1;
      i = j;
    } else if (c == '"') {
      std::string lit;
      size_t j = i + 1;
      while (j < src.size() && src[j] != '"') {
        if (src[j] == '\\' && j + 1 < src.size()) lit += src[j++];
        lit += src[j++];
      }
      out.push_back(lit);
      i = j;
    }
  }
  return out;
}

// IDs a message can name: dotted language IDs anywhere in a literal; the short validator IDs
// (C12, W9, loader L3, ...) and M<n> as a whole literal (they are passed as the check argument).
std::set<std::string> ids_in_sources() {
  std::set<std::string> ids;
  const std::regex dotted(R"(\bL\d+\.\d+\b)");
  const std::regex whole(R"(^(?:[CSWEPLM]\d+)$)");
  const fs::path root = KIR_SOURCE_DIR;
  for (const char* dir : {"kir", "interp", "backends", "specs", "oracle", "fuzz", "report", "tools"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".h") continue;
      if (e.path().string().find("/rules/") != std::string::npos) continue;  // the table itself
      for (const auto& lit : cpp_literals(read(e.path()))) {
        for (std::sregex_iterator m(lit.begin(), lit.end(), dotted), end; m != end; ++m) ids.insert(m->str());
        if (std::regex_match(lit, whole)) ids.insert(lit);
      }
    }
  }
  // The Python DSL's messages: IntentError(rule="L2.6") and "(L2.6)" inside messages.
  for (const auto& e : fs::recursive_directory_iterator(root / "python" / "intent")) {
    if (e.path().extension() != ".py") continue;
    std::string src = read(e.path());
    std::istringstream lines(src);
    std::string line;
    while (std::getline(lines, line)) {
      auto hash = line.find('#');
      if (hash != std::string::npos) line = line.substr(0, hash);
      for (std::sregex_iterator m(line.begin(), line.end(), dotted), end; m != end; ++m) ids.insert(m->str());
    }
  }
  return ids;
}

}  // namespace

TEST_CASE("the rule table has unique IDs, each with a title and a text", "[rules]") {
  auto rules = kir::rules::all();  // throws on a duplicate ID
  REQUIRE(rules.size() > 0);
  for (const auto& r : rules) {
    INFO(r.id);
    CHECK(!r.title.empty());
    CHECK(!r.text.empty());
    CHECK(r.title.back() != '.');
    if (r.lang != kir::rules::Lang::None) CHECK(!r.example.empty());
    if (r.family == Family::ManifestCheck) {
      if (!r.parent.empty()) {  // empty: a general check of the file format (loader, schema)
        const auto* p = kir::rules::find(r.parent);
        REQUIRE(p != nullptr);
        CHECK(p->family == Family::Manifest);
      }
    } else {
      CHECK(r.parent.empty());
    }
    for (auto t : {r.text, r.fix, r.title}) {  // the project's own words: no outside documents
      CHECK(t.find("../shared") == std::string_view::npos);
      CHECK(t.find("\u00a7") == std::string_view::npos);  // no section signs of outside documents
    }
  }
}

TEST_CASE("every ID a message can print has an explanation with an example and a fix", "[rules]") {
  auto ids = ids_in_sources();
  REQUIRE(ids.size() > 100);
  for (const auto& id : ids) {
    INFO(id);
    const auto* r = kir::rules::find(id);
    REQUIRE(r != nullptr);
    CHECK(!r->example.empty());
    CHECK(!r->fix.empty());
  }
  for (const char* tool_id : {"syntax", "io", "invocation"}) CHECK(kir::rules::find(tool_id) != nullptr);
}

TEST_CASE("every run-time error kind has an explanation with an example and a fix", "[rules]") {
  using kir::interp::ErrorKind;
  for (int k = 0; k <= static_cast<int>(ErrorKind::BreakOn); ++k) {
    std::string id = kir::interp::kind_name(static_cast<ErrorKind>(k));
    INFO(id);
    const auto* r = kir::rules::find(id);
    REQUIRE(r != nullptr);
    CHECK(r->family == Family::Runtime);
    CHECK(!r->fix.empty());
  }
}

TEST_CASE("every language and manifest rule of the conformance list is in the table", "[rules]") {
  std::string conf = read(fs::path(KIR_SOURCE_DIR) / "docs" / "conformance.md");
  std::regex row(R"(\n\| ([LM]\d+(?:\.\d+)?) \|)");
  size_t n = 0;
  for (std::sregex_iterator m(conf.begin(), conf.end(), row), end; m != end; ++m, ++n) {
    std::string id = (*m)[1];
    INFO(id);
    const auto* r = kir::rules::find(id);
    REQUIRE(r != nullptr);
    CHECK(r->family == (id[0] == 'L' ? Family::Language : Family::Manifest));
  }
  CHECK(n >= 90);
}

TEST_CASE("docs/rules.md is the rendering of the table", "[rules]") {
  // Regenerate with: build/tools/kir explain --markdown > docs/rules.md
  CHECK(read(fs::path(KIR_SOURCE_DIR) / "docs" / "rules.md") == kir::rules::render_markdown());
}

TEST_CASE("kir explain prints a rule, lists them, and names the closest for an unknown ID", "[rules]") {
  auto r = kir::test::run_kir("explain syntax");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("syntax: KIR text does not parse  (kir error)\n", 0) == 0);
  CHECK(r.out.find("Invalid:\n\n    fn @f(%a: f32) -> f32 {\n") != std::string::npos);
  CHECK(r.out.find("Fix: Write what the message says") != std::string::npos);

  auto brackets = kir::test::run_kir("explain '[syntax]'");
  CHECK(brackets.code == 0);
  CHECK(brackets.out == r.out);

  auto list = kir::test::run_kir("explain --list");
  CHECK(list.code == 0);
  CHECK(list.out.find("invocation\ta kernel's default invocation names no extent or gives no extent\n") != std::string::npos);

  auto unknown = kir::test::run_kir("explain sytnax");
  CHECK(unknown.code == 2);
  CHECK(unknown.out == "kir explain: no rule 'sytnax' (did you mean syntax?); `kir explain --list` lists them all\n");

  auto none = kir::test::run_kir("explain");
  CHECK(none.code == 2);
}

TEST_CASE("a diagnostic line ends with the command that explains its rule", "[rules]") {
  kir::Diagnostics d;
  d.error(kir::make_location("k.kir", 2, 3), "syntax", "expected ')'");
  d.error(kir::make_location("k.kir", 3, 1), "not-a-rule", "x");
  std::string text = d.render();
  CHECK(text.find("k.kir:2:3: error[syntax]: expected ')' (kir explain syntax)\n") != std::string::npos);
  CHECK(text.find("k.kir:3:1: error[not-a-rule]: x\n") != std::string::npos);
}
