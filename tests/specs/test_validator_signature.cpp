// Signature-level validator checks: one accepted and one rejected spec per check class, each
// asserting the message fragment (reference §5.3; checklist M1–M19).
#include <catch2/catch.hpp>

#include "tests/specs/spec_test_util.h"

using namespace spec_test;

TEST_CASE("base specs are accepted", "[M7][M1][M14]") {
  CHECK(validate_text(kGemm).render().empty());
  CHECK(validate_text(kClamp, "elementwise").render().empty());
  CHECK(validate_text(kPool, "pool").render().empty());
}

TEST_CASE("C12 a let that does not parse", "[M10]") {
  auto d = validate_text(edit(kGemm, "    inputs:", "    let: {X: \"(\"}\n    inputs:"));
  CHECK(has(d, "cannot parse"));
  CHECK(has(d, "[C12]"));
}

TEST_CASE("C13 'is None' is outside the language", "[M3]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"M is not None\""));
  CHECK(has(d, "outside the expression language"));
}

TEST_CASE("C13 '/' and '**' are outside the language", "[M11]") {
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"M / 2 >= 0\"")), "outside the expression language"));
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"M ** 2 >= 0\"")), "outside the expression language"));
}

TEST_CASE("C25 a tensor read as a value", "[M7]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"a.shape == (M, K)\""));
  CHECK(has(d, "read as a value"));
}

TEST_CASE("C14 isinstance is not a built-in primitive", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"isinstance(M, int)\""));
  CHECK(has(d, "not a built-in primitive"));
}

TEST_CASE("C30 a splice of a Dim: expected Shape", "[M11]") {
  auto d = validate_text(edit(kGemm, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[*broadcast(M)]\"}"));
  CHECK(has(d, "expected Shape"));
}

TEST_CASE("C29 a rule that is not Bool", "[M8]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"M + 1\""));
  CHECK(has(d, "expected Bool"));
}

TEST_CASE("C4 an unknown forall kind", "[M14]") {
  auto d = validate_text(edit(kGemm, "DType[float16 | bfloat16]", "DType[banana]"));
  CHECK(has(d, "unknown kind"));
}

TEST_CASE("C33 a let cycle", "[M10]") {
  auto d = validate_text(edit(kGemm, "    inputs:", "    let: {X: \"Y + 1\", Y: \"X + 1\"}\n    inputs:"));
  CHECK(has(d, "let cycle"));
}

TEST_CASE("C33 lets referencing lets without a cycle are accepted", "[M10]") {
  auto d = validate_text(edit(edit(kGemm, "    inputs:", "    let: {X: \"M + 1\", Y: \"X * 2\"}\n    inputs:"), "\"M >= 0\"", "\"Y > 0\""));
  CHECK(d.render().empty());
}

TEST_CASE("C37 Clamp without its domain restriction: no case matches", "[M8][M7]") {
  auto d = validate_text(edit(kClamp, "    shape_rules:\n    - \"present(min) or present(max)\"\n", ""), "elementwise");
  CHECK(has(d, "0 cases of 'ClampOut' match"));
}

TEST_CASE("C37 overlapping cases: two cases match", "[M7]") {
  auto d = validate_text(edit(kGemm, "- {when: true, is: \"[C, R]\"}", "- {when: _, is: \"[C, R]\"}"));
  CHECK(has(d, "2 cases of 'Mat' match"));
}

TEST_CASE("C41 an index under a product cannot be solved", "[M4]") {
  auto d = validate_text(edit(edit(kGemm, "b: {dtype: T, shape: \"Mat[trans_b, K, N]\"}", "b: {dtype: T, shape: \"[K, N * N]\"}"),
                              "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, K]\"}"));
  CHECK(has(d, "'N' cannot be solved"));
}

TEST_CASE("C41 a DType index only in outputs cannot be solved", "[M4]") {
  auto d = validate_text(edit(edit(kGemm, "T: \"DType[float16 | bfloat16]\"}", "T: \"DType[float16 | bfloat16]\", U: \"DType[float32]\"}"),
                              "c: {dtype: T,", "c: {dtype: U,"));
  CHECK(has(d, "'U' cannot be solved"));
}

TEST_CASE("C38 .value outside its presence guard", "[M3]") {
  auto base = edit(kGemm, "      trans_b: {type: bool, default: false}",
                   "      trans_b: {type: bool, default: false}\n      extra: {type: \"int | None\", default: null}");
  CHECK(has(validate_text(edit(base, "\"M >= 0\"", "\"extra.value > 0\"")), "present(extra) is false"));
  CHECK(validate_text(edit(base, "\"M >= 0\"", "\"not present(extra) or extra.value > 0\"")).render().empty());
  CHECK(validate_text(edit(base, "\"M >= 0\"", "\"extra.value > 0 if present(extra) else True\"")).render().empty());
}

TEST_CASE("C28 a Seq[Int] index outside values", "[M14]") {
  auto d = validate_text(edit(kPool, "  workloads:", "    shape_rules: [\"sum(seq_lens) > 0\"]\n  workloads:"), "pool");
  CHECK(has(d, "value list"));
}

TEST_CASE("C8 a list parameter of floats", "[M11]") {
  auto d = validate_text(edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: \"list[float]\", default: []}"));
  CHECK(has(d, "expected Seq[Int]"));
}

TEST_CASE("C8 a tuple holding bool", "[M11]") {
  auto d = validate_text(edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: \"tuple[int, bool]\", default: [1, true]}"));
  CHECK(has(d, "holds int or"));
}

TEST_CASE("C30 family arity", "[M7]") {
  auto d = validate_text(edit(kGemm, "Mat[trans_a, M, K]", "Mat[trans_a, M]"));
  CHECK(has(d, "takes 3 arguments"));
}

TEST_CASE("C19 a family without match: its formals still count, no arity cascade", "[M7]") {
  auto d = validate_text(edit(kGemm, "        match: t\n", ""));
  CHECK(has(d, "type family 'Mat' needs 'match' and at least one case [C19]"));
  CHECK(!has(d, "takes 0 arguments"));
  CHECK(!has(d, "[C30]"));
}

TEST_CASE("C10 a name declared twice", "[M7]") {
  auto d = validate_text(edit(kGemm, "K: Dim,", "K: Dim, c: Dim,"));
  CHECK(has(d, "declared twice"));
}

TEST_CASE("C11 the reserved name out", "[M13]") {
  auto d = validate_text(edit(kGemm, "K: Dim,", "K: Dim, out: Dim,"));
  CHECK(has(d, "reserved"));
}

TEST_CASE("C32 present() of a non-Maybe parameter", "[M1]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"present(trans_a)\""));
  CHECK(has(d, "names no tensor"));
}

TEST_CASE("C30 a Bool axis is not an integer", "[M7]") {
  auto d = validate_text(edit(kGemm, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[-trans_a, N]\"}"));
  CHECK(has(d, "expected an integer"));
}

TEST_CASE("C32 a primitive call missing an argument", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"max(default=M) > 0\""));
  CHECK(has(d, "misses argument 1"));
}

TEST_CASE("C27 a family case reading a name outside its formals", "[M7]") {
  auto d = validate_text(edit(kGemm, "is: \"[R, C]\"", "is: \"[R, M]\""));
  CHECK(has(d, "not declared"));
}

TEST_CASE("C36 a mutated condition reading more than discriminants", "[M13]") {
  auto d = validate_text(edit(kGemm, "a: {dtype: T, shape: \"Mat[trans_a, M, K]\"}", "a: {dtype: T, shape: \"Mat[trans_a, M, K]\", mutated: \"M > 0\"}"));
  CHECK(has(d, "reads more than discriminants"));
}

TEST_CASE("C32 comparing with None", "[M3]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"M == None\""));
  CHECK(has(d, "compares with None"));
}

TEST_CASE("C21 a match subject that is not finite", "[M7]") {
  auto d = validate_text(edit(kGemm, "match: t", "match: \"len(())\""));
  CHECK(has(d, "not Bool, an enum or an ADT"));
}

TEST_CASE("S6 optional on an output is an unknown key", "[M1]") {
  auto d = validate_text(edit(kGemm, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, N]\", optional: true}"));
  CHECK(has(d, "unknown key 'optional'"));
}

TEST_CASE("C32 subscript of a Dim", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"M[0] > 0\""));
  CHECK(has(d, "not a sequence"));
}

TEST_CASE("C7 a dtype_combos value outside the set", "[M16]") {
  auto d = validate_text(edit(kGemm, "    shape_rules:", "    dtype_combos:\n    - {T: float32}\n    shape_rules:"));
  CHECK(has(d, "not in the set"));
}

TEST_CASE("C7 dtype_combos rows with different keys and repeated rows", "[M16]") {
  auto two = edit(kGemm, "T: \"DType[float16 | bfloat16]\"}", "T: \"DType[float16 | bfloat16]\", V: \"DType[float16]\"}");
  CHECK(has(validate_text(edit(two, "    shape_rules:", "    dtype_combos:\n    - {T: float16}\n    - {T: float16}\n    shape_rules:")), "repeated"));
  CHECK(has(validate_text(edit(two, "    shape_rules:", "    dtype_combos:\n    - {T: float16}\n    - {T: bfloat16, V: float16}\n    shape_rules:")), "different keys"));
}

TEST_CASE("C32 arms of a conditional without a common kind", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"(1 if trans_a else 'x') == 1\""));
  CHECK(has(d, "arms of kinds"));
}

TEST_CASE("C26 a float parameter in a shape takes no part in types", "[M18]") {
  auto base = edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: false}\n      eps: {type: float, default: 0.5}");
  CHECK(has(validate_text(edit(base, "c: {dtype: T, shape: \"[M, N]\"}", "c: {dtype: T, shape: \"[M, eps]\"}")), "takes no part in types"));
  CHECK(validate_text(edit(base, "\"M >= 0\"", "\"eps > 0\"")).render().empty());
}

TEST_CASE("C35 an unused type family", "[M7]") {
  auto d = validate_text(edit(kGemm, "    shape_rules:", "      Unused:\n        params: {t: Bool}\n        match: t\n        cases:\n        - {when: _, is: \"[]\"}\n    shape_rules:"));
  CHECK(has(d, "applied by no shape"));
}

TEST_CASE("C32 a string literal an enum or dtype never takes", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"T == 'bflaot16'\""));
  CHECK(has(d, "compares with 'bflaot16'"));
}

TEST_CASE("C32 reduced with a mode outside its literals", "[M11]") {
  auto base = edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: false}\n      mode: {type: \"'full' | 'other'\", default: full}");
  auto d = validate_text(edit(base, "\"M >= 0\"", "\"len(reduced((M, N), 0, False, mode)) >= 0\""));
  CHECK(has(d, "is not one of"));
}

TEST_CASE("C16 a dtype that names nothing", "[M16]") {
  auto d = validate_text(edit(kGemm, "c: {dtype: T,", "c: {dtype: Q,"));
  CHECK(has(d, "not a DType index"));
}

TEST_CASE("C16 a registered dtype constant is a dtype", "[M16]") {
  auto d = validate_text(edit(edit(kGemm, "c: {dtype: T,", "c: {dtype: float32,"), "", ""));
  CHECK(d.render().empty());
}

TEST_CASE("C18 a Maybe dtype parameter must be coalesced", "[M3]") {
  auto base = edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: false}\n      out_dtype: {type: \"float32 | None\", default: null}");
  CHECK(has(validate_text(edit(base, "c: {dtype: T,", "c: {dtype: out_dtype,")), "coalesce_dtype"));
  CHECK(validate_text(edit(base, "c: {dtype: T,", "c: {dtype: \"coalesce_dtype(out_dtype, T)\",")).render().empty());
}

TEST_CASE("S1 and S2 op key form", "[M19]") {
  CHECK(has(validate_text(edit(kGemm, "GemmFwdOp:", "gemm_op:")), "is not a class name"));
  CHECK(has(validate_text(edit(kGemm, "GemmFwdOp:", "GemmFwdOpPaged:")), "write 'GemmPagedFwdOp'"));
}

TEST_CASE("S10, S11, S13 top-level fields", "[M19]") {
  CHECK(has(validate_text(edit(kGemm, "  roofline:\n    flops: \"2 * M * N * K\"\n", "")), "missing required field 'roofline'"));
  CHECK(has(validate_text(edit(kGemm, "  status: implemented", "  status: implemented\n  dtypes: [float16]")), "unknown field 'dtypes'"));
  CHECK(has(validate_text(edit(kGemm, "  status: implemented", "  status: done")), "is not one of 'implemented', 'spec-only'"));
}

TEST_CASE("L4 family must match the file", "[M19]") {
  CHECK(has(validate_text(kGemm, "conv"), "does not match the file"));
  CHECK(validate_text(kGemm, "gemm_bmm").render().empty());
}

TEST_CASE("S14 roofline forms", "[M17]") {
  CHECK(has(validate_text(edit(kGemm, "    flops: \"2 * M * N * K\"", "    func: \"my.module.f\"")), "is not tileops.perf.formulas"));
  CHECK(has(validate_text(edit(kGemm, "    flops: \"2 * M * N * K\"", "    flops: \"1\"\n    func: tileops.perf.formulas.gemm")), "exactly one of 'flops' and 'func'"));
  CHECK(has(validate_text(edit(kGemm, "    flops: \"2 * M * N * K\"", "    flops: \"bytes(M)\"")), "single tensor name"));
}

TEST_CASE("S15 ADT invariant reading a non-field", "[M9]") {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text("adts:\n  L:\n    sum:\n      c:\n        python: a.B\n        fields: {x: Dim}\n        invariant: \"y > 0\"\n", "types.yaml", m, d);
  kir::specs::validate(m, d);
  CHECK(d.contains("not declared"));
}

TEST_CASE("L7 types.yaml must be exactly {adts: ...}", "[M9]") {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text("adts: {}\nextra: 1\n", "types.yaml", m, d);
  CHECK(d.contains("exactly {adts: ...}"));
}

TEST_CASE("S15 a field kind outside Dim, Int, Bool and enums", "[M9]") {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text("adts:\n  L:\n    sum:\n      c:\n        python: a.B\n        fields: {x: Shape}\n", "types.yaml", m, d);
  CHECK(d.contains("is not Dim, Int, Bool or an enum"));
}

TEST_CASE("C9 a default that is not a value of its type", "[M3]") {
  auto d = validate_text(edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: 3}"));
  CHECK(has(d, "default of parameter 'trans_b'"));
  CHECK(has(d, "[C9]"));
}

TEST_CASE("C9 kw_only must be a bool", "[M3]") {
  CHECK(has(validate_text(edit(kGemm, "trans_b: {type: bool, default: false}", "trans_b: {type: bool, default: false, kw_only: sometimes}")), "kw_only must be a bool"));
}

TEST_CASE("C31 a family case reads a field its constructor lacks", "[M9]") {
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
      y: {dtype: float32, shape: "L[layout, T]"}
    types:
      L:
        params: {g: MGroupedLayout, T: Dim}
        match: g
        cases:
        - {when: {masked: _}, is: "[g.max_m]"}
        - {when: {contiguous: _}, is: "[g.max_m]"}
  workloads:
  - {T: 4, layout: {masked: {max_m: 3}}, label: ok}
  roofline: {flops: "T"}
)Y";
  auto d = validate_text(spec, "moe");
  CHECK(has(d, "constructor 'contiguous' lacks field 'max_m'"));
  CHECK(has(d, "[C31]"));  // in a family case; the same read in a rule or a let is C38
  CHECK(d.error_count() == 1);
}

TEST_CASE("C23 ADT pattern errors", "[M9]") {
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
      y: {dtype: float32, shape: "L[layout, T]"}
    types:
      L:
        params: {g: MGroupedLayout, T: Dim}
        match: g
        cases:
        - {when: {masked: {max_m: 3}}, is: "[T]"}
        - {when: {contiguous: {colour: red}}, is: "[T]"}
        - {when: {striped: _}, is: "[T]"}
  workloads:
  - {T: 4, layout: {masked: {max_m: 3}}, label: ok}
  roofline: {flops: "T"}
)Y";
  auto d = validate_text(spec, "moe");
  CHECK(has(d, "not a finite field"));
  CHECK(has(d, "has no field 'colour'"));
  CHECK(has(d, "'striped' is not a constructor"));
}

TEST_CASE("C38 ADT field of a Maybe ADT through .value", "[M9][M3]") {
  auto spec = R"Y(PermFwdOp:
  family: moe
  status: spec-only
  signature:
    forall: {T: Dim}
    params:
      q: {type: "MGroupedLayout | None", default: null}
    inputs:
      x: {dtype: float32, shape: "[T]"}
    outputs:
      y: {dtype: float32, shape: "[T]"}
    shape_rules:
    - "not present(q) or q.value.max_m > 0"
  workloads:
  - {T: 4, label: ok}
  roofline: {flops: "T"}
)Y";
  CHECK(has(validate_text(spec, "moe"), "constructor 'contiguous' lacks field 'max_m'"));
}

TEST_CASE("M2 a required input after an optional one", "[M2]") {
  auto d = validate_text(edit(kClamp, "      max: {dtype: T, shape: \"[*U]\", optional: true}",
                              "      max: {dtype: T, shape: \"[*U]\", optional: true}\n      late: {dtype: T, shape: \"[*A]\"}"),
                         "elementwise");
  CHECK(has(d, "follows an optional input"));
}

TEST_CASE("rendered messages name the checklist item", "[M11]") {
  auto d = validate_text(edit(kGemm, "\"M >= 0\"", "\"isinstance(M, int)\""));
  CHECK(d.render().find("[C14, M11]") != std::string::npos);
}

TEST_CASE("M12 an op without tensor inputs needs a device parameter", "[M12]") {
  auto spec = R"Y(AlibiFwdOp:
  family: elementwise
  status: spec-only
  signature:
    params:
      n: {type: int}
      device: {type: "torch.device | str | None", default: null}
    inputs: {}
    outputs:
      y: {dtype: float32, shape: "[n]"}
  workloads:
  - {n: 4, label: a}
  roofline: {flops: "n"}
)Y";
  CHECK(validate_text(spec, "elementwise").render().empty());
  auto without = edit(spec, "      device: {type: \"torch.device | str | None\", default: null}\n", "");
  CHECK(has(validate_text(without, "elementwise"), "no 'device' parameter"));
}

TEST_CASE("M12 construction-time tensors: optional, with their own dtype index", "[M12]") {
  auto spec = R"Y(RopeFwdOp:
  family: rope
  status: implemented
  signature:
    forall: {S: Dim, D: Dim, R: "DType[float32 | float16]"}
    params:
      factors: {dtype: R, shape: "[D // 2]", optional: true}
    inputs:
      x: {dtype: float32, shape: "[S, D]"}
    outputs:
      y: {dtype: float32, shape: "[S, D]"}
  workloads:
  - {S: 4, D: 8, label: plain}
  - {S: 4, D: 8, some: [factors], label: scaled, dtype_cases: [{R: float16}]}
  roofline: {flops: "S * D"}
)Y";
  CHECK(validate_text(spec, "rope").render().empty());
  CHECK(has(validate_text(edit(spec, "label: plain}", "label: plain, dtype_cases: [{R: float32}]}"), "rope"), "assigns 'R', which is not relevant"));
  CHECK(has(validate_text(edit(spec, "some: [factors], label: scaled, dtype_cases: [{R: float16}]}", "some: [factors], label: scaled}"), "rope"), "misses the relevant DType index 'R'"));
  CHECK(has(validate_text(edit(spec, "dtype_cases: [{R: float16}]", "dtype_cases: [{R: float8_e4m3fn}]"), "rope"), "is outside DType["));
}

TEST_CASE("S14 func rooflines are accepted but not evaluated", "[M17]") {
  auto d = validate_text(edit(kGemm, "    flops: \"2 * M * N * K\"", "    func: tileops.perf.formulas.gemm"));
  CHECK(d.render().empty());
}

TEST_CASE("C32 guards narrow enums and dtypes", "[M11]") {
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"T == 'float16' and T == 'bfloat16'\"")), "compares with 'bfloat16'"));
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"T != 'float16' or T == 'bfloat16'\"")), "compares with 'bfloat16'"));
  CHECK(has(validate_text(edit(kGemm, "\"M >= 0\"", "\"T not in ('float16',) and T == 'float16'\"")), "compares with 'float16'"));
  CHECK(validate_text(edit(kGemm, "\"M >= 0\"", "\"T == 'float16' or T == 'bfloat16'\"")).render().empty());
  CHECK(validate_text(edit(kGemm, "\"M >= 0\"", "\"M > 0 if T in ('float16', 'bfloat16') else M > 1\"")).render().empty());
}

TEST_CASE("S6, S11 misspelled keys get a did-you-mean hint", "[M19]") {
  CHECK(has(validate_text(edit(kGemm, "  workloads:", "  worklods:")), "unknown field 'worklods' (did you mean workloads?)"));
  CHECK(has(validate_text(edit(kGemm, "    inputs:", "    input:")), "signature has unknown key 'input' (did you mean inputs?)"));
  // A key nothing like an allowed one gets no guess.
  auto far = validate_text(edit(kGemm, "  status: implemented", "  status: implemented\n  zzzzzz: 1"));
  CHECK(has(far, "unknown field 'zzzzzz'"));
  CHECK(!has(far, "did you mean"));
}
