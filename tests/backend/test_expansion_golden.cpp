// Golden CPU IR expansions of the sequential implementations (C7, C11): contract.sequential,
// reduce.fold, scan.fold, quantize.q8k, quantized_dot.q4k_q8k, scaled_contract.sequential,
// sparse_contract.sequential and histogram.serial, each compiled from a row holding only those
// implementations and checked after the `expand` pass for the binding and the statements that
// realize its contract (the fold order, the rounding steps, the faults). The packed and blocked
// implementations have their goldens beside their other tests; the last case checks that every
// registered implementation is covered by one of the golden tests of this folder.
#include <fstream>
#include <set>
#include <sstream>

#include "backend_test.h"
#include "backends/cpu/impl/registry.h"

using namespace kir;

namespace {

std::string read_text(const std::string& rel) {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/" + rel);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One row holding only the sequential implementations (the built-in rows prefer the packed and
// blocked ones where they apply).
const char* const kSequentialRow = R"(rows:
  - name: sequential
    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}
    local: {mr: 4, nv: 4, lanes: 8, block: 1024}
    implementations: [contract.sequential, reduce.fold, scan.fold, quantize.q8k, quantized_dot.q4k_q8k, scaled_contract.sequential, sparse_contract.sequential, histogram.serial]
)";

// The CPU IR after `expand` of `kernel`, compiled from the sequential row.
std::string expanded(const std::string& kir_text, const std::string& kernel,
                     const std::map<std::string, int64_t>& consts = {}) {
  btest::WithRows rows(kSequentialRow);
  auto m = btest::load(kir_text);
  auto opt = btest::options();
  opt.config_row = "sequential";
  for (const auto& [k, v] : consts) opt.spec.constexprs[k] = static_cast<uint64_t>(v);
  std::ostringstream dump;
  opt.print_after_all = &dump;
  cpu::compile_to_source(*m, kernel, opt);
  const std::string text = dump.str();
  const auto from = text.find("// ----- CPU IR after expand");
  REQUIRE(from != std::string::npos);
  return text.substr(from, text.find("// ----- CPU IR after", from + 10) - from);
}

void check_lines(const std::string& ir, std::initializer_list<const char*> golden) {
  INFO(ir);
  for (const char* g : golden) {
    INFO(g);
    CHECK(ir.find(g) != std::string::npos);
  }
}

const char* const kMisc = R"(
fn @argmax(%a: tuple<f32, index>, %b: tuple<f32, index>) -> tuple<f32, index> {
  %av = tuple.get(%a) {index = 0} : f32
  %ai = tuple.get(%a) {index = 1} : index
  %bv = tuple.get(%b) {index = 0} : f32
  %bi = tuple.get(%b) {index = 1} : index
  %gt = cmp(%bv, %av) {pred = gt} : bool
  %v = select(%gt, %bv, %av) : f32
  %i = select(%gt, %bi, %ai) : index
  %r = tuple(%v, %i) : tuple<f32, index>
  return(%r)
}

kernel @argmax_all(%x: In<f32[M, N]>, %y: Out<index[]>) {
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
  %ninf = const() {value = -inf} : f32
  %src = tuple(%v, %bn) : tuple<f32[M, N], index[M, N]>
  %id = tuple(%ninf, %zero) : tuple<f32, index>
  %best = reduce(%src, %id) {axes = [0, 1], combine = @argmax} : tuple<f32, index>
  %bi = tuple.get(%best) {index = 1} : index
  %orel = relation() : relation<0 -> []>
  view.store(%y, %orel, %bi)
}

kernel @imatmul(%a: In<i32[M, K]>, %b: In<i32[K, N]>, %c: Out<i32[M, N]>) {
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
  %av = view.load(%a, %arel) : i32[M, K]
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %bv = view.load(%b, %brel) : i32[K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[1, 0]]} : i32[M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";

// `text` with `from` replaced by `to` (exactly once).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("contract.sequential: an integer matrix product is a wrapping left fold per element (golden)", "[C7][C11]") {
  const std::string ir = expanded(kMisc, "imatmul");
  check_lines(ir, {"binding op 17 contract.sequential {} order sequential",
                   "loop %i0#27 = 0 to %M step 1 {", "loop %i1 = 0 to %N step 1 {",
                   "assign %acc = 0:i32   // op 17",
                   "loop %i0#30 = 0 to %K step 1 {",
                   "let %term = mul.i32(load %av#8[%i0#27, %i0#30], load %bv#11[%i0#30, %i1])",
                   "assign %acc = add.i32(%acc, %term)",
                   "store %acc#12[%i0#27, %i1] = %acc"});
}

TEST_CASE("reduce.fold: a two-component reduce folds its combine row-major from the identity (golden)", "[C7][C11]") {
  const std::string ir = expanded(kMisc, "argmax_all");
  check_lines(ir, {"binding op 10 reduce.fold {}",
                   "assign %acc#18 = -inf:f32", "assign %acc#19 = 0   // op 10",
                   "loop %i0 = 0 to %M step 1 {", "loop %i1 = 0 to %N step 1 {",
                   "let %next#22 = select.f32{op 8}(gt.f32(load %v#6[%i0, %i1], %acc#18), load %v#6[%i0, %i1], %acc#18)",
                   "let %next#23 = select.index{op 9}(gt.f32(load %v#6[%i0, %i1], %acc#18), load %bn#5[%i0, %i1], %acc#19)",
                   "assign %acc#18 = %next#22", "assign %acc#19 = %next#23",
                   "store %best_0#7[] = %acc#18", "store %best_1#8[] = %acc#19"});
}

TEST_CASE("scan.fold: a scan over several lines is one carried fold per line, storing each prefix (golden)", "[C7][C11]") {
  const std::string ir = expanded(read_text("specs/kernels/CumsumFwdOp.kir"), "CumsumFwdOp__f32", {{"dim", 1}});
  check_lines(ir, {"binding op 14 scan.fold {}", "binding op 18 scan.fold {}",
                   "loop %a0#16 = 0 to %M step 1 {", "assign %acc#25 = 0:f32   // op 14",
                   "loop %i0#26 = 0 to %N step 1 {",
                   "let %next#27 = add.f32{op 13}(%acc#25, load %v#6[%a0#16, %i0#26])",
                   "assign %acc#25 = %next#27",
                   "store %p1#9[%a0#16, %i0#26] = %acc#25"});
}

TEST_CASE("quantize.q8k and quantized_dot.q4k_q8k: the reference's steps in scalar CPU IR (golden)", "[C7][C11]") {
  const std::string ir = expanded(read_text("specs/kernels/GemvQ4KFwdOp.kir"), "GemvQ4KFwdOp");
  check_lines(ir, {"binding op 15 quantize.q8k {}", "binding op 32 quantized_dot.q4k_q8k {}",
                   // q8_K: the signed value of largest magnitude (first on ties), -127 / it, bsums of 16
                   "let %gt = gt.f32(%ax, %amax)", "assign %mx = select.f32(%gt, %x#49, %mx)",
                   "let %iscale = div.f32{op 15}(-127:f32, %mx)",
                   "store %xq_bsums#14[add.index(mul.index(%q0, 16), %g)] = cast.i32->i16{op 15}(%bsum)",
                   "store %xq_d#12[%q0] = select.f32(%zero, 0:f32, div.f32{op 15}(1:f32, %iscale))",
                   // q4_K x q8_K: f32 d and dmin per block, integer parts, then the eight sums in order
                   "let %d = mul.f32{op 32}(cast.f16->f32{op 32}(load %wd#17[%o0, %b]), %yd)",
                   "let %dmin = mul.f32{op 32}(cast.f16->f32{op 32}(load %wdmin#18[%o0, %b]), %yd)",
                   "let %p#127 = mul.f32{op 32}(%d, cast.i32->f32{op 32}(%aux#126))",
                   "let %pm = mul.f32{op 32}(%dmin, cast.i32->f32{op 32}(%sumi))",
                   "assign %sumf = sub.f32{op 32}(%sumf, %pm)",
                   "assign %sumf = add.f32{op 32}(%sumf, %sums0)", "assign %sumf = add.f32{op 32}(%sumf, %sums7)",
                   "store %dot#27[%o0] = %sumf"});
  // The eight sums are added in order 0..7 after the block loop.
  CHECK(ir.find("add.f32{op 32}(%sumf, %sums0)") < ir.find("add.f32{op 32}(%sumf, %sums1)"));
  CHECK(ir.find("add.f32{op 32}(%sumf, %sums6)") < ir.find("add.f32{op 32}(%sumf, %sums7)"));
}

TEST_CASE("scaled_contract.sequential: MX into f64, per group a NaN check then scaled terms from -0 (golden)", "[C7][C11]") {
  std::string k = read_text("specs/kernels/GemmMxfp4FwdOp.kir");
  k = k.substr(k.find("kernel @GemmMxfp4FwdOp__u8__f32"));
  k = replaced(k, "%y: Out<f32[M, N]>", "%y: Out<f64[M, N]>");
  k = replaced(k, "rhs_group_size = 32} : f32[M, N]", "rhs_group_size = 32} : f64[M, N]");
  const std::string ir = expanded(k, "GemmMxfp4FwdOp__u8__f32");
  check_lines(ir, {"scaled_contract.sequential {} order sequential", "assign %acc = -0:f64",
                   "let %sl = bitcast.e8m0->u8(load %xs#20[%o0, %g#78])",
                   "if or.bool(eq.u8(%sl, 255:u8), eq.u8(%sr, 255:u8)) {",
                   "assign %acc = add.f64{op 41}(%acc, 0x7ff8000000000000:f64)",
                   "let %scale = mul.f64{op 41}(cast.e8m0->f64(bitcast.u8->e8m0(%sl)), cast.e8m0->f64(bitcast.u8->e8m0(%sr)))",
                   "let %term#89 = mul.f64{op 41}(mul.f64{op 41}(%x#84, %y#88), %scale)",
                   "assign %acc = add.f64{op 41}(%acc, %term#89)",
                   "let %nib#93 = shr.u8{op 41}(%rb#92, 4:u8)",
                   "store %acc#31[%o0, %o1] = select.f64(eq.index(%g#3, 0), 0:f64, %acc)"});
}

TEST_CASE("sparse_contract.sequential: metadata checked first, then kept positions in increasing order (golden)", "[C7][C11]") {
  std::string k = read_text("specs/kernels/GemmSparse24FwdOp.kir");
  k = k.substr(k.find("kernel @GemmSparse24FwdOp__f16"), k.find("kernel @GemmSparse24FwdOp__bf16") - k.find("kernel @GemmSparse24FwdOp__f16"));
  k = replaced(k, "reduce = [[1, 0]]} : f32[M, N]", "reduce = [[1, 0]]} : f16[M, N]");
  k = replaced(k, "%out = cast(%acc) : f16[M, N]", "%out = neg(%acc) : f16[M, N]");
  const std::string ir = expanded(k, "GemmSparse24FwdOp__f16");
  check_lines(ir, {"sparse_contract.sequential {} order sequential",
                   "check and.bool(ge.index(%pos#76, 0), lt.index(%pos#76, 4)) fault 6 detail(%pos#76)",
                   "check and.bool(and.bool(ge.index(%pos#77, 0), lt.index(%pos#77, 4)), gt.index(%pos#77, %pos#76)) fault 6 detail(%pos#77)",
                   "assign %acc = -0:f16",
                   "if eq.i32(load %meta#30[%o0, mul.index(%g, 2)], 0:i32) {",
                   "let %term#82 = mul.f16{op 50}(load %vals#10[%o0, mul.index(%g, 2)], load %bv#33[mul.index(%g, 4), %o1])",
                   "assign %acc = add.f16{op 50}(%acc, %term#82)",
                   "let %term#85 = mul.f16{op 50}(load %vals#10[%o0, add.index(mul.index(%g, 2), 1)], load %bv#33[add.index(mul.index(%g, 4), 1), %o1])"});
  // Validation runs over every group before any term is added.
  CHECK(ir.find("fault 6 detail(%pos#77)") < ir.find("assign %acc = -0:f16"));
}

TEST_CASE("histogram.serial: zeroed counts, active values range-checked, wrapping increments (golden)", "[C7][C11]") {
  const std::string ir = expanded(read_text("specs/kernels/HistogramFwdOp.kir"), "HistogramFwdOp__i32");
  check_lines(ir, {"binding op 22 histogram.serial {}", "check gt.index(%B, 0) fault 6 detail(%B)",
                   "store %h#15[%h] = 0:i32", "if load %valid#14[%i0] {",
                   "let %u = cast.i32->index(load %v#4[%i0])",
                   "let %in_range = and.bool(ge.index(%u, 0), lt.index(%u, %B))",
                   "check %in_range fault 12 detail(%u, %B)",
                   "store %h#15[%u] = add.i32{op 22}(load{op 22} %h#15[%u], 1:i32)"});
}

TEST_CASE("every registered implementation has a golden expansion test in this folder", "[C7][C11]") {
  // The sequential ones above; the others beside their differential tests.
  const std::set<std::string> covered_here = {"contract.sequential", "reduce.fold", "scan.fold", "quantize.q8k",
                                              "quantized_dot.q4k_q8k", "scaled_contract.sequential",
                                              "sparse_contract.sequential", "histogram.serial"};
  const std::map<std::string, std::string> covered_beside = {
      {"contract.packed.", "test_contract_packed.cpp"},       {"contract.packed_i8.", "test_contract_packed_i8.cpp"},
      {"contract.packed_bf16.", "test_contract_packed_bf16.cpp"}, {"scaled_contract.packed.", "test_scaled_contract_packed.cpp"},
      {"sparse_contract.packed.", "test_sparse_contract_packed.cpp"}, {"quantized_dot.q4k_q8k.", "test_qdot_packed.cpp"},
      {"reduce.lanes", "test_reduce_lanes.cpp"},               {"scan.blocks", "test_scan_blocks.cpp"},
      {"region_fold.blocks", "test_region.cpp"}};
  for (const auto& impl : cpu::implementations()) {
    INFO(impl.name);
    if (covered_here.count(impl.name)) continue;
    bool found = false;
    for (const auto& [prefix, file] : covered_beside)
      if (impl.name.rfind(prefix, 0) == 0) {
        const std::string text = read_text("tests/backend/" + file);
        found = text.find("(golden)") != std::string::npos && text.find("ir_after") != std::string::npos;
      }
    CHECK(found);
  }
}
