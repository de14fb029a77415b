// The blocks segmentation of region_fold (Options::region_blocks_at / Segmentation::Blocks, L9.1):
// segments of B elements from the start of the axis, the last one shorter, their summaries
// combined left to right — the segmentation the CPU backend's region_fold.blocks declares. The
// region_fold of tests/kir/valid/region_fold_segments.kir (combine 100·a + b, not associative)
// makes the segmentation visible; the answers are hand-computed.
#include <fstream>
#include <sstream>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

std::unique_ptr<Module> load_folds() {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/tests/kir/valid/region_fold_segments.kir");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return load(ss.str());
}

// @fold over 1..n with its region_fold declared in blocks of `block` elements (0: not declared).
int64_t fold(const Module& m, int64_t n, int64_t block, interp::Options o = {}) {
  if (block > 0) {
    const Function* f = m.find_function("fold");
    REQUIRE(f);
    for (const auto& op : f->body.ops)
      if (op->name == "region_fold") o.region_blocks_at[op->loc.str()] = block;
    REQUIRE(o.region_blocks_at.size() == 1);
  }
  std::vector<double> x;
  for (int64_t i = 1; i <= n; ++i) x.push_back(static_cast<double>(i));
  auto r = interp::Interpreter(m, o).call_helper("fold", {interp::Value(tensor(DType::I32, {n}, x)), interp::Value(interp::Scalar{DType::I32, 7})});
  return num::as_signed(r.at(0).scalar());
}

}  // namespace

TEST_CASE("[L9.1] region blocks: segments of B from the start, the last one shorter", "[L9.1]") {
  auto m = load_folds();
  // 1..10: whole = 55. Blocks of 4: 10, 26, 19 -> (10·100 + 26)·100 + 19 = 102619.
  CHECK(fold(*m, 10, 0) == 55);
  CHECK(fold(*m, 10, 4) == 102619);
  // Blocks of 3: 6, 15, 24, 10 -> ((6·100 + 15)·100 + 24)·100 + 10 = 6152410.
  CHECK(fold(*m, 10, 3) == 6152410);
  // Blocks of 5 divide 10 exactly: 15, 40 -> 1540.
  CHECK(fold(*m, 10, 5) == 1540);
  // A block at least as long as the source is the whole segmentation.
  CHECK(fold(*m, 10, 10) == 55);
  CHECK(fold(*m, 10, 64) == 55);
  // An empty source gives the identity, whatever the block.
  CHECK(fold(*m, 0, 4) == 7);
}

TEST_CASE("[L9.1] region blocks: the per-op declaration wins over the segmentation policy", "[L9.1]") {
  auto m = load_folds();
  interp::Options o;
  o.segmentation = interp::Segmentation::PerElement;
  // Not declared: per element, 1..4 -> ((1·100 + 2)·100 + 3)·100 + 4 = 1020304.
  CHECK(fold(*m, 4, 0, o) == 1020304);
  // Declared in blocks of two: 3, 7 -> 307.
  CHECK(fold(*m, 4, 2, o) == 307);
  // The Blocks policy for every region op.
  interp::Options b;
  b.segmentation = interp::Segmentation::Blocks;
  b.region_block = 2;
  CHECK(fold(*m, 4, 0, b) == 307);
}
