// Runs the `kir` program (path in $KIR_BIN, set by CTest) with arguments and captures its exit
// code and combined output; shared by the test suites that exercise the command line.
#pragma once
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kir::test {

struct ToolRun {
  int code;
  std::string out;
};

// `env`: variable assignments for this run only ("KIR_MUTANT=name").
inline ToolRun run_kir(const std::string& args, const std::string& env = "") {
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin != nullptr);
  std::string cmd = (env.empty() ? "" : env + " ") + std::string(bin) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

}  // namespace kir::test
