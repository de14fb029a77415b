// The `kir` program as a user meets it: exit codes (0 ok, 1 invalid input, 2 usage error),
// diagnostics as file:line:col: error[RULE]: message with a caret line, --help everywhere,
// and no crash on hostile input.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct Run {
  int code;
  std::string out;
};

Run kir(const std::string& args) {
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin != nullptr);
  std::string cmd = std::string(bin) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("kir_cli_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

const char* kSyntaxError = "kernel @k(%a: f32) {\n  %c = add(%a, %b) : f32\n}\n";

}  // namespace

TEST_CASE("kir verify reports a located diagnostic with a caret and exits 1", "[cli]") {
  std::string f = temp_file("undef.kir", kSyntaxError);
  Run r = kir("verify " + f);
  CHECK(r.code == 1);
  CHECK(r.out.find(f + ":2:16: error[syntax]: use of undefined value '%b'") != std::string::npos);
  CHECK(r.out.find("  %c = add(%a, %b) : f32\n                 ^") != std::string::npos);
}

TEST_CASE("kir verify rejects a forbidden op with its rule ID", "[cli][L18.1]") {
  std::string f = temp_file("part.kir", "kernel @k(%x: In<f32[N]>) {\n  %p = partition(%x) : f32[N]\n}\n");
  Run r = kir("verify " + f);
  CHECK(r.code == 1);
  CHECK(r.out.find(":2:3: error[L18.1]: op 'partition': not in the language") != std::string::npos);
}

TEST_CASE("kir usage errors exit 2", "[cli]") {
  CHECK(kir("").code == 2);
  CHECK(kir("no-such-command").code == 2);
  CHECK(kir("verify").code == 2);
  CHECK(kir("verify /no/such/file.kir").code == 2);
  CHECK(kir("fmt --bogus-flag x").code == 2);
}

TEST_CASE("kir --help works on every subcommand", "[cli]") {
  for (const char* sub : {"", "verify ", "fmt ", "normalize ", "campaign "}) {
    Run r = kir(std::string(sub) + "--help");
    INFO(sub);
    CHECK(r.code == 0);
    CHECK(r.out.find("Usage") != std::string::npos);
  }
}

TEST_CASE("kir fmt prints canonical text", "[cli]") {
  std::string f = temp_file("fmt.kir", "fn @f(%a:f32,%b:f32)->f32{%s=add(%a,%b):f32 return(%s)}");
  Run r = kir("fmt " + f);
  CHECK(r.code == 0);
  CHECK(r.out == "fn @f(%a: f32, %b: f32) -> f32 {\n  %s = add(%a, %b) : f32\n  return(%s)\n}\n");
}

TEST_CASE("kir never crashes on binary or truncated input", "[cli]") {
  std::string garbage;
  for (int i = 0; i < 512; ++i) garbage += static_cast<char>((i * 131 + 7) % 256);
  for (const std::string& text : {garbage, std::string("kernel @k("), std::string(300, '('),
                                  std::string("kernel @k(%x: f32[") + std::string(1000, '(')}) {
    std::string f = temp_file("bad.kir", text);
    for (const char* sub : {"verify ", "fmt ", "normalize "}) {
      Run r = kir(sub + f);
      INFO(sub << r.out.substr(0, 300));
      CHECK(r.code == 1);
    }
  }
}
