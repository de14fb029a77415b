// Four constructs real-world specs use (issue 16, item 1), each with an accepted and a rejected
// fixture under tests/specs/data/{valid,invalid}/ and exact expected diagnostics: unions of
// ints, int tuples and string literals compared with their literal members; guards inside
// `or` and conditionals; conditional shape axes folded at each discriminant point; indices only
// generators or `requires` read.
#include <catch2/catch.hpp>

#include "specs/src/expr_parser.h"
#include "specs/src/kind_check.h"
#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {

struct Loaded {
  Manifest m;
  SpecDiags d;
};

// Loads and validates tests/specs/data/<sub>/<name> with the bundled types.yaml.
std::unique_ptr<Loaded> load(const std::string& sub, const std::string& name) {
  auto l = std::make_unique<Loaded>();
  std::string path = std::string(KIR_SOURCE_DIR) + "/tests/specs/data/" + sub + "/" + name;
  load_types_text(spec_test::types_text(), "types.yaml", l->m, l->d);
  load_family_text(spec_test::read_text(path), name, l->m, l->d);
  validate(l->m, l->d);
  return l;
}

// Every diagnostic as "line:col: text", sorted.
std::vector<std::string> messages(const SpecDiags& d) {
  std::vector<std::string> out;
  for (const auto& x : d.sorted()) out.push_back(std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col) + ": " + x.text);
  return out;
}

// Shapes of every call's tensors, "case_id: name[a,b] ...".
std::vector<std::string> call_shapes(const Loaded& l, const std::string& op) {
  SpecDiags d;
  std::vector<std::string> out;
  for (const auto& c : instantiate_op(*l.m.op(op), l.m, d)) {
    std::string s = c.case_id + ":";
    for (const auto& t : c.tensors) {
      if (!t.present) continue;
      s += " " + t.name + "[";
      for (size_t k = 0; k < t.shape.size(); ++k) s += (k ? "," : "") + t.shape[k].get_str();
      s += "]";
    }
    out.push_back(s);
  }
  return out;
}

// The kind of `text` where `padding` has the union kind of a conv padding parameter.
std::string padding_kind(const std::string& text) {
  std::string err;
  KindScope sc;
  sc.field = FieldKind::Let;
  sc.names["padding"] = *parse_param_type("int | tuple[int, int] | 'valid' | 'same'", {}, err);
  ParseError pe;
  auto e = parse_expr(text, pe);
  if (!e) return "PARSE: " + pe.message;
  std::string id;
  auto k = infer_kind(*e, sc, err, id);
  return k ? k->str() : err + " [" + id + "]";
}

}  // namespace

TEST_CASE("a union is comparable with its literal members and narrows on the branch", "[M11]") {
  CHECK(padding_kind("padding == 'same'") == "Bool");
  CHECK(padding_kind("padding in ('valid', 'same')") == "Bool");
  CHECK(padding_kind("padding if padding == 'same' else 'valid'") == "Str");
  CHECK(padding_kind("padding if padding != 'same' and padding != 'valid' else 0") ==
        "conditional arms of kinds Int | Seq[Int](len 2) and Dim have no common kind [C32]");
  CHECK(padding_kind("per_axis(padding, 0, 2) if padding not in ('valid', 'same') else 0") == "Int");
  CHECK(padding_kind("0 if padding == 'valid' or padding == 'same' else per_axis(padding, 1, 2)") == "Int");
}

TEST_CASE("a union keeps the literal members no guard ruled out", "[M11]") {
  CHECK(padding_kind("per_axis(padding, 0, 2)") ==
        "per_axis() argument 1 is Int | Seq[Int](len 2) | 'same' | 'valid', expected Int | Seq[Maybe[Int]] | None [C32]");
  CHECK(padding_kind("0 if padding == 'same' else per_axis(padding, 0, 2)") ==
        "per_axis() argument 1 is Int | Seq[Int](len 2) | 'valid', expected Int | Seq[Maybe[Int]] | None [C32]");
  CHECK(padding_kind("padding == 'full'") ==
        "'padding' compares with 'full', a value Int | Seq[Int](len 2) | 'same' | 'valid' never takes [C32]");
  CHECK(padding_kind("padding in ('valid', 'reflect')") ==
        "'padding' compares with 'reflect', a value Int | Seq[Int](len 2) | 'same' | 'valid' never takes [C32]");
}

TEST_CASE("per_axis takes a Maybe union only without literal members", "[M11][M3]") {
  auto kind_of = [](const std::string& type, const std::string& text) {
    std::string err, id;
    KindScope sc;
    sc.field = FieldKind::Let;
    sc.names["p"] = *parse_param_type(type, {}, err);
    ParseError pe;
    auto k = infer_kind(*parse_expr(text, pe), sc, err, id);
    return k ? k->str() : err;
  };
  CHECK(kind_of("int | tuple[int, int] | None", "per_axis(p, 0, 2, fallback=1)") == "Int");
  CHECK(kind_of("int | 'same' | None", "per_axis(p, 0, 2, fallback=1)") ==
        "per_axis() argument 1 is Maybe[Int | 'same'], expected Int | Seq[Maybe[Int]] | None");
}

TEST_CASE("union fixture: accepted, and each padding form instantiates its output shape", "[M11]") {
  auto l = load("valid", "convolution_union.yaml");
  CHECK(messages(l->d).empty());
  CHECK(call_shapes(*l, "Blur2dFwdOp") == std::vector<std::string>{
                                               "valid-float32: image[1,8,8] taps[3,3] blurred[1,6,6]",
                                               "same-float32: image[1,8,8] taps[3,3] blurred[1,8,8]",
                                               "int-pad-float16: image[2,8,6] taps[3,5] blurred[2,8,4]",
                                               "pair-pad-float16: image[2,8,6] taps[3,5] blurred[2,8,6]",
                                           });
}

TEST_CASE("union fixture: a failing let is reported once, its readers add nothing", "[M11][M10]") {
  auto l = load("invalid", "convolution_union.yaml");
  // The let pH is read by the lets OH and OW, by the output's shape (through them) and by a
  // rule; none of them reports "not declared".
  CHECK(messages(l->d) == std::vector<std::string>{
                              "19:11: let 'pH': per_axis() argument 1 is Int | Seq[Int](len 2) | 'same' | 'valid', "
                              "expected Int | Seq[Maybe[Int]] | None [C32]",
                              "24:7: shape_rules entry: 'padding' compares with 'full', a value Int | Seq[Int](len 2) | "
                              "'same' | 'valid' never takes [C32]",
                          });
}

TEST_CASE("a failing let does not cascade through lets, shapes, rules and the roofline", "[M10]") {
  auto spec = spec_test::edit(spec_test::kGemm, "    shape_rules:\n    - \"M >= 0\"",
                              "    let:\n      BAD: \"trans_a + 1\"\n      WORSE: \"BAD * 2\"\n    shape_rules:\n    - \"WORSE >= 0\"");
  spec = spec_test::edit(spec, "[M, N]", "[M, N + BAD]");
  spec = spec_test::edit(spec, "\"2 * M * N * K\"", "\"2 * M * N * K * WORSE\"");
  auto d = spec_test::validate_text(spec);
  INFO(d.render());
  CHECK(d.error_count() == 1);
  CHECK(spec_test::has(d, "let 'BAD': operand of '+' is Bool, expected an integer [C32]"));
}

TEST_CASE("guards in or and conditionals: fixture accepted, .kind folded per point", "[M9][M3]") {
  auto l = load("valid", "moe_guards.yaml");
  CHECK(messages(l->d).empty());
  // masked: E * max_m rows; tight: R; aligned: R + E * (alignment - 1)
  CHECK(call_shapes(*l, "ExpertGatherFwdOp") == std::vector<std::string>{
                                                     "masked-float16: rows[64,8] expert_sizes[4] gathered[64,8]",
                                                     "tight-float16: rows[10,8] expert_sizes[4] gathered[10,8]",
                                                     "aligned-bfloat16: rows[32,8] expert_sizes[4] gathered[60,8]",
                                                 });
}

TEST_CASE("guards in or and conditionals: a field read outside its guard", "[M9][M3]") {
  auto l = load("invalid", "moe_guards.yaml");
  auto lacks = [&](const std::string& c, const std::string& f) {
    return "constructor '" + c + "' lacks field '" + f + "' (read 'layout." + f +
           "' only where 'layout' matched a constructor that has it) [C38]";
  };
  CHECK(messages(l->d) == std::vector<std::string>{
                              "18:14: let 'SLOTS': " + lacks("contiguous", "max_m"),
                              "19:12: let 'PAD': " + lacks("masked", "alignment"),
                              "23:7: shape_rules entry: " + lacks("masked", "packing"),
                              "25:5: row 'masked' {T: float16}: let 'PAD': constructor 'masked' lacks field 'alignment' [W18]",
                          });
}

TEST_CASE("guards on .kind with != and not in narrow the constructor", "[M9]") {
  auto spec = spec_test::read_text(std::string(KIR_SOURCE_DIR) + "/tests/specs/data/valid/moe_guards.yaml");
  auto ok = [&](const std::string& rule) {
    auto d = spec_test::validate_text(spec_test::edit(spec, "\"E > 0\"", "\"" + rule + "\""), "moe");
    INFO(rule << "\n" << d.render());
    return !d.has_errors();
  };
  CHECK(ok("layout.kind != 'contiguous' and layout.max_m > 0 or E > 0"));
  CHECK(ok("layout.kind not in ('masked',) and layout.alignment > 0 or E > 0"));
  CHECK(ok("layout.max_m > 0 if layout.kind != 'contiguous' else layout.alignment > 0"));
  CHECK_FALSE(ok("layout.kind != 'contiguous' or layout.max_m > 0"));
  CHECK_FALSE(ok("layout.alignment > 0 if layout.kind != 'contiguous' else E > 0"));
}

TEST_CASE("conditional axes: fixture accepted, each branch instantiates its axis", "[M4][M7]") {
  auto l = load("valid", "moe_gated_axes.yaml");
  CHECK(messages(l->d).empty());
  CHECK(call_shapes(*l, "GatedProjectFwdOp") == std::vector<std::string>{
                                                     "plain-float16: x[4,8] w[16,8] y[4,16]",
                                                     "gated-float16: x[4,8] w[32,8] y[4,16]",
                                                     "gated-split-bfloat16: x[4,16] w[32,8] y[4,16]",
                                                 });
}

TEST_CASE("conditional axes: only discriminant points fold, and only affine arms solve", "[M4]") {
  auto l = load("invalid", "moe_gated_axes.yaml");
  CHECK(messages(l->d) == std::vector<std::string>{
                              "10:22: index 'C' cannot be solved from the inputs (at activation=None, "
                              "present(activation)=False) [C41]",
                              "10:30: index 'F' cannot be solved from the inputs (at activation='silu_and_mul', "
                              "present(activation)=True) [C41]",
                          });
}

TEST_CASE("indices only generators and requires read: fixture accepted", "[M4][M14]") {
  auto l = load("valid", "attention_generator_indices.yaml");
  CHECK(messages(l->d).empty());
  SpecDiags d;
  auto calls = instantiate_op(*l->m.op("WindowScoreFwdOp"), l->m, d);
  REQUIRE(calls.size() == 2);
  // packed positions 4..7 of one sequence of 8: windows start at 0 and end after each position
  CHECK(calls[0].tensor("starts")->values->repr() == "(0, 0, 0, 0)");
  CHECK(calls[0].tensor("ends")->values->repr() == "(5, 6, 7, 8)");
  CHECK(calls[0].ix.at("first") == Value::integer(4));
}

TEST_CASE("indices only generators read: a call reading one needs it solvable, a row gives it", "[M4][M14]") {
  auto l = load("invalid", "attention_generator_indices.yaml");
  CHECK(messages(l->d) == std::vector<std::string>{
                              "11:41: index 'first' cannot be solved from the inputs (at (no discriminants)) [C41]",
                              "11:53: index 'limit' cannot be solved from the inputs (at (no discriminants)) [C41]",
                              "19:5: row 'no-first' {T: float32}: row misses the relevant index 'first' [W14]",
                          });
}
