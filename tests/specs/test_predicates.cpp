// requires predicates on their documented values and domain errors (M15).
#include <catch2/catch.hpp>

#include "specs/src/predicates.h"

using namespace kir::specs;

namespace {
Value ints(std::vector<long> v) {
  std::vector<mpz_class> m(v.begin(), v.end());
  return Value::ints(m);
}
Value I(long v) { return Value::integer(v); }
}  // namespace

TEST_CASE("prefix_offsets", "[M15]") {
  CHECK(check_predicate("prefix_offsets", ints({0, 2, 5}), {I(5)}));
  CHECK_FALSE(check_predicate("prefix_offsets", ints({1, 2, 5}), {I(5)}));
  CHECK_FALSE(check_predicate("prefix_offsets", ints({0, 3, 2}), {I(2)}));
  CHECK_FALSE(check_predicate("prefix_offsets", ints({0, 2, 5}), {I(6)}));
  CHECK_FALSE(check_predicate("prefix_offsets", ints({}), {I(0)}));
}
TEST_CASE("max_segment", "[M15]") {
  CHECK(check_predicate("max_segment", ints({0, 1, 2}), {I(1)}));
  CHECK_FALSE(check_predicate("max_segment", ints({0, 2, 3}), {I(1)}));
}
TEST_CASE("in_range reads any rank", "[M15]") {
  CHECK(check_predicate("in_range", Value::sequence({ints({0, 1}), ints({2, 3})}), {I(0), I(4)}));
  CHECK_FALSE(check_predicate("in_range", Value::sequence({ints({0, 1}), ints({2, 4})}), {I(0), I(4)}));
}
TEST_CASE("sums_to", "[M15]") {
  CHECK(check_predicate("sums_to", ints({3, 4}), {I(7)}));
  CHECK_FALSE(check_predicate("sums_to", ints({3, 4}), {I(8)}));
}
TEST_CASE("exclusive_prefix_of", "[M15]") {
  CHECK(check_predicate("exclusive_prefix_of", ints({0, 3, 7}), {ints({3, 4, 1})}));
  CHECK_FALSE(check_predicate("exclusive_prefix_of", ints({0, 3}), {ints({3, 4, 1})}));
  CHECK_FALSE(check_predicate("exclusive_prefix_of", ints({0, 4, 7}), {ints({3, 4, 1})}));
}
TEST_CASE("chunk_offsets_of", "[M15]") {
  CHECK(check_predicate("chunk_offsets_of", ints({0, 2, 4}), {ints({0, 3, 7}), I(2)}));
  CHECK_FALSE(check_predicate("chunk_offsets_of", ints({0, 2, 5}), {ints({0, 3, 7}), I(2)}));
  CHECK_THROWS_AS(check_predicate("chunk_offsets_of", ints({0}), {ints({0}), I(0)}), EvalError);
}
TEST_CASE("indices_within", "[M15]") {
  Value ok = Value::sequence({ints({0, 1}), ints({1, 0})});
  CHECK(check_predicate("indices_within", ok, {ints({0, 2, 3})}));
  Value bad = Value::sequence({ints({1, 1})});
  CHECK_FALSE(check_predicate("indices_within", bad, {ints({0, 2, 3})}));
}
TEST_CASE("attn.paged_fits", "[M15]") {
  CHECK_FALSE(check_predicate("attn.paged_fits", ints({1, 2}), {ints({0, 1}), I(8)}));
  CHECK(check_predicate("attn.paged_fits", ints({1, 2}), {ints({0, 1, 3}), I(8)}));
  CHECK_FALSE(check_predicate("attn.paged_fits", ints({7, 2}), {ints({0, 2, 3}), I(8)}));
}
TEST_CASE("predicate arity and unknown names are errors", "[M15]") {
  CHECK_THROWS_AS(check_predicate("sums_to", ints({1}), {}), EvalError);
  CHECK_THROWS_AS(check_predicate("no_such", ints({1}), {}), EvalError);
}
TEST_CASE("fixed ranks of the predicate set", "[M15]") {
  CHECK(find_predicate("in_range")->rank == -1);
  CHECK(find_predicate("indices_within")->rank == 2);
  CHECK(find_predicate("prefix_offsets")->rank == 1);
}
