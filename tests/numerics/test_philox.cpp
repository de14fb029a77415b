// Philox4x32 against the Random123 known-answer vectors (reference doc §1), the seed/counter
// mapping, and the bits -> [0,1) conversion.
#include <catch2/catch.hpp>

#include "numerics/format.h"
#include "numerics/philox.h"

using kir::DType;
using namespace kir::num;

TEST_CASE("Philox4x32 Random123 KAT", "[numerics][philox][L17.1]") {
  struct K {
    int r;
    PhiloxCounter ctr;
    PhiloxKey key;
    PhiloxCounter out;
  };
  const K kats[] = {
      {7, {0, 0, 0, 0}, {0, 0}, {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
      {7, {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
       {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
      {7, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
       {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
      {10, {0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {10, {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {10, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
      // derived extra vectors (reference doc §1)
      {10, {1, 0, 0, 0}, {0, 0}, {0xf8e4cca4, 0x5cb200db, 0xb1a574eb, 0x097eff67}},
      {10, {2, 0, 0, 0}, {0, 0}, {0x04faa329, 0x51c732a6, 0x241513ad, 0x459135e4}},
      {10, {3, 0, 0, 0}, {0, 0}, {0xc990ef29, 0x6a4474a6, 0x9ac9134f, 0x6d413e04}},
  };
  for (const K& k : kats) CHECK(philox4x32(k.ctr, k.key, k.r) == k.out);
  CHECK(philox4x32_10({0, 0, 0, 0}, {0, 0}) == kats[3].out);
}

TEST_CASE("random_bits maps (seed, counter) to block counter // 4 and word counter % 4",
          "[numerics][philox][L17.1]") {
  // seed 0: block 0 = KAT (0,0,0,0); block 1..3 = derived vectors
  const uint32_t block0[4] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
  const uint32_t block2[4] = {0x04faa329, 0x51c732a6, 0x241513ad, 0x459135e4};
  for (int w = 0; w < 4; ++w) {
    CHECK(random_bits(0, uint64_t(w)) == block0[w]);
    CHECK(random_bits(0, uint64_t(8 + w)) == block2[w]);
  }
  // key = {lo32(seed), hi32(seed)}; counter words 2,3 are zero
  const uint64_t seed = 0x299f31d0a4093822ull;
  const auto out = philox4x32_10({0x11223344, 0x15667788, 0, 0}, {0xa4093822, 0x299f31d0});
  const uint64_t block = 0x1566778811223344ull;  // < 2^62: counter = 4 * block fits
  for (int w = 0; w < 4; ++w) CHECK(random_bits(seed, block * 4 + uint64_t(w)) == out[w]);
}

TEST_CASE("uniform: top bits times 2^-k, exactly representable", "[numerics][philox][L17.2]") {
  CHECK(uniform(0, DType::F32)->bits == 0);
  CHECK(to_double(uniform(0xFFFFFFFF, DType::F32)->bits, DType::F32) == 1.0 - 0x1p-24);
  CHECK(to_double(uniform(0xFFFFFFFF, DType::F16)->bits, DType::F16) == 1.0 - 0x1p-11);
  CHECK(to_double(uniform(0xFFFFFFFF, DType::BF16)->bits, DType::BF16) == 1.0 - 0x1p-8);
  CHECK(to_double(uniform(0xFFFFFFFF, DType::F64)->bits, DType::F64) == 1.0 - 0x1p-32);
  CHECK(to_double(uniform(0x80000000, DType::F32)->bits, DType::F32) == 0.5);
  CHECK(to_double(uniform(0x000001FF, DType::F32)->bits, DType::F32) == 0x1p-24);
  CHECK(to_double(uniform(0x000000FF, DType::F32)->bits, DType::F32) == 0.0);
  CHECK(to_double(uniform(0x12345678, DType::F64)->bits, DType::F64) == 0x12345678 * 0x1p-32);
  CHECK(uniform(1, DType::I32).status() == Status::TypeMismatch);
  // every f16 result is the exact value: (bits >> 21) * 2^-11 for a sweep of words
  long bad = 0;
  for (uint64_t w = 0; w < (1ull << 32); w += 0x10001) {
    const double u = to_double(uniform(uint32_t(w), DType::F16)->bits, DType::F16);
    if (u != double(w >> 21) / 2048.0 || !(u >= 0 && u < 1)) ++bad;
  }
  REQUIRE(bad == 0);
}
