// Seeded mutants of the CPU backend (backends/cpu/mutants/mutants.h; docs/fuzzing.md "Mutation
// score"): for a few representative mutants, a tiny kernel whose verdict passes on the real
// backend and fails once KIR_MUTANT selects the mutant — the oracle sees the bug. The mutant's
// name is cache key material, so the mutated program is compiled anew and never confused with
// the unmutated object (checked directly below). Tagged with the checklist id of the area the
// mutant breaks.
//
// Every mutant of the optimized code is shown to reach its site: one of the site kernels below
// generates different source under it (or, in the runtime headers, a kernel that instantiates the
// mutated code carries its #define). Building every mutant's site kernels is the hidden test
// "[.mutants-build]" (minutes: one shared object per mutant; with KIR_MUTANTS_BUILD_ALL=1); the
// default run builds a few of them, and the differential checks build and run more.
#include <cmath>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>

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
  CHECK(all.size() >= 80);
  CHECK(all.size() == static_cast<size_t>(cpu::MutantId::Count));
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(static_cast<size_t>(all[i].id) == i);
    CHECK(names.insert(all[i].name).second);
    CHECK(std::string(all[i].where).size() > 5);
    CHECK(std::string(all[i].bug).size() > 20);
  }
}

// ---- The mutants of the optimized code: sites reached, builds, and differential checks.

namespace {

std::string read_source(const std::string& rel) {
  std::ifstream in(std::filesystem::path(KIR_SOURCE_DIR) / rel);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// %acc = %a @ %b (operands `dt` into `acc`), then `tail` over %acc, the per-column vector %vb
// (dtype `vdt`) and the coordinates %cm / %cn; %d is a second output of the result's shape.
std::string gemm_then(const std::string& dt, const std::string& acc, const std::string& vdt, const std::string& tail) {
  return "kernel @k(%a: In<" + dt + "[M, K]>, %b: In<" + dt + "[K, N]>, %v: In<" + vdt + "[N]>, %c: Out<" + acc +
         "[M, N]>, %d: Out<" + acc + R"([M, N]>) {
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
  %av = view.load(%a, %arel) : )" + dt + R"([M, K]
  %bv = view.load(%b, %brel) : )" + dt + R"([K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : )" + acc + R"([M, N]
  %vrel = relation(%in) : relation<1 -> [N]>
  %vv = view.load(%v, %vrel) : )" + vdt + R"([N]
  %vb = broadcast(%vv) {dims = [1]} : )" + vdt + R"([M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
)" + tail + "}\n";
}

// The epilogue tanh(acc + bias) stored to %c (%d untouched).
const std::string kBiasTanh = R"(  %x = add(%acc, %vb) : f32[M, N]
  %t = tanh(%x) : f32[M, N]
  view.store(%c, %crel, %t)
)";

// y[m, n] = f(x[m, n], r[m]) with r = the row sums of x (a reduce, then a pass over the rows).
std::string rows_then(const std::string& dt, const std::string& f) {
  return "fn @plus(%a: " + dt + "[R], %b: " + dt + "[R]) -> " + dt + "[R] {\n  %s = add(%a, %b) : " + dt +
         "[R]\n  return(%s)\n}\nkernel @k(%x: In<" + dt + "[M, N]>, %s: Out<" + dt + "[M]>, %y: Out<" + dt + R"([M, N]>) {
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
  %v = view.load(%x, %rel) : )" + dt + R"([M, N]
  %z = const() {value = )" + (dt == "f32" ? "0.0" : "0") + "} : " + dt + R"(
  %id = full(%z) : )" + dt + R"([M]
  %r = reduce(%v, %id) {axes = [1], combine = @plus} : )" + dt + R"([M]
  %rm = relation(%im) : relation<1 -> [M]>
  view.store(%s, %rm, %r)
  %rb = broadcast(%r) {dims = [0]} : )" + dt + R"([M, N]
  %f = )" + f + "(%v, %rb) : " + dt + R"([M, N]
  view.store(%y, %rel, %f)
}
)";
}

// rows_then over a square x, the second pass reading the row sums along the columns: y[m, n] =
// x[m, n] - r[n] (not only the current row's sum).
std::string rows_transposed() {
  std::string t = rows_then("f32", "sub");
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"[M, N]", "[M, M]"}, {"domain<N>", "domain<M>"}, {"index[N]", "index[M]"}, {"dims = [0]} : f32[M, M]\n  %f", "dims = [1]} : f32[M, M]\n  %f"}})
    for (size_t p = 0; (p = t.find(from, p)) != std::string::npos; p += to.size()) t.replace(p, from.size(), to);
  return t;
}

std::string scan_kir(bool inclusive, bool reverse) {
  return R"(
fn @plus(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}
)" + pointwise_1d("f32", std::string("  %zf = const() {value = 0.0} : f32\n  %r = scan(%v, %zf) {axis = 0, combine = @plus, inclusive = ") +
                                 (inclusive ? "true" : "false") + ", reverse = " + (reverse ? "true" : "false") + "} : f32[M]");
}

// region_fold over a source of `n` rows (0: symbolic), summarize = the slice's sum (tests/kir/valid).
std::string region_fold_kir(int64_t n) {
  const std::string N = n ? std::to_string(n) : "N";
  return read_source("tests/kir/valid/region_fold_segments.kir") + "\nkernel @k(%x: In<i32[" + N + R"(]>, %o: Out<i32[1]>) {
  %zero = const() {value = 0} : index
)" + (n ? "  %n = const() {value = " + N + "} : index\n" : "  %n = dim(%x) {axis = 0} : index\n") + R"(  %d = domain(%zero, %n) : domain<)" + N + R"(>
  %i = indices(%d) : index[)" + N + R"(]
  %rel = relation(%i) : relation<1 -> [)" + N + R"(]>
  %xv = view.load(%x, %rel) : i32[)" + N + R"(]
  %id = const() {value = 7} : i32
  %s = region_fold(%xv, %id) {axis = 0, combine = @seg_shift, segments = [1, 1, 0], summarize = @seg_sum} : i32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %s)
}
)";
}

std::string sparse_kir() {
  return R"(kernel @k(%v: In<f32[M, C]>, %meta: In<u8[M, C]>, %b: In<f32[2*C, N]>, %c: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %m = dim(%v) {axis = 0} : index
  %kc = dim(%v) {axis = 1} : index
  %kd = mul(%kc, %two) : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dc = domain(%zero, %kc) : domain<C>
  %dd = domain(%zero, %kd) : domain<2*C>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ic = indices(%dc) : index[C]
  %id = indices(%dd) : index[2*C]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, C]
  %ac = broadcast(%ic) {dims = [1]} : index[M, C]
  %arel = relation(%am, %ac) : relation<2 -> [M, C]>
  %vals = view.load(%v, %arel) : f32[M, C]
  %mv = view.load(%meta, %arel) : u8[M, C]
  %bk = broadcast(%id) {dims = [0]} : index[2*C, N]
  %bn = broadcast(%in) {dims = [1]} : index[2*C, N]
  %brel = relation(%bk, %bn) : relation<2 -> [2*C, N]>
  %bv = view.load(%b, %brel) : f32[2*C, N]
  %acc = sparse_contract(%vals, %mv, %bv) {batch = [], format = two_of_four, reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";
}

// An MX scaled_contract, e4m3 x e4m3 in groups of 32.
std::string mx_kir() {
  const std::string L = "[M, G, 32]", R = "[G, 32, N]";
  return "kernel @k(%l: In<u8" + L + ">, %ls: In<e8m0[M, G]>, %r: In<u8" + R + ">, %rs: In<e8m0[N, G]>, %y: Out<f32[M, N]>) {\n" +
         R"(  %zero = const() {value = 0} : index
  %m = dim(%l) {axis = 0} : index
  %g = dim(%l) {axis = 1} : index
  %n = dim(%r) {axis = 2} : index
  %c32 = const() {value = 32} : index
  %dm = domain(%zero, %m) : domain<M>
  %dg = domain(%zero, %g) : domain<G>
  %dn = domain(%zero, %n) : domain<N>
  %dc = domain(%zero, %c32) : domain<32>
  %im = indices(%dm) : index[M]
  %ig = indices(%dg) : index[G]
  %in = indices(%dn) : index[N]
  %ic = indices(%dc) : index[32]
  %lm = broadcast(%im) {dims = [0]} : index)" + L + R"(
  %lg = broadcast(%ig) {dims = [1]} : index)" + L + R"(
  %lc = broadcast(%ic) {dims = [2]} : index)" + L + R"(
  %lrel = relation(%lm, %lg, %lc) : relation<3 -> )" + L + R"(>
  %lv = view.load(%l, %lrel) : u8)" + L + R"(
  %lsm = broadcast(%im) {dims = [0]} : index[M, G]
  %lsg = broadcast(%ig) {dims = [1]} : index[M, G]
  %lsrel = relation(%lsm, %lsg) : relation<2 -> [M, G]>
  %lsv = view.load(%ls, %lsrel) : e8m0[M, G]
  %rg = broadcast(%ig) {dims = [0]} : index)" + R + R"(
  %rc = broadcast(%ic) {dims = [1]} : index)" + R + R"(
  %rn = broadcast(%in) {dims = [2]} : index)" + R + R"(
  %rrel = relation(%rg, %rc, %rn) : relation<3 -> )" + R + R"(>
  %rv = view.load(%r, %rrel) : u8)" + R + R"(
  %rsn = broadcast(%in) {dims = [0]} : index[N, G]
  %rsg = broadcast(%ig) {dims = [1]} : index[N, G]
  %rsrel = relation(%rsn, %rsg) : relation<2 -> [N, G]>
  %rsv = view.load(%rs, %rsrel) : e8m0[N, G]
  %acc = scaled_contract(%lv, %lsv, %rv, %rsv) {batch = [], lhs_format = e4m3, lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]
  %ym = broadcast(%im) {dims = [0]} : index[M, N]
  %yn = broadcast(%in) {dims = [1]} : index[M, N]
  %yrel = relation(%ym, %yn) : relation<2 -> [M, N]>
  view.store(%y, %yrel, %acc)
}
)";
}

// A kernel that reaches mutant sites, compiled from config row `row` ("" = the default one).
struct Site {
  std::string label, text, kernel, row;
};

const std::vector<Site>& sites() {
  static const std::vector<Site> all = [] {
    std::vector<Site> v = {
        {"math", pointwise_1d("f32", "  %t = tanh(%v) : f32[M]\n  %e = exp(%t) : f32[M]\n  %r = sin(%e) : f32[M]"), "k", ""},
        {"gemm-f32-epilogue", gemm_then("f32", "f32", "f32", kBiasTanh), "k", ""},
        {"gemm-f32-epilogue-read-later", gemm_then("f32", "f32", "f32", kBiasTanh + "  view.store(%d, %crel, %acc)\n"), "k", ""},
        {"gemm-i8-div", gemm_then("i8", "i32", "i32", "  %x = div(%acc, %vb) : i32[M, N]\n  view.store(%c, %crel, %x)\n"), "k", ""},
        {"gemm-u8", btest::matmul_kir("u8", "i32", false), "mm", ""},
        {"gemm-bf16", btest::matmul_kir("bf16", "f32", false), "mm", ""},
        {"rows-f32", rows_then("f32", "sub"), "k", ""},
        {"rows-i32-div", rows_then("i32", "div"), "k", ""},
        {"rows-transposed", rows_transposed(), "k", ""},
        {"scan-inclusive", scan_kir(true, false), "k", ""},
        {"scan-exclusive-reverse", scan_kir(false, true), "k", ""},
        {"region-fold", region_fold_kir(0), "k", ""},
        {"region-fold-128", region_fold_kir(128), "k", ""},
        {"sparse", sparse_kir(), "k", ""},
        {"mx", mx_kir(), "k", ""},
        {"qdot", read_source("specs/kernels/GemvQ4KFwdOp.kir"), "GemvQ4KFwdOp", ""},
        {"pointwise", pointwise_1d("f32", "  %r = add(%v, %v) : f32[M]"), "k", ""},
    };
    return v;
  }();
  return all;
}

cpu::CompiledSource site_source(const Site& s) {
  static std::map<std::string, std::shared_ptr<Module>> modules;
  auto& m = modules[s.label];
  if (!m) m = btest::load(s.text);
  auto opt = btest::options();
  opt.config_row = s.row;
  return cpu::compile_to_source(*m, s.kernel, opt);
}

// The site kernel a runtime-header mutant needs: one that instantiates the mutated code.
std::string header_site(const std::string& name) {
  if (name.rfind("vmath_", 0) == 0) return "math";
  if (name.rfind("qdot_", 0) == 0) return "qdot";
  if (name.find("bf16") != std::string::npos || name.find("bgemm") != std::string::npos) return "gemm-bf16";
  if (name.rfind("uk_", 0) == 0) return "gemm-f32-epilogue";
  return "pointwise";
}

bool optimized(const cpu::MutantInfo& m) { return m.id > cpu::MutantId::FpEnvFlushDenormals; }

// The sources of the site kernels that reach mutant `m` (compiled with it selected): for a
// runtime-header mutant its header site, for the others every site whose source changes. A site
// the mutant makes fail to compile reaches it too; it is counted in `failed` (no source).
std::deque<cpu::CompiledSource> reaching_sources(const cpu::MutantInfo& m, size_t* failed = nullptr) {
  static std::map<std::string, std::string> plain;
  unsetenv("KIR_MUTANT");
  for (const Site& s : sites())
    if (!plain.count(s.label)) plain[s.label] = site_source(s).source;
  std::deque<cpu::CompiledSource> out;
  WithMutant on(m.name);
  for (const Site& s : sites()) {
    if (m.header && s.label != header_site(m.name)) continue;
    cpu::CompiledSource src;
    try {
      src = site_source(s);
    } catch (const std::exception& e) {
      if (failed) ++*failed;
      continue;
    }
    if (m.header ? src.source.find("#define KIR_MUTANT_") != std::string::npos : src.source != plain[s.label])
      out.push_back(std::move(src));
  }
  return out;
}

// With mutant `m` selected, one of its reaching site kernels (or, when none reaches it, of all
// the site kernels) builds into a shared object that loads: tried one by one, since a mutant may
// make some programs fail to compile (a finding in itself).
void builds(const cpu::MutantInfo& m) {
  std::deque<cpu::CompiledSource> srcs = reaching_sources(m);
  WithMutant on(m.name);
  if (srcs.empty())
    for (const Site& s : sites()) try {
        srcs.push_back(site_source(s));
      } catch (const std::exception&) {
      }
  INFO("mutant " << m.name << ": " << srcs.size() << " kernels");
  std::string errors;
  bool loaded = false;
  for (auto& src : srcs) {
    try {
      std::deque<cpu::CompiledSource> one;
      one.push_back(std::move(src));
      auto ks = cpu::build_kernels(std::move(one), &btest::cache());
      loaded = ks.size() == 1 && ks[0] != nullptr;
    } catch (const std::exception& e) {
      errors += std::string(e.what()).substr(0, 300) + "\n";
    }
    if (loaded) break;
  }
  INFO(errors);
  CHECK(loaded);
}

// `text`'s kernel agrees with the interpreter, and disagrees once `mutant` is selected.
void live(const std::string& text, const std::string& kernel, const std::map<std::string, interp::KernelArg>& args,
          const char* mutant, const std::string& row = "") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF: mutant " << mutant << " not checked");
    return;
  }
  unsetenv("KIR_MUTANT");
  auto m = btest::load(text);
  auto opt = btest::options();
  opt.config_row = row;
  {
    oracle::Differential d = oracle::run_differential(*m, kernel, args, nullptr, opt);
    INFO("unmutated: " << d.str());
    CHECK(d.ok());
  }
  WithMutant on(mutant);
  oracle::Differential d = oracle::run_differential(*m, kernel, args, nullptr, opt);
  INFO("mutant " << mutant << ": " << d.str());
  CHECK_FALSE(d.ok());
}

std::vector<double> seeded(size_t n, uint32_t seed, double lo, double hi, bool integers = false) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = integers ? std::round(u(g)) : static_cast<double>(static_cast<float>(u(g)));
  return v;
}

// Arguments of gemm_then at M x K x N (f32, bias along the columns).
std::map<std::string, interp::KernelArg> gemm_args(int64_t m, int64_t k, int64_t n) {
  const auto M = static_cast<size_t>(m), K = static_cast<size_t>(k), N = static_cast<size_t>(n);
  return {{"a", btest::view(DType::F32, {m, k}, seeded(M * K, 1, -1, 1))},
          {"b", btest::view(DType::F32, {k, n}, seeded(K * N, 2, -1, 1))},
          {"v", btest::view(DType::F32, {n}, seeded(N, 3, -1, 1))},
          {"c", btest::view(DType::F32, {m, n})},
          {"d", btest::view(DType::F32, {m, n})}};
}

std::map<std::string, interp::KernelArg> matmul_args(DType dt, DType acc, int64_t m, int64_t k, int64_t n, bool integers = false) {
  const auto M = static_cast<size_t>(m), K = static_cast<size_t>(k), N = static_cast<size_t>(n);
  const double lo = integers ? (dt == DType::U8 ? 0 : -128) : -1, hi = integers ? (dt == DType::U8 ? 255 : 127) : 1;
  return {{"a", btest::view(dt, {m, k}, seeded(M * K, 4, lo, hi, integers))},
          {"b", btest::view(dt, {k, n}, seeded(K * N, 5, lo, hi, integers))},
          {"c", btest::view(acc, {m, n})}};
}

std::map<std::string, interp::KernelArg> unary_args(std::vector<double> x) {
  const int64_t n = static_cast<int64_t>(x.size());
  return {{"x", btest::view(DType::F32, {n}, std::move(x))}, {"y", btest::view(DType::F32, {n})}};
}

}  // namespace

TEST_CASE("every mutant of the optimized code reaches its site in a small kernel", "[C12][mutant]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF");
    return;
  }
  size_t checked = 0;
  for (const auto& m : cpu::mutants()) {
    if (!optimized(m)) continue;
    INFO("mutant " << m.name);
    size_t failed = 0;
    CHECK(reaching_sources(m, &failed).size() + failed > 0);
    ++checked;
  }
  CHECK(checked >= 43);
  size_t in_optimized_code = checked;
  for (const auto& m : cpu::mutants())
    if (m.id == cpu::MutantId::TaskTailDropped || m.id == cpu::MutantId::TaskPartitionCarried) ++in_optimized_code;
  CHECK(in_optimized_code >= 40);
}

TEST_CASE("a few mutants of the optimized code build and load (every one: [.mutants-build])", "[C12][mutant]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF");
    return;
  }
  for (const auto& m : cpu::mutants())
    if (m.id == cpu::MutantId::PackedEpilogueAtTileOrigin || m.id == cpu::MutantId::UkPackBf16OddTailDropped ||
        m.id == cpu::MutantId::QdotDminFromD)
      builds(m);
}

// Minutes: one shared object per mutant. Hidden, and (as a file's tag selects its hidden tests
// too) run only with KIR_MUTANTS_BUILD_ALL=1:
//   KIR_MUTANTS_BUILD_ALL=1 backend_tests "[.mutants-build]"
TEST_CASE("every mutant builds: its site kernels compile into one shared object that loads", "[.mutants-build]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF");
    return;
  }
  if (const char* all = std::getenv("KIR_MUTANTS_BUILD_ALL"); !all || std::string(all) != "1") {
    WARN("set KIR_MUTANTS_BUILD_ALL=1 to build every mutant");
    return;
  }
  for (const auto& m : cpu::mutants()) builds(m);
}

TEST_CASE("mutant vmath_tanh_early_saturation: tanh(8.8) is not 1 in f32", "[C9][mutant]") {
  live(pointwise_1d("f32", "  %r = tanh(%v) : f32[M]"), "k", unary_args({8.8, -8.9, 9.0, 0.5}), "vmath_tanh_early_saturation");
}

TEST_CASE("mutant vmath_exp_early_overflow: e^88.5 is finite in f32", "[C9][mutant]") {
  live(pointwise_1d("f32", "  %r = exp(%v) : f32[M]"), "k", unary_args({88.5, 1.0}), "vmath_exp_early_overflow");
}

TEST_CASE("mutant vmath_erf_early_saturation: erf(3.7) is below 1 in f32", "[C9][mutant]") {
  live(pointwise_1d("f32", "  %r = erf(%v) : f32[M]"), "k", unary_args({3.7, -3.8, 0.25}), "vmath_erf_early_saturation");
}

TEST_CASE("mutant vmath_log1p_minus_one_nan: log1p(-1) is -Inf", "[C9][mutant]") {
  live(pointwise_1d("f32", "  %r = log1p(%v) : f32[M]"), "k", unary_args({-1.0, 0.5}), "vmath_log1p_minus_one_nan");
}

TEST_CASE("mutant vmath_sin_loses_neg_zero: sin(-0) is -0", "[C9][mutant]") {
  live(pointwise_1d("f32", "  %r = sin(%v) : f32[M]"), "k", unary_args({-0.0, 1.0}), "vmath_sin_loses_neg_zero");
}

TEST_CASE("mutant packed_gemv_drops_epilogue: a two-row product loses its bias and tanh", "[C5][C6][mutant]") {
  live(gemm_then("f32", "f32", "f32", kBiasTanh), "k", gemm_args(2, 5, 7), "packed_gemv_drops_epilogue");
}

TEST_CASE("mutant packed_no_terms_drops_epilogue: K = 0 stores 0, not tanh(bias)", "[C5][C6][mutant]") {
  live(gemm_then("f32", "f32", "f32", kBiasTanh), "k", gemm_args(8, 0, 8), "packed_no_terms_drops_epilogue");
}

TEST_CASE("mutant packed_epilogue_before_last_kc: K = 530 over KC 512, tanh after the first block", "[C5][C6][mutant]") {
  live(gemm_then("f32", "f32", "f32", kBiasTanh), "k", gemm_args(8, 530, 8), "packed_epilogue_before_last_kc");
}

TEST_CASE("mutant packed_a_first_kc_len: K = 530 over KC 512, the last K block of A packed 512 deep", "[C6][C7][mutant]") {
  live(btest::matmul_kir("f32", "f32", false), "mm", matmul_args(DType::F32, DType::F32, 24, 530, 8), "packed_a_first_kc_len");
}

TEST_CASE("mutant packed_task_rows_round_down: 65 rows in two task tiles, the second lost", "[C1][C6][mutant]") {
  live(btest::matmul_kir("f32", "f32", false), "mm", matmul_args(DType::F32, DType::F32, 65, 64, 64),
       "packed_task_rows_round_down");
}

TEST_CASE("mutant packed_i8_col_term_sign: the VNNI column correction of i8 x i8 with the wrong sign", "[C6][C7][mutant]") {
  live(btest::matmul_kir("i8", "i32", false), "mm", matmul_args(DType::I8, DType::I32, 5, 7, 6, true), "packed_i8_col_term_sign");
}

TEST_CASE("mutant uk_gemv_column_block_offset: a vector times 1100 columns", "[C6][mutant]") {
  live(btest::matmul_kir("f32", "f32", false), "mm", matmul_args(DType::F32, DType::F32, 1, 3, 1100), "uk_gemv_column_block_offset");
}

TEST_CASE("mutant reduce_lanes_tail_lane_shift: a row of 3 points in 64 lanes loses its last", "[C6][C7][mutant]") {
  live(rows_then("f32", "sub"), "k",
       {{"x", btest::view(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6})},
        {"s", btest::view(DType::F32, {2})},
        {"y", btest::view(DType::F32, {2, 3})}},
       "reduce_lanes_tail_lane_shift");
}

TEST_CASE("mutant scan_blocks_prefix_own_total: blocks of 1024, each prefix one block ahead", "[C6][C7][mutant]") {
  std::vector<double> ones(2500, 1.0);
  live(scan_kir(true, false), "k", {{"x", btest::view(DType::F32, {2500}, ones)}, {"y", btest::view(DType::F32, {2500})}},
       "scan_blocks_prefix_own_total", "portable-4x4");
}
