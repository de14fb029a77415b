// The bundled reduction, scan, pooling and histogram manifests (specs/ops/reduction*.yaml,
// pool.yaml, histogram.yaml): their small rows instantiate to the hand-derived shapes, dtypes and
// presence the paired kernels in specs/kernels rely on (kernel choice is by dtype and rank).
#include <catch2/catch.hpp>

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
std::vector<Call> calls_of(const std::string& op, const std::string& label) {
  SpecDiags d;
  InstantiateOptions o;
  o.only_label = label;
  const OpSpec* spec = library().op(op);
  REQUIRE(spec);
  auto calls = instantiate_op(*spec, library(), d, o);
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

TEST_CASE("Sum over dim [0, 2] with keepdim keeps size-one axes", "[M11]") {
  auto calls = calls_of("SumFwdOp", "two-axes");
  REQUIRE(calls.size() == 1);
  // S = [4, 8, 16], axes 0 and 2 reduced and kept: [1, 8, 1]
  CHECK(shape_of(calls[0], "output") == "[1,8,1]");
  CHECK(calls[0].tensor("output")->dtype == "float32");
}

TEST_CASE("Sum with dim None reduces to rank 0 in the input dtype", "[M11]") {
  auto calls = calls_of("SumFwdOp", "all");
  REQUIRE(calls.size() == 1);
  CHECK(shape_of(calls[0], "output") == "[]");
  CHECK(calls[0].tensor("output")->dtype == "bfloat16");  // coalesce_dtype(None, bfloat16)
}

TEST_CASE("Sum of a rank-0 tensor accepts dim -1", "[M11]") {
  auto calls = calls_of("SumFwdOp", "scalar");
  REQUIRE(calls.size() == 1);
  CHECK(shape_of(calls[0], "input") == "[]");
  CHECK(shape_of(calls[0], "output") == "[]");
}

TEST_CASE("Softmax mid-axis takes its output dtype from the dtype param", "[M16]") {
  auto calls = calls_of("SoftmaxFwdOp", "mid-axis");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("input")->dtype == "float16");
  CHECK(calls[0].tensor("output")->dtype == "float32");  // coalesce_dtype(float32, float16)
}

TEST_CASE("Cumsum of a rank-0 tensor keeps rank 0", "[M11]") {
  auto calls = calls_of("CumsumFwdOp", "scalar");
  REQUIRE(calls.size() == 1);
  CHECK(shape_of(calls[0], "output") == "[]");
}

TEST_CASE("MeanPooling dense omits offsets and indices and pads the last chunk", "[M1][M7]") {
  auto calls = calls_of("MeanPoolingFwdOp", "dense");
  REQUIRE(calls.size() == 1);
  CHECK_FALSE(calls[0].tensor("offsets")->present);
  CHECK_FALSE(calls[0].tensor("indices")->present);
  // S = 40, chunk_size 16: ceil_div(40, 16) = 3 chunks (16, 16, 8)
  CHECK(shape_of(calls[0], "y") == "[2,3,2,4]");
}

TEST_CASE("MeanPooling varlen generates one (sequence, chunk) row per chunk", "[M14]") {
  auto calls = calls_of("MeanPoolingFwdOp", "varlen");
  REQUIRE(calls.size() == 1);
  // seq_lens [20, 5, 23], chunk 16: sequence 0 has chunks 0, 1; sequence 1 chunk 0; sequence 2 chunks 0, 1
  CHECK(calls[0].tensor("indices")->values->repr() == "((0, 0), (0, 1), (1, 0), (2, 0), (2, 1))");
  CHECK(shape_of(calls[0], "indices") == "[5,2]");
}

TEST_CASE("MaxPool2d resnet-stem output extents from the lets", "[M10]") {
  auto calls = calls_of("MaxPool2dFwdOp", "resnet-stem");
  REQUIRE(calls.size() == 2);
  // H: (16 + 2*1 - 1*(3-1) - 1) // 2 + 1 = 8; W: (15 + 2 - 2 - 1) // 2 + 1 = 8
  CHECK(shape_of(calls[0], "output") == "[2,3,8,8]");
  CHECK(calls[1].case_id == "resnet-stem-float32");
}

TEST_CASE("Histogram counts take the count_dtype param, default int64", "[M12][M16]") {
  auto dense = calls_of("HistogramFwdOp", "dense");
  auto masked = calls_of("HistogramFwdOp", "masked");
  REQUIRE(dense.size() == 1);
  REQUIRE(masked.size() == 1);
  CHECK(dense[0].tensor("counts")->dtype == "int64");
  CHECK(masked[0].tensor("counts")->dtype == "int32");
  CHECK(shape_of(masked[0], "counts") == "[6]");
}

TEST_CASE("Histogram passes its mask in one row and omits it in the other", "[M6]") {
  CHECK_FALSE(calls_of("HistogramFwdOp", "dense")[0].tensor("mask")->present);
  auto masked = calls_of("HistogramFwdOp", "masked");
  CHECK(masked[0].tensor("mask")->present);
  CHECK(shape_of(masked[0], "mask") == "[600]");
}
