// docs/tutorial.md cannot go stale: every `kir` line of its ```sh blocks runs from the repository
// root and must exit with the code written after it (`# exit N`, 0 when absent).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Command {
  std::string args;
  int exit_code = 0;
  int line = 0;
};

std::vector<Command> tutorial_commands() {
  std::ifstream in(std::filesystem::path(KIR_SOURCE_DIR) / "docs" / "tutorial.md");
  std::vector<Command> out;
  bool in_sh = false;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.rfind("```", 0) == 0) {
      in_sh = !in_sh && line == "```sh";
      continue;
    }
    if (!in_sh || line.rfind("kir ", 0) != 0) continue;
    Command c;
    c.line = n;
    std::string cmd = line.substr(4);
    if (auto h = cmd.find("# exit "); h != std::string::npos) {
      c.exit_code = std::atoi(cmd.c_str() + h + 7);
      cmd = cmd.substr(0, h);
    }
    while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
    c.args = cmd;
    out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("every command of docs/tutorial.md runs with the exit code the page states", "[cli][tutorial]") {
  const auto cmds = tutorial_commands();
  REQUIRE(cmds.size() >= 12);
  std::filesystem::remove_all("/tmp/kir-tutorial");
  std::filesystem::remove_all("/tmp/kir-tutorial-fuzz");
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin != nullptr);
  for (const auto& c : cmds) {
    const std::string shell = "cd '" + std::string(KIR_SOURCE_DIR) + "' && '" + bin + "' " + c.args + " 2>&1";
    FILE* p = popen(shell.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    for (size_t k; (k = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, k);
    const int status = pclose(p);
    INFO("docs/tutorial.md:" << c.line << ": kir " << c.args << "\n" << out.substr(0, 3000));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == c.exit_code);
  }
  std::filesystem::remove_all("/tmp/kir-tutorial");
  std::filesystem::remove_all("/tmp/kir-tutorial-fuzz");
}
