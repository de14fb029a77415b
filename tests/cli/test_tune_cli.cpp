// `kir tune` from the command line (C12): every config row of --config is compiled, checked
// against the interpreter and timed; a rejected row is listed with its reason; the fastest is
// stored in the winner cache and `kir run --backend cpu` then builds from it; a bad config file is a
// located error.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/run_tool.h"

namespace fs = std::filesystem;

namespace {

fs::path write(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("kir-tune-test-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p;
}

const char* kKernel = R"(kernel @tuned_mm(%a: In<f64[M, K]>, %b: In<f64[K, N]>, %c: Out<f64[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %arel = relation(%am, %ak) : relation<2 -> [M, K]>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : f64[M, K]
  %bv = view.load(%b, %brel) : f64[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f64[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";

std::string rows() {
  const std::string common =
      "contract.sequential, reduce.fold, scan.fold, quantize.q8k, quantized_dot.q4k_q8k, scaled_contract.sequential, "
      "sparse_contract.sequential, histogram.serial";
  auto row = [&](const std::string& n, int mr, int nv) {
    return "  - name: " + n + "\n    shared: {task_m: 0, task_n: 0, mc: 32, nc: 64, kc: 16}\n    local: {mr: " +
           std::to_string(mr) + ", nv: " + std::to_string(nv) + "}\n    implementations: [contract.packed.portable, " +
           common + "]\n";
  };
  return "# tune test " + std::to_string(getpid()) + "\nrows:\n" + row("tiny-1x1", 1, 1) + row("small-4x4", 4, 4) +
         row("oversized", 17, 1);
}

}  // namespace

TEST_CASE("kir tune measures every row, lists rejected ones and stores the winner", "[C12]") {
  auto kir = write("mm.kir", kKernel);
  auto cfg = write("rows.yaml", rows());
  const std::string common = kir.string() + " --dim M=40 K=33 N=37 --config " + cfg.string();
  auto r = kir::test::run_kir("tune " + common + " --reps 2");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("tuning @tuned_mm over 3 config rows of " + cfg.string()) != std::string::npos);
  CHECK(r.out.find("tiny-1x1 ") != std::string::npos);
  CHECK(r.out.find("small-4x4 ") != std::string::npos);
  // mr = 17 is outside the parameter's domain: rejected with the reason, not measured.
  CHECK(r.out.find("oversized        rejected:") != std::string::npos);
  CHECK(r.out.find("parameter mr = 17 is outside 1..16") != std::string::npos);
  const auto w = r.out.find("winner: ");
  REQUIRE(w != std::string::npos);
  const std::string winner = r.out.substr(w + 8, r.out.find(' ', w + 8) - (w + 8));
  CHECK((winner == "tiny-1x1" || winner == "small-4x4"));
  CHECK(r.out.find("stored in ") != std::string::npos);
  CHECK(r.out.find(".winner") != std::string::npos);
  // Running the same kernel on the same shapes with the same rows builds from the winner (the
  // winner is keyed by the specialized program); --no-winner takes the first row.
  auto c = kir::test::run_kir("run " + common + " --backend cpu");
  INFO(c.out);
  CHECK(c.code == 0);
  CHECK(c.out.find("cpu: built from config row " + winner + "\n") != std::string::npos);
  auto n = kir::test::run_kir("run " + common + " --backend cpu --no-winner");
  CHECK(n.out.find("cpu: built from config row tiny-1x1\n") != std::string::npos);
  fs::remove(kir);
  fs::remove(cfg);
}

TEST_CASE("kir tune and kir compile: a bad config file is a located error", "[C11]") {
  auto kir = write("mm2.kir", kKernel);
  auto cfg = write("bad.yaml", "rows:\n  - name: x\n    shared: {task_m: 0}\n");
  auto r = kir::test::run_kir("tune " + kir.string() + " --config " + cfg.string());
  CHECK(r.code == 1);
  CHECK(r.out.find(cfg.string() + ":3:13: error[config]: row `x` lacks shared binding `task_n`") != std::string::npos);
  auto c = kir::test::run_kir("compile " + kir.string() + " --row nonexistent");
  CHECK(c.code == 1);
  CHECK(c.out.find("error[config]: no config row named `nonexistent`") != std::string::npos);
  fs::remove(kir);
  fs::remove(cfg);
}
