// The KIR reducer (fuzz/campaign/reduce/reduce.h, issue 12 item 5): planted "bugs" given as
// predicates with a known minimal program (the reduced text is compared exactly), extents shrunk
// to the smallest values where the predicate holds, and every accepted candidate of reductions
// of generated programs verifies and is no larger.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "backends/cpu/mutants/mutants.h"
#include "fuzz/campaign/case_args.h"
#include "fuzz/campaign/case_pipeline.h"
#include "fuzz/campaign/reduce/finding.h"
#include "fuzz/campaign/reduce/reduce.h"
#include "fuzz/campaign/reproducer.h"
#include "fuzz/gen/gen.h"
#include "fuzz_common.h"
#include "interp/interpreter.h"
#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "oracle/verdict.h"
#include "tests/mutant_env.h"
#include "tests/run_tool.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

uint64_t f32(double v) { return num::from_double(v, DType::F32); }

// 15 ops; y's NaNs come from div(0, 0) alone (x is moderate, so exp(x) is finite).
const char* kNanProgram = R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %zf = const() {value = 0.0} : f32
  %zt = full(%zf) : f32[N]
  %q = div(%zt, %zt) : f32[N]
  %e = exp(%v) : f32[N]
  %s = add(%q, %e) : f32[N]
  %t = mul(%s, %v) : f32[N]
  view.store(%y, %rel, %t)
  %w = sub(%v, %e) : f32[N]
  view.store(%z, %rel, %w)
}
)";

KernelArgs nan_args() {
  KernelArgs a;
  std::vector<uint64_t> x;
  for (int i = 0; i < 8; ++i) x.push_back(f32(0.25 * (i + 1)));
  a["x"] = interp::make_host_view(DType::F32, {8}, x);
  a["y"] = interp::make_host_view(DType::F32, {8});
  a["z"] = interp::make_host_view(DType::F32, {8});
  return a;
}

// Runs kernel @k on the interpreter; true when some defined element of Out view `out` is a NaN.
bool output_has_nan(const Module& m, const KernelArgs& args, const std::string& out) {
  try {
    interp::Interpreter in(m);
    in.run_kernel("k", args);
  } catch (const std::exception&) {
    return false;
  }
  auto it = args.find(out);
  if (it == args.end()) return false;
  const auto& h = std::get<interp::HostView>(it->second);
  for (size_t i = 0; i < h.storage->bits.size(); ++i)
    if (h.storage->is_defined(static_cast<int64_t>(i)) &&
        std::isnan(num::to_double(h.storage->bits[i], h.storage->dtype)))
      return true;
  return false;
}

std::unique_ptr<Module> load(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  if (m && verify_module(*m, d)) return m;
  return nullptr;
}

int64_t first_dim(const KernelArgs& a, const std::string& view) {
  return std::get<interp::HostView>(a.at(view)).shape.at(0);
}

}  // namespace

TEST_CASE("a NaN from div(0, 0) reduces to the div chain alone", "[fuzz][reduce]") {
  ReduceOptions o;
  o.special_constants = false;  // no NaN constant: the reducer must keep the chain that makes one
  const auto t0 = std::chrono::steady_clock::now();
  ReduceResult r = reduce_program(kNanProgram, "k", nan_args(),
                                  [](const Module& m, const KernelArgs& a) { return output_has_nan(m, a, "y"); }, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "reduce (NaN chain): " << r.summary() << " [" << s << " s]\n";
  CHECK(r.initial_fails);
  CHECK(r.ops_before == 15);
  CHECK(r.kir == R"(kernel @k(%y: Out<f32[N]>) {
  %i_c = const() {value = 0} : index
  %i = full(%i_c) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %zf = const() {value = 0.0} : f32
  %zt = full(%zf) : f32[N]
  %q = div(%zt, %zt) : f32[N]
  view.store(%y, %rel, %q)
}
)");
  CHECK(r.ops_after == 7);
  CHECK(r.dims == std::map<std::string, int64_t>{{"N", 1}});
  CHECK(r.args.size() == 1);
  CHECK(first_dim(r.args, "y") == 1);
  CHECK_FALSE(r.exhausted);
}

TEST_CASE("with NaN among the replacement constants the NaN is stored directly", "[fuzz][reduce]") {
  ReduceResult r = reduce_program(kNanProgram, "k", nan_args(),
                                  [](const Module& m, const KernelArgs& a) { return output_has_nan(m, a, "y"); });
  std::cout << "reduce (NaN constant): " << r.summary() << "\n";
  CHECK(r.kir == R"(kernel @k(%y: Out<f32[N]>) {
  %i_c = const() {value = 0} : index
  %i = full(%i_c) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %t_c = const() {value = nan} : f32
  %t = full(%t_c) : f32[N]
  view.store(%y, %rel, %t)
}
)");
  CHECK(r.ops_after == 6);
}

TEST_CASE("reductions of generated programs accept only verified, smaller programs", "[fuzz][reduce]") {
  int reduced = 0, total_before = 0, total_after = 0;
  int64_t judged = 0, invalid = 0;
  double seconds = 0;
  for (uint64_t seed = 40; seed < 52; ++seed) {
    const GeneratedCase c = sample_case(seed, fuzz::test::size_for(seed)).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    REQUIRE(m);
    const KernelArgs args = case_args(*m, c);
    int unverified = 0;
    // "Has a store": every candidate the predicate sees must verify on its own.
    auto has_store = [&](const Module& cand, const KernelArgs&) {
      Diagnostics d;
      if (!verify_module(cand, d)) ++unverified;
      bool store = false;
      for (const auto& f : cand.functions)
        walk(f->body, [&](const Operation& op) { store = store || op.name == "view.store" || op.name == "unique_store"; });
      return store;
    };
    ReduceOptions o;
    o.max_candidates = 400;
    o.time_limit = 20;
    ReduceResult r = reduce_program(c.kir, c.kernel, args, has_store, o);
    INFO("seed " << seed << "\n" << c.kir << "\nreduced:\n" << r.kir);
    CHECK(unverified == 0);
    REQUIRE(r.initial_fails);
    auto rm = load(r.kir);
    REQUIRE(rm);
    CHECK(count_ops(*rm) == r.ops_after);
    CHECK(r.ops_after <= r.ops_before);
    CHECK(has_store(*rm, r.args));
    // The arguments fit the reduced kernel.
    CHECK(interp::bind_kernel_extents(*rm->find_function(c.kernel), r.args) == r.dims);
    reduced += r.ops_after < r.ops_before;
    total_before += r.ops_before;
    total_after += r.ops_after;
    judged += r.candidates;
    invalid += r.invalid;
    seconds += r.seconds;
  }
  std::cout << "reduce (generated, has a store): 12 programs, " << total_before << " -> " << total_after << " ops, "
            << judged << " candidates judged, " << invalid << " invalid candidates skipped, " << seconds << " s\n";
  CHECK(reduced >= 10);
}

TEST_CASE("kir reduce's finding reduction keeps the recorded signature through the backend", "[fuzz][reduce][backend]") {
  // A missed-error finding that needs no backend bug: the interpreter reports the read of an Out
  // element never written (y[1..]), the native code reads whatever the storage holds.
  const std::string program = R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>, %w: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %e = exp(%v) : f32[N]
  %h = mul(%e, %v) : f32[N]
  view.store(%w, %rel, %h)
  %r0 = relation(%c0) : relation<1 -> []>
  %s0 = view.load(%x, %r0) : f32
  view.store(%y, %r0, %s0)
  %yv = view.load(%y, %rel) : f32[N]
  %t = add(%yv, %e) : f32[N]
  view.store(%z, %rel, %t)
}
)";
  auto m = load(program);
  REQUIRE(m);
  KernelArgs args = nan_args();
  args["w"] = interp::make_host_view(DType::F32, {8});
  const oracle::Verdict v = oracle::judge_compiling(*m, "k", args);
  INFO(v.str());
  REQUIRE(v.outcome == oracle::Outcome::MissedError);
  const auto dir = std::filesystem::temp_directory_path() / ("kir-reduce-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  FindingMeta meta;
  meta.origin = "test";
  write_reproducer(dir / "finding", program, "k", {{"N", 8}}, args, v, meta);

  ReduceFindingOptions o;
  o.reduce.time_limit = 300;
  const auto t0 = std::chrono::steady_clock::now();
  ReduceFindingResult r = reduce_finding((dir / "finding").string(), o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "reduce (kir reduce, missed error through the backend): " << r.reduced.summary() << " [" << s << " s]\n";
  CHECK(r.signature == v.signature());
  CHECK(r.verdict.signature() == v.signature());
  CHECK(r.out_dir == (dir / "finding" / "reduced").string());
  // The read of y at 1 (written: y[0] only) is the whole finding; a coarser predicate (the
  // signature alone) would slip to another missed error (a store through a non-injective relation).
  CHECK(r.reduced.kir == R"(kernel @k(%y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %i_c = const() {value = 1} : index
  %i = full(%i_c) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %e_c = const() {value = 0.0} : f32
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%y, %r0, %e_c)
  %yv = view.load(%y, %rel) : f32[N]
  view.store(%z, %rel, %yv)
}
)");
  CHECK(r.reduced.dims == std::map<std::string, int64_t>{{"N", 2}});
  // The reduced finding directory reproduces on its own.
  const Reproducer rep = read_reproducer_meta(r.out_dir);
  CHECK(rep.signature == v.signature());
  CHECK(rep.program == r.reduced.kir);
  CHECK(std::filesystem::exists(std::filesystem::path(r.out_dir) / "repro.sh"));
  auto rm = load(rep.program);
  REQUIRE(rm);
  const oracle::Verdict again = oracle::judge_compiling(*rm, "k", reproducer_args(r.out_dir, *rm));
  CHECK(again.signature() == v.signature());
  // The same through the command line, when the tests run under CTest (KIR_BIN set).
  if (std::getenv("KIR_BIN")) {
    const auto cli = dir / "cli";
    auto run = kir::test::run_kir("reduce --quiet " + (dir / "finding").string() + " --out " + cli.string());
    INFO(run.out);
    CHECK(run.code == 0);
    CHECK(run.out.find("reduced 15 -> 9 ops") != std::string::npos);
    CHECK(read_reproducer_meta(cli).program == r.reduced.kir);
    CHECK(kir::test::run_kir("repro " + cli.string()).code == 1);  // it reproduces
    CHECK(kir::test::run_kir("reduce " + (dir / "nothing").string()).code == 2);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the campaign reduces a finding after shrinking", "[fuzz][reduce][backend]") {
  // The missed error above as a campaign case (no plan to shrink): finish_case reduces it.
  GeneratedCase c;
  c.kernel = "k";
  c.kir = R"(kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %r0 = relation(%c0) : relation<1 -> []>
  %s0 = view.load(%x, %r0) : f32
  view.store(%y, %r0, %s0)
  %yv = view.load(%y, %rel) : f32[N]
  %t = add(%yv, %v) : f32[N]
  view.store(%z, %rel, %t)
}
)";
  c.dims = {{"N", 4}};
  GeneratedCase::Input x;
  x.name = "x";
  x.shape = {4};
  x.bits = {f32(1), f32(2), f32(3), f32(4)};
  c.inputs.push_back(x);
  PreparedCase p = prepare_case(c);
  KernelArgs got, expected;
  const oracle::Verdict v = judge_case(p, &got, &expected);
  INFO(v.str());
  REQUIRE(v.outcome == oracle::Outcome::MissedError);
  CampaignOptions o;
  o.case_timeout = 120;  // a quarter for the reduction: enough for cold compiles
  const auto dir = std::filesystem::temp_directory_path() / ("kir-reduce-campaign-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  CaseResult r = finish_case(o, p, v, got, expected, dir.string());
  REQUIRE_FALSE(r.finding_dir.empty());
  const Reproducer rep = read_reproducer_meta(r.finding_dir);
  CHECK(rep.signature == v.signature());
  std::cout << "reduce (campaign finding): " << count_ops(*p.module) << " -> " << count_ops(*load(rep.program)) << " ops\n";
  CHECK(rep.program == R"(kernel @k(%y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %i_c = const() {value = 1} : index
  %i = full(%i_c) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v_c = const() {value = 0.0} : f32
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%y, %r0, %v_c)
  %yv = view.load(%y, %rel) : f32[N]
  view.store(%z, %rel, %yv)
}
)");
  CHECK(rep.dims == std::map<std::string, int64_t>{{"N", 2}});
  CHECK(std::filesystem::exists(std::filesystem::path(r.finding_dir) / "expected" / "z.npy"));
  std::filesystem::remove_all(dir);
}

namespace {

// 24 ops around one f16 contract (a matmul of two loaded f16 views).
const char* kContractProgram = R"(fn @add_rows(%p: f32[R], %q: f32[R]) -> f32[R] {
  %s = add(%p, %q) : f32[R]
  return(%s)
}

kernel @k(%a: In<f16[M, K]>, %b: In<f16[K, N]>, %y: Out<f32[M, N]>, %z: Out<f32[M]>) {
  %c0 = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %k = dim(%a) {axis = 1} : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dk = domain(%c0, %k) : domain<K>
  %dn = domain(%c0, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, K]
  %ak = broadcast(%ik) {dims = [1]} : index[M, K]
  %ra = relation(%am, %ak) : relation<2 -> [M, K]>
  %va = view.load(%a, %ra) : f16[M, K]
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %rb = relation(%bk, %bn) : relation<2 -> [K, N]>
  %vb = view.load(%b, %rb) : f16[K, N]
  %c = contract(%va, %vb) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %e = exp(%c) : f32[M, N]
  %ym = broadcast(%im) {dims = [0]} : index[M, N]
  %yn = broadcast(%in) {dims = [1]} : index[M, N]
  %ry = relation(%ym, %yn) : relation<2 -> [M, N]>
  view.store(%y, %ry, %e)
  %zero = const() {value = 0.0} : f32
  %id = full(%zero) : f32[M]
  %sum = reduce(%c, %id) {axes = [1], combine = @add_rows} : f32[M]
  %rz = relation(%im) : relation<1 -> [M]>
  view.store(%z, %rz, %sum)
}
)";

bool has_f16_contract(const Module& m) {
  bool found = false;
  for (const auto& f : m.functions)
    walk(f->body, [&](const Operation& op) {
      found = found || (op.name == "contract" && op.operands.size() == 2 && op.operands[0]->type.dtype() == DType::F16);
    });
  return found;
}

}  // namespace

TEST_CASE("a contract with f16 operands reduces to its operands, the contract and one store", "[fuzz][reduce]") {
  KernelArgs a;
  std::vector<uint64_t> bits;
  for (int i = 0; i < 6 * 5; ++i) bits.push_back(num::from_double(0.5 * (i % 7), DType::F16));
  a["a"] = interp::make_host_view(DType::F16, {6, 5}, bits);
  bits.resize(5 * 4);
  a["b"] = interp::make_host_view(DType::F16, {5, 4}, bits);
  a["y"] = interp::make_host_view(DType::F32, {6, 4});
  a["z"] = interp::make_host_view(DType::F32, {6});
  // The planted bug: a program with an f16 contract that runs (so its extents stay bound).
  auto pred = [](const Module& m, const KernelArgs& args) {
    try {
      interp::Interpreter in(m);
      in.run_kernel("k", args);
    } catch (const std::exception&) {
      return false;
    }
    return has_f16_contract(m);
  };
  ReduceResult r = reduce_program(kContractProgram, "k", a, pred);
  std::cout << "reduce (f16 contract): " << r.summary() << "\n";
  // The operands become f16 constants (simpler than loads: no relations), the exp goes, the
  // other store and its reduce (with the helper) go, the extents go to 0; %b stays to bind K.
  CHECK(r.ops_before == 31);
  CHECK(r.kir == R"(kernel @k(%b: In<f16[K, N]>, %y: Out<f32[M, N]>) {
  %va_c = const() {value = 0.0} : f16
  %va = full(%va_c) : f16[M, K]
  %vb_c = const() {value = 0.0} : f16
  %vb = full(%vb_c) : f16[K, N]
  %c = contract(%va, %vb) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %ym_c = const() {value = 0} : index
  %ym = full(%ym_c) : index[M, N]
  %ry = relation(%ym, %ym) : relation<2 -> [M, N]>
  view.store(%y, %ry, %c)
}
)");
  CHECK(r.ops_after == 9);
  CHECK(r.dims == std::map<std::string, int64_t>{{"K", 0}, {"M", 0}, {"N", 0}});
}

TEST_CASE("extents shrink to the smallest values where the predicate holds", "[fuzz][reduce]") {
  // x(i, j) = 10 i + j in a padded, offset layout; the "bug": some y = 2 x is at least 70, which
  // needs a row >= 3 and then a column >= 5: the smallest extents are M = 4, N = 6.
  const char* program = R"(kernel @k(%x: In<f32[M, N], strides = [N + 2, 1], offset = 3>, %y: Out<f32[M, N]>) invocation {M = 8, N = 8} {
  %c0 = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%c0, %m) : domain<M>
  %dn = domain(%c0, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bm = broadcast(%im) {dims = [0]} : index[M, N]
  %bn = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%bm, %bn) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %two = const() {value = 2.0} : f32
  %t = full(%two) : f32[M, N]
  %p = mul(%v, %t) : f32[M, N]
  view.store(%y, %rel, %p)
}
)";
  KernelArgs a;
  std::vector<uint64_t> storage(3 + 7 * 10 + 8, f32(-1));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) storage[3 + i * 10 + j] = f32(10 * i + j);
  interp::HostView x = interp::make_host_view(DType::F32, {static_cast<int64_t>(storage.size())}, storage);
  x.shape = {8, 8};
  x.strides = {10, 1};
  x.offset = 3;
  a["x"] = x;
  a["y"] = interp::make_host_view(DType::F32, {8, 8});
  auto pred = [](const Module& m, const KernelArgs& args) {
    try {
      interp::Interpreter in(m);
      in.run_kernel("k", args);
    } catch (const std::exception&) {
      return false;
    }
    const auto& y = std::get<interp::HostView>(args.at("y"));
    for (size_t i = 0; i < y.storage->bits.size(); ++i)
      if (y.storage->is_defined(static_cast<int64_t>(i)) && num::to_double(y.storage->bits[i], DType::F32) >= 70) return true;
    return false;
  };
  ReduceResult r = reduce_program(program, "k", a, pred);
  std::cout << "reduce (extents): " << r.summary() << "\n";
  CHECK(r.dims == std::map<std::string, int64_t>{{"M", 4}, {"N", 6}});
  INFO(r.kir);
  CHECK(r.kir.find("invocation {M = 4, N = 6}") != std::string::npos);
  // x is cut to its leading 4 x 6 elements, laid out again for strides [N + 2, 1] = [8, 1].
  const auto& rx = std::get<interp::HostView>(r.args.at("x"));
  CHECK(rx.shape == interp::Shape{4, 6});
  CHECK(rx.strides == interp::Shape{8, 1});
  CHECK(rx.offset == 3);
  CHECK(rx.storage->bits.size() == static_cast<size_t>(3 + 3 * 8 + 6));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) CHECK(rx.storage->bits[static_cast<size_t>(3 + i * 8 + j)] == f32(10 * i + j));
  CHECK(std::get<interp::HostView>(r.args.at("y")).shape == interp::Shape{4, 6});
  // The original arguments are untouched.
  CHECK(std::get<interp::HostView>(a.at("x")).shape == interp::Shape{8, 8});
}

TEST_CASE("a wrong result of a backend mutant reduces to the select it swaps", "[fuzz][reduce][backend]") {
  // A real backend bug, planted: the mutant select_swapped takes select's operands in the wrong
  // order. The finding's signature names the stored value's op (mul), so that stays.
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF: no backend mutant to reduce a finding of");
    return;
  }
  const char* program = R"(kernel @k(%x: In<f32[N]>, %c: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %w = view.load(%c, %rel) : f32[N]
  %p = cmp(%v, %w) {pred = lt} : bool[N]
  %e = exp(%v) : f32[N]
  %s = select(%p, %e, %w) : f32[N]
  %t = mul(%s, %v) : f32[N]
  view.store(%y, %rel, %t)
  %u = sub(%v, %w) : f32[N]
  view.store(%z, %rel, %u)
}
)";
  KernelArgs a = nan_args();
  std::vector<uint64_t> c;
  for (int i = 0; i < 8; ++i) c.push_back(f32(i % 2 ? 3.0 : -3.0));
  a["c"] = interp::make_host_view(DType::F32, {8}, c);
  kir::test::WithMutant mutant("select_swapped");  // for this test only, even when a check fails
  auto m = load(program);
  REQUIRE(m);
  const oracle::Verdict v = judge_isolated(*m, "k", a, 60);
  INFO(v.str());
  CHECK(v.signature() == "wrong|bit-exact|mul|f32");
  ReduceOptions o;
  o.time_limit = 300;
  ReduceResult r = reduce_program(program, "k", a, same_signature("k", v.signature(), 60), o);
  std::cout << "reduce (backend mutant select_swapped): " << r.summary() << "\n";
  // select(false, 0, -1) is -1; the mutant's 0 times 0 gives +0 where -1 times 0 is -0.
  CHECK(r.kir == R"(kernel @k(%y: Out<f32[N]>) {
  %i_c = const() {value = 0} : index
  %i = full(%i_c) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v_c = const() {value = 0.0} : f32
  %v = full(%v_c) : f32[N]
  %w_c = const() {value = -1.0} : f32
  %w = full(%w_c) : f32[N]
  %p_c = const() {value = false} : bool
  %p = full(%p_c) : bool[N]
  %s = select(%p, %v, %w) : f32[N]
  %t = mul(%s, %v) : f32[N]
  view.store(%y, %rel, %t)
}
)");
  CHECK(r.ops_before == 14);
  CHECK(r.dims == std::map<std::string, int64_t>{{"N", 1}});
}

TEST_CASE("reducer stress over generated programs (manual)", "[.][reduce-stress]") {
  std::map<std::string, PassStats> by_pass;
  int before = 0, after = 0;
  double seconds = 0;
  for (uint64_t seed = 500; seed < 800; ++seed) {
    const GeneratedCase c = sample_case(seed, fuzz::test::size_for(seed)).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    REQUIRE(m);
    const KernelArgs args = case_args(*m, c);
    // Runs on the interpreter and stores something: exercises every pass on real programs.
    auto runs = [&](const Module& cand, const KernelArgs& a) {
      Diagnostics d;
      REQUIRE(verify_module(cand, d));
      bool store = false;
      for (const auto& f : cand.functions)
        walk(f->body, [&](const Operation& op) { store = store || op.name == "view.store"; });
      if (!store) return false;
      interp::Options io;
      io.max_steps = 5'000'000;
      interp::Interpreter in(cand, io);
      in.run_kernel(c.kernel, a);
      return true;
    };
    ReduceOptions o;
    o.time_limit = 10;
    ReduceResult r = reduce_program(c.kir, c.kernel, args, runs, o);
    if (!r.initial_fails) continue;
    INFO("seed " << seed << "\n" << r.kir);
    auto rm = load(r.kir);
    REQUIRE(rm);
    CHECK(runs(*rm, copy_args(r.args)));
    before += r.ops_before;
    after += r.ops_after;
    seconds += r.seconds;
    for (const auto& [p, st] : r.passes) {
      by_pass[p].judged += st.judged;
      by_pass[p].invalid += st.invalid;
      by_pass[p].accepted += st.accepted;
    }
  }
  std::cout << "stress: " << before << " -> " << after << " ops, " << seconds << " s; pass judged/invalid/accepted:";
  for (const auto& [p, n] : by_pass) std::cout << " " << p << " " << n.judged << "/" << n.invalid << "/" << n.accepted;
  std::cout << "\n";
}

TEST_CASE("reducer stress: output-preserving reductions of programs with calls and loops (manual)", "[.][reduce-stress]") {
  std::map<std::string, PassStats> by_pass;
  GenOptions g;
  g.family_weights = {{"call", 30}, {"for", 10}, {"if", 10}, {"while", 5}, {"parallel", 5}};
  int before = 0, after = 0, n = 0;
  for (uint64_t seed = 900; seed < 1100; ++seed) {
    const GeneratedCase c = sample_case(seed, fuzz::test::size_for(seed), g).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    REQUIRE(m);
    const KernelArgs args = case_args(*m, c);
    auto outputs = [&](const Module& cand, const KernelArgs& a) {
      interp::Options io;
      io.max_steps = 5'000'000;
      interp::Interpreter in(cand, io);
      in.run_kernel(c.kernel, a);
      std::map<std::string, std::vector<uint64_t>> out;
      for (const auto& p : cand.find_function(c.kernel)->params())
        if (p->type.is(TypeKind::View) && p->type.access() != Access::In)
          out[p->name] = std::get<interp::HostView>(a.at(p->name)).storage->bits;
      return out;
    };
    std::map<std::string, std::vector<uint64_t>> want;
    try {
      want = outputs(*m, copy_args(args));
    } catch (const std::exception&) {
      continue;
    }
    // Same outputs, same extents: only edits that keep this run's results.
    ReduceOptions o;
    o.time_limit = 10;
    o.shrink_extents = false;
    ReduceResult r = reduce_program(c.kir, c.kernel, args, [&](const Module& cand, const KernelArgs& a) {
      auto got = outputs(cand, a);
      for (const auto& [k, v] : got)
        if (want.count(k) && want.at(k) != v) return false;
      return got.size() == want.size();
    }, o);
    REQUIRE(r.initial_fails);
    ++n;
    before += r.ops_before;
    after += r.ops_after;
    for (const auto& [p, st] : r.passes) {
      by_pass[p].judged += st.judged;
      by_pass[p].invalid += st.invalid;
      by_pass[p].accepted += st.accepted;
    }
  }
  std::cout << "stress (outputs kept): " << n << " programs, " << before << " -> " << after << " ops; pass judged/invalid/accepted:";
  for (const auto& [p, s] : by_pass) std::cout << " " << p << " " << s.judged << "/" << s.invalid << "/" << s.accepted;
  std::cout << "\n";
}

TEST_CASE("reducer stress: large programs (manual)", "[.][reduce-stress]") {
  GenOptions g;
  g.max_ops = 60;
  for (uint64_t seed = 7; seed < 10; ++seed) {
    const GeneratedCase c = sample_case(seed, 100, g).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    REQUIRE(m);
    // Every store stays: the reducer has to work through the whole program.
    int stores0 = 0;
    for (const auto& f : m->functions) walk(f->body, [&](const Operation& op) { stores0 += op.name == "view.store"; });
    ReduceResult r = reduce_program(c.kir, c.kernel, case_args(*m, c), [&](const Module& cand, const KernelArgs&) {
      int stores = 0;
      for (const auto& f : cand.functions) walk(f->body, [&](const Operation& op) { stores += op.name == "view.store"; });
      return stores >= stores0;
    });
    std::cout << "large: " << r.summary() << "\n";
  }
}
