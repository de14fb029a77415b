// `kir spec run` for manifest authors, on the fixtures of tests/oracle/data: kernels written with
// surface shorthands run (and pass parity); a missing reference kernel is a `skip` naming the paths
// searched, --no-reference checks the manifest rules alone, a reference that does not load fails
// every case (the count stays right); each failure prints the command that reruns just it, which
// --case makes exact for dtype cases; --keep-failures saves each failing case's inputs, outputs and
// that command; bad input is a clear error.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "oracle/spec_failures.h"
#include "tests/run_tool.h"

namespace {

namespace fs = std::filesystem;

std::string data(const std::string& sub) { return std::string(KIR_SOURCE_DIR) + "/tests/oracle/data/" + sub; }

bool has(const std::string& out, const std::string& frag) { return out.find(frag) != std::string::npos; }

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The command after "rerun: kir " on the line of the first failure, as arguments of kir.
std::string rerun_args(const std::string& out) {
  const std::string key = "rerun: kir ";
  const auto at = out.find(key);
  if (at == std::string::npos) return "";
  const auto from = at + key.size();
  return out.substr(from, out.find('\n', from) - from);
}

fs::path temp_dir(const std::string& tag) {
  fs::path p = fs::temp_directory_path() / ("kir_spec_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p;
}

}  // namespace

TEST_CASE("a kernel written with surface shorthands runs and passes parity", "[oracle][L19.1]") {
  // RowSumFwdOp's kernels use matmul and reduce.sum, which kir run accepts (normalized on load).
  auto r = kir::test::run_kir("spec run " + data("shorthand/ops"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r.out, "pass  RowSumFwdOp [small small-float32]"));
  CHECK(has(r.out, "pass  RowSumFwdOp [small small-float64]"));
  CHECK(has(r.out, "1 ops, 3 cases: 3 passed, 0 failed, 0 skipped"));
  auto v = kir::test::run_kir("spec validate " + data("shorthand/ops"));
  INFO(v.out);
  CHECK(v.code == 0);
  CHECK(has(v.out, "1 op(s) in 1 file(s): 0 error(s)"));
}

TEST_CASE("a missing reference kernel is a skip of the reference step naming the paths searched", "[oracle]") {
  auto r = kir::test::run_kir("spec run " + data("noref/ops"));
  INFO(r.out);
  CHECK(r.code == 1);  // CopyFwdOp still fails the manifest checks without a reference
  CHECK(has(r.out, "skip  ScaleFwdOp [with-bias]"));
  CHECK(has(r.out, "reference step: no reference kernel (searched " + data("noref/kernels/reference/ScaleFwdOp.kir") + ", " +
                       data("noref/ops/kernels/reference/ScaleFwdOp.kir") + ")"));
  CHECK(has(r.out, "FAIL  CopyFwdOp [small]"));
  CHECK(has(r.out, "output 'y': 3 of 6 elements never written (first at (0, 0))"));
  CHECK(has(r.out, "2 ops, 4 cases: 0 passed, 1 failed, 3 skipped"));
  auto only = kir::test::run_kir("spec run " + data("noref/ops") + " --op ScaleFwdOp");
  CHECK(only.code == 0);  // skips do not fail the run
}

TEST_CASE("--no-reference checks the manifest rules and parity without any reference kernel", "[oracle]") {
  auto r = kir::test::run_kir("spec run " + data("noref/ops") + " --no-reference");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(has(r.out, "no reference: each case runs the paired kernel and checks the manifest rules"));
  CHECK(has(r.out, "pass  ScaleFwdOp [with-bias]"));
  CHECK(has(r.out, "FAIL  CopyFwdOp [small]"));
  CHECK(has(r.out, "rerun: kir spec run " + data("noref/ops/elementwise.yaml") + " --op CopyFwdOp --row small --no-reference"));
  CHECK(has(r.out, "2 ops, 4 cases: 3 passed, 1 failed, 0 skipped"));
  CHECK(has(r.out, "no reference kernel was run (--no-reference)"));
  // The broken kernel of tests/oracle/data/broken is only caught by its reference.
  auto b = kir::test::run_kir("spec run " + data("broken/ops") + " --no-reference");
  CHECK(b.code == 0);
  CHECK(has(b.out, "3 passed, 0 failed"));
}

TEST_CASE("a reference kernel that does not load fails every case and the count stays right", "[oracle]") {
  auto r = kir::test::run_kir("spec run " + data("badref/ops"));
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(has(r.out, "FAIL  ScaleFwdOp [no-bias]"));
  CHECK(has(r.out, "reference " + data("badref/kernels/reference/ScaleFwdOp.kir") + " does not load"));
  CHECK(has(r.out, "op 'no_such_op': unknown op"));
  CHECK(has(r.out, "ScaleFwdOp      3     0     3     0"));
  CHECK(has(r.out, "1 ops, 3 cases: 0 passed, 3 failed, 0 skipped"));
}

TEST_CASE("each failure prints a one-line command that reruns just that case", "[oracle]") {
  SECTION("a row") {
    auto r = kir::test::run_kir("spec run " + data("broken/ops"));
    INFO(r.out);
    CHECK(has(r.out, "rerun: kir spec run " + data("broken/ops/elementwise.yaml") + " --op ScaleFwdOp --row with-bias\n"));
    auto again = kir::test::run_kir(rerun_args(r.out));
    INFO(again.out);
    CHECK(again.code == 1);
    CHECK(has(again.out, "FAIL  ScaleFwdOp [with-bias]"));
    CHECK(has(again.out, "1 ops, 1 cases: 0 passed, 1 failed"));
  }
  SECTION("a dtype case of a row (--case)") {
    auto r = kir::test::run_kir("spec run " + data("dtype_broken/ops"));
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK(has(r.out, "pass  RowSumFwdOp [small small-float32]"));
    CHECK(has(r.out, "rerun: kir spec run " + data("dtype_broken/ops/reduction.yaml") +
                         " --op RowSumFwdOp --row small --case small-float64\n"));
    auto again = kir::test::run_kir(rerun_args(r.out));
    INFO(again.out);
    CHECK(has(again.out, "FAIL  RowSumFwdOp [small small-float64]"));
    CHECK(has(again.out, "1 ops, 1 cases: 0 passed, 1 failed"));
  }
  SECTION("an unknown case id is an error") {
    auto r = kir::test::run_kir("spec run " + data("shorthand/ops") + " --case small-float16");
    CHECK(r.code == 1);
    CHECK(has(r.out, "no case with id 'small-float16'"));
  }
}

TEST_CASE("--keep-failures saves each failing case's inputs, outputs and command", "[oracle]") {
  const fs::path dir = temp_dir("keep");
  auto r = kir::test::run_kir("spec run " + data("broken/ops") + " --keep-failures " + dir.string());
  INFO(r.out);
  CHECK(r.code == 1);
  const fs::path c = dir / "ScaleFwdOp" / "with-bias";
  CHECK(has(r.out, "kept: " + c.string() + "/\n"));
  CHECK(has(r.out, "1 failing case(s) kept in " + dir.string()));
  CHECK_FALSE(fs::exists(dir / "ScaleFwdOp" / "no-bias"));  // passing cases leave nothing
  for (const char* f : {"inputs/x.npy", "inputs/bias.npy", "kernel/y.npy", "reference/y.npy", "command.sh", "message.txt"})
    CHECK(fs::is_regular_file(c / f));
  const std::string cmd = read(c / "command.sh");
  CHECK(has(cmd, "kir spec run " + data("broken/ops/elementwise.yaml") + " --op ScaleFwdOp --row with-bias\n"));
  CHECK(has(read(c / "message.txt"), "output 'y': 15 of 15 elements differ"));
  // The saved arrays are the case: each kernel on the saved inputs gives its saved output.
  const std::string in = " --input x=" + (c / "inputs/x.npy").string() + " --input bias=" + (c / "inputs/bias.npy").string() +
                         " --input alpha=2.0";
  auto ref = kir::test::run_kir("run " + data("broken/kernels/reference/ScaleFwdOp.kir") + in + " --expect y=" +
                                (c / "reference/y.npy").string());
  CHECK(ref.code == 0);
  auto kern = kir::test::run_kir("run " + data("broken/kernels/ScaleFwdOp.kir") + in + " --expect y=" + (c / "kernel/y.npy").string());
  CHECK(kern.code == 0);
  // command.sh reruns the case from anywhere.
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin);
  FILE* p = popen(("cd / && KIR=" + std::string(bin) + " sh " + (c / "command.sh").string() + " 2>&1").c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK(WEXITSTATUS(pclose(p)) == 1);
  CHECK(has(out, "1 ops, 1 cases: 0 passed, 1 failed"));
  fs::remove_all(dir);
}

TEST_CASE("--keep-failures into a path that is no folder is a clear error", "[oracle]") {
  const fs::path file = temp_dir("file");
  std::ofstream(file) << "x";
  auto r = kir::test::run_kir("spec run " + data("broken/ops") + " --keep-failures " + file.string());
  CHECK(r.code == 2);
  CHECK(has(r.out, "kir spec run: --keep-failures: '" + file.string() + "' exists and is not a folder"));
  auto sub = kir::test::run_kir("spec run " + data("broken/ops") + " --keep-failures " + (file / "sub").string());
  CHECK(sub.code == 2);
  CHECK(has(sub.out, "cannot create folder"));
  fs::remove(file);
}

TEST_CASE("reproducing commands quote what the shell would split, case folders are file names", "[oracle]") {
  using kir::oracle::repro_command;
  CHECK(repro_command("specs/ops/gemm.yaml", "GemmFwdOp", "square", "square-float16", {}) ==
        "kir spec run specs/ops/gemm.yaml --op GemmFwdOp --row square --case square-float16");
  CHECK(repro_command("my specs/x.yaml", "XFwdOp", "it's", "it's", {true, true, true}) ==
        "kir spec run 'my specs/x.yaml' --op XFwdOp --row 'it'\\''s' --special --backend cpu --no-reference");
  CHECK(repro_command("x.yaml", "XFwdOp", "", "", {}) == "kir spec run x.yaml --op XFwdOp");
  CHECK(kir::oracle::case_folder("d", "XFwdOp", "a/b c") == "d/XFwdOp/a_b_c");
  CHECK(kir::oracle::case_folder("d", "XFwdOp", "") == "d/XFwdOp/op");
  CHECK(kir::oracle::case_folder("d", "XFwdOp", "..") == "d/XFwdOp/_..");
}

TEST_CASE("a row whose params no kernel fixes is a skip naming them", "[oracle][L2.5]") {
  // ScaleByFwdOp's kernel fixes factor = 2.0 and window = [2, 2] (tests/oracle/data/fixes).
  auto r = kir::test::run_kir("spec run " + data("fixes/ops"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r.out, "pass  ScaleByFwdOp [fixed]"));
  CHECK(has(r.out, "skip  ScaleByFwdOp [other-factor]"));
  CHECK(has(r.out, "fixes factor = 3.0 (this row); @ScaleByFwdOp fixes factor = 2.0"));
  CHECK(has(r.out, "skip  ScaleByFwdOp [int-window]"));
  CHECK(has(r.out, "fixes window = 2 (this row); @ScaleByFwdOp fixes window = [2, 2]"));
  CHECK(has(r.out, "1 ops, 3 cases: 1 passed, 0 failed, 2 skipped"));
  auto v = kir::test::run_kir("spec validate " + data("fixes/ops"));
  INFO(v.out);
  CHECK(v.code == 0);
  auto b = kir::test::run_kir("spec run --backend cpu " + data("fixes/ops") + " --row other-factor");
  INFO(b.out);
  CHECK(b.code == 0);
  CHECK(has(b.out, "skip  ScaleByFwdOp [other-factor]"));
}
