// Every kind of message ends with the command that explains its rule: a verifier diagnostic, a
// manifest validator message (naming its check and the manifest rule) and a run-time error.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/run_tool.h"

namespace {
std::string src(const std::string& rel) { return std::string(KIR_SOURCE_DIR) + "/" + rel; }
}  // namespace

TEST_CASE("a verifier diagnostic ends with kir explain and its rule", "[rules][cli]") {
  auto r = kir::test::run_kir("verify " + src("tests/kir/invalid/core_L4.14_add_bool.kir"));
  CHECK(r.code == 1);
  CHECK(r.out.find("core_L4.14_add_bool.kir:3:3: error[L4.14]: op 'add': operands must be integer or floating, "
                   "got bool (kir explain L4.14)\n") != std::string::npos);
  auto e = kir::test::run_kir("explain L4.14");
  CHECK(e.code == 0);
  CHECK(e.out.rfind("L4.14: ", 0) == 0);
}

TEST_CASE("a manifest validator message names check, manifest rule and kir explain", "[rules][cli]") {
  auto r = kir::test::run_kir("spec validate " + src("tests/specs/data/invalid/attention_generator_indices.yaml"));
  CHECK(r.code == 1);
  CHECK(r.out.find("attention_generator_indices.yaml:11:41: [signature] WindowScoreFwdOp: index 'first' cannot be "
                   "solved from the inputs (at (no discriminants)) [C41, M4] (kir explain C41)\n") != std::string::npos);
  auto e = kir::test::run_kir("explain C41");
  CHECK(e.code == 0);
  CHECK(e.out.find("This check enforces manifest rule M4: ") != std::string::npos);
}

TEST_CASE("a run-time error ends with kir explain and its kind", "[rules][cli]") {
  auto dir = std::filesystem::temp_directory_path() / ("kir-hint-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "div.kir") << "kernel @k(%a: In<i32[N]>, %y: Out<i32[N]>) invocation {N = 2} {\n"
                                    "  %zero = const() {value = 0} : index\n"
                                    "  %n = dim(%a) {axis = 0} : index\n"
                                    "  %d = domain(%zero, %n) : domain<N>\n"
                                    "  %i = indices(%d) : index[N]\n"
                                    "  %rel = relation(%i) : relation<1 -> [N]>\n"
                                    "  %v = view.load(%a, %rel) : i32[N]\n"
                                    "  %c0 = const() {value = 0} : i32\n"
                                    "  %z = full(%c0) : i32[N]\n"
                                    "  %q = div(%v, %z) : i32[N]\n"
                                    "  view.store(%y, %rel, %q)\n"
                                    "}\n";
  auto r = kir::test::run_kir("run " + (dir / "div.kir").string() + " --no-progress");
  CHECK(r.code == 1);
  CHECK(r.out.find("runtime error[division-by-zero]") != std::string::npos);
  CHECK(r.out.find("(kir explain division-by-zero)\n") != std::string::npos);
  std::filesystem::remove_all(dir);
}
