// Generators on their documented values and domain errors; random generators are seeded per
// op/tensor, reproducible, and satisfy the properties the requires predicates check (M14).
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "specs/src/generators.h"
#include "specs/src/predicates.h"

using namespace kir::specs;

namespace {
Value ints(std::vector<long> v) {
  std::vector<mpz_class> m(v.begin(), v.end());
  return Value::ints(m);
}
Value I(long v) { return Value::integer(v); }
std::string gen(const std::string& name, std::vector<Value> args, const std::string& key = "Op:t") {
  try {
    return run_generator(name, args, key).repr();
  } catch (const EvalError& e) {
    return std::string("ERROR: ") + e.what();
  }
}
}  // namespace

TEST_CASE("as_tensor is the list itself", "[M14]") { CHECK(gen("as_tensor", {ints({3, 0, 5})}) == "(3, 0, 5)"); }
TEST_CASE("as_tensor rejects negatives", "[M14]") { CHECK(gen("as_tensor", {ints({-1})}).find("ERROR") == 0); }
TEST_CASE("prefix_sum starts at 0", "[M14]") {
  CHECK(gen("prefix_sum", {ints({2, 3, 4})}) == "(0, 2, 5, 9)");
  CHECK(gen("prefix_sum", {ints({})}) == "(0,)");
}
TEST_CASE("exclusive_prefix_sum", "[M14]") {
  CHECK(gen("exclusive_prefix_sum", {ints({2, 3, 4})}) == "(0, 2, 5)");
  CHECK(gen("exclusive_prefix_sum", {ints({})}).find("non-empty") != std::string::npos);
}
TEST_CASE("chunk_indices lists (sequence, chunk) pairs", "[M14]") {
  CHECK(gen("chunk_indices", {ints({3, 0, 5}), I(2)}) == "((0, 0), (0, 1), (2, 0), (2, 1), (2, 2))");
  CHECK(gen("chunk_indices", {ints({3}), I(0)}).find("> 0") != std::string::npos);
}
TEST_CASE("token_indices lists (sequence, position) pairs", "[M14]") {
  CHECK(gen("token_indices", {ints({2, 1})}) == "((0, 0), (0, 1), (1, 0))");
  CHECK(gen("token_indices", {ints({2, 0})}).find("> 0") != std::string::npos);
}
TEST_CASE("packed_positions restart per sequence", "[M14]") {
  CHECK(gen("packed_positions", {ints({2, 3})}) == "(0, 1, 0, 1, 2)");
  CHECK(gen("packed_positions", {ints({})}).find("non-empty") != std::string::npos);
}
TEST_CASE("chunk_offsets", "[M14]") { CHECK(gen("chunk_offsets", {ints({3, 4, 0}), I(2)}) == "(0, 2, 4, 4)"); }
TEST_CASE("key_windows start and end", "[M14]") {
  CHECK(gen("key_windows", {ints({2, 3}), I(1), I(3), Value::str("start")}) == "(0, 2, 2)");
  CHECK(gen("key_windows", {ints({2, 3}), I(1), I(3), Value::str("end")}) == "(2, 3, 4)");
  CHECK(gen("key_windows", {ints({2, 3}), I(4), I(3), Value::str("end")}).find("inside") != std::string::npos);
  CHECK(gen("key_windows", {ints({2, 3}), I(0), I(1), Value::str("middle")}).find("not one of") != std::string::npos);
}
TEST_CASE("full fills a nested list", "[M14]") {
  CHECK(gen("full", {ints({2, 3}), I(7)}) == "((7, 7, 7), (7, 7, 7))");
  CHECK(gen("full", {ints({}), I(7)}) == "7");
}
TEST_CASE("paged_block_table draws distinct pages split by row", "[M14]") {
  Value v = run_generator("paged_block_table", {I(4), I(3), I(100)}, "Op:block_table");
  std::vector<long> shape;
  auto flat = flatten(v, shape);
  CHECK(shape == std::vector<long>{4, 3});
  std::set<mpz_class> distinct(flat.begin(), flat.end());
  CHECK(distinct.size() == 12);
  CHECK(check_predicate("in_range", v, {I(0), I(100)}));
}
TEST_CASE("paged_block_table with a small pool draws per row", "[M14]") {
  Value v = run_generator("paged_block_table", {I(5), I(3), I(4)}, "Op:block_table");
  for (const auto& row : v.seq) {
    std::set<std::string> d;
    for (const auto& x : row.seq) d.insert(x.repr());
    CHECK(d.size() == 3);
  }
  CHECK(gen("paged_block_table", {I(2), I(5), I(4)}).find("0 < W <= pool") != std::string::npos);
}
TEST_CASE("random generators are reproducible per op and tensor", "[M14]") {
  CHECK(gen("topk_ids", {I(8), I(2), I(16)}, "A:x") == gen("topk_ids", {I(8), I(2), I(16)}, "A:x"));
  CHECK(gen("topk_ids", {I(8), I(2), I(16)}, "A:x") != gen("topk_ids", {I(8), I(2), I(16)}, "B:x"));
}
TEST_CASE("topk_ids draws k distinct ids per row", "[M14]") {
  Value v = run_generator("topk_ids", {I(50), I(4), I(6)}, "Op:ids");
  for (const auto& row : v.seq) {
    std::set<std::string> d;
    for (const auto& x : row.seq) d.insert(x.repr());
    CHECK(d.size() == 4);
  }
  CHECK(check_predicate("in_range", v, {I(0), I(6)}));
  CHECK(gen("topk_ids", {I(1), I(7), I(6)}).find("0 < k <= E") != std::string::npos);
}
TEST_CASE("random_ids and sample_indices", "[M14]") {
  CHECK(check_predicate("in_range", run_generator("random_ids", {I(3), I(5), I(2)}, "Op:r"), {I(0), I(2)}));
  Value s = run_generator("sample_indices", {I(5), I(5)}, "Op:s");
  std::set<std::string> d;
  for (const auto& x : s.seq) d.insert(x.repr());
  CHECK(d.size() == 5);
  CHECK(gen("sample_indices", {I(6), I(5)}).find("0 <= n <= hi") != std::string::npos);
  CHECK(gen("random_ids", {I(0), I(5), I(2)}).find("> 0") != std::string::npos);
}
TEST_CASE("nsa_block_counts and nsa_block_indices", "[M14]") {
  CHECK(check_predicate("in_range", run_generator("nsa_block_counts", {I(4), I(2), I(3)}, "Op:c"), {I(1), I(4)}));
  Value v = run_generator("nsa_block_indices", {ints({3, 2}), I(2), I(2), I(1)}, "Op:i");
  std::vector<long> shape;
  auto flat = flatten(v, shape);
  CHECK(shape == std::vector<long>{5, 1, 2});
  // token 0 of a sequence sees one block: (0, sentinel=5)
  CHECK(v.seq[0].seq[0].repr() == "(0, 5)");
}
TEST_CASE("causal_topk_indices pads with the extent", "[M14]") {
  Value v = run_generator("causal_topk_indices", {I(1), I(3), I(1), I(2), I(8), I(0), I(1)}, "Op:t");
  // token 0 sees max(1, 0) = 1 key: (0, 8)
  CHECK(v.seq[0].seq[0].seq[0].repr() == "(0, 8)");
  CHECK(check_predicate("in_range", v, {I(0), I(9)}));
}
TEST_CASE("attn.sparse_topk_positions pads with -1", "[M14]") {
  Value v = run_generator("attn.sparse_topk_positions", {ints({2}), I(2), I(3)}, "Op:p");
  // length 2, Sq 2: query 0 sees [0, 0] → one position then two pads
  CHECK(v.seq[0].seq[0].repr() == "(0, -1, -1)");
  CHECK(gen("attn.sparse_topk_positions", {ints({1}), I(2), I(3)}).find(">= Sq") != std::string::npos);
}
TEST_CASE("moe.layout_metadata satisfies moe.layout_valid", "[M14][M9]") {
  auto layout = [](std::string ctor, std::vector<std::pair<std::string, Value>> f) {
    auto a = std::make_shared<AdtValue>();
    a->adt = "MGroupedLayout";
    a->ctor = std::move(ctor);
    a->fields = std::move(f);
    Value v;
    v.t = Value::T::Adt;
    v.adt = a;
    return v;
  };
  Value tight_psum = layout("contiguous", {{"packing", Value::str("tight")}, {"metadata_kind", Value::str("physical_psum")}, {"alignment", I(1)}});
  Value tight_rows = layout("contiguous", {{"packing", Value::str("tight")}, {"metadata_kind", Value::str("per_row")}, {"alignment", I(1)}});
  Value al_psum = layout("contiguous", {{"packing", Value::str("aligned")}, {"metadata_kind", Value::str("physical_psum")}, {"alignment", I(4)}});
  Value al_rows = layout("contiguous", {{"packing", Value::str("aligned")}, {"metadata_kind", Value::str("per_row")}, {"alignment", I(4)}});
  Value masked = layout("masked", {{"max_m", I(6)}});
  CHECK(run_generator("moe.layout_metadata", {tight_psum, I(10), I(3)}, "k").repr() == "(4, 7, 10)");
  CHECK(run_generator("moe.layout_metadata", {tight_rows, I(5), I(2)}, "k").repr() == "(0, 0, 0, 1, 1)");
  CHECK(run_generator("moe.layout_metadata", {al_psum, I(16), I(3)}, "k").repr() == "(6, 10, 14)");
  CHECK(run_generator("moe.layout_metadata", {masked, I(18), I(3)}, "k").repr() == "(6, 3, 6)");
  for (const auto& [l, R, E] : std::vector<std::tuple<Value, long, long>>{{tight_psum, 10, 3}, {tight_rows, 5, 2}, {al_psum, 16, 3}, {al_rows, 16, 3}, {masked, 18, 3}})
    CHECK(check_predicate("moe.layout_valid", run_generator("moe.layout_metadata", {l, I(R), I(E)}, "k"), {l, I(R), I(E)}));
  CHECK(gen("moe.layout_metadata", {masked, I(17), I(3)}).find("R = E * max_m") != std::string::npos);
  CHECK(gen("moe.layout_metadata", {al_rows, I(15), I(3)}).find("R % alignment") != std::string::npos);
}
TEST_CASE("huge generator results fail instead of exhausting memory", "[M14]") {
  CHECK(gen("topk_ids", {I(1000000000), I(2), I(4)}).find("too large") != std::string::npos);
  CHECK(gen("full", {ints({100000, 100000}), I(0)}).find("too large") != std::string::npos);
}
TEST_CASE("crc32 matches the standard check value", "[M14]") { CHECK(crc32("123456789") == 0xCBF43926u); }
