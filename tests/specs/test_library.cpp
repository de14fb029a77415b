// The bundled manifest library (specs/ops, specs/types.yaml): it validates clean, every row
// instantiates, and instantiated calls carry the documented shapes, metadata and roofline.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>

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
  // trans_b: b is Mat[true, K, N] = [N, K] = [48, 64]; a stays [M, K] = [1, 64]
  CHECK(shape_of(calls[0], "b") == "[48,64]");
  CHECK(shape_of(calls[0], "a") == "[1,64]");
  CHECK(calls[0].case_id == "decode-tn-bfloat16");
}

TEST_CASE("Gemm trans_a transposes only a", "[M7]") {
  auto calls = calls_of("GemmFwdOp", "trans-a");
  REQUIRE(calls.size() == 1);
  // trans_a: a is Mat[true, M, K] = [K, M] = [40, 24]; b stays [K, N] = [40, 16]
  CHECK(shape_of(calls[0], "a") == "[40,24]");
  CHECK(shape_of(calls[0], "b") == "[40,16]");
  CHECK(shape_of(calls[0], "c") == "[24,16]");
}

TEST_CASE("MXFP4 Gemm: one e8m0 scale per 32 of K, fp4 weights two per byte", "[M16][M17]") {
  auto calls = calls_of("GemmMxfp4FwdOp", "prefill");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].case_id == "prefill-float4_e2m1fn_x2-float32");
  // M=32, N=24, K=128: 4 blocks of 32; the packed weight holds K/2 = 64 bytes per row
  CHECK(shape_of(calls[0], "x_scale") == "[32,4]");
  CHECK(shape_of(calls[0], "weight") == "[24,64]");
  CHECK(calls[0].tensor("weight_scale")->dtype == "float8_e8m0fnu");
  CHECK(calls[0].tensor("y")->dtype == "float32");
  // bytes: x 32*128 + x_scale 32*4 + weight 24*64 + weight_scale 24*4 + y 32*24*4
  CHECK(calls[0].bytes->repr() == std::to_string(4096 + 128 + 1536 + 96 + 3072));
}

TEST_CASE("2:4 sparse Gemm metadata names one of the six patterns per group of four", "[M14][M15]") {
  auto calls = calls_of("GemmSparse24FwdOp", "decode");
  REQUIRE(calls.size() == 1);
  // M=4, K=128: 64 kept values and 32 groups per row
  CHECK(shape_of(calls[0], "a_values") == "[4,64]");
  CHECK(shape_of(calls[0], "a_meta") == "[4,32]");
  std::set<int32_t> seen;
  for (const auto& t : generate_inputs(*library().op("GemmSparse24FwdOp"), calls[0], {}))
    if (t.name == "a_meta")
      for (size_t k = 0; k < t.bytes.size(); k += 4) {
        int32_t v;
        std::memcpy(&v, t.bytes.data() + k, 4);
        seen.insert(v);
      }
  REQUIRE(!seen.empty());
  CHECK(*seen.begin() >= 0);
  CHECK(*seen.rbegin() <= 5);
  CHECK(seen.size() == 6);  // 128 draws from 6 patterns: all appear
}

TEST_CASE("q4_K Gemv: one super-block of 256 per row and block", "[M7]") {
  auto calls = calls_of("GemvQ4KFwdOp", "three-blocks");
  REQUIRE(calls.size() == 1);
  // N=16, K=768: 3 super-blocks, 12 scale bytes and 128 nibble bytes each
  CHECK(shape_of(calls[0], "w_d") == "[16,3]");
  CHECK(shape_of(calls[0], "w_scales") == "[16,3,12]");
  CHECK(shape_of(calls[0], "w_qs") == "[16,3,128]");
  CHECK(calls[0].flops->repr() == std::to_string(2 * 16 * 768));
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
  // seq_lens [20, 5, 23]: offsets are their prefix sums; chunk_size 16 gives 2 + 1 + 2 chunks
  CHECK(calls[0].tensor("offsets")->values->repr() == "(0, 20, 25, 48)");
  CHECK(calls[0].ix.at("NS").repr() == "3");
  CHECK(calls[0].ix.at("NC").repr() == "5");
  CHECK(shape_of(calls[0], "y") == "[5,2,4]");
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
  // balanced_sizes(20, 3): 20 = 7 + 7 + 6 (the remainder 2 goes to the first groups)
  CHECK(calls[0].tensor("batch_sizes")->values->repr() == "(7, 7, 6)");
  CHECK(calls[0].tensor("batch_offsets")->values->repr() == "(0, 7, 14)");
  CHECK(calls[0].tensor("batch_sizes")->cpu);
  CHECK(shape_of(calls[0], "b") == "[3,16,24]");  // trans_b: Wt = [G, N, K]
}

TEST_CASE("LongRoPE's construction-time tensor follows some", "[M12]") {
  auto calls = calls_of("LongRoPEFwdOp", "rescaled");
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].tensor("rescale_factors")->present);
  CHECK(shape_of(calls[0], "rescale_factors") == "[16]");  // D // 2 for D = 32
  CHECK(calls[0].case_id == "rescaled-bfloat16-float32");
  CHECK(calls[1].tensor("rescale_factors")->dtype == "float16");  // its own DType index R
  CHECK(calls[1].case_id == "rescaled-float16-float16");
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
  // R = T*K = 16*2 = 32 rows over E = 4 experts, alignment 4: ceil_div(32 + 4*3, 4) * 4 = 44
  CHECK(calls[0].ix.at("CAP").repr() == "44");
  CHECK(shape_of(calls[0], "metadata") == "[44]");
}

TEST_CASE("paged attention: B is solved by the cache-length generator", "[M14][M16]") {
  auto calls = calls_of("GroupedQueryAttentionPagedFwdOp");
  REQUIRE(calls.size() == 3);  // decode-4 x 2 dtype cases, shared-pages x 1
  CHECK(calls[0].ix.at("B").repr() == "4");  // kv_lens [13, 5, 16, 1]
  CHECK(shape_of(calls[0], "block_table") == "[4,4]");
  CHECK(calls[1].case_id == "decode-4-bfloat16-float8_e4m3fn");
  CHECK(calls[2].ix.at("B").repr() == "2");  // kv_lens [7, 11]
  CHECK(shape_of(calls[2], "k_pages") == "[6,4,2,8]");
}

TEST_CASE("roofline: inline flops and default bytes from effects", "[M13][M17]") {
  auto relu = calls_of("ReluFwdOp");
  REQUIRE(relu.size() == 3);
  // square, float16 [32, 64]: read 2048*2 + write 2048*2
  CHECK(relu[0].bytes->repr() == "8192");
  // inplace [2, 8, 16] float32: the input is read and written, the aliased output is the same storage
  CHECK(relu[2].bytes->repr() == std::to_string(2 * 8 * 16 * 4 * 2));
  CHECK(relu[2].flops->repr() == "256");
  auto w4 = calls_of("GemmW4A16FwdOp", "decode");
  REQUIRE(w4.size() == 1);
  // M=2, N=16, K=256, group 128; carrier bytes: x 2*256*2 + packed 16*128*1 + scales 16*2*2 + y 2*16*2
  CHECK(w4[0].bytes->repr() == std::to_string(2 * 256 * 2 + 16 * 128 + 16 * 2 * 2 + 2 * 16 * 2));
}

TEST_CASE("Add's alpha is checked against the dtype", "[M18]") {
  auto calls = calls_of("AddFwdOp", "bcast");
  REQUIRE(calls.size() == 2);
  // [8, 1, 64] with [4, 64]: the size-1 axis takes 4, the missing leading axis takes 8
  CHECK(shape_of(calls[0], "output") == "[8,4,64]");
  CHECK(calls[0].flops->repr() == std::to_string(8 * 4 * 64 * 2));
}

TEST_CASE("Dropout writes a bool mask beside its output", "[M17]") {
  auto calls = calls_of("DropoutFwdOp", "offset-3d");
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].tensor("mask")->dtype == "bool");
  CHECK(shape_of(calls[0], "mask") == "[4,8,32]");
  // 1024 elements: read input 1024*2 (bfloat16), write output 1024*2 and mask 1024*1
  CHECK(calls[0].bytes->repr() == "5120");
  CHECK(calls[0].flops->repr() == "2048");
}
