// Seeded mutants of the CPU backend (backends/cpu/mutants/mutants.h; docs/fuzzing.md "Mutation
// score"): for a few representative mutants, a tiny kernel whose verdict passes on the real
// backend and fails once KIR_MUTANT selects the mutant — the oracle sees the bug. The mutant's
// name is cache key material, so the mutated program is compiled anew and never confused with
// the unmutated object (checked directly below). Tagged with the checklist id of the area the
// mutant breaks.
#include <cmath>
#include <cstdlib>
#include <set>

#include "backend_test.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/provider/toolchain.h"
#include "oracle/verdict.h"
#include "tests/mutant_env.h"

using namespace kir;

namespace {

using kir::test::WithMutant;

// The kernel @k passes the oracle, and fails it under `mutant`.
void killed_by_oracle(const std::string& text, const std::map<std::string, interp::KernelArg>& args, const char* mutant) {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF: mutant " << mutant << " not checked");
    return;
  }
  unsetenv("KIR_MUTANT");
  auto m = btest::load(text);
  {
    oracle::Verdict v = oracle::judge_compiling(*m, "k", args);
    INFO("unmutated: " << v.str());
    CHECK(v.outcome == oracle::Outcome::Pass);
  }
  WithMutant on(mutant);
  oracle::Verdict v = oracle::judge_compiling(*m, "k", args);
  INFO("mutant " << mutant << ": " << v.str());
  CHECK(v.failed());
}

// y = f(x) element-wise over one dynamic extent: `body` defines %r from %v.
std::string pointwise_1d(const std::string& dtype, const std::string& body) {
  return R"(
kernel @k(%x: In<)" + dtype + R"([M]>, %y: Out<)" + dtype + R"([M]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<M>
  %i = indices(%d) : index[M]
  %rel = relation(%i) : relation<1 -> [M]>
  %v = view.load(%x, %rel) : )" + dtype + R"([M]
)" + body + R"(
  view.store(%y, %rel, %r)
}
)";
}

std::vector<double> ramp(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(i + 0.5);
  return v;
}

}  // namespace

TEST_CASE("mutant task_tail_dropped: the last block of a partitioned loop is missing", "[C1][C5][mutant]") {
  // 65 rows: blocks of 2, the 33rd task holds row 64 alone.
  killed_by_oracle(pointwise_1d("f32", "  %r = add(%v, %v) : f32[M]"),
                   {{"x", btest::view(DType::F32, {65}, ramp(65))}, {"y", btest::view(DType::F32, {65})}},
                   "task_tail_dropped");
}

TEST_CASE("mutant fma_contraction: a*b + c fused into one rounding", "[C9][mutant]") {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11: a*b + c is 0
  // with two roundings and 2^-24 with one.
  const double a = 1 + std::ldexp(1, -12), c = -(1 + std::ldexp(1, -11));
  const std::string text = R"(
kernel @k(%a: In<f32[M]>, %c: In<f32[M]>, %y: Out<f32[M]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<M>
  %i = indices(%d) : index[M]
  %rel = relation(%i) : relation<1 -> [M]>
  %va = view.load(%a, %rel) : f32[M]
  %vc = view.load(%c, %rel) : f32[M]
  %p = mul(%va, %va) : f32[M]
  %r = add(%p, %vc) : f32[M]
  view.store(%y, %rel, %r)
}
)";
  killed_by_oracle(text,
                   {{"a", btest::view(DType::F32, {2}, {a, a})},
                    {"c", btest::view(DType::F32, {2}, {c, c})},
                    {"y", btest::view(DType::F32, {2})}},
                   "fma_contraction");
}

TEST_CASE("mutant scan_inclusive_flipped: an inclusive scan computed exclusive", "[C6][C7][mutant]") {
  const std::string text = R"(
fn @plus(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}
)" + pointwise_1d("f32", R"(  %zf = const() {value = 0.0} : f32
  %r = scan(%v, %zf) {axis = 0, combine = @plus, inclusive = true, reverse = false} : f32[M])");
  killed_by_oracle(text, {{"x", btest::view(DType::F32, {4}, {1, 2, 3, 4})}, {"y", btest::view(DType::F32, {4})}},
                   "scan_inclusive_flipped");
}

TEST_CASE("mutant task_partition_carried: a scan's row-to-row loop split into tasks", "[C5][mutant]") {
  // The scan along the one axis carries its running sum from row to row: run as tasks, every
  // block after the first starts from a sum that is not yet (or no longer) the one it needs.
  const std::string text = R"(
fn @plus(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}
)" + pointwise_1d("f32", R"(  %zf = const() {value = 0.0} : f32
  %r = scan(%v, %zf) {axis = 0, combine = @plus, inclusive = true, reverse = false} : f32[M])");
  std::vector<double> ones(256, 1.0);
  // The built-in rows with one block per line (block 0), so that scan.blocks scans the line in
  // one carried loop, the canonical fold.
  std::string rows(cpu::default_config_rows_text());
  for (const std::string b : {"block: 65536", "block: 1024"})
    for (size_t p = 0; (p = rows.find(b, p)) != std::string::npos;) rows.replace(p, b.size(), "block: 0");
  REQUIRE(rows.find("block: 0}") != std::string::npos);
  btest::WithRows fold_rows(rows);
  killed_by_oracle(text, {{"x", btest::view(DType::F32, {256}, ones)}, {"y", btest::view(DType::F32, {256})}},
                   "task_partition_carried");
}

TEST_CASE("mutant masked_load_reads_inactive: masked lanes read the source, not the fill", "[C8][mutant]") {
  const std::string text = pointwise_1d("f32", R"(  %two = const() {value = 2} : index
  %twos = broadcast(%two) {dims = []} : index[M]
  %ok = cmp(%i, %twos) {pred = lt} : bool[M]
  %mrel = relation(%i, %ok) : relation<1 -> [M], masked>
  %fill = const() {value = -1.0} : f32
  %r = view.load(%x, %mrel, %fill) : f32[M])");
  killed_by_oracle(text, {{"x", btest::view(DType::F32, {4}, {1, 2, 3, 4})}, {"y", btest::view(DType::F32, {4})}},
                   "masked_load_reads_inactive");
}

TEST_CASE("mutant strided_view_as_unit: a column-major view read as if its rows were unit stride", "[C8][mutant]") {
  const std::string text = R"(
kernel @k(%x: In<f32[M, N]>, %y: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bm = broadcast(%im) {dims = [0]} : index[M, N]
  %bn = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%bm, %bn) : relation<2 -> [M, N]>
  %r = view.load(%x, %rel) : f32[M, N]
  view.store(%y, %rel, %r)
}
)";
  interp::HostView x = btest::view(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  x.strides = {1, 2};  // column-major storage of a 2x3 view
  killed_by_oracle(text, {{"x", x}, {"y", btest::view(DType::F32, {2, 3})}}, "strided_view_as_unit");
}

TEST_CASE("mutant minmax_nan_dropped: a runtime-header mutant (max returns the non-NaN operand)", "[C9][mutant]") {
  // Selected by a #define the serializer writes before the runtime headers: the precompiled
  // header, built without it, must not be used.
  const std::string text = pointwise_1d("f32", R"(  %one = const() {value = 1.0} : f32
  %ones = broadcast(%one) {dims = []} : f32[M]
  %r = max(%v, %ones) : f32[M])");
  killed_by_oracle(text, {{"x", btest::view(DType::F32, {3}, {std::nan(""), 0.5, 2})}, {"y", btest::view(DType::F32, {3})}},
                   "minmax_nan_dropped");
}

TEST_CASE("mutant contract_unrolled_no_tail: an odd contraction drops its last term", "[C7][C9][mutant]") {
  const std::string text = R"(
kernel @k(%x: In<f32[K]>, %w: In<f32[K, N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %k = dim(%x) {axis = 0} : index
  %n = dim(%w) {axis = 1} : index
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %rk = relation(%ik) : relation<1 -> [K]>
  %xv = view.load(%x, %rk) : f32[K]
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %rw = relation(%bk, %bn) : relation<2 -> [K, N]>
  %wv = view.load(%w, %rw) : f32[K, N]
  %r = contract(%xv, %wv) {batch = [], reduce = [[0, 0]]} : f32[N]
  %rn = relation(%in) : relation<1 -> [N]>
  view.store(%y, %rn, %r)
}
)";
  killed_by_oracle(text,
                   {{"x", btest::view(DType::F32, {3}, {1, 2, 3})},
                    {"w", btest::view(DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6})},
                    {"y", btest::view(DType::F32, {2})}},
                   "contract_unrolled_no_tail");
}

TEST_CASE("the active mutant is cache key material; an unknown name lists the mutants", "[C12][mutant]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF");
    return;
  }
  unsetenv("KIR_MUTANT");
  auto m = btest::load(pointwise_1d("f32", "  %r = add(%v, %v) : f32[M]"));
  const cpu::CompiledSource plain = cpu::compile_to_source(*m, "k", btest::options());
  cpu::CompiledSource header, pass;
  {
    WithMutant on("eq_bitwise");  // a runtime-header mutant this kernel does not even use
    header = cpu::compile_to_source(*m, "k", btest::options());
  }
  {
    WithMutant on("task_partition_carried");
    pass = cpu::compile_to_source(*m, "k", btest::options());
    CHECK(cpu::active_mutant()->id == cpu::MutantId::TaskPartitionCarried);
  }
  CHECK(header.key_material != plain.key_material);
  CHECK(header.key_material.find("mutant=eq_bitwise") != std::string::npos);
  CHECK(pass.key_material != plain.key_material);
  CHECK(header.source.find("#define KIR_MUTANT_EQ_BITWISE 1") != std::string::npos);
  CHECK(plain.source.find("KIR_MUTANT") == std::string::npos);
  const cpu::Toolchain tc = cpu::detect_toolchain("");
  CHECK(btest::cache().key(header.source, header.key_material, tc) != btest::cache().key(plain.source, plain.key_material, tc));
  CHECK(btest::cache().key(pass.source, pass.key_material, tc) != btest::cache().key(plain.source, plain.key_material, tc));
  CHECK(cpu::active_mutant() == nullptr);

  WithMutant bad("no_such_mutant");
  try {
    cpu::compile_to_source(*m, "k", btest::options());
    FAIL("an unknown mutant compiled");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("no_such_mutant is not a mutant; the mutants are: transpose_inverse_perm") !=
          std::string::npos);
  }
}

TEST_CASE("every mutant has a unique name, a site and a description", "[mutant]") {
  const auto& all = cpu::mutants();
  CHECK(all.size() >= 30);
  CHECK(all.size() == static_cast<size_t>(cpu::MutantId::Count));
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(static_cast<size_t>(all[i].id) == i);
    CHECK(names.insert(all[i].name).second);
    CHECK(std::string(all[i].where).size() > 5);
    CHECK(std::string(all[i].bug).size() > 20);
  }
}
