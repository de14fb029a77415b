// The bundled manifest library (specs/ops, specs/types.yaml): it validates clean, every row
// instantiates, and instantiated calls carry the documented shapes, metadata and roofline.
#include <catch2/catch.hpp>

#include "specs/src/datagen.h"
#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {
const Manifest& library() {
  static Manifest m;
  static bool loaded = false;
  if (!loaded) {
    SpecDiags d;
    load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
    loaded = true;
  }
  return m;
}
std::vector<Call> calls_of(const std::string& op, const std::string& label = "") {
  SpecDiags d;
  InstantiateOptions o;
  o.only_label = label;
  auto calls = instantiate_op(*library().op(op), library(), d, o);
  INFO(d.render());
  CHECK_FALSE(d.has_errors());
  return calls;
}
std::string shape_of(const Call& c, const std::string& t) {
  std::string s;
  for (const auto& d : c.tensor(t)->shape) s += (s.empty() ? "" : ",") + d.get_str();
  return "[" + s + "]";
}
}  // namespace

TEST_CASE("the bundled library validates without diagnostics", "[M1][M7][M9][M13][M14][M16][M19]") {
  std::string report;
  int rc = validate_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, {}, report);
  INFO(report);
  CHECK(rc == 0);
  CHECK(report.find("[") == std::string::npos);
}

TEST_CASE("the library has at least 15 diverse ops", "[M19]") { CHECK(library().ops.size() >= 15); }

TEST_CASE("every row of every op instantiates", "[M5]") {
  for (const auto& op : library().ops) {
    SpecDiags d;
    auto calls = instantiate_op(op, library(), d);
    INFO(op.name << "\n" << d.render());
    CHECK_FALSE(d.has_errors());
    CHECK(!calls.empty());
  }
}

TEST_CASE("Gemm takes the transposed branch of Mat", "[M7]") {
  auto calls = calls_of("GemmFwdOp", "decode-tn");
  REQUIRE(calls.size() == 1);
  CHECK(shape_of(calls[0], "b") == "[4096,4096]");
  CHECK(shape_of(calls[0], "a") == "[1,4096]");
  CHECK(calls[0].case_id == "decode-tn-bfloat16");
}

TEST_CASE("Clamp with only a lower bound broadcasts input and lower bound", "[M7][M8]") {
  auto calls = calls_of("ClampFwdOp", "upper");
  REQUIRE(calls.size() == 1);
  CHECK_FALSE(calls[0].tensor("min")->present);
  CHECK(shape_of(calls[0], "output") == "[4,256]");
}

TEST_CASE("MeanPooling varlen solves NS and NC from the generators", "[M14][M4]") {
  auto calls = calls_of("MeanPoolingFwdOp", "varlen");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("offsets")->values->repr() == "(0, 512, 1536)");
  CHECK(calls[0].ix.at("NS").repr() == "2");
  CHECK(calls[0].ix.at("NC").repr() == "24");  // 512/64 + 1024/64
  CHECK(shape_of(calls[0], "y") == "[24,16,128]");
  CHECK_FALSE(calls[0].ix.count("B"));
}

TEST_CASE("MaxPool2d computes its output extent with lets", "[M10]") {
  auto calls = calls_of("MaxPool2dFwdOp", "ceil");
  REQUIRE(calls.size() == 1);
  // kernel (3, 2), stride = kernel, ceil: H = pool.out(9,3,3,0,1,T) = 3, W = pool.out(9,2,2,0,1,T) = 5
  CHECK(shape_of(calls[0], "output") == "[1,16,3,5]");
}

TEST_CASE("GroupedGemm metadata satisfies its cross-tensor requires", "[M15]") {
  auto calls = calls_of("GroupedGemmFwdOp", "uneven-tn");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("batch_sizes")->values->repr() == "(334, 333, 333)");
  CHECK(calls[0].tensor("batch_offsets")->values->repr() == "(0, 334, 667)");
  CHECK(calls[0].tensor("batch_sizes")->cpu);
  CHECK(shape_of(calls[0], "b") == "[3,256,512]");
}

TEST_CASE("LongRoPE's construction-time tensor follows some", "[M12]") {
  auto calls = calls_of("LongRoPEFwdOp", "rescaled");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("rescale_factors")->present);
  CHECK(shape_of(calls[0], "rescale_factors") == "[64]");
  CHECK(calls[0].case_id == "rescaled-bfloat16-float32");
}

TEST_CASE("Alibi's output dtype is its dtype parameter", "[M12]") {
  auto calls = calls_of("AlibiFwdOp", "small");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("bias")->dtype == "bfloat16");
  CHECK(calls[0].case_id == "small-bfloat16");
}

TEST_CASE("FusedMoeSharedExpert: shared output present iff the shared weights are", "[M1]") {
  auto with = calls_of("FusedMoeSharedExpertFwdOp", "with-shared");
  auto without = calls_of("FusedMoeSharedExpertFwdOp", "routed-only");
  REQUIRE(with.size() == 1);
  REQUIRE(without.size() == 1);
  CHECK(with[0].tensor("shared_w_down")->present);
  CHECK(with[0].tensor("shared_output")->present);
  CHECK_FALSE(without[0].tensor("shared_w_down")->present);
  CHECK_FALSE(without[0].tensor("shared_output")->present);
}

TEST_CASE("MoePrePermute capacity with an aligned layout", "[M9][M11]") {
  auto calls = calls_of("MoePrePermuteFwdOp", "aligned-rows");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].ix.at("CAP").repr() == "2048");
  CHECK(shape_of(calls[0], "metadata") == "[2048]");
}

TEST_CASE("paged attention: B is solved by the cache-length generator", "[M14][M16]") {
  auto calls = calls_of("GroupedQueryAttentionPagedFwdOp");
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].ix.at("B").repr() == "4");
  CHECK(shape_of(calls[0], "block_table") == "[4,64]");
  CHECK(calls[1].case_id == "decode-4-bfloat16-float8_e4m3fn");
}

TEST_CASE("roofline: inline flops and default bytes from effects", "[M13][M17]") {
  auto relu = calls_of("ReluFwdOp");
  REQUIRE(relu.size() == 3);
  // square, float16: read 4096*4096*2 + write 4096*4096*2
  CHECK(relu[0].bytes->repr() == "67108864");
  // inplace: the input is read and written, the aliased output is the same storage
  CHECK(relu[2].bytes->repr() == std::to_string(8 * 1024 * 4 * 2));
  CHECK(relu[2].flops->repr() == "8192");
  auto w4 = calls_of("GemmW4A16FwdOp", "decode");
  REQUIRE(w4.size() == 1);
  // carrier bytes: x 16*4096*2 + packed 4096*2048*1 + scales 4096*32*2 + y 16*4096*2
  CHECK(w4[0].bytes->repr() == std::to_string(16 * 4096 * 2 + 4096 * 2048 + 4096 * 32 * 2 + 16 * 4096 * 2));
}

TEST_CASE("Add's alpha is checked against the dtype", "[M18]") {
  auto calls = calls_of("AddFwdOp", "bcast");
  REQUIRE(calls.size() == 2);
  CHECK(shape_of(calls[0], "output") == "[8,4,512]");
  CHECK(calls[0].flops->repr() == std::to_string(8 * 4 * 512 * 2));
}
