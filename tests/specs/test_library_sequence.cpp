// The sequence ops of the bundled library (issue 6, the three reference programs of seed 000
// §9.7): FlashAttentionFwdOp, LinearAttentionFwdOp and MambaChunkScanFwdOp instantiate with the
// shapes, optional-input presence, params and rooflines derived here by hand from their rows.
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
Call call_of(const std::string& op, const std::string& label) {
  SpecDiags d;
  InstantiateOptions o;
  o.only_label = label;
  REQUIRE(library().op(op) != nullptr);
  auto calls = instantiate_op(*library().op(op), library(), d, o);
  INFO(d.render());
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(calls.size() == 1);
  return calls[0];
}
std::string shape_of(const Call& c, const std::string& t) {
  std::string s;
  for (const auto& d : c.tensor(t)->shape) s += (s.empty() ? "" : ",") + d.get_str();
  return "[" + s + "]";
}
bool present(const Call& c, const std::string& t) { return c.tensor(t) != nullptr && c.tensor(t)->present; }
}  // namespace

TEST_CASE("FlashAttention rows: bias passed in one, omitted in the other", "[L9.7][M5][M6]") {
  auto bias = call_of("FlashAttentionFwdOp", "bias");
  CHECK(shape_of(bias, "q") == "[1,2,16,16]");
  CHECK(shape_of(bias, "k") == "[1,2,32,16]");
  CHECK(shape_of(bias, "attn_bias") == "[1,2,16,32]");
  CHECK(shape_of(bias, "o") == "[1,2,16,16]");
  CHECK(present(bias, "attn_bias"));
  // 2 * B * H * S * SK * (D + DV) = 2 * 1 * 2 * 16 * 32 * 32
  CHECK(bias.flops->repr() == "65536");
  auto tail = call_of("FlashAttentionFwdOp", "causal-tail");
  CHECK_FALSE(present(tail, "attn_bias"));
  CHECK(shape_of(tail, "v") == "[2,1,13,3]");
  CHECK(shape_of(tail, "o") == "[2,1,7,3]");
  // 2 * 2 * 1 * 7 * 13 * (5 + 3)
  CHECK(tail.flops->repr() == "2912");
}

TEST_CASE("LinearAttention rows: initial state passed in one, omitted in the other", "[L9.7][M5][M6]") {
  auto st = call_of("LinearAttentionFwdOp", "with-state");
  CHECK(present(st, "initial_state"));
  CHECK(shape_of(st, "initial_state") == "[1,2,8,8]");
  CHECK(shape_of(st, "final_state") == "[1,2,8,8]");
  // 4 * B * H * L * D * E = 4 * 1 * 2 * 32 * 8 * 8
  CHECK(st.flops->repr() == "16384");
  auto tail = call_of("LinearAttentionFwdOp", "tail");
  CHECK_FALSE(present(tail, "initial_state"));
  CHECK(shape_of(tail, "o") == "[2,1,13,3]");
  CHECK(shape_of(tail, "final_state") == "[2,1,5,3]");
  // 4 * 2 * 1 * 13 * 5 * 3
  CHECK(tail.flops->repr() == "1560");
}

TEST_CASE("MambaChunkScan rows: a chunk size dividing L and one leaving a tail chunk", "[L9.7][M5][M6]") {
  auto st = call_of("MambaChunkScanFwdOp", "with-state");
  CHECK(present(st, "initial_state"));
  CHECK(shape_of(st, "a") == "[2,32]");
  CHECK(shape_of(st, "final_state") == "[2,4,3]");
  // 4 * B * L * P * E = 4 * 2 * 32 * 4 * 3
  CHECK(st.flops->repr() == "3072");
  auto tail = call_of("MambaChunkScanFwdOp", "tail");
  CHECK_FALSE(present(tail, "initial_state"));
  CHECK(shape_of(tail, "y") == "[1,13,5]");
  CHECK(shape_of(tail, "c") == "[1,13,3]");
  // 13 = 5 + 5 + 3: chunk_size 5 leaves a tail chunk of 3 positions.
  CHECK(tail.ix.at("L").repr() == "13");
  CHECK(tail.ix.at("chunk_size").repr() == "5");
  // 4 * 1 * 13 * 3 * 5
  CHECK(tail.flops->repr() == "780");
}
