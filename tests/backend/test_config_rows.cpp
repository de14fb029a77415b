// Config rows and selection (C11, C12): rows are checked when loaded (each error names
// file:line:col); a row is one complete candidate whose implementation set must give every
// structured computation exactly one applicable member, else it is rejected with the reason;
// the policy takes the first row that is not rejected; a forced row that is rejected is an
// error, never exchanged for another; the winner cache is separate from the artifact cache and
// a stored winner is used only where its key (constructed program, toolchain, rows) matches.
#include <filesystem>
#include <fstream>

#include "backend_test.h"
#include "backends/cpu/impl/config.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {


const std::string kCommon =
    "[contract.sequential, reduce.fold, scan.fold, quantize.q8k, quantized_dot.q4k_q8k, "
    "scaled_contract.sequential, sparse_contract.sequential, histogram.serial]";

std::string row(const std::string& name, const std::string& impl, int mr = 4, int nv = 4) {
  return "  - name: " + name + "\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 256, kc: 64}\n    local: {mr: " +
         std::to_string(mr) + ", nv: " + std::to_string(nv) + "}\n    implementations: [" + impl + ", " +
         kCommon.substr(1) + "\n";
}

using btest::WithRows;

std::string error_of(const std::string& text) {
  try {
    cpu::parse_config_rows(text, "rows.yaml");
  } catch (const cpu::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("config rows: the built-in rows load and name only registered implementations", "[C11]") {
  auto t = cpu::parse_config_rows(std::string(cpu::default_config_rows_text()), "<built-in>/config_rows.yaml");
  REQUIRE(t.rows.size() >= 3);
  for (const auto& r : t.rows) {
    REQUIRE(r.shared.size() == 5);
    for (size_t i = 0; i < 5; ++i) CHECK(r.shared[i].first == cpu::shared_binding_names()[i]);
    for (const auto& n : r.implementations) CHECK(cpu::find_implementation(n) != nullptr);
  }
}

TEST_CASE("config rows: malformed rows are errors at file:line:col", "[C11]") {
  CHECK(error_of("rows: [") .find("rows.yaml:1:") == 0);
  CHECK(error_of("rows: []\n").find("`rows` must be a non-empty list") != std::string::npos);
  CHECK(error_of("rowz: []\n") == "rows.yaml:1:1: error[config]: unknown key `rowz` (expected rows, sets) (kir explain config)");
  const std::string ok = "rows:\n" + row("a", "contract.packed.portable");
  CHECK(error_of(ok).empty());
  std::string missing = ok;
  missing.replace(missing.find(", kc: 64"), 8, "");
  CHECK(error_of(missing).find("rows.yaml:3:13: error[config]: row `a` lacks shared binding `kc`") == 0);
  std::string bad_impl = ok;
  bad_impl.replace(bad_impl.find("contract.packed.portable"), 24, "contract.packed.fast");
  CHECK(error_of(bad_impl) == "rows.yaml:5:23: error[config]: unknown implementation `contract.packed.fast` (kir explain config)");
  std::string bad_local = ok;
  bad_local.replace(bad_local.find("mr:"), 3, "mq:");
  CHECK(error_of(bad_local).find("error[config]: no implementation declares a local parameter `mq`") != std::string::npos);
  std::string negative = ok;
  negative.replace(negative.find("mc: 64"), 6, "mc: -4");
  CHECK(error_of(negative).find("shared binding mc must be >= 0, got -4") != std::string::npos);
  CHECK(error_of("rows:\n" + row("a", "contract.packed.portable") + row("a", "contract.packed.portable"))
            .find("row `a` is defined twice") != std::string::npos);
  CHECK(error_of("rows:\n" + row("a", "contract.packed.portable, contract.packed.portable"))
            .find("listed twice in row `a`") != std::string::npos);
}

TEST_CASE("config rows: a row giving a computation several members is rejected, the next row is taken", "[C11][C12]") {
  WithRows rows("rows:\n" + row("both", "contract.packed.portable, contract.packed.avx2", 4, 2) +
                row("one", "contract.packed.portable"));
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  auto src = cpu::compile_to_source(*m, "mm", btest::options());
  if (cpu::rt::host_capabilities().avx2) CHECK(src.program.config_row == "one");
  REQUIRE(src.program.bindings.size() == 1);
  CHECK(src.program.bindings[0].implementation == "contract.packed.portable");
  // Forcing the rejected row is an error naming why, not a switch to the other row.
  auto o = btest::options();
  o.config_row = "both";
  if (cpu::rt::host_capabilities().avx2) {
    try {
      cpu::compile_to_source(*m, "mm", o);
      FAIL("a rejected forced row compiled");
    } catch (const cpu::BackendError& e) {
      const std::string w = e.what();
      CHECK(w.find("row `both` (rows.yaml:2:5) is rejected") != std::string::npos);
      CHECK(w.find("several members of its implementation set apply to this contract: contract.packed.portable "
                   "contract.packed.avx2") != std::string::npos);
    }
  }
}

TEST_CASE("config rows: a computation no member realizes rejects the row with every reason", "[C11]") {
  // A row without a packed contract: the f32 matrix product has no applicable member.
  WithRows rows("rows:\n  - name: seq\n    shared: {task_m: 0, task_n: 0, mc: 1, nc: 1, kc: 1}\n"
                "    implementations: " + kCommon + "\n");
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  try {
    cpu::compile_to_source(*m, "mm", btest::options());
    FAIL("compiled without an applicable implementation");
  } catch (const cpu::BackendError& e) {
    const std::string w = e.what();
    CHECK(w.find("@mm: error[backend]: not implemented: no config row of rows.yaml gives every computation") == 0);
    INFO(w);
    CHECK(w.find(":21:3: `contract`: no member of its implementation set realizes this contract") != std::string::npos);
    CHECK(w.find("contract.sequential: a dense f32/f64 matrix product, the kind the packed implementations realize") !=
          std::string::npos);
  }
}

TEST_CASE("config rows: parameters outside their domain or a register file reject the row", "[C6][C11]") {
  WithRows rows("rows:\n" + row("big", "contract.packed.avx2", 12, 2) + row("zero", "contract.packed.portable", 0, 4) +
                row("fine", "contract.packed.portable", 3, 5));
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  std::string why;
  auto src = cpu::compile_to_source(*m, "mm", btest::options());
  CHECK(src.program.config_row == "fine");
  auto o = btest::options();
  o.config_row = "zero";
  try {
    cpu::compile_to_source(*m, "mm", o);
  } catch (const cpu::BackendError& e) {
    why = e.what();
  }
  CHECK(why.find("contract.packed.portable: parameter mr = 0 is outside 1..16") != std::string::npos);
  if (cpu::rt::host_capabilities().avx2) {
    o.config_row = "big";
    try {
      cpu::compile_to_source(*m, "mm", o);
    } catch (const cpu::BackendError& e) {
      why = e.what();
    }
    CHECK(why.find("a 12x2 micro-tile needs 27 vector registers; avx2 has 16") != std::string::npos);
  }
}

TEST_CASE("config rows: the binding is written into the op, kept after expansion and keys the artifact", "[C11][C12]") {
  WithRows rows("rows:\n" + row("p44", "contract.packed.portable") + row("p25", "contract.packed.portable", 2, 5));
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  // An empty winner cache: the keys are computed, no winner is found.
  cpu::WinnerCache none(std::filesystem::path(KIR_BINARY_DIR) / "winner-test-none");
  auto ao = btest::options();
  ao.winners = &none;
  auto a = cpu::compile_to_source(*m, "mm", ao);
  auto o = ao;
  o.config_row = "p25";
  auto b = cpu::compile_to_source(*m, "mm", o);
  REQUIRE(a.program.bindings.size() == 1);
  REQUIRE(!a.winner_key.empty());
  CHECK(a.program.bindings[0].order == "sequential-fused");
  CHECK(a.key_material.find(" contract.packed.portable mr=4 nv=4") != std::string::npos);
  CHECK(b.key_material.find(" contract.packed.portable mr=2 nv=5") != std::string::npos);
  CHECK(a.key_material != b.key_material);
  // Same construction, same winner key: the key leaves out the bindings being chosen.
  CHECK(a.winner_key == b.winner_key);
}

TEST_CASE("winner cache: a stored winner picks the row; other kernels and --row are unaffected", "[C12]") {
  WithRows rows("rows:\n" + row("p44", "contract.packed.portable") + row("p25", "contract.packed.portable", 2, 5));
  const auto dir = std::filesystem::path(KIR_BINARY_DIR) / "winner-test";
  std::filesystem::remove_all(dir);
  cpu::WinnerCache winners(dir);
  auto m = btest::load(btest::matmul_kir("f32", "f32", false));
  auto o = btest::options();
  o.winners = &winners;
  auto first = cpu::compile_to_source(*m, "mm", o);
  CHECK(first.program.config_row == "p44");  // no winner: the policy's first row
  winners.store(first.winner_key, {"p25", {{"p44", 2e-3}, {"p25", 1e-3}}});
  auto w = winners.lookup(first.winner_key);
  REQUIRE(w);
  CHECK(w->measured.size() == 2);
  CHECK(cpu::compile_to_source(*m, "mm", o).program.config_row == "p25");
  o.config_row = "p44";
  CHECK(cpu::compile_to_source(*m, "mm", o).program.config_row == "p44");
  // A different specialization (another kernel identity) has no winner.
  cpu::CompileOptions s = btest::options();
  s.winners = &winners;
  s.spec.unit_inner_stride["a"] = true;
  auto other = cpu::compile_to_source(*m, "mm", s);
  CHECK(other.winner_key != first.winner_key);
  CHECK(other.program.config_row == "p44");
  // The winner cache is its own store beside the artifact cache.
  CHECK(std::filesystem::exists(dir / (first.winner_key + ".winner")));
  std::filesystem::remove_all(dir);
}
