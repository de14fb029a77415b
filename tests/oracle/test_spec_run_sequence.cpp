// `kir spec run` on the bundled sequence ops (issue 6; the three reference programs of seed 000
// §9.7): FlashAttentionFwdOp (region_fold), LinearAttentionFwdOp (region_scan) and
// MambaChunkScanFwdOp (ordered carry over a chunk domain) pass every row against their scalar-loop
// references, and a one-token mutation of each kernel (copied to a scratch tree) is caught, so the
// references are independent and the `// compare:` tolerances are tight enough to see real bugs.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "oracle/spec_run.h"

namespace fs = std::filesystem;

namespace {

std::string src(const std::string& sub) { return std::string(KIR_SOURCE_DIR) + "/" + sub; }

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string report(const kir::oracle::SpecRunSummary& s) {
  std::string r = s.diagnostics;
  for (const auto& c : s.cases) r += std::string(kir::oracle::status_name(c.status)) + " " + c.label + ": " + c.message + "\n";
  return r;
}

kir::oracle::SpecRunSummary run_op(const std::string& root, const std::string& op) {
  kir::oracle::SpecRunOptions o;
  o.only_op = op;
  return kir::oracle::run_spec_workloads({root}, o);
}

// A scratch spec tree holding one manifest, its kernel with `from` replaced by `to`, and the
// untouched reference: specs/ops/<yaml>, specs/kernels/<Op>.kir, specs/kernels/reference/<Op>.kir.
std::string mutated_tree(const std::string& yaml, const std::string& op, const std::string& from, const std::string& to) {
  fs::path root = fs::temp_directory_path() / ("kir_k5_" + op + "_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "ops");
  fs::create_directories(root / "kernels" / "reference");
  fs::copy_file(src("specs/types.yaml"), root / "types.yaml");
  fs::copy_file(src("specs/ops/" + yaml), root / "ops" / yaml);
  fs::copy_file(src("specs/kernels/reference/" + op + ".kir"), root / "kernels" / "reference" / (op + ".kir"));
  std::string k = slurp(src("specs/kernels/" + op + ".kir"));
  auto at = k.find(from);
  REQUIRE(at != std::string::npos);
  k.replace(at, from.size(), to);
  std::ofstream(root / "kernels" / (op + ".kir")) << k;
  return root.string();
}

}  // namespace

TEST_CASE("FlashAttention (region_fold) matches its loop reference on every row", "[oracle][L9.7][L9.1][L9.4]") {
  auto s = run_op(src("specs"), "FlashAttentionFwdOp");
  INFO(report(s));
  CHECK_FALSE(s.manifest_errors);
  CHECK(s.cases.size() == 2);
  CHECK(s.count(kir::oracle::CaseResult::Status::Pass) == 2);
}

TEST_CASE("LinearAttention (region_scan) matches its loop reference on every row", "[oracle][L9.7][L9.5]") {
  auto s = run_op(src("specs"), "LinearAttentionFwdOp");
  INFO(report(s));
  CHECK(s.cases.size() == 2);
  CHECK(s.count(kir::oracle::CaseResult::Status::Pass) == 2);
}

TEST_CASE("MambaChunkScan (chunk carry) matches its loop reference on every row", "[oracle][L9.7]") {
  auto s = run_op(src("specs"), "MambaChunkScanFwdOp");
  INFO(report(s));
  CHECK(s.cases.size() == 2);
  CHECK(s.count(kir::oracle::CaseResult::Status::Pass) == 2);
}

TEST_CASE("FlashAttention with a causal mask off by one is caught on the causal row only", "[oracle][L9.7]") {
  // j < i instead of j <= i hides each query's own key: only the is_causal row sees it.
  auto root = mutated_tree("attention_flash.yaml", "FlashAttentionFwdOp", "{pred = le} : bool[S, M]", "{pred = lt} : bool[S, M]");
  auto s = run_op(root, "FlashAttentionFwdOp");
  INFO(report(s));
  REQUIRE(s.cases.size() == 2);
  for (const auto& c : s.cases) {
    CHECK(c.status == (c.label == "causal-tail" ? kir::oracle::CaseResult::Status::Fail : kir::oracle::CaseResult::Status::Pass));
    if (c.label == "causal-tail") CHECK(c.message.find("output 'o'") != std::string::npos);
  }
  fs::remove_all(root);
}

TEST_CASE("LinearAttention ignoring its initial state is caught on the row that passes it", "[oracle][L9.7][M2]") {
  auto root = mutated_tree("linear_attention.yaml", "LinearAttentionFwdOp", "yield(%s0)", "yield(%ident)");
  auto s = run_op(root, "LinearAttentionFwdOp");
  INFO(report(s));
  REQUIRE(s.cases.size() == 2);
  for (const auto& c : s.cases)
    CHECK(c.status == (c.label == "with-state" ? kir::oracle::CaseResult::Status::Fail : kir::oracle::CaseResult::Status::Pass));
  fs::remove_all(root);
}

TEST_CASE("MambaChunkScan restarting every chunk from the initial state is caught", "[oracle][L9.7]") {
  // Dropping the carry between chunks breaks every row with more than one chunk (both rows).
  auto root = mutated_tree("mamba.yaml", "MambaChunkScanFwdOp", "call(%xv, %av, %bv, %cv, %h)", "call(%xv, %av, %bv, %cv, %init)");
  auto s = run_op(root, "MambaChunkScanFwdOp");
  INFO(report(s));
  CHECK(s.cases.size() == 2);
  CHECK(s.count(kir::oracle::CaseResult::Status::Fail) == 2);
  fs::remove_all(root);
}
