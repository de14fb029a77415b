// The `kir` program as a user meets it: exit codes (0 ok, 1 invalid input, 2 usage error),
// diagnostics as file:line:col: error[RULE]: message with a caret line, --help everywhere,
// and no crash on hostile input.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "tests/run_tool.h"
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using Run = kir::test::ToolRun;

Run kir_cmd(const std::string& args) { return kir::test::run_kir(args); }

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("kir_cli_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

const char* kSyntaxError = "kernel @k(%a: f32) {\n  %c = add(%a, %b) : f32\n}\n";

}  // namespace

TEST_CASE("kir verify reports a located diagnostic with a caret and exits 1", "[cli]") {
  std::string f = temp_file("undef.kir", kSyntaxError);
  Run r = kir_cmd("verify " + f);
  CHECK(r.code == 1);
  CHECK(r.out.find(f + ":2:16: error[syntax]: use of undefined value '%b'") != std::string::npos);
  CHECK(r.out.find("  %c = add(%a, %b) : f32\n                 ^") != std::string::npos);
}

TEST_CASE("kir verify rejects a forbidden op with its rule ID", "[cli][L18.1]") {
  std::string f = temp_file("part.kir", "kernel @k(%x: In<f32[N]>) {\n  %p = partition(%x) : f32[N]\n}\n");
  Run r = kir_cmd("verify " + f);
  CHECK(r.code == 1);
  CHECK(r.out.find(":2:3: error[L18.1]: op 'partition': not in the language") != std::string::npos);
}

TEST_CASE("kir usage errors exit 2", "[cli]") {
  CHECK(kir_cmd("").code == 2);
  CHECK(kir_cmd("no-such-command").code == 2);
  CHECK(kir_cmd("verify").code == 2);
  CHECK(kir_cmd("verify /no/such/file.kir").code == 2);
  CHECK(kir_cmd("fmt --bogus-flag x").code == 2);
}

TEST_CASE("kir --help works on every subcommand", "[cli]") {
  for (const char* sub : {"", "verify ", "fmt ", "normalize ", "campaign "}) {
    Run r = kir_cmd(std::string(sub) + "--help");
    INFO(sub);
    CHECK(r.code == 0);
    CHECK(r.out.find("Usage") != std::string::npos);
  }
}

TEST_CASE("kir fmt prints canonical text", "[cli]") {
  std::string f = temp_file("fmt.kir", "fn @f(%a:f32,%b:f32)->f32{%s=add(%a,%b):f32 return(%s)}");
  Run r = kir_cmd("fmt " + f);
  CHECK(r.code == 0);
  CHECK(r.out == "fn @f(%a: f32, %b: f32) -> f32 {\n  %s = add(%a, %b) : f32\n  return(%s)\n}\n");
}

TEST_CASE("kir fmt keeps comments where they were, and is idempotent", "[cli]") {
  const std::string src =
      "// header\n"
      "fn @f(%a:f32,%b:f32)->f32{ // on the signature\n"
      "  // before the add\n"
      "  %s=add(%a,%b):f32   // after the add, with \"//\" quoted\n"
      "  %c = const() {value = \"not // a comment\"} : index\n"
      "  return(%s)\n"
      "}\n"
      "// at the end\n";
  const std::string want =
      "// header\n"
      "fn @f(%a: f32, %b: f32) -> f32 { // on the signature\n"
      "  // before the add\n"
      "  %s = add(%a, %b) : f32 // after the add, with \"//\" quoted\n"
      "  %c = const() {value = \"not // a comment\"} : index\n"
      "  return(%s)\n"
      "}\n"
      "// at the end\n";
  Run r = kir_cmd("fmt " + temp_file("comments.kir", src));
  CHECK(r.code == 0);
  CHECK(r.out == want);
  Run again = kir_cmd("fmt " + temp_file("comments2.kir", r.out));
  CHECK(again.out == want);
}

TEST_CASE("kir never crashes on binary or truncated input", "[cli]") {
  std::string garbage;
  for (int i = 0; i < 512; ++i) garbage += static_cast<char>((i * 131 + 7) % 256);
  for (const std::string& text : {garbage, std::string("kernel @k("), std::string(300, '('),
                                  std::string("kernel @k(%x: f32[") + std::string(1000, '(')}) {
    std::string f = temp_file("bad.kir", text);
    for (const char* sub : {"verify ", "fmt ", "normalize "}) {
      Run r = kir_cmd(sub + f);
      INFO(sub << r.out.substr(0, 300));
      CHECK(r.code == 1);
    }
  }
}
