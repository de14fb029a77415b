// Workload-row checks through instantiation (reference §5.4, W1–W23) and the effects rules
// (E1–E4): one accepted and one rejected spec per class, asserting the message fragment.
#include <catch2/catch.hpp>

#include "tests/specs/spec_test_util.h"

using namespace spec_test;

TEST_CASE("W9 a label with a space", "[M5]") {
  CHECK(has(validate_text(edit(kGemm, "label: small", "label: \"a b\"")), "label must be"));
}

TEST_CASE("W22 duplicate case ids", "[M5]") {
  CHECK(has(validate_text(edit(kGemm, "label: ta, dtype_cases: [{T: bfloat16}]", "label: small, dtype_cases: [{T: float16}]")), "duplicate case id 'small-float16'"));
}

TEST_CASE("W22 rows sharing a label may differ in dtype", "[M5]") {
  CHECK(validate_text(edit(kGemm, "label: ta,", "label: small,")).render().empty());
}

TEST_CASE("W23 an optional input never omitted", "[M6]") {
  auto d = validate_text(edit(kClamp, "some: [max], label: upper", "some: [min, max], label: upper"), "elementwise");
  CHECK(has(d, "'min' is never omitted"));
}

TEST_CASE("W23 an optional input never passed", "[M6]") {
  auto d = validate_text(edit(edit(kClamp, "some: [min, max], label: both", "some: [max], label: both"),
                              "L: [8], some: [min], label: lower", "U: [8], some: [max], label: lower"), "elementwise");
  CHECK(has(d, "'min' is never passed"));
}

TEST_CASE("W14 a row missing an index", "[M4]") {
  CHECK(has(validate_text(edit(kGemm, "{M: 64, N: 32,", "{N: 32,")), "misses the relevant index 'M'"));
}

TEST_CASE("W14 a row giving an index its branch does not use", "[M4]") {
  auto d = validate_text(edit(kClamp, "{A: [4, 8], L: [8], some: [min], label: lower", "{A: [4, 8], L: [8], U: [4], some: [min], label: lower"), "elementwise");
  CHECK(has(d, "'U', which is not relevant"));
}

TEST_CASE("W14 a row giving an index a generator solves", "[M14]") {
  auto d = validate_text(edit(kPool, "{S: 10, H: 4, seq_lens", "{S: 10, H: 4, NC: 4, seq_lens"), "pool");
  CHECK(has(d, "which the generator of 'indices' solves"));
}

TEST_CASE("W15 a dtype pair outside dtype_combos", "[M16]") {
  auto base = edit(edit(kGemm, "T: \"DType[float16 | bfloat16]\"}", "T: \"DType[float16 | bfloat16]\", V: \"DType[float16 | bfloat16]\"}"),
                   "c: {dtype: T,", "c: {dtype: V,");
  base = edit(base, "    shape_rules:", "    dtype_combos:\n    - {T: float16, V: float16}\n    - {T: bfloat16, V: bfloat16}\n    shape_rules:");
  base = edit(base, "dtype_cases: [{T: float16}]", "dtype_cases: [{T: float16, V: float16}]");
  auto good = edit(base, "dtype_cases: [{T: bfloat16}]", "dtype_cases: [{T: bfloat16, V: bfloat16}]");
  CHECK(!has(validate_text(good), "dtype_combos"));
  auto bad = edit(base, "dtype_cases: [{T: bfloat16}]", "dtype_cases: [{T: bfloat16, V: float16}]");
  CHECK(has(validate_text(bad), "is not a row of dtype_combos"));
}

TEST_CASE("W15 a dtype outside the index's set", "[M16]") {
  CHECK(has(validate_text(edit(kGemm, "dtype_cases: [{T: float16}]", "dtype_cases: [{T: float32}]")), "is outside DType["));
}

TEST_CASE("W2 requires without values", "[M15]") {
  auto d = validate_text(edit(kPool, "shape: \"[NC, 2]\", values: \"chunk_indices(seq_lens, chunk_size)\"}",
                              "shape: \"[NC, 2]\", requires: [\"in_range(0, 9)\"]}"), "pool");
  CHECK(has(d, "requires but no values"));
}

TEST_CASE("W17 generated values overflowing int32", "[M14]") {
  auto d = validate_text(edit(kPool, "seq_lens: [3, 7]", "seq_lens: [3, 3000000000]"), "pool");
  CHECK(has(d, "is outside int32"));
}

TEST_CASE("W9 some naming a non-optional input", "[M5]") {
  CHECK(has(validate_text(edit(kClamp, "some: [min], label: lower", "some: [min, input], label: lower"), "elementwise"), "not an optional: true tensor"));
}

TEST_CASE("W9 empty dtype_cases", "[M5]") {
  CHECK(has(validate_text(edit(kGemm, "dtype_cases: [{T: float16}]", "dtype_cases: []")), "dtype_cases must be a non-empty list"));
}

TEST_CASE("W5 prefix_sum arity", "[M14]") {
  CHECK(has(validate_text(edit(kPool, "prefix_sum(seq_lens)", "prefix_sum()"), "pool"), "takes 1 arguments"));
}

TEST_CASE("W4 an undeclared name in requires", "[M15]") {
  CHECK(has(validate_text(edit(kPool, "prefix_offsets(S)", "prefix_offsets(Q)"), "pool"), "'Q' is not declared"));
}

TEST_CASE("W3 an unknown generator", "[M14]") {
  CHECK(has(validate_text(edit(kPool, "prefix_sum(seq_lens)", "magic_sum(seq_lens)"), "pool"), "not a keyword-free call of a built-in generator"));
}

TEST_CASE("W18 a refinement failing for a row", "[M8]") {
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"K > 8\"")), "refinement fails: K > 8"));
}

TEST_CASE("W17 a generated tensor of a float dtype", "[M14]") {
  CHECK(has(validate_text(edit(kPool, "offsets: {dtype: int32,", "offsets: {dtype: float32,"), "pool"), "generated tensors are int32 or int64"));
}

TEST_CASE("W17 a generator whose rank differs from the declared rank", "[M14]") {
  CHECK(has(validate_text(edit(kPool, "shape: \"[NC, 2]\"", "shape: \"[NC]\""), "pool"), "yields rank 2"));
}

TEST_CASE("W11 a bad ADT literal", "[M9]") {
  auto spec = R"Y(PermFwdOp:
  family: moe
  status: spec-only
  signature:
    forall: {T: Dim}
    params:
      layout: {type: MGroupedLayout}
    inputs:
      x: {dtype: float32, shape: "[T]"}
    outputs:
      y: {dtype: float32, shape: "[T]"}
  workloads:
  - {T: 4, layout: {contiguous: {packing: tight, metadata_kind: per_row, alignment: 1}}, label: ok}
  - {T: 4, layout: {contiguous: {packing: tight, metadata_kind: per_row, alignment: 4}}, label: bad-invariant}
  - {T: 4, layout: {striped: {width: 2}}, label: bad-ctor}
  roofline: {flops: "T"}
)Y";
  auto d = validate_text(spec, "moe");
  CHECK(has(d, "row 'bad-invariant': parameter 'layout'"));
  CHECK(has(d, "invariant"));
  CHECK(has(d, "'striped' is not a constructor"));
  CHECK(!has(d, "row 'ok'"));
}

TEST_CASE("W7 a rank-1 predicate on a rank-2 tensor", "[M15]") {
  CHECK(has(validate_text(edit(kPool, "values: \"chunk_indices(seq_lens, chunk_size)\"}", "values: \"chunk_indices(seq_lens, chunk_size)\", requires: [\"max_segment(1)\"]}"), "pool"), "reads rank 1"));
}

TEST_CASE("W7 a fixed-rank predicate on a spliced tensor", "[M15]") {
  auto spec = R"Y(SpliceFwdOp:
  family: misc
  status: spec-only
  signature:
    forall: {S: Shape, L: "Seq[Int]"}
    inputs:
      x: {dtype: int32, shape: "[*S]", values: "as_tensor(L)", requires: ["sums_to(3)"]}
    outputs:
      y: {dtype: int32, shape: "[*S]"}
  workloads:
  - {L: [1, 2], label: a}
  roofline: {flops: "0"}
)Y";
  CHECK(has(validate_text(spec, "misc"), "needs a fixed-rank tensor"));
}

TEST_CASE("W6 a cross-tensor requires reading an absent tensor", "[M15]") {
  auto d = validate_text(edit(kPool, "values: \"chunk_indices(seq_lens, chunk_size)\"}",
                              "values: \"chunk_indices(seq_lens, chunk_size)\", requires: [\"indices_within(offsets)\"]}"),
                         "pool");
  CHECK(!has(d, "[W6]"));  // indices is present exactly where offsets is
  auto bad = edit(kPool, "optional: \"present(offsets)\"", "optional: true");
  bad = edit(bad, "values: \"chunk_indices(seq_lens, chunk_size)\"}", "values: \"chunk_indices(seq_lens, chunk_size)\", requires: [\"indices_within(offsets)\"]}");
  CHECK(has(validate_text(bad, "pool"), "which is absent where 'indices' is present"));
}

TEST_CASE("W19 a requires predicate failing on generated values", "[M15]") {
  CHECK(has(validate_text(edit(kPool, "prefix_offsets(S)", "prefix_offsets(S + 1)"), "pool"), "fails on the generated values"));
}

TEST_CASE("W18 an affine axis that is not integral", "[M14]") {
  auto spec = R"Y(AffFwdOp:
  family: misc
  status: spec-only
  signature:
    forall: {B: Dim, L: "Seq[Int]"}
    inputs:
      x: {dtype: int32, shape: "[B + 10]", values: "as_tensor(L)"}
    outputs:
      y: {dtype: int32, shape: "[B]"}
  workloads:
  - {L: [1, 2], label: a}
  roofline: {flops: "0"}
)Y";
  CHECK(has(validate_text(spec, "misc"), "is not B + 10 for a Dim"));
}

TEST_CASE("W11 a value that fits no member of a union type", "[M11]") {
  auto base = edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: false}\n      p: {type: \"int | tuple[int, int]\", default: 1}");
  CHECK(has(validate_text(edit(base, "label: small,", "p: [0], label: small,")), "is not a value of type"));
  CHECK(validate_text(edit(base, "label: small,", "p: [0, 1], label: small,")).render().empty());
}

TEST_CASE("W12 a parameter without default missing from a row", "[M5]") {
  auto base = edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool}");
  CHECK(has(validate_text(base), "'trans_b' has no default and is not given"));
}

TEST_CASE("W10 a row key that is neither index nor param", "[M5]") {
  CHECK(has(validate_text(edit(kGemm, "label: small,", "Z: 3, label: small,")), "neither an index nor a param"));
}

TEST_CASE("W13 a domain restriction failing for a row", "[M8]") {
  CHECK(has(validate_text(edit(kClamp, "some: [max], label: upper", "label: upper"), "elementwise"), "refinement fails: present(min) or present(max)"));
}

TEST_CASE("W20 re-inference disagreeing with the row", "[M14]") {
  CHECK(has(validate_text(edit(kPool, "{S: 10, H: 4, seq_lens", "{S: 11, H: 4, seq_lens"), "pool"), "fails on the generated values"));
}

TEST_CASE("E1 write_only without mutated", "[M13]") {
  CHECK(has(validate_text(edit(kGemm, "a: {dtype: T, shape: \"Mat[trans_a, M, K]\"}", "a: {dtype: T, shape: \"Mat[trans_a, M, K]\", write_only: true}")), "write_only without mutated"));
}

TEST_CASE("E2 alias of an input that is never written", "[M13]") {
  CHECK(has(validate_text(edit(kGemm, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, N]\", alias: a}")), "not an input that may be written"));
}

TEST_CASE("E3 an aliased output declaring a buffer", "[M13]") {
  auto base = edit(kGemm, "a: {dtype: T, shape: \"Mat[trans_a, M, K]\"}", "a: {dtype: T, shape: \"Mat[trans_a, M, K]\", mutated: true}");
  CHECK(validate_text(edit(base, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, N]\", alias: a}")).render().empty());
  CHECK(has(validate_text(edit(base, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, N]\", alias: a, buffer: out}")), "also declares buffer"));
}

TEST_CASE("E4 two outputs with buffer: out", "[M13]") {
  auto d = validate_text(edit(kGemm, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, N]\", buffer: out}\n      c2: {dtype: T, shape: \"[M, N]\", buffer: out}"));
  CHECK(has(d, "more than one output"));
}

TEST_CASE("S8 composition rules", "[M19]") {
  auto comp = [&](const std::string& c) { return validate_text(edit(kGemm, "  roofline:", "  composition:\n" + c + "  roofline:")); };
  CHECK(comp("    kind: composite\n    stages:\n    - {name: k1, kernel: main}\n").render().empty());
  CHECK(has(comp("    kind: composite\n    stages: []\n"), "non-empty list"));
  CHECK(has(comp("    kind: fused\n    stages:\n    - {name: k1, kernel: main}\n"), "kind must be 'composite'"));
  CHECK(has(comp("    kind: composite\n    stages:\n    - {name: k1, kernel: main}\n    - {name: k1, kernel: other}\n"), "duplicated"));
  CHECK(has(comp("    kind: composite\n    stages:\n    - {name: k1, kernel: main, op: GemmFwdOp}\n"), "exactly one of 'op' and 'kernel'"));
  CHECK(has(comp("    kind: composite\n    stages:\n    - {name: k1, op: NopeFwdOp}\n"), "is not a manifest entry"));
  CHECK(has(comp("    kind: composite\n    stages:\n    - {name: k1, kernel: main, optional: maybe}\n"), "optional must be a bool"));
}

TEST_CASE("messages are sorted and carry file:line:col and the level", "[M19]") {
  auto d = validate_text(edit(edit(kGemm, "\"M >= 0\"", "\"M + 1\""), "status: implemented", "status: done"));
  auto text = d.render();
  CHECK(text.find("gemm.yaml:3:11: [schema] GemmFwdOp: status 'done'") != std::string::npos);
  CHECK(text.find("[signature] GemmFwdOp: shape_rules entry 'M + 1' is Dim, expected Bool [C29, M8]") != std::string::npos);
  CHECK(text.find("[schema]") < text.find("[signature]"));
}

TEST_CASE("a dtype name inside a tensor's dtype expression is a constant in every row", "[M16]") {
  // coalesce_dtype(out_dtype, float32): rows used to fail with "name 'float32' is not known" (W18)
  std::string spec = edit(kGemm, "      trans_b: {type: bool, default: false}\n",
                          "      trans_b: {type: bool, default: false}\n"
                          "      out_dtype: {type: \"float16 | None\", default: null}\n");
  spec = edit(spec, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: \"coalesce_dtype(out_dtype, float32)\", shape: \"[M, N]\"}");
  auto d = validate_text(spec);
  INFO(d.render());
  CHECK(!d.has_errors());
  kir::specs::Manifest m;
  kir::specs::SpecDiags ld;
  kir::specs::load_types_text(types_text(), "types.yaml", m, ld);
  kir::specs::load_family_text(spec, "gemm.yaml", m, ld);
  const auto* op = m.op("GemmFwdOp");
  REQUIRE(op != nullptr);
  auto calls = kir::specs::instantiate_op(*op, m, ld);
  INFO(ld.render());
  CHECK(!ld.has_errors());
  REQUIRE(!calls.empty());
  CHECK(calls[0].tensor("c")->dtype == "float32");
}
