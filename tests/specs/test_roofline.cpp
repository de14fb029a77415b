// Roofline evaluation: inline flops, explicit bytes with bytes(t) and present(), and the
// default byte count from effects on each effect branch (M13, M17).
#include <catch2/catch.hpp>

#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {
std::vector<Call> calls(const std::string& yaml, const std::string& stem) {
  Manifest m;
  SpecDiags d;
  load_types_text(spec_test::types_text(), "types.yaml", m, d);
  load_family_text(yaml, stem + ".yaml", m, d);
  validate(m, d);
  INFO(d.render());
  CHECK_FALSE(d.has_errors());
  return instantiate_op(m.ops.at(0), m, d);
}
const std::string kDrop = R"Y(DropoutFwdOp:
  family: elementwise
  status: spec-only
  signature:
    forall: {S: Shape, T: "DType[float16 | float32]"}
    params:
      training: {type: bool, default: true}
    inputs:
      input: {dtype: T, shape: "[*S]"}
    outputs:
      output: {dtype: T, shape: "[*S]"}
  workloads:
  - {S: [10, 3], label: train, dtype_cases: [{T: float32}]}
  - {S: [10, 3], training: false, label: eval, dtype_cases: [{T: float16}]}
  roofline:
    flops: "prod(S) if training else 0"
    bytes: "bytes(input) + bytes(output) if training else bytes(input)"
)Y";
const std::string kScale = R"Y(ScaleFwdOp:
  family: elementwise
  status: spec-only
  signature:
    forall: {N: Dim}
    params:
      inplace: {type: bool, default: false}
    inputs:
      x: {dtype: float32, shape: "[N]", mutated: inplace}
      scratch: {dtype: int8, shape: "[N]", mutated: true, write_only: true}
    outputs:
      y: {dtype: float32, shape: "[N]", alias: x}
  workloads:
  - {N: 100, label: fresh}
  - {N: 100, inplace: true, label: inplace}
  roofline:
    flops: "N"
)Y";
}  // namespace

TEST_CASE("explicit bytes with bytes(t) and a conditional", "[M17]") {
  auto c = calls(kDrop, "elementwise");
  REQUIRE(c.size() == 2);
  CHECK(c[0].flops->repr() == "30");
  CHECK(c[0].bytes->repr() == "240");  // 30 * 4 read + 30 * 4 written
  CHECK(c[1].flops->repr() == "0");
  CHECK(c[1].bytes->repr() == "60");   // 30 * 2 read
}

TEST_CASE("default bytes follow the effect branch", "[M13][M17]") {
  auto c = calls(kScale, "elementwise");
  REQUIRE(c.size() == 2);
  // fresh: x read 400, scratch written 100, y written 400
  CHECK(c[0].bytes->repr() == "900");
  // inplace: x read and written 800, scratch written 100, y is x
  CHECK(c[1].bytes->repr() == "900");
}

TEST_CASE("bytes() counts carrier bytes rounded up", "[M17]") {
  TensorCall t;
  t.dtype = "bool";
  t.shape = {3};
  CHECK(t.bytes() == 3);
  t.dtype = "bfloat16";
  t.shape = {2, 3};
  CHECK(t.bytes() == 12);
  t.dtype = "complex64";
  t.shape = {};
  CHECK(t.bytes() == 8);
}

TEST_CASE("func rooflines instantiate without a roofline and evaluate to a precise not-implemented", "[M13]") {
  std::string yaml = spec_test::edit(kDrop, "    flops: \"prod(S) if training else 0\"\n    bytes: \"bytes(input) + bytes(output) if training else bytes(input)\"\n",
                                     "    func: tileops.perf.formulas.dropout_fwd\n");
  auto cs = calls(yaml, "elementwise");
  REQUIRE(cs.size() == 2);
  CHECK_FALSE(cs[0].flops);
  CHECK_FALSE(cs[0].bytes);
  Manifest m;
  SpecDiags d;
  load_types_text(spec_test::types_text(), "types.yaml", m, d);
  load_family_text(yaml, "elementwise.yaml", m, d);
  CHECK_THROWS_WITH(eval_roofline(m.ops.at(0), cs[0]),
                    Catch::Contains("not implemented: func roofline tileops.perf.formulas.dropout_fwd is Python; kir evaluates inline flops/bytes formulas"));
}
