// Parity with the paired Intent kernel (specs/src/parity.h, checks P1–P7): the bundled kernels
// of specs/kernels/ match their manifests, and each mismatching kernel of
// tests/specs/data/parity/kernels/ gives its message, at the manifest node, naming the kernel.
#include <catch2/catch.hpp>

#include <random>

#include "specs/src/parity.h"
#include "tests/specs/spec_test_util.h"

using namespace spec_test;
using kir::specs::Level;
using kir::specs::Manifest;
using kir::specs::SpecDiags;

namespace {

const std::string kData = std::string(KIR_SOURCE_DIR) + "/tests/specs/data/parity";

struct Loaded {
  Manifest m;
  SpecDiags d;
};

const Loaded& parity_data() {
  static Loaded l = [] {
    Loaded x;
    kir::specs::load_paths({kData + "/ops/parity.yaml", std::string(KIR_SOURCE_DIR) + "/specs/types.yaml"}, x.m, x.d);
    kir::specs::validate(x.m, x.d);
    return x;
  }();
  return l;
}

// Diagnostics of one op.
std::vector<kir::specs::SpecDiag> of(const std::string& op) {
  std::vector<kir::specs::SpecDiag> out;
  for (const auto& x : parity_data().d.all())
    if (x.op == op) out.push_back(x);
  return out;
}

bool op_has(const std::string& op, const std::string& fragment) {
  for (const auto& x : of(op))
    if (x.str().find(fragment) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("bundled specs validate with parity active, and their kernels are paired", "[parity][M2]") {
  std::string report;
  CHECK(kir::specs::validate_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, {}, report) == 0);
  CHECK(report.find("error(s)") != std::string::npos);
  Manifest m;
  SpecDiags d;
  kir::specs::load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
  for (const char* op : {"AddFwdOp", "ReluFwdOp", "SoftmaxFwdOp"}) {
    INFO(op);
    REQUIRE(m.op(op));
    CHECK(kir::specs::paired_kernel_path(*m.op(op)).find(std::string("kernels/") + op + ".kir") != std::string::npos);
  }
  REQUIRE(m.op("GemmFwdOp"));
  CHECK(kir::specs::paired_kernel_path(*m.op("GemmFwdOp")).find("kernels/GemmFwdOp.kir") != std::string::npos);
}

TEST_CASE("a matching kernel and an op without a kernel give nothing", "[parity][M2]") {
  CHECK(of("ParityOkFwdOp").empty());
  CHECK(of("ParityNoKernelFwdOp").empty());
  REQUIRE(parity_data().m.op("ParityOkFwdOp"));
  CHECK(kir::specs::paired_kernel_path(*parity_data().m.op("ParityOkFwdOp")).find("ParityOkFwdOp.kir") != std::string::npos);
}

TEST_CASE("P2 parameters in the wrong order", "[parity][M2]") {
  CHECK(op_has("ParityOrderFwdOp", "input 'a': kernel @ParityOrderFwdOp parameter '%a'"));
  CHECK(op_has("ParityOrderFwdOp", "comes after '%b'"));
  CHECK(op_has("ParityOrderFwdOp", "the manifest order is a, b, acc, bias, c, scale, act, causal [P2, M2]"));
  // the message points at the manifest node and names the kernel's file:line:col
  auto v = of("ParityOrderFwdOp");
  REQUIRE(v.size() == 1);
  CHECK(v[0].loc.line > 0);
  CHECK(v[0].str().find("parity.yaml:") != std::string::npos);
  CHECK(v[0].str().find("ParityOrderFwdOp.kir:4:45") != std::string::npos);
}

TEST_CASE("P2 an optional input without a kernel parameter", "[parity][M2]") {
  CHECK(op_has("ParityMissingOptionalFwdOp", "optional input 'bias' has no parameter in kernel @ParityMissingOptionalFwdOp"));
}

TEST_CASE("P2 an extra kernel parameter", "[parity][M2]") {
  CHECK(op_has("ParityExtraFwdOp", "parameter 9 '%extra'"));
  CHECK(op_has("ParityExtraFwdOp", "is no input, output or kernel parameter of the manifest"));
}

TEST_CASE("P4 a dtype outside the allowed set", "[parity][M16]") {
  CHECK(op_has("ParityDtypeFwdOp", "has dtype f64 (float64), not among the allowed dtypes {float16, float32} of 'T' [P4, M16]"));
}

TEST_CASE("P4 one DType index, two kernel dtypes", "[parity][M16]") {
  CHECK(op_has("ParityDtypeBindFwdOp", "has dtype f32 (float32), but dtype index 'T' is float16 at '%a'"));
}

TEST_CASE("P4 a dtype-case suffix outside the allowed set", "[parity][M16]") {
  CHECK(op_has("ParitySuffixFwdOp", "kernel @ParitySuffixFwdOp__f64__f32"));
  CHECK(op_has("ParitySuffixFwdOp", "dtype case f64 (float64) of 'T' is not among its allowed dtypes"));
}

TEST_CASE("P4 a kernel instantiating no row of dtype_combos", "[parity][M16]") {
  CHECK(op_has("ParityCombosFwdOp", "instantiates {T: float32, U: float16}, which is no row of dtype_combos"));
}

TEST_CASE("P3 In vs Out, and a mutated input that is not InOut", "[parity][M13]") {
  CHECK(op_has("ParityInOutFwdOp", "output 'c': kernel @ParityInOutFwdOp parameter '%c'"));
  CHECK(op_has("ParityInOutFwdOp", "is In, expected Out (an output) [P3, M13]"));
  CHECK(op_has("ParityMutatedFwdOp", "input 'acc'"));
  CHECK(op_has("ParityMutatedFwdOp", "is In, expected InOut (a mutated input)"));
}

TEST_CASE("P6 one manifest dimension, two kernel extent symbols", "[parity][M7]") {
  CHECK(op_has("ParityExtentFwdOp", "manifest dimension 'K' is kernel extent N at '%b'"));
  CHECK(op_has("ParityExtentFwdOp", "but K at '%a'"));
}

TEST_CASE("P5 rank differs from the manifest shape", "[parity][M7]") {
  CHECK(op_has("ParityRankFwdOp", "has rank 2, the manifest shape '[N]' has rank 1 [P5, M7]"));
}

TEST_CASE("P7 scalar params: runtime dtype and constexpr enum members", "[parity][M12]") {
  CHECK(op_has("ParityParamFwdOp", "param 'scale' (float)"));
  CHECK(op_has("ParityParamFwdOp", "is i32, expected a float runtime scalar [P7, M12]"));
  CHECK(op_has("ParityEnumFwdOp", "is enum @Act with members {gelu, none}, the manifest's literals are {none, relu}"));
}

TEST_CASE("P1 pairing: no kernel of the op, a syntax error, a verifier error", "[parity][M2]") {
  CHECK(op_has("ParityUnpairedFwdOp", "holds no kernel @ParityUnpairedFwdOp or @ParityUnpairedFwdOp__<dtype> [P1"));
  CHECK(op_has("ParitySyntaxFwdOp", "does not parse"));
  CHECK(op_has("ParitySyntaxFwdOp", "ParitySyntaxFwdOp.kir:3:1"));
  CHECK(op_has("ParityVerifyFwdOp", "fails kir verify"));
  CHECK(op_has("ParityVerifyFwdOp", "(L4.14)"));
}

TEST_CASE("P6 a Shape index splices one extent list everywhere", "[parity][M7]") {
  Manifest m;
  SpecDiags d;
  kir::specs::load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
  const auto* relu = m.op("ReluFwdOp");
  REQUIRE(relu);
  SpecDiags p;
  kir::specs::check_parity_text(*relu, m,
                                "kernel @ReluFwdOp(%input: InOut<f32[M, N]>, %output: Out<f32[M]>, constexpr %inplace: bool) {\n"
                                "  %zero = const() {value = 0} : index\n}\n",
                                "relu.kir", p);
  CHECK(p.contains("manifest shape index 'S' is kernel extents [M] at '%output'"));
  CHECK(p.contains("but [M, N] at '%input'"));
  // a dtype param is fixed by the kernel, never a parameter of it
  const auto* softmax = m.op("SoftmaxFwdOp");
  REQUIRE(softmax);
  SpecDiags q;
  kir::specs::check_parity_text(*softmax, m,
                                "kernel @SoftmaxFwdOp(%input: In<f32[M, N]>, %output: Out<f32[M, N]>, constexpr %dim: i64, constexpr %dtype: i32) {\n"
                                "  %zero = const() {value = 0} : index\n}\n",
                                "softmax.kir", q);
  CHECK(q.contains("param 'dtype' (float16 | bfloat16 | float32 | None) is no kernel parameter"));
  // an output dtype computed by coalesce_dtype: any dtype it can give
  SpecDiags r;
  kir::specs::check_parity_text(*softmax, m,
                                "kernel @SoftmaxFwdOp__bf16(%input: In<bf16[M, N]>, %output: Out<f64[M, N]>, constexpr %dim: i64) {\n"
                                "  %zero = const() {value = 0} : index\n}\n",
                                "softmax.kir", r);
  CHECK(r.contains("which 'coalesce_dtype(dtype, T)' cannot give"));
}

TEST_CASE("parity never crashes on hostile kernel text", "[parity][M2]") {
  Manifest m;
  SpecDiags d;
  kir::specs::load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
  const auto* add = m.op("AddFwdOp");
  REQUIRE(add);
  std::string base = read_text(std::string(KIR_SOURCE_DIR) + "/specs/kernels/AddFwdOp.kir");
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::string t = base;
    for (int k = 0; k < 4; ++k) t[rng() % t.size()] = static_cast<char>(rng() % 256);
    SpecDiags p;
    kir::specs::check_parity_text(*add, m, t, "mutant.kir", p);
  }
  SpecDiags e;
  kir::specs::check_parity_text(*add, m, "", "empty.kir", e);
  CHECK(e.contains("holds no kernel @AddFwdOp"));
  SpecDiags ok;
  kir::specs::check_parity_text(*add, m, base, "AddFwdOp.kir", ok);
  CHECK(ok.all().empty());
}

TEST_CASE("P8 fixed params: names of the op, values of the param's kind", "[parity][M12]") {
  Manifest m;
  SpecDiags d;
  kir::specs::load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
  const auto* pool = m.op("MaxPool2dFwdOp");
  REQUIRE(pool);
  auto pool_kernel = [&](const std::string& fixes) {
    SpecDiags p;
    kir::specs::check_parity_text(*pool, m,
                                  "kernel @MaxPool2dFwdOp__f32(%input: In<f32[N, C, H, W]>, %output: Out<f32[N, C, HO, WO]>, "
                                  "constexpr %ceil_mode: bool = false) fixes {" + fixes + "} {\n"
                                  "  %zero = const() {value = 0} : index\n}\n",
                                  "pool.kir", p);
    return p;
  };
  CHECK(pool_kernel("kernel_size = [3, 2], stride = none, padding = 1, dilation = 1").error_count() == 0);
  SpecDiags unknown = pool_kernel("kernel_size = 3, strides = 2");
  std::string all;
  for (const auto& x : unknown.all()) all += x.str() + "\n";
  INFO(all);
  CHECK(unknown.contains("kernel @MaxPool2dFwdOp__f32 fixes strides = 2, but 'strides' is no param of MaxPool2dFwdOp (its params: "
                         "kernel_size, stride, padding, dilation, ceil_mode)"));
  CHECK(all.find("ceil_mode) [P8, M12]") != std::string::npos);
  REQUIRE(!unknown.all().empty());
  CHECK(unknown.all()[0].loc.str() == "pool.kir:1:1");  // located at the kernel
  CHECK(pool_kernel("kernel_size = [3, 3, 3]").contains("fixes kernel_size = [3, 3, 3], which is no value of 'kernel_size' (int | tuple[int, int])"));
  CHECK(pool_kernel("padding = none").contains("which is no value of 'padding' (int | tuple[int, int])"));
  CHECK(pool_kernel("dilation = 1.5").contains("which is no value of 'dilation'"));
  // string literals, floats, optional params
  const auto* conv = m.op("Conv2dFwdOp");
  REQUIRE(conv);
  auto conv_kernel = [&](const std::string& fixes) {
    SpecDiags p;
    kir::specs::check_parity_text(*conv, m,
                                  "kernel @Conv2dFwdOp__f32(%input: In<f32[N, C, H, W]>, %weight: In<f32[O, G, U, V]>, %bias: In<f32[O]>, "
                                  "%output: Out<f32[N, O, P, Q]>, %groups: i64, constexpr %present_bias: bool) fixes {" + fixes + "} {\n"
                                  "  %zero = const() {value = 0} : index\n}\n",
                                  "conv.kir", p);
    return p;
  };
  CHECK(conv_kernel("stride = 1, padding = \"same\", dilation = [2, 1]").error_count() == 0);
  CHECK(conv_kernel("padding = \"full\"").contains("fixes padding = \"full\", which is no value of 'padding'"));
  // a dotted name reads a field of an ADT param
  const auto* moe = m.op("MoePrePermuteFwdOp");
  REQUIRE(moe);
  auto moe_kernel = [&](const std::string& fixes) {
    SpecDiags p;
    kir::specs::check_parity_text(*moe, m,
                                  "kernel @MoePrePermuteFwdOp__f16(%hidden: In<f16[T, H]>, %topk_ids: In<i32[T, K]>, %permuted: Out<f16[C, H]>, "
                                  "%metadata: Out<i32[E]>, %num_experts: i64) fixes {" + fixes + "} {\n"
                                  "  %zero = const() {value = 0} : index\n}\n",
                                  "moe.kir", p);
    return p;
  };
  CHECK(moe_kernel("layout = \"contiguous\", layout.packing = \"tight\", layout.alignment = 1").error_count() == 0);
  CHECK(moe_kernel("layout.packing = \"loose\"").contains("which is no value of 'layout.packing'"));
  CHECK(moe_kernel("layout.stride = 1").contains("param 'layout' (MGroupedLayout) has no field 'stride'"));
  CHECK(moe_kernel("layout = \"ragged\"").contains("which is no value of 'layout' (MGroupedLayout)"));
}
