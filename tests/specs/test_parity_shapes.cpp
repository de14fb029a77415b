// Parity of computed axes and type-family shapes with the paired kernel (specs/src/parity.cpp,
// P5): tests/specs/data/parity/ops/parity_shapes.yaml with one kernel per op under
// tests/specs/data/parity/kernels/. A computed axis must be the same canonical polynomial of the
// kernel symbols bound to its indices; family-shaped parameters must all fit the cases of one
// discriminant point (M7: tensors of one family take the same branch).
#include <catch2/catch.hpp>

#include "specs/src/parity.h"
#include "tests/specs/spec_test_util.h"

using kir::specs::Manifest;
using kir::specs::SpecDiags;

namespace {

struct Loaded {
  Manifest m;
  SpecDiags d;
};

const Loaded& data() {
  static Loaded l = [] {
    Loaded x;
    std::string dir = std::string(KIR_SOURCE_DIR) + "/tests/specs/data/parity/ops/parity_shapes.yaml";
    kir::specs::load_paths({dir, std::string(KIR_SOURCE_DIR) + "/specs/types.yaml"}, x.m, x.d);
    kir::specs::validate(x.m, x.d);
    return x;
  }();
  return l;
}

std::vector<std::string> of(const std::string& op) {
  std::vector<std::string> out;
  for (const auto& x : data().d.all())
    if (x.op == op) out.push_back(x.str());
  return out;
}

bool op_has(const std::string& op, const std::string& fragment) {
  for (const auto& s : of(op))
    if (s.find(fragment) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("computed axes match polynomials of the kernel's own symbols", "[parity][M7]") {
  // [B + 1], [N // 2], [2 * N - 1] against kernel symbols R (for B) and C (for N):
  // R + 1, floordiv(C, 2), 2*C - 1.
  INFO(of("ParityComputedOkFwdOp").size());
  CHECK(of("ParityComputedOkFwdOp").empty());
}

TEST_CASE("a computed axis that is another polynomial is rejected", "[parity][M7]") {
  CHECK(op_has("ParityComputedBadFwdOp", "input 'offsets': kernel @ParityComputedBadFwdOp parameter '%offsets'"));
  CHECK(op_has("ParityComputedBadFwdOp", "axis 0 is extent B, the manifest's 'B + 1' is B + 1 [P5, M7]"));
  CHECK(op_has("ParityComputedBadFwdOp", "axis 1 is extent N, the manifest's 'N // 2' is floordiv(N, 2) [P5, M7]"));
  CHECK(of("ParityComputedBadFwdOp").size() == 2);  // 2 * N - 1 matches
}

TEST_CASE("a family-shaped parameter fitting one case is accepted", "[parity][M7]") {
  INFO(of("ParityFamilyOkFwdOp").size());
  CHECK(of("ParityFamilyOkFwdOp").empty());
}

TEST_CASE("a family-shaped parameter of the wrong rank fits no case", "[parity][M7]") {
  CHECK(op_has("ParityFamilyRankFwdOp", "input 'b': kernel @ParityFamilyRankFwdOp parameter '%b'"));
  CHECK(op_has("ParityFamilyRankFwdOp", "fits no case of type family 'Mat' (cases [K, N], [N, K]): has rank 1, the case has rank 2 [P5, M7]"));
}

TEST_CASE("a family-shaped parameter with other extents fits no case", "[parity][M7]") {
  CHECK(op_has("ParityFamilyExtentFwdOp", "fits no case of type family 'Mat'"));
  CHECK(op_has("ParityFamilyExtentFwdOp", "axis 1 is extent M, the manifest's 'N' is N [P5, M7]"));
}

TEST_CASE("family-shaped parameters must take the branches of one discriminant point", "[parity][M7]") {
  CHECK(op_has("ParityFamilyBranchFwdOp", "no discriminant point gives cases that fit all its family-shaped parameters at once"));
  CHECK(op_has("ParityFamilyBranchFwdOp", "'x' fits at varlen=False"));
  CHECK(op_has("ParityFamilyBranchFwdOp", "'y' fits at varlen=True"));
}

TEST_CASE("the fixture manifests are valid: every diagnostic is a parity one", "[parity][M7]") {
  for (const auto& x : data().d.all()) {
    INFO(x.str());
    CHECK(x.str().find("[P5, M7]") != std::string::npos);
  }
  CHECK(data().d.all().size() == 5);  // 2 computed axes, 1 family rank, 1 family extent, 1 branch
}
