// End-to-end programs through the whole backend pipeline (C2, C4, C14): small kernels with
// hand-computed results, each also checked bit for bit against the interpreter.
#include <cfenv>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "backend_test.h"
#include "tests/kir/file_suite.h"

using namespace kir;

TEST_CASE("pointwise add of two views runs natively", "[C2][C14]") {
  auto m = btest::load(R"(
kernel @add(%a: In<f32[N]>, %b: In<f32[N]>, %c: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = view.load(%a, %rel) : f32[N]
  %y = view.load(%b, %rel) : f32[N]
  %s = add(%x, %y) : f32[N]
  view.store(%c, %rel, %s)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {4}, {1, 2, 3, 4})},
                                                  {"b", btest::view(DType::F32, {4}, {10, 20, 30, 0.5})},
                                                  {"c", btest::view(DType::F32, {4})}};
  auto out = btest::differential(*m, "add", args);
  CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>{11, 22, 33, 4.5});
}

namespace {

const char* kChain = R"(
kernel @chain(%x: In<f32[M, N]>, %y: Out<f32[M, N]>) {
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
  %v = view.load(%x, %rel) : f32[M, N]
  %two = const() {value = 2.0} : f32
  %twos = full(%two) : f32[M, N]
  %d = mul(%v, %twos) : f32[M, N]
  %e = sub(%d, %v) : f32[M, N]
  view.store(%y, %rel, %e)
}
)";

std::vector<double> iota(int64_t n, double scale = 1) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i % 97) * scale - 7);
  return v;
}

int count_kind(const cpu::Program& p, cpu::StmtKind k) {
  int n = 0;
  cpu::walk_stmts(p.body.body, [&](const cpu::Stmt& s) { n += s.kind == k; });
  return n;
}

}  // namespace

TEST_CASE("construction reads the module once; lowering works on the program alone", "[C4]") {
  auto m = btest::load(kChain);
  cpu::Program p = cpu::construct_program(*m, "chain");
  m.reset();  // nothing after construction may read KIR
  auto src = cpu::lower_program(std::move(p), btest::options());
  CHECK(src.source.find("kir_entry_") != std::string::npos);
  CHECK(src.program.kernel == "chain");
}

TEST_CASE("fusion: a pointwise chain becomes one loop nest with no intermediate buffer", "[C5]") {
  auto m = btest::load(kChain);
  auto src = cpu::compile_to_source(*m, "chain", btest::options());
  // Only the views remain live: every intermediate (load, full, mul, sub) was inlined.
  int live_locals = 0;
  for (const auto& b : src.program.bufs) live_locals += !b.dead && b.kind == cpu::BufKind::Local;
  CHECK(live_locals == 0);
  CHECK(count_kind(src.program, cpu::StmtKind::Store) == 1);
  CHECK(count_kind(src.program, cpu::StmtKind::Alloc) == 0);
}

TEST_CASE("fusion: a rank-0 value is substituted at its loads (contract, add, reshape to [1], store)", "[C5]") {
  // Regression (fuzz): a load of a rank-0 producer has no index arguments; fusion dropped the
  // producer's buffer without substituting its value there ("load %t[] refers to dead buffer").
  auto m = btest::load(R"(
kernel @k(%x: In<f32[K]>, %ones: In<f32[K]>, %y: Out<f32[1]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<K>
  %i = indices(%d) : index[K]
  %last = sub(%n, %c1) : index
  %lastb = broadcast(%last) {dims = []} : index[K]
  %ix = sub(%lastb, %i) : index[K]
  %rx = relation(%ix) : relation<1 -> [K]>
  %xv = view.load(%x, %rx) : f32[K]
  %ro = relation(%i) : relation<1 -> [K]>
  %ov = view.load(%ones, %ro) : f32[K]
  %s = contract(%xv, %ov) {batch = [], reduce = [[0, 0]]} : f32[]
  %p0 = const() {value = 0.5} : f32
  %p = broadcast(%p0) {dims = []} : f32[]
  %t = add(%s, %p) : f32[]
  %t1 = reshape(%t) : f32[1]
  %z = broadcast(%c0) {dims = []} : index[1]
  %r0 = relation(%z) : relation<1 -> [1]>
  view.store(%y, %r0, %t1)
}
)");
  auto src = cpu::compile_to_source(*m, "k", btest::options());
  for (const auto& b : src.program.bufs)  // only the contraction's result stays materialized
    if (!b.dead && b.kind == cpu::BufKind::Local) CHECK(b.shape.empty());
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {4}, {1, 2, 3, 4})},
                                                  {"ones", btest::view(DType::F32, {4}, {1, 1, 1, 1})},
                                                  {"y", btest::view(DType::F32, {1})}};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{10.5});  // 4+3+2+1 + 0.5
}

TEST_CASE("cmp on bool operands compiles and uses the order false < true", "[C2][C9]") {
  // Regression (fuzz): the generated code called kir_rt::le_bool, which did not exist.
  auto m = btest::load(R"(
kernel @k(%a: In<bool[N]>, %b: In<bool[N]>, %lt: Out<bool[N]>, %le: Out<bool[N]>, %ne: Out<bool[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = view.load(%a, %rel) : bool[N]
  %y = view.load(%b, %rel) : bool[N]
  %c0 = cmp(%x, %y) {pred = lt} : bool[N]
  %c1 = cmp(%x, %y) {pred = le} : bool[N]
  %c2 = cmp(%x, %y) {pred = ne} : bool[N]
  view.store(%lt, %rel, %c0)
  view.store(%le, %rel, %c1)
  view.store(%ne, %rel, %c2)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::Bool, {4}, {0, 0, 1, 1})},
                                                  {"b", btest::view(DType::Bool, {4}, {0, 1, 0, 1})},
                                                  {"lt", btest::view(DType::Bool, {4})},
                                                  {"le", btest::view(DType::Bool, {4})},
                                                  {"ne", btest::view(DType::Bool, {4})}};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "lt")) == std::vector<double>{0, 1, 0, 0});
  CHECK(btest::values(btest::out_view(out, "le")) == std::vector<double>{1, 1, 0, 1});
  CHECK(btest::values(btest::out_view(out, "ne")) == std::vector<double>{0, 1, 1, 0});
}

TEST_CASE("guarded integer division: a divisor made safe by selects is never zero in native code", "[C12][C9]") {
  // Regression (fuzz, native SIGFPE): g++ 12.2 at -O2/-O3 drops `b == 0 ? 1 : b` when the result
  // is then compared with -1 (phiopt gives the loaded b the select's nonzero range), so the
  // generated code divided by zero. The toolchain turns that pass off for GCC.
  auto m = btest::load(R"(
kernel @k(%a: In<index[M, N]>, %y: Out<index[N, M]>) {
  %zero = const() {value = 0} : index
  %m = dim(%a) {axis = 0} : index
  %n = dim(%a) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %bm = broadcast(%im) {dims = [0]} : index[M, N]
  %bn = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%bm, %bn) : relation<2 -> [M, N]>
  %x = view.load(%a, %rel) : index[M, N]
  %xt = reshape(%x) : index[N, M]
  %twice = add(%xt, %xt) : index[N, M]
  %c1 = const() {value = 1} : index
  %ones = full(%c1) : index[N, M]
  %zeros = full(%zero) : index[N, M]
  %isz = cmp(%twice, %zeros) {pred = eq} : bool[N, M]
  %d1 = select(%isz, %ones, %twice) : index[N, M]
  %xz = cmp(%xt, %zeros) {pred = eq} : bool[N, M]
  %cm1 = const() {value = -1} : index
  %negs = full(%cm1) : index[N, M]
  %isneg = cmp(%d1, %negs) {pred = eq} : bool[N, M]
  %both = and(%xz, %isneg) : bool[N, M]
  %d2 = select(%both, %ones, %d1) : index[N, M]
  %q = div(%xt, %d2) : index[N, M]
  %tn = broadcast(%in) {dims = [0]} : index[N, M]
  %tm = broadcast(%im) {dims = [1]} : index[N, M]
  %trel = relation(%tn, %tm) : relation<2 -> [N, M]>
  view.store(%y, %trel, %q)
}
)");
  // x / (2x), or x / 1 where 2x == 0: truncates to 0 everywhere; the last x is 0 (divisor 1).
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::Index, {1, 6}, {-2, 5, 7, -1, 3, 0})},
                                                  {"y", btest::view(DType::Index, {6, 1})}};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{0, 0, 0, 0, 0, 0});
}

TEST_CASE("fusion keeps a value nobody reads when computing it can fault", "[C5][C14]") {
  // Regression (fuzz, missed error): fusion dropped the unused `shl`, so the native run returned
  // a result where the interpreter reports the out-of-range shift amount 16.
  auto m = btest::load(R"(
kernel @k(%x: In<i16[N]>, %y: Out<i16[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : i16[N]
  %s = shl(%v, %v) : i16[N]
  %c = cast(%s) : bool[N]
  view.store(%y, %rel, %v)
}
)");
  std::map<std::string, interp::KernelArg> bad = {{"x", btest::view(DType::I16, {3}, {1, 16, 2})},
                                                 {"y", btest::view(DType::I16, {3})}};
  std::map<std::string, interp::KernelArg> out;
  auto d = oracle::run_differential(*m, "k", bad, &out, btest::options());
  INFO(d.str());
  CHECK(d.interp_error.find("shl") != std::string::npos);
  CHECK(d.backend_error.find("shl") != std::string::npos);  // located at the shl
  CHECK(d.agree());
  std::map<std::string, interp::KernelArg> good = {{"x", btest::view(DType::I16, {3}, {1, 15, 2})},
                                                  {"y", btest::view(DType::I16, {3})}};
  auto res = btest::differential(*m, "k", good);
  CHECK(btest::values(btest::out_view(res, "y")) == std::vector<double>{1, 15, 2});
}

TEST_CASE("a select evaluates an operand that can fault even where the other is chosen", "[C5][C14]") {
  // Found by hand next to the fuzz finding above: the `shl` fused into the select's arm was only
  // evaluated where chosen, so an out-of-range amount in another lane went unreported.
  auto m = btest::load(R"(
kernel @k(%x: In<i16[N]>, %y: Out<i16[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : i16[N]
  %s = shl(%v, %v) : i16[N]
  %c16 = const() {value = 16} : i16
  %b16 = broadcast(%c16) {dims = []} : i16[N]
  %ok = cmp(%v, %b16) {pred = lt} : bool[N]
  %r = select(%ok, %s, %v) : i16[N]
  view.store(%y, %rel, %r)
}
)");
  std::map<std::string, interp::KernelArg> bad = {{"x", btest::view(DType::I16, {3}, {1, 16, 2})},
                                                 {"y", btest::view(DType::I16, {3})}};
  std::map<std::string, interp::KernelArg> out;
  auto d = oracle::run_differential(*m, "k", bad, &out, btest::options());
  INFO(d.str());
  CHECK(d.interp_error.find("shl") != std::string::npos);
  CHECK(d.backend_error.find("shl") != std::string::npos);
  CHECK(d.agree());
  std::map<std::string, interp::KernelArg> good = {{"x", btest::view(DType::I16, {3}, {1, 15, 2})},
                                                  {"y", btest::view(DType::I16, {3})}};
  auto res = btest::differential(*m, "k", good);
  CHECK(btest::values(btest::out_view(res, "y")) == std::vector<double>{2, -32768, 8});  // 1<<1, 15<<15, 2<<2
}

TEST_CASE("task partition: a large unique-write nest runs as blocked tasks with a tail", "[C5][C1]") {
  auto m = btest::load(kChain);
  auto src = cpu::compile_to_source(*m, "chain", btest::options());
  CHECK(count_kind(src.program, cpu::StmtKind::Tasks) == 1);  // dynamic extents: always partitioned
  // 1001 rows: blocks of ceil(1001 / 64) = 16 rows, 63 tasks, the last one 9 rows long.
  const int64_t M = 1001, N = 33;
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {M, N}, iota(M * N, 0.25))},
                                                  {"y", btest::view(DType::F32, {M, N})}};
  auto out = btest::differential(*m, "chain", args);
  auto y = btest::values(btest::out_view(out, "y"));
  auto x = iota(M * N, 0.25);
  REQUIRE(y.size() == x.size());
  CHECK(y.back() == x.back());
  CHECK(y[0] == x[0]);
}

TEST_CASE("expansion leaves no structured op or Compute for the runtime", "[C7]") {
  auto m = btest::load(R"(
fn @add_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = add(%a, %b) : f32[R]
  return(%r)
}
kernel @rowsum(%x: In<f32[M, N]>, %y: Out<f32[M]>) {
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
  %v = view.load(%x, %rel) : f32[M, N]
  %z = const() {value = 0.0} : f32
  %id = full(%z) : f32[M]
  %s = reduce(%v, %id) {axes = [1], combine = @add_acc} : f32[M]
  %orel = relation(%im) : relation<1 -> [M]>
  view.store(%y, %orel, %s)
}
)");
  auto src = cpu::compile_to_source(*m, "rowsum", btest::options());
  CHECK(count_kind(src.program, cpu::StmtKind::Structured) == 0);
  CHECK(count_kind(src.program, cpu::StmtKind::Compute) == 0);
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {3, 4}, {1, 2, 3, 4, 0.5, 0.25, 0, -1, 1e8, 1, -1e8, 1})},
                                                  {"y", btest::view(DType::F32, {3})}};
  auto out = btest::differential(*m, "rowsum", args);
  // Left fold in f32: ((1e8 + 1) - 1e8) + 1 = 1 (1e8 + 1 rounds to 1e8).
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{10, -0.25, 1});
}

namespace {
const char* kGemm = R"(
kernel @mm(%a: In<f32[M, K]>, %b: In<f32[K, N]>, %c: Out<f32[M, N]>) {
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
  %av = view.load(%a, %arel) : f32[M, K]
  %bv = view.load(%b, %brel) : f32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : f32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";
}  // namespace

TEST_CASE("selection binds exactly one implementation and writes it into the op", "[C6][C11]") {
  auto m = btest::load(kGemm);
  std::ostringstream dump;
  cpu::CompileOptions o = btest::options();
  o.print_after_all = &dump;
  cpu::compile_to_source(*m, "mm", o);
  const std::string text = dump.str();
  auto after_select = text.find("after select");
  REQUIRE(after_select != std::string::npos);
  // An f32 matrix product: the packed implementation of the first row this CPU can run.
  CHECK(text.find("impl \"contract.packed.", after_select) != std::string::npos);
  CHECK(text.find("impl \"contract.packed.") > text.find("after construct"));
}

TEST_CASE("contract runs in its declared sequential order, bit for bit with the interpreter", "[C6][C9]") {
  auto m = btest::load(kGemm);
  // Row 0: 1e8 + 1 - 1e8 in f32 sequential order gives 0 (the exact sum would give 1).
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {1, 3}, {1e8, 1, -1e8})},
                                                  {"b", btest::view(DType::F32, {3, 2}, {1, 2, 1, 2, 1, 2})},
                                                  {"c", btest::view(DType::F32, {1, 2})}};
  auto out = btest::differential(*m, "mm", args);
  CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>{0, 0});
}

TEST_CASE("a second build of the same program compiles nothing", "[C12][C15]") {
  auto m = btest::load(kGemm);
  auto first = cpu::build_kernel(*m, "mm", btest::options());
  auto second = cpu::build_kernel(*m, "mm", btest::options());
  CHECK_FALSE(second->artifact().compiled);
  CHECK(second->artifact().key == first->artifact().key);
  CHECK(second->artifact().source != second->artifact().object);
  CHECK(std::filesystem::exists(second->artifact().source));
  CHECK(std::filesystem::exists(second->artifact().object));
}

TEST_CASE("view facts are part of the artifact: static strides change code and key", "[C8][C12]") {
  auto dense = btest::load(kChain);
  std::string strided_text = kChain;
  auto pos = strided_text.find("%x: In<f32[M, N]>");
  strided_text.replace(pos, std::string("%x: In<f32[M, N]>").size(), "%x: In<f32[M, N], strides = [N, 1]>");
  Diagnostics d;
  auto strided = parse_module(strided_text, "t.kir", d);
  INFO(d.render(strided_text));
  REQUIRE(strided);
  if (!verify_module(*strided, d)) {
    WARN("view strides syntax not accepted here: " << d.render(strided_text));
    return;
  }
  auto a = cpu::compile_to_source(*dense, "chain", btest::options());
  auto b = cpu::compile_to_source(*strided, "chain", btest::options());
  CHECK(a.entry != b.entry);
  CHECK(a.key_material != b.key_material);
  CHECK(b.source.find("b0_s1 = 1;") != std::string::npos);            // the fact, spelled
  CHECK(a.source.find("call->views[0].strides[1]") != std::string::npos);  // read from the ABI
}

TEST_CASE("compile, load and call are separate; native faults are located", "[C14]") {
  auto m = btest::load(R"(
kernel @divide(%a: In<i32[N]>, %b: In<i32[N]>, %c: Out<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = view.load(%a, %rel) : i32[N]
  %y = view.load(%b, %rel) : i32[N]
  %q = div(%x, %y) : i32[N]
  view.store(%c, %rel, %q)
}
)");
  auto src = cpu::compile_to_source(*m, "divide", btest::options());  // compile: source only
  CHECK(src.source.find("div_i32") != std::string::npos);
  auto k = cpu::build_kernel(*m, "divide", btest::options());           // build + load
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::I32, {3}, {7, 8, 9})},
                                                  {"b", btest::view(DType::I32, {3}, {2, 0, 3})},
                                                  {"c", btest::view(DType::I32, {3})}};
  try {
    oracle::run_on_backend(*m, "divide", args, btest::options());      // call
    FAIL("expected a division-by-zero fault");
  } catch (const std::runtime_error& e) {
    std::string w = e.what();
    CHECK(w.find("t.kir:10:") != std::string::npos);
    CHECK(w.find("division by zero") != std::string::npos);
    CHECK(w.find("(1)") != std::string::npos);
  }
}

TEST_CASE("the caller's floating-point environment is neither used nor changed", "[C9]") {
  auto m = btest::load(kChain);
  std::fesetround(FE_UPWARD);
  // x * 2 - x rounds differently upward for x = 1 + 2^-23 ... use a sum that is inexact:
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {1, 2}, {3.4028234663852886e38, 1e-45})},
                                                  {"y", btest::view(DType::F32, {1, 2})}};
  auto out = oracle::run_on_backend(*m, "chain", args, btest::options());
  const int mode = std::fegetround();
  std::fesetround(FE_TONEAREST);
  CHECK(mode == FE_UPWARD);
  // 2 * FLT_MAX overflows to +inf under round-to-nearest (upward would too), inf - x = inf;
  // 2 * 2^-149 - 2^-149 = 2^-149 exactly (no flush to zero).
  auto y = btest::values(std::get<interp::HostView>(args.at("y")));
  CHECK(std::isinf(y[0]));
  CHECK(y[1] == std::ldexp(1.0, -149));
}

TEST_CASE("a contraction folds from its first term: -0 products sum to -0, no terms give +0", "[C9][L7.3]") {
  auto m = btest::load(kGemm);
  std::map<std::string, interp::KernelArg> neg = {{"a", btest::view(DType::F32, {1, 2}, {-1, 1})},
                                                 {"b", btest::view(DType::F32, {2, 1}, {0, -0.0})},
                                                 {"c", btest::view(DType::F32, {1, 1})}};
  auto out = btest::differential(*m, "mm", neg);
  CHECK(btest::out_view(out, "c").storage->bits[0] == 0x80000000u);  // -0: the exact sum's sign
  std::map<std::string, interp::KernelArg> empty = {{"a", btest::view(DType::F32, {1, 0})},
                                                   {"b", btest::view(DType::F32, {0, 1})},
                                                   {"c", btest::view(DType::F32, {1, 1})}};
  auto out0 = btest::differential(*m, "mm", empty);
  CHECK(btest::out_view(out0, "c").storage->bits[0] == 0u);  // +0
}

namespace {
const char* kGeneralCombine = R"(
fn @maxabs(%a: f32, %b: f32) -> f32 {
  %z = const() {value = 0.0} : f32
  %neg = cmp(%b, %z) {pred = lt} : bool
  %r = if(%neg) : f32 region() {
    %nb = neg(%b) : f32
    %m = max(%a, %nb) : f32
    yield(%m)
  } region() {
    %m2 = max(%a, %b) : f32
    yield(%m2)
  }
  return(%r)
}
kernel @amax(%x: In<f32[N]>, %y: Out<f32[]>, %p: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %z = const() {value = 0.0} : f32
  %s = reduce(%v, %z) {axes = [0], combine = @maxabs} : f32
  %orel = relation() : relation<0 -> []>
  view.store(%y, %orel, %s)
  %c = scan(%v, %z) {axis = 0, combine = @maxabs, inclusive = true, reverse = false} : f32[N]
  view.store(%p, %rel, %c)
}
)";
}  // namespace

TEST_CASE("reduce and scan with a combine that is not element-wise fold whole accumulators", "[C4][L7.1][L8.1]") {
  auto m = btest::load(kGeneralCombine);
  auto src = cpu::compile_to_source(*m, "amax", btest::options());
  CHECK(count_kind(src.program, cpu::StmtKind::If) >= 2);  // the combine's `if`, inlined per step
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {5}, {1, -3, 2, -0.5, 2.5})},
                                                  {"y", btest::view(DType::F32, {})},
                                                  {"p", btest::view(DType::F32, {5})}};
  auto out = btest::differential(*m, "amax", args);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{3});
  CHECK(btest::values(btest::out_view(out, "p")) == std::vector<double>{1, 3, 3, 3, 3});
}

TEST_CASE("a combine with a reshape or transpose of an accumulator takes the general fold", "[C4][L8.1]") {
  // Regression (fuzz): the element-wise lowering read the buffer of a reshaped accumulator leaf,
  // which is a scalar there (std::out_of_range from the buffer table instead of the fallback).
  auto m = btest::load(R"(
fn @comb(%a: f32[2], %b: f32[2]) -> f32[2] {
  %s = add(%a, %b) : f32[2]
  %r = reshape(%b) : f32[1, 2]
  %t = transpose(%r) {perm = [1, 0]} : f32[2, 1]
  return(%s)
}
kernel @k(%x: In<f32[M, 2]>, %y: Out<f32[M, 2]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %m = dim(%x) {axis = 0} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %two) : domain<2>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[2]
  %bm = broadcast(%im) {dims = [0]} : index[M, 2]
  %bn = broadcast(%in) {dims = [1]} : index[M, 2]
  %rel = relation(%bm, %bn) : relation<2 -> [M, 2]>
  %v = view.load(%x, %rel) : f32[M, 2]
  %z = const() {value = 0.0} : f32
  %init = full(%z) : f32[2]
  %c = scan(%v, %init) {axis = 0, combine = @comb, inclusive = true, reverse = false} : f32[M, 2]
  view.store(%y, %rel, %c)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {3, 2}, {1, 10, 2, 20, 3, 30})},
                                                  {"y", btest::view(DType::F32, {3, 2})}};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{1, 10, 3, 30, 6, 60});
}

TEST_CASE("lifetime: a temporary reuses the storage of one whose lifetime has ended", "[C5][C3]") {
  // Without row fusion softmax's passes are separate loops over call-owned temporaries (fused,
  // they become one row of scratch each, all live together).
  auto m = btest::load(test::read_text(std::string(KIR_SOURCE_DIR) + "/examples/softmax.kir"));
  auto opt = btest::options();
  opt.skip_passes = {"row-fusion"};
  auto src = cpu::compile_to_source(*m, "softmax", opt);
  int reusing = 0;
  for (const auto& b : src.program.bufs)
    if (!b.dead && b.reuses != cpu::kNone) {
      ++reusing;
      const auto& owner = src.program.buf(b.reuses);
      CHECK(owner.dtype == b.dtype);
      CHECK(owner.first_use < b.first_use);  // the owner's storage was free again
    }
  CHECK(reusing >= 1);
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {3, 5}, iota(15, 0.5))},
                                                  {"y", btest::view(DType::F32, {3, 5})}};
  btest::differential(*m, "softmax", args);
}

TEST_CASE("programs are specialized on the views' unit inner stride, and strided views still work", "[C8]") {
  auto m = btest::load(kChain);
  const int64_t M = 3, N = 4;
  // Column-major x: element (i, j) at i + j * M.
  std::vector<double> col(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) col[static_cast<size_t>(i + j * M)] = static_cast<double>(10 * i + j);
  interp::HostView x = btest::view(DType::F32, {M, N}, col);
  x.strides = {1, M};
  std::map<std::string, interp::KernelArg> strided = {{"x", x}, {"y", btest::view(DType::F32, {M, N})}};
  auto out = btest::differential(*m, "chain", strided);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  std::map<std::string, interp::KernelArg> dense = {{"x", btest::view(DType::F32, {M, N}, iota(M * N))},
                                                   {"y", btest::view(DType::F32, {M, N})}};
  auto a = oracle::run_on_backend(*m, "chain", strided, btest::options());
  auto b = oracle::run_on_backend(*m, "chain", dense, btest::options());
  CHECK(a.kernel->artifact().key != b.kernel->artifact().key);  // the stride fact is in the key
  CHECK(b.kernel->source().source.find("b0_s1 = 1;") != std::string::npos);
  CHECK(a.kernel->source().source.find("call->views[0].strides[1]") != std::string::npos);
}

TEST_CASE("bounds: identity view loads lose their check, other loads keep it; extents are checked on entry", "[C8][C5]") {
  auto m = btest::load(R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %one = const() {value = 1} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %s = add(%a, %a) : f32[N]
  view.store(%y, %rel, %s)
  %nm1 = sub(%n, %one) : index
  %nb = broadcast(%nm1) {dims = []} : index[N]
  %r = sub(%nb, %i) : index[N]
  %rrel = relation(%r) : relation<1 -> [N]>
  %b = view.load(%x, %rrel) : f32[N]
  view.store(%z, %rel, %b)
}
)");
  std::ostringstream dump;
  auto o = btest::options();
  o.print_after_all = &dump;
  auto src = cpu::compile_to_source(*m, "k", o);
  const std::string text = dump.str();
  const auto at = text.find("// ----- CPU IR after bounds");
  REQUIRE(at != std::string::npos);
  const std::string after = text.substr(at, text.find("// ----- CPU IR after select") - at);
  // %y = x + x reads %x at the coordinate over [0, N): plain loads. %z reads %x at N - 1 - i:
  // still a checked load (printed with its op id).
  CHECK(after.find("= add.f32{op 6}(load %x#0[%s0#5], load %x#0[%s0#5])") != std::string::npos);
  CHECK(after.find("= load{op 13} %x#0[sub.index{op 11}(%nm1, %s0#10)]") != std::string::npos);
  // Entry checks: each declared extent of each view, located at the parameter.
  CHECK(after.find("check eq.index(dim(%x#0, 0), %N) fault 13 stops detail(dim(%x#0, 0), %N)   // op 0 (parameter %x at") !=
        std::string::npos);
  // A call whose extents disagree with a view is a located fault before anything runs.
  auto k = cpu::build_kernel(*m, "k", btest::options());
  std::vector<float> x(4, 1.0f), y(4), z(4);
  std::vector<kir_view> views(3);
  float* data[3] = {x.data(), y.data(), z.data()};
  for (int v = 0; v < 3; ++v) {
    views[static_cast<size_t>(v)].data = data[v];
    views[static_cast<size_t>(v)].rank = 1;
    views[static_cast<size_t>(v)].shape[0] = 4;
    views[static_cast<size_t>(v)].strides[0] = 1;
  }
  views[2].shape[0] = 3;
  kir_fault f = k->call(views, {}, {4});
  CHECK(f.code == KIR_FAULT_BINDING);  // the interpreter's kind: a binding error at the parameter
  CHECK(cpu::fault_message(*k, f).find("view extent differs from the declared extent in `parameter %z`") != std::string::npos);
  CHECK(cpu::fault_message(*k, f).find("(kir explain binding)") != std::string::npos);
  CHECK(y[0] == 0.0f);  // nothing ran
}
