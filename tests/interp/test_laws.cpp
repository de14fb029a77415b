// Law checking of region_fold (issue 4 item 3, checklist L9.3): a lawful combine passes; a
// non-associative combine breaks the homomorphism law and the report names the smallest pair of
// adjacent segments; a combine for which the identity is not neutral breaks the identity law.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

// @fold_C: region_fold of an i32 vector whose summarize is a left fold with combine @C.
std::string fold_module(const std::string& combine_body) {
  return R"(
fn @comb(%a: i32, %b: i32) -> i32 {
)" + combine_body + R"(
  return(%r)
}

fn @summ(%x: i32[S]) -> i32 {
  %z = const() {value = 0} : i32
  %r = reduce(%x, %z) {axes = [0], combine = @comb} : i32
  return(%r)
}

fn @f(%x: i32[N]) -> i32 {
  %z = const() {value = 0} : i32
  %r = region_fold(%x, %z) {axis = 0, combine = @comb, segments = [1, 1, 0], summarize = @summ} : i32
  return(%r)
}
)";
}

interp::Value ints(const std::vector<uint64_t>& v) {
  interp::Tensor t;
  t.dtype = DType::I32;
  t.shape = {static_cast<int64_t>(v.size())};
  t.bits = v;
  return interp::Value(t);
}

}  // namespace

TEST_CASE("[L9.3] law checking: an associative combine with a neutral identity passes", "[interp][L9.3]") {
  auto m = load(fold_module("  %r = add(%a, %b) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 4, 5})}, 7, 4);
  INFO(rep.str());
  CHECK(rep.ok());
  CHECK(rep.folds_checked == 1);
}

TEST_CASE("[L9.3] law checking: a non-associative combine breaks the homomorphism on the smallest segments",
          "[interp][L9.3]") {
  // a . b = a + b + a*b*b: 0 is neutral on both sides, but (1 . 2) . 3 = 73 while 1 . (2 . 3) = 553.
  auto m = load(fold_module("  %bb = mul(%b, %b) : i32\n  %abb = mul(%a, %bb) : i32\n  %s = add(%a, %b) : i32\n  %r = add(%s, %abb) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 1})}, 3);
  INFO(rep.str());
  REQUIRE(rep.violations.size() == 1);
  const auto& v = rep.violations[0];
  CHECK(v.law == "homomorphism");
  CHECK(v.op_location == "t.kir:18:3");
  // No split of a length-2 range shows it (a left fold of two elements is one combine); [0, 3)
  // split after the first element is the smallest witness.
  CHECK(v.segments == std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 3}});
  CHECK(v.detail.find("summarize([0, 3)) = i32 73") != std::string::npos);
  CHECK(v.detail.find("= i32 553") != std::string::npos);
  CHECK(rep.str().find("breaks the homomorphism law on segments [0, 1) [1, 3)") != std::string::npos);
}

TEST_CASE("[L9.3] law checking: an identity that is not neutral is reported with its element", "[interp][L9.3]") {
  // a . b = a - b with identity 0: combine(s, 0) = s but combine(0, s) = -s.
  auto m = load(fold_module("  %r = sub(%a, %b) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({0, 5, 2})});
  INFO(rep.str());
  REQUIRE(!rep.ok());
  CHECK(rep.violations[0].law == "left identity");
  CHECK(rep.violations[0].segments == std::vector<std::pair<int64_t, int64_t>>{{1, 2}});
  bool right = false, homo = false;
  for (const auto& v : rep.violations) {
    right |= v.law == "right identity";
    homo |= v.law == "homomorphism";
  }
  CHECK(!right);
  CHECK(homo);
  // The ordinary result is the whole segmentation's.
  auto r = it.call_helper("f", {ints({0, 5, 2})});
  CHECK(num::as_signed(r[0].scalar()) == -7);
}
