// `kir spec validate` and `kir spec instantiate` exit codes: 0 ok, 1 invalid input, 2 usage.
// Runs the kir binary named by $KIR_BIN (set by CTest); skipped with a warning when unset.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

namespace {
int run(const std::string& args) {
  const char* bin = std::getenv("KIR_BIN");
  std::string cmd = std::string(bin) + " " + args + " > /dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
const std::string kSrc = KIR_SOURCE_DIR;
}  // namespace

TEST_CASE("kir spec exit codes", "[M19]") {
  if (!std::getenv("KIR_BIN")) {
    WARN("KIR_BIN is not set; run through ctest");
    return;
  }
  CHECK(run("spec validate " + kSrc + "/specs") == 0);
  CHECK(run("spec validate " + kSrc + "/specs --op GemmFwdOp") == 0);
  CHECK(run("spec validate " + kSrc + "/tests/specs/data/invalid/pool_varlen.yaml") == 1);
  CHECK(run("spec validate " + kSrc + "/specs --op") == 2);
  CHECK(run("spec instantiate " + kSrc + "/specs/ops/gemm.yaml --op GemmFwdOp --row square") == 0);
  CHECK(run("spec instantiate " + kSrc + "/specs/ops/gemm.yaml") == 2);
  CHECK(run("spec instantiate " + kSrc + "/specs/ops/gemm.yaml --op NopeFwdOp") == 1);
}
