// Unit tests of the structured-op verifier rules (seed 000 §7–§13; docs/kir-ops-structured.md):
// modules built with kir::Builder, plus robustness against malformed ops. Expected schemas and
// messages are derived by hand from the spec.
#include <catch2/catch.hpp>

#include "kir/builder.h"
#include "kir/verify/verifier.h"

using namespace kir;

namespace {

Extent sym(const char* n) { return Extent::symbol(n); }
Extent cst(int64_t v) { return Extent::constant(v); }
Type scalar(DType d) { return Type::scalar(d); }
Type tensor(DType d, std::vector<Extent> shape) { return Type::tensor(d, std::move(shape)); }
Attribute ints(std::vector<int64_t> v) { return Attribute::int_list(v); }
Attribute pairs(std::vector<std::pair<int64_t, int64_t>> ps) {
  std::vector<Attribute> out;
  for (auto [a, b] : ps) out.push_back(Attribute::int_list({a, b}));
  return Attribute::make_list(out);
}

Diagnostics run_verify(const Module& m) {
  Diagnostics d;
  verify_module(m, d);
  return d;
}

// fn @<name>(%a: t, %b: t, extra...) -> t { %s = <op>(%a, %b) : t; return(%s) }
void binary_helper(Builder& b, const std::string& name, const std::string& op, const Type& t,
                   std::vector<Type> extra = {}) {
  b.helper(name, {t});
  Value* x = b.param(t, "a");
  Value* y = b.param(t, "b");
  for (size_t i = 0; i < extra.size(); ++i) b.param(extra[i], "c" + std::to_string(i));
  Value* s = b.value(op, {x, y}, t);
  b.effect("return", {s});
}

// fn @f(params) -> result { %r = <op>(params...) {attrs} : result; return(%r) }
Operation& single_op_helper(Builder& b, const std::string& op, std::vector<Type> params, const Type& result,
                            AttrMap attrs) {
  b.helper("f", {result});
  std::vector<Value*> args;
  for (size_t i = 0; i < params.size(); ++i) args.push_back(b.param(params[i], "p" + std::to_string(i)));
  Operation& o = b.op(op, args, {result}, std::move(attrs));
  b.effect("return", {o.result(0)});
  return o;
}

// summarize(%x: f32[<slice>]) -> f32 with a body that optionally reads dim(%x).
void summarize_helper(Builder& b, const Extent& slice, bool read_dim) {
  b.helper("sum", {scalar(DType::F32)});
  Value* x = b.param(tensor(DType::F32, {slice}), "x");
  Value* z = b.const_float(0.0, DType::F32);
  if (read_dim) {
    Value* n = b.value("dim", {x}, scalar(DType::Index), {{"axis", Attribute::integer(0)}});
    z = b.value("cast", {n}, scalar(DType::F32));
  }
  Value* s = b.value("reduce", {x, z}, scalar(DType::F32),
                     {{"axes", ints({0})}, {"combine", Attribute::symbol("addf")}});
  b.effect("return", {s});
}

}  // namespace

TEST_CASE("reduce of a tuple source: the accumulator is each component less the axes", "[L7.1][L4.13]") {
  // tuple<f32[M, N], i32[M, N]> reduced over axis 1 -> tuple<f32[M], i32[M]>.
  Type acc = Type::tuple({tensor(DType::F32, {sym("R")}), tensor(DType::I32, {sym("R")})});
  Module m;
  Builder b(m);
  b.helper("pick", {acc});
  Value* a = b.param(acc, "a");
  b.param(acc, "b");
  b.effect("return", {a});
  Type src = Type::tuple({tensor(DType::F32, {sym("M"), sym("N")}), tensor(DType::I32, {sym("M"), sym("N")})});
  Type want = Type::tuple({tensor(DType::F32, {sym("M")}), tensor(DType::I32, {sym("M")})});
  SECTION("the derived accumulator verifies") {
    single_op_helper(b, "reduce", {src, want}, want,
                     {{"axes", ints({1})}, {"combine", Attribute::symbol("pick")}});
    Diagnostics d = run_verify(m);
    INFO(d.render());
    CHECK(d.error_count() == 0);
  }
  SECTION("a result keeping the reduced axis is rejected") {
    single_op_helper(b, "reduce", {src, want}, src, {{"axes", ints({1})}, {"combine", Attribute::symbol("pick")}});
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L7.1", "result has type tuple<f32[M, N], i32[M, N]> but the accumulator"));
  }
}

TEST_CASE("reducing every axis gives a scalar accumulator, not a rank-0 tensor", "[L7.1][L7.4]") {
  Module m;
  Builder b(m);
  binary_helper(b, "addf", "add", scalar(DType::F32));
  Type src = tensor(DType::F32, {sym("M"), sym("N")});
  SECTION("scalar identity and result") {
    single_op_helper(b, "reduce", {src, scalar(DType::F32)}, scalar(DType::F32),
                     {{"axes", ints({0, 1})}, {"combine", Attribute::symbol("addf")}});
    CHECK(run_verify(m).error_count() == 0);
  }
  SECTION("rank-0 identity") {
    single_op_helper(b, "reduce", {src, tensor(DType::F32, {})}, scalar(DType::F32),
                     {{"axes", ints({1, 0})}, {"combine", Attribute::symbol("addf")}});
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L7.4", "identity has type f32[] but the accumulator (the source less axes [0, 1]) is f32"));
  }
}

TEST_CASE("reduce axes are unique and canonical", "[L7.1]") {
  Module m;
  Builder b(m);
  binary_helper(b, "addf", "add", scalar(DType::F32));
  Type src = tensor(DType::F32, {sym("M"), sym("N")});
  single_op_helper(b, "reduce", {src, scalar(DType::F32)}, scalar(DType::F32),
                   {{"axes", ints({1, 1})}, {"combine", Attribute::symbol("addf")}});
  Diagnostics d = run_verify(m);
  CHECK(d.error_count() == 1);
  CHECK(d.contains("L7.1", "axis 1 is repeated in 'axes'"));
}

TEST_CASE("a combine calling an impure helper is impure", "[L7.2][L1.5]") {
  Module m;
  Builder b(m);
  // @draw(%s: f32) -> f32 uses random.uniform; @combine calls it.
  b.helper("draw", {scalar(DType::F32)});
  Value* s = b.param(scalar(DType::F32), "s");
  Value* seed = b.const_int(1, DType::U64);
  Value* ctr = b.const_int(0, DType::U64);
  Value* u = b.value("random.uniform", {seed, ctr}, scalar(DType::F32));
  Value* t = b.value("add", {s, u}, scalar(DType::F32));
  b.effect("return", {t});
  b.helper("combine", {scalar(DType::F32)});
  Value* x = b.param(scalar(DType::F32), "a");
  Value* y = b.param(scalar(DType::F32), "b");
  Value* sum = b.value("add", {x, y}, scalar(DType::F32));
  Value* r = b.value("call", {sum}, scalar(DType::F32), {{"callee", Attribute::symbol("draw")}});
  b.effect("return", {r});
  single_op_helper(b, "reduce", {tensor(DType::F32, {sym("N")}), scalar(DType::F32)}, scalar(DType::F32),
                   {{"axes", ints({0})}, {"combine", Attribute::symbol("combine")}});
  Diagnostics d = run_verify(m);
  CHECK(d.error_count() == 1);
  CHECK(d.contains("L7.2", "combine @combine must be pure: helper @combine is not pure: 'random.uniform' in @draw"));
}

TEST_CASE("a combine over a wider dtype is a hidden accumulator dtype", "[L7.5]") {
  Module m;
  Builder b(m);
  binary_helper(b, "add64", "add", tensor(DType::F64, {sym("R")}));
  Type src = tensor(DType::F32, {sym("M"), sym("N")});
  single_op_helper(b, "reduce", {src, tensor(DType::F32, {sym("M")})}, tensor(DType::F32, {sym("M")}),
                   {{"axes", ints({1})}, {"combine", Attribute::symbol("add64")}});
  Diagnostics d = run_verify(m);
  CHECK(d.error_count() == 1);
  CHECK(d.contains("L7.5", "combine @add64 parameter %a has type f64[R] but the accumulator is f32[M]"));
}

TEST_CASE("scan keeps the source type and binds the combine to the accumulator", "[L8.1]") {
  Module m;
  Builder b(m);
  binary_helper(b, "addv", "add", tensor(DType::I32, {sym("R")}));
  Type src = tensor(DType::I32, {sym("B"), sym("T")});
  SECTION("scan along axis 1") {
    single_op_helper(b, "scan", {src, tensor(DType::I32, {sym("B")})}, src,
                     {{"axis", Attribute::integer(1)},
                      {"combine", Attribute::symbol("addv")},
                      {"reverse", Attribute::boolean(true)}});
    CHECK(run_verify(m).error_count() == 0);
  }
  SECTION("negative axis is surface syntax") {
    single_op_helper(b, "scan", {src, tensor(DType::I32, {sym("B")})}, src,
                     {{"axis", Attribute::integer(-1)}, {"combine", Attribute::symbol("addv")}});
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L8.1", "axis -1 is negative"));
  }
}

TEST_CASE("summarize may not observe the segment extent", "[L9.2]") {
  Module m;
  Builder b(m);
  binary_helper(b, "addf", "add", scalar(DType::F32));
  AttrMap attrs{{"axis", Attribute::integer(0)},
                {"summarize", Attribute::symbol("sum")},
                {"combine", Attribute::symbol("addf")},
                {"segments", ints({1, 1, 0})}};
  Type src = tensor(DType::F32, {sym("N")});
  SECTION("a fresh slice symbol is accepted") {
    summarize_helper(b, sym("S"), false);
    single_op_helper(b, "region_fold", {src, scalar(DType::F32)}, scalar(DType::F32), attrs);
    Diagnostics d = run_verify(m);
    INFO(d.render());
    CHECK(d.error_count() == 0);
  }
  SECTION("a constant slice extent") {
    summarize_helper(b, cst(128), false);
    single_op_helper(b, "region_fold", {src, scalar(DType::F32)}, scalar(DType::F32), attrs);
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L9.2", "summarize @sum parameter %x fixes the slice extent on axis 0 to 128"));
  }
  SECTION("dim of the sliced axis") {
    summarize_helper(b, sym("S"), true);
    single_op_helper(b, "region_fold", {src, scalar(DType::F32)}, scalar(DType::F32), attrs);
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L9.2", "summarize @sum observes the segment extent: it reads the slice extent with 'dim'"));
  }
}

TEST_CASE("indices of the source axis are a legal region_fold source component", "[L9.4][L9.1]") {
  Module m;
  Builder b(m);
  binary_helper(b, "maxi", "max", scalar(DType::Index));
  // summarize(%x: f32[S], %pos: index[S]) -> index: the largest absolute position.
  b.helper("last", {scalar(DType::Index)});
  b.param(tensor(DType::F32, {sym("S")}), "x");
  Value* pos = b.param(tensor(DType::Index, {sym("S")}), "pos");
  Value* z = b.const_int(0);
  Value* s = b.value("reduce", {pos, z}, scalar(DType::Index),
                     {{"axes", ints({0})}, {"combine", Attribute::symbol("maxi")}});
  b.effect("return", {s});
  b.helper("f", {scalar(DType::Index)});
  Value* x = b.param(tensor(DType::F32, {sym("N")}), "x");
  Value* zero = b.const_int(0);
  Value* n = b.value("dim", {x}, scalar(DType::Index), {{"axis", Attribute::integer(0)}});
  Value* dom = b.value("domain", {zero, n}, Type::domain(sym("N")));
  Value* idx = b.value("indices", {dom}, tensor(DType::Index, {sym("N")}));
  Value* r = b.value("region_fold", {x, idx, zero}, scalar(DType::Index),
                     {{"axis", Attribute::integer(0)},
                      {"summarize", Attribute::symbol("last")},
                      {"combine", Attribute::symbol("maxi")},
                      {"segments", ints({2, 1, 0})}});
  b.effect("return", {r});
  Diagnostics d = run_verify(m);
  INFO(d.render());
  CHECK(d.error_count() == 0);
}

TEST_CASE("contract result axes: lhs free and batch axes, then rhs free axes", "[L10.4]") {
  // lhs [K, B, M], rhs [N, B, K], reduce (0, 2), batch (1, 1) -> [B, M, N].
  Type lhs = tensor(DType::F16, {sym("K"), sym("B"), sym("M")});
  Type rhs = tensor(DType::F16, {sym("N"), sym("B"), sym("K")});
  AttrMap attrs{{"reduce", pairs({{0, 2}})}, {"batch", pairs({{1, 1}})}};
  SECTION("the right order") {
    Module m;
    Builder b(m);
    single_op_helper(b, "contract", {lhs, rhs}, tensor(DType::F32, {sym("B"), sym("M"), sym("N")}), attrs);
    CHECK(run_verify(m).error_count() == 0);
  }
  SECTION("batch listed first is wrong") {
    Module m;
    Builder b(m);
    single_op_helper(b, "contract", {lhs, rhs}, tensor(DType::F32, {sym("B"), sym("N"), sym("M")}), attrs);
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L10.4", "result has shape [B, N, M] but the contraction gives [B, M, N]"));
  }
  SECTION("dynamic M and N are not equal") {
    Module m;
    Builder b(m);
    single_op_helper(b, "contract", {tensor(DType::F32, {sym("A"), sym("M")}), tensor(DType::F32, {sym("N"), sym("C")})},
                     tensor(DType::F32, {sym("A"), sym("C")}), {{"reduce", pairs({{1, 0}})}, {"batch", pairs({})}});
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L10.4", "pairs extent M with N; paired extents must be provably equal"));
  }
}

TEST_CASE("contract operands share one numeric dtype", "[L10.2]") {
  Module m;
  Builder b(m);
  single_op_helper(b, "contract", {tensor(DType::Bool, {sym("K")}), tensor(DType::Bool, {sym("K")})},
                   tensor(DType::I32, {}), {{"reduce", pairs({{0, 0}})}, {"batch", pairs({})}});
  Diagnostics d = run_verify(m);
  CHECK(d.error_count() == 1);
  CHECK(d.contains("L10.2", "operand dtype bool is not a numeric compute dtype"));
}

TEST_CASE("scaled_contract with e5m2 on both sides: one element per byte", "[L11.1]") {
  AttrMap attrs{{"lhs_format", Attribute::keyword("e5m2")}, {"rhs_format", Attribute::keyword("e5m2")},
                {"lhs_group_size", Attribute::integer(16)}, {"rhs_group_size", Attribute::integer(16)},
                {"reduce", pairs({{1, 0}, {2, 1}})}, {"batch", pairs({})}};
  Type ls = tensor(DType::E8M0, {sym("M"), sym("G")});
  Type rs = tensor(DType::E8M0, {sym("N"), sym("G")});
  Type res = tensor(DType::BF16, {sym("M"), sym("N")});
  SECTION("C = group size") {
    Module m;
    Builder b(m);
    single_op_helper(b, "scaled_contract",
                     {tensor(DType::U8, {sym("M"), sym("G"), cst(16)}), ls,
                      tensor(DType::U8, {sym("G"), cst(16), sym("N")}), rs},
                     res, attrs);
    Diagnostics d = run_verify(m);
    INFO(d.render());
    CHECK(d.error_count() == 0);
  }
  SECTION("C = group size / 2 is e2m1's, not e5m2's") {
    Module m;
    Builder b(m);
    single_op_helper(b, "scaled_contract",
                     {tensor(DType::U8, {sym("M"), sym("G"), cst(8)}), ls,
                      tensor(DType::U8, {sym("G"), cst(16), sym("N")}), rs},
                     res, attrs);
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L11.1", "lhs carrier extent C (axis 2) is 8 but must be 16"));
  }
}

TEST_CASE("quantize record mapping for a symbolic K", "[L11.3]") {
  Module m;
  Builder b(m);
  Extent k = sym("K");
  Type values = tensor(DType::F32, {sym("T"), k});
  Type want = Type::record({{"d", tensor(DType::F32, {sym("T"), Extent::floordiv(k, cst(256))})},
                            {"qs", tensor(DType::I8, {sym("T"), k})},
                            {"bsums", tensor(DType::I16, {sym("T"), Extent::floordiv(k, cst(16))})}});
  single_op_helper(b, "quantize", {values}, want, {{"format", Attribute::keyword("q8_k")}});
  Diagnostics d = run_verify(m);
  INFO(d.render());
  CHECK(d.error_count() == 0);
}

TEST_CASE("sparse one_of_two: the compressed axis is half the rhs extent", "[L12.1]") {
  AttrMap attrs{{"format", Attribute::keyword("one_of_two")}, {"reduce", pairs({{1, 0}})}, {"batch", pairs({})}};
  Type res = tensor(DType::F32, {sym("M"), sym("N")});
  SECTION("K/2 against K") {
    Module m;
    Builder b(m);
    single_op_helper(b, "sparse_contract",
                     {tensor(DType::F16, {sym("M"), sym("H")}), tensor(DType::U8, {sym("M"), sym("H")}),
                      tensor(DType::F16, {cst(2) * sym("H"), sym("N")})},
                     res, attrs);
    CHECK(run_verify(m).error_count() == 0);
  }
  SECTION("K against K") {
    Module m;
    Builder b(m);
    single_op_helper(b, "sparse_contract",
                     {tensor(DType::F16, {sym("M"), sym("K")}), tensor(DType::U8, {sym("M"), sym("K")}),
                      tensor(DType::F16, {sym("K"), sym("N")})},
                     res, attrs);
    Diagnostics d = run_verify(m);
    CHECK(d.error_count() == 1);
    CHECK(d.contains("L12.1", "so 2*K must equal the paired rhs extent K"));
  }
}

TEST_CASE("histogram counts have the extent of the bins value", "[L13.1]") {
  Module m;
  Builder b(m);
  b.helper("f", {tensor(DType::U32, {sym("%bins")})});
  Value* v = b.param(tensor(DType::I64, {sym("N")}), "v");
  Value* bins = b.param(scalar(DType::Index), "bins");
  Value* valid = b.param(tensor(DType::Bool, {sym("N")}), "valid");
  SECTION("[%bins]") {
    Value* h = b.value("histogram", {v, bins, valid}, tensor(DType::U32, {sym("%bins")}));
    b.effect("return", {h});
    CHECK(run_verify(m).error_count() == 0);
  }
  SECTION("[N] is not [%bins]") {
    b.value("histogram", {v, bins, valid}, tensor(DType::U32, {sym("N")}));
    Diagnostics d = run_verify(m);
    CHECK(d.contains("L13.1", "result must be an integer count tensor [%bins]"));
  }
}

TEST_CASE("malformed structured ops are reported, never crash", "[L7.1][L9.1][L10.4][L11.1][L11.3][L12.1][L13.1]") {
  const char* names[] = {"reduce", "scan", "region_fold", "region_scan", "contract", "scaled_contract",
                         "quantize", "quantized_dot", "sparse_contract", "histogram"};
  for (const char* name : names) {
    INFO(name);
    for (size_t nops = 0; nops < 5; ++nops) {
      Module m;
      Builder b(m);
      b.helper("f", {});
      std::vector<Value*> args;
      for (size_t i = 0; i < nops; ++i)
        args.push_back(b.param(i % 2 ? Type::domain(sym("N")) : tensor(DType::F32, {sym("N")}), "p" + std::to_string(i)));
      // Attributes of the wrong kinds, a symbol naming nothing, and a null result type.
      AttrMap attrs{{"axes", Attribute::integer(3)},      {"axis", ints({0})},
                    {"combine", Attribute::symbol("f")},  {"summarize", Attribute::integer(1)},
                    {"reduce", ints({1, 0})},             {"batch", Attribute::keyword("x")},
                    {"segments", ints({-5, 1, 9})},       {"format", Attribute::integer(2)},
                    {"lhs_format", Attribute::keyword("e2m1")}, {"lhs_group_size", Attribute::integer(-4)}};
      b.op(name, args, {Type(), scalar(DType::F32)}, attrs);
      Diagnostics d;
      CHECK_NOTHROW(verify_module(m, d));
      CHECK(d.has_errors());
    }
  }
}

TEST_CASE("a recursive summarize does not hang the extent analysis", "[L9.2][L1.3]") {
  Module m;
  Builder b(m);
  binary_helper(b, "addf", "add", scalar(DType::F32));
  // @sum(%x: f32[S]) -> f32 calls itself (rejected as recursion elsewhere, L1.3).
  b.helper("sum", {scalar(DType::F32)});
  Value* x = b.param(tensor(DType::F32, {sym("S")}), "x");
  Value* r = b.value("call", {x}, scalar(DType::F32), {{"callee", Attribute::symbol("sum")}});
  b.effect("return", {r});
  single_op_helper(b, "region_fold", {tensor(DType::F32, {sym("N")}), scalar(DType::F32)}, scalar(DType::F32),
                   {{"axis", Attribute::integer(0)},
                    {"summarize", Attribute::symbol("sum")},
                    {"combine", Attribute::symbol("addf")},
                    {"segments", ints({1, 1, 0})}});
  Diagnostics d;
  CHECK_NOTHROW(verify_module(m, d));
  CHECK(d.contains("L1.3"));
}
