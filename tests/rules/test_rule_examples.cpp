// Every example of the rule table is real: a KIR example is rejected by the loader (parse,
// normalize, verify) with a diagnostic naming its rule and its fixed form loads cleanly; a run
// example makes `kir run` fail naming the rule, and its fixed form runs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "kir/load.h"
#include "kir/rules/rule.h"
#include "tests/run_tool.h"

namespace fs = std::filesystem;
using kir::rules::Lang;

TEST_CASE("every KIR example is rejected naming its rule, and its fix loads", "[rules]") {
  size_t n = 0;
  for (const auto& r : kir::rules::all()) {
    if (r.lang != Lang::Kir) continue;
    ++n;
    INFO(r.id << " example:\n" << r.example);
    kir::Diagnostics d;
    auto m = kir::load_canonical_text(r.example, "example.kir", d);
    CHECK(m == nullptr);
    bool named = false;
    for (const auto& diag : d.all()) named = named || diag.rule == r.id;
    INFO(d.render(std::string(r.example)));
    CHECK(named);
    if (!r.fixed.empty()) {
      kir::Diagnostics fd;
      auto fm = kir::load_canonical_text(r.fixed, "fixed.kir", fd);
      INFO("fixed:\n" << r.fixed << fd.render(std::string(r.fixed)));
      CHECK(fm != nullptr);
      CHECK(!fd.has_errors());
    }
  }
  CHECK(n > 0);
}

TEST_CASE("every run example fails naming its rule, and its fix runs", "[rules]") {
  fs::path dir = fs::temp_directory_path() / ("kir-rule-examples-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& r : kir::rules::all()) {
    if (r.lang != Lang::Run) continue;
    INFO(r.id << " example:\n" << r.example);
    fs::path file = dir / "example.kir";
    std::ofstream(file) << r.example;
    auto run = kir::test::run_kir("run " + file.string() + " " + std::string(r.args) + " --no-progress --output " +
                                  (dir / "out").string());
    INFO(run.out);
    CHECK(run.code == 1);
    // A run-time error kind names itself; a language rule checked at run time names the kind of
    // fault that enforces it.
    std::string hint = r.family == kir::rules::Family::Runtime ? "(kir explain " + std::string(r.id) + ")" : "(kir explain ";
    CHECK(run.out.find(hint) != std::string::npos);
    if (!r.fixed.empty()) {
      fs::path fixed = dir / "fixed.kir";
      std::ofstream(fixed) << r.fixed;
      auto ok = kir::test::run_kir("run " + fixed.string() + " " + std::string(r.args) + " --no-progress --output " +
                                   (dir / "out").string());
      INFO("fixed:\n" << r.fixed << ok.out);
      CHECK(ok.code == 0);
    }
  }
  fs::remove_all(dir);
}
