// Element comparison of a kernel's result against its reference (oracle/compare.h): integers
// exactly, floats within ulps or an absolute bound, NaN only against NaN, the worst element
// located by its coordinates. Bit patterns are written by hand (IEEE binary32).
#include <catch2/catch.hpp>

#include "oracle/compare.h"

using kir::DType;
using kir::oracle::compare_elements;
using kir::oracle::Tolerance;

namespace {
constexpr uint64_t kOne = 0x3f800000, kOneUp1 = 0x3f800001, kOneUp3 = 0x3f800003, kTwo = 0x40000000;
constexpr uint64_t kNaN = 0x7fc00000, kNaN2 = 0x7fc00001, kPosZero = 0, kNegZero = 0x80000000;
}  // namespace

TEST_CASE("floats agree within the ulp tolerance and the worst element is located", "[oracle]") {
  std::vector<uint64_t> got = {kOne, kOneUp1, kOneUp3, kTwo}, want = {kOne, kOne, kOne, kTwo};
  auto exact = compare_elements(DType::F32, {2, 2}, got, want, Tolerance{0, 0});
  CHECK(exact.mismatches == 2);
  CHECK(exact.worst_coord == std::vector<int64_t>{1, 0});  // flat 2: 1 + 3 ulp
  CHECK(exact.worst_distance.rfind("3 ulp", 0) == 0);
  CHECK(exact.str().find("2 of 4 elements differ; worst at (1, 0)") == 0);
  CHECK(compare_elements(DType::F32, {4}, got, want, Tolerance{3, 0}).ok());
  CHECK(compare_elements(DType::F32, {4}, got, want, Tolerance{2, 0}).mismatches == 1);
  // atol: 1 + 3 ulp differs from 1 by 3 * 2^-23 = 3.58e-7.
  CHECK(compare_elements(DType::F32, {4}, got, want, Tolerance{0, 4e-7}).ok());
  CHECK(!compare_elements(DType::F32, {4}, got, want, Tolerance{0, 3e-7}).ok());
}

TEST_CASE("NaN matches NaN of any payload and nothing else; signed zeros are one point", "[oracle]") {
  CHECK(compare_elements(DType::F32, {2}, std::vector<uint64_t>{kNaN, kPosZero}, std::vector<uint64_t>{kNaN2, kNegZero},
                         Tolerance{}).ok());
  auto c = compare_elements(DType::F32, {1}, std::vector<uint64_t>{kNaN}, std::vector<uint64_t>{kOne}, Tolerance{1000, 1e9});
  CHECK(c.mismatches == 1);
  CHECK(c.worst_distance == "NaN against a number");
}

TEST_CASE("integers compare exactly", "[oracle]") {
  std::vector<uint64_t> got = {1, 2, 0xFFFFFFFF}, want = {1, 3, 0xFFFFFFFF};  // i32: 1, 2|3, -1
  auto c = compare_elements(DType::I32, {3}, got, want, Tolerance{100, 100});
  CHECK(c.mismatches == 1);
  CHECK(c.worst_coord == std::vector<int64_t>{1});
  CHECK(c.worst_got == "2");
  CHECK(c.worst_want == "3");
  CHECK(c.worst_distance == "i32 must match exactly");
}
