// `kir campaign` (the main job's example stage): every example through the interpreter, and with
// --backend cpu natively too, checked bit for bit; the summary says which was done.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/run_tool.h"

TEST_CASE("kir campaign runs every example; --backend cpu cross-checks them natively", "[cli][C14]") {
  const std::string ex = (std::filesystem::path(KIR_SOURCE_DIR) / "examples").string();
  auto r = kir::test::run_kir("campaign " + ex);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("interpreter only: pass --backend cpu") != std::string::npos);
  r = kir::test::run_kir("campaign " + ex + " --backend cpu");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("checked bit for bit against the interpreter") != std::string::npos);
  CHECK(r.out.find("campaign: 10 passed, 0 failed") != std::string::npos);
  CHECK(r.out.find("not built yet") == std::string::npos);
}
