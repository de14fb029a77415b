// CPython 3.11 random.Random re-implementation (specs/src/py_random.h) and the random generators
// drawing the Python reference's exact values (M14). Every expected value below was printed by
// python3.11 (`random.Random(seed)` / `zlib.crc32`), e.g.
//   python3 -c "import random; r=random.Random(7); print(r.sample(range(10), 4))"
// and for the generators by a Python transcription of the documented calls with
// random.Random(1235 ^ zlib.crc32(b"<Op>:<tensor>")).
#include <catch2/catch.hpp>

#include <vector>

#include "specs/src/generators.h"
#include "specs/src/py_random.h"

using namespace kir::specs;

namespace {
std::vector<unsigned long> words(PyRandom& r, int n) {
  std::vector<unsigned long> out;
  for (int i = 0; i < n; ++i) out.push_back(r.getrandbits(32).get_ui());
  return out;
}
using U = std::vector<uint64_t>;
mpz_class Z(const char* s) { return mpz_class(s); }
Value I(long v) { return Value::integer(v); }
std::string gen(const std::string& name, std::vector<Value> args, const std::string& key) {
  return run_generator(name, std::move(args), key).repr();
}
}  // namespace

TEST_CASE("crc32 known answers (zlib.crc32)", "[M14]") {
  CHECK(crc32("123456789") == 0xCBF43926u);
  CHECK(crc32("Op:ids") == 0xA6139F9Au);
  CHECK(crc32("") == 0u);
}

TEST_CASE("MT19937 seeded with 0 (the key is one zero word)", "[M14]") {
  PyRandom r(0);
  CHECK(words(r, 5) == std::vector<unsigned long>{3626764237, 1654615998, 3255389356, 3823568514, 1806341205});
}

TEST_CASE("random() builds 53 bits from two words (seed 1)", "[M14]") {
  PyRandom r(1);
  CHECK(r.random() == 0x1.132d8f91b7584p-3);
  CHECK(r.random() == 0x1.b1e2d5b3584f8p-1);
  CHECK(r.random() == 0x1.870d778409f13p-1);
}

TEST_CASE("getrandbits of 1, 31, 32, 33, 64, 100 bits (seed 2^32 + 5, a two-word key)", "[M14]") {
  PyRandom r(Z("4294967301"));
  CHECK(r.getrandbits(1) == 0);
  CHECK(r.getrandbits(31) == 1042594645);
  CHECK(r.getrandbits(32) == 1213270837);
  CHECK(r.getrandbits(33) == Z("8117169770"));
  CHECK(r.getrandbits(64) == Z("267910309641445477"));
  CHECK(r.getrandbits(100) == Z("964311255119287955848603999805"));
}

TEST_CASE("seeds above 2^64 use every 32-bit word", "[M14]") {
  PyRandom r(Z("1180591620717411303427"));  // 2^70 + 3
  CHECK(words(r, 3) == std::vector<unsigned long>{701776502, 1422058157, 4284124921});
}

TEST_CASE("a negative seed is its absolute value", "[M14]") {
  PyRandom neg(-5), pos(5);
  CHECK(words(neg, 2) == std::vector<unsigned long>{2675342405, 1097127993});
  CHECK(words(pos, 2) == std::vector<unsigned long>{2675342405, 1097127993});
}

TEST_CASE("the state regenerates after 624 words", "[M14]") {
  PyRandom r(3);
  unsigned long last = 0;
  for (int i = 0; i < 700; ++i) last = r.getrandbits(32).get_ui();
  CHECK(last == 2944455115ul);
  CHECK(r.random() == 0x1.ef548793fd87ap-2);
}

TEST_CASE("randrange over large ranges, negative steps and 2^64 bounds", "[M14]") {
  PyRandom r(1235);
  CHECK(r.randrange(Z("1000000000000000000000000000000")) == Z("667474228219609468898245003024"));
  CHECK(r.randrange(-7, Z("10000000000000000000000000"), 3) == Z("6818392095638511019414652"));
  CHECK(r.randrange(100, 0, -7) == 58);
  CHECK(r.randrange(Z("18446744073709551616")) == Z("7994267226060094604"));
  CHECK(r.randrange(Z("18446744073709551617")) == Z("1820984321226289858"));
}

TEST_CASE("randint is inclusive of both ends", "[M14]") {
  PyRandom r(1235);
  std::vector<long> got;
  for (int i = 0; i < 10; ++i) got.push_back(r.randint(1, 6).get_si());
  CHECK(got == std::vector<long>{6, 4, 5, 5, 4, 4, 2, 6, 3, 6});
}

TEST_CASE("randrange rejects empty ranges and a zero step with Python's messages", "[M14]") {
  PyRandom r(1);
  CHECK_THROWS_WITH(r.randrange(0), Catch::Equals("empty range for randrange()"));
  CHECK_THROWS_WITH(r.randrange(5, 5), Catch::Equals("empty range for randrange() (5, 5, 0)"));
  CHECK_THROWS_WITH(r.randrange(0, 10, 0), Catch::Equals("zero step for randrange()"));
  CHECK_THROWS_WITH(r.randrange(0, 10, -1), Catch::Equals("empty range for randrange()"));
}

TEST_CASE("sample: pool strategy when n <= setsize", "[M14]") {
  PyRandom a(7), b(7), c(7);
  CHECK(a.sample_range(10, 4) == U{5, 2, 6, 9});
  CHECK(b.sample_range(40, 10) == U{20, 9, 25, 3, 4, 34, 6, 23, 36, 29});  // setsize 21 + 4^3
  CHECK(c.sample_range(85, 30) ==
        U{41, 19, 50, 6, 9, 68, 12, 46, 74, 7, 64, 27, 4, 11, 55, 53, 8, 30, 71, 54, 75, 15, 60, 14, 40, 62, 37, 3, 36, 58});
}

TEST_CASE("sample: set strategy when n > setsize", "[M14]") {
  PyRandom a(7), b(7), c(7), d(7);
  CHECK(a.sample_range(1000, 3) == U{331, 970, 154});  // k <= 5: setsize 21
  CHECK(b.sample_range(1000000, 10) == U{339563, 993908, 158176, 414002, 682554, 50631, 75954, 861168, 561913, 98702});
  CHECK(c.sample_range(uint64_t{1} << 40, 6) == U{868231286071, 105874957392, 208460025899, 470330855157, 189139603672, 920985495386});
  CHECK(d.sample_range(22, 5) == U{10, 4, 12, 20, 1});
}

TEST_CASE("sample: the setsize boundary (k = 6: setsize 21 + 4^ceil(log4 18) = 85)", "[M14]") {
  PyRandom pool(7), set(7);
  CHECK(pool.sample_range(85, 6) == U{41, 19, 50, 6, 9, 68});
  CHECK(set.sample_range(86, 6) == U{41, 19, 50, 83, 6, 9});
  PyRandom r(1);
  CHECK_THROWS_WITH(r.sample_range(3, 4), Catch::Contains("Sample larger than population"));
}

TEST_CASE("sample of a list population picks by index", "[M14]") {
  PyRandom r(7);
  std::vector<std::string> pop = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  CHECK(r.sample(pop, 4) == std::vector<std::string>{"f", "c", "g", "j"});
}

TEST_CASE("shuffle is Fisher-Yates from the end", "[M14]") {
  PyRandom r(9);
  std::vector<int> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  r.shuffle(x);
  CHECK(x == std::vector<int>{9, 8, 3, 2, 0, 6, 1, 4, 5, 7});
}

TEST_CASE("gauss returns the Box-Muller pair, the second one cached", "[M14]") {
  PyRandom r(11);
  // Python's libm cos/sin/log on this platform; allow a few ulps for another libm.
  CHECK(r.gauss() == Approx(-0x1.395cd3ae1e62bp+0).epsilon(1e-14));
  CHECK(r.gauss() == Approx(0x1.82a67b0c3e635p-2).epsilon(1e-14));
  CHECK(r.gauss() == Approx(0x1.fd709758c1fa5p-1).epsilon(1e-14));
  CHECK(r.gauss() == Approx(-0x1.06c3745258d09p-1).epsilon(1e-14));
}

// The generators, seeded with random.Random(1235 ^ crc32("<key>")), draw Python's values.
TEST_CASE("topk_ids draws rng.sample(range(E), k) per row", "[M14]") {
  CHECK(gen("topk_ids", {I(3), I(2), I(8)}, "Op:ids") == "((5, 3), (5, 7), (0, 7))");
}
TEST_CASE("paged_block_table: one sample split by row, or one sample per row", "[M14]") {
  CHECK(gen("paged_block_table", {I(2), I(3), I(100)}, "Op:bt") == "((29, 50, 37), (21, 56, 44))");
  CHECK(gen("paged_block_table", {I(3), I(2), I(3)}, "Op:bt") == "((0, 1), (1, 0), (1, 2))");
}
TEST_CASE("random_ids draws rng.randrange(upper)", "[M14]") {
  CHECK(gen("random_ids", {I(2), I(4), I(5)}, "Op:r") == "((0, 3, 4, 2), (3, 0, 4, 0))");
}
TEST_CASE("nsa_block_counts draws rng.randint(1, selected)", "[M14]") {
  CHECK(gen("nsa_block_counts", {I(2), I(3), I(4)}, "Op:c") == "((4, 2, 2), (1, 2, 3))");
}
TEST_CASE("sample_indices draws rng.sample(range(hi), n)", "[M14]") {
  CHECK(gen("sample_indices", {I(5), I(1000)}, "Op:s") == "(21, 537, 285, 896, 338)");
}
TEST_CASE("causal_topk_indices samples the visible keys per token", "[M14]") {
  CHECK(gen("causal_topk_indices", {I(1), I(3), I(1), I(2), I(8), I(2), I(1)}, "Op:t") == "((((1, 0),), ((1, 0),), ((3, 2),)),)");
}
TEST_CASE("attn.sparse_topk_positions samples the visible positions per query", "[M14]") {
  CHECK(gen("attn.sparse_topk_positions", {Value::ints({3}), I(2), I(2)}, "Op:p") == "(((0, 1), (0, 1)),)");
}
TEST_CASE("nsa_block_indices sorts each sample and pads with the sentinel", "[M14]") {
  Value v = run_generator("nsa_block_indices", {Value::ints({9}), I(2), I(3), I(1)}, "Op:i");
  std::vector<std::string> rows;
  for (const auto& tok : v.seq) rows.push_back(tok.seq[0].repr());
  CHECK(rows == std::vector<std::string>{"(0, 9, 9)", "(0, 9, 9)", "(0, 9, 9)", "(0, 1, 9)", "(0, 1, 9)", "(0, 1, 2)",
                                         "(0, 1, 2)", "(0, 1, 3)", "(0, 1, 3)"});
}
