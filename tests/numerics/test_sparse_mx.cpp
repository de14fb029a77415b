// Sparse schemas (round trip, padding, legality errors naming the group) and MX block rules
// (scaled values, e2m1 nibble order, OCP shared scale and quantization).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "numerics/format.h"
#include "numerics/mx.h"
#include "numerics/sparse.h"

using kir::DType;
using namespace kir::num;

namespace {
Scalar f32(float v) { return Scalar{DType::F32, std::bit_cast<uint32_t>(v)}; }
std::vector<Scalar> f32s(std::initializer_list<float> vs) {
  std::vector<Scalar> out;
  for (float v : vs) out.push_back(f32(v));
  return out;
}
}  // namespace

TEST_CASE("two_of_four / one_of_two compress and expand", "[numerics][sparse][L12.1]") {
  const auto dense = f32s({0, 3, 0, 5, /**/ 7, 0, 0, 0, /**/ 0, 0, 0, 0, /**/ 1, 2, 0, 0});
  auto c = compress(kTwoOfFour, dense);
  REQUIRE(c.ok());
  CHECK(c->metadata == std::vector<uint8_t>{1, 3, 0, 1, 0, 1, 0, 1});
  CHECK(c->values == f32s({3, 5, 7, 0, 0, 0, 1, 2}));
  auto e = expand(kTwoOfFour, c->values, c->metadata, 16);
  REQUIRE(e.ok());
  CHECK(*e == dense);
  // one_of_two
  const auto d2 = f32s({0, 4, 9, 0, 0, 0});
  auto c2 = compress(kOneOfTwo, d2);
  REQUIRE(c2.ok());
  CHECK(c2->metadata == std::vector<uint8_t>{1, 0, 0});
  CHECK(*expand(kOneOfTwo, c2->values, c2->metadata, 6) == d2);
  // -0 counts as zero but is kept as stored; NaN counts as non-zero
  const auto d3 = f32s({-0.0f, NAN, 0, 0});
  auto c3 = compress(kTwoOfFour, d3);
  REQUIRE(c3.ok());
  CHECK(c3->metadata == std::vector<uint8_t>{0, 1});
  CHECK(c3->values[0].bits == 0x80000000u);
  // random round trips with integers
  std::mt19937 rng(1);
  for (int t = 0; t < 200; ++t) {
    std::vector<Scalar> d(64, make_int(DType::I8, 0));
    for (size_t g = 0; g < 16; ++g) {
      const int a = int(rng() % 4), b = int(rng() % 4);
      d[g * 4 + size_t(a)] = make_int(DType::I8, rng() % 255 + 1);
      d[g * 4 + size_t(b)] = make_int(DType::I8, rng() % 255 + 1);
    }
    auto cc = compress(kTwoOfFour, d);
    REQUIRE(cc.ok());
    REQUIRE(*expand(kTwoOfFour, cc->values, cc->metadata, 64) == d);
  }
}

TEST_CASE("sparse legality errors", "[numerics][sparse][L12.1]") {
  auto c = compress(kTwoOfFour, f32s({1, 0, 0, 0, 1, 1, 1, 0}));
  REQUIRE_FALSE(c.ok());
  CHECK(c.error().message.find("two_of_four group 1") != std::string::npos);
  const auto vals = f32s({1, 2, 3, 4});
  auto e1 = expand(kTwoOfFour, vals, std::vector<uint8_t>{0, 1, 2, 2}, 8);
  REQUIRE_FALSE(e1.ok());
  CHECK(e1.error().message.find("group 1") != std::string::npos);
  CHECK(e1.error().message.find("strictly increasing") != std::string::npos);
  auto e2 = expand(kTwoOfFour, vals, std::vector<uint8_t>{1, 0, 0, 1}, 8);
  CHECK(e2.error().message.find("group 0") != std::string::npos);
  auto e3 = expand(kTwoOfFour, vals, std::vector<uint8_t>{0, 4, 0, 1}, 8);
  CHECK(e3.error().message.find("outside") != std::string::npos);
  CHECK_FALSE(expand(kTwoOfFour, vals, std::vector<uint8_t>{0, 1}, 8).ok());   // length
  CHECK_FALSE(expand(kOneOfTwo, vals, std::vector<uint8_t>{0, 1, 0, 1}, 7).ok());  // not multiple
  CHECK_FALSE(compress(kOneOfTwo, f32s({1, 1})).ok());
  CHECK(check_metadata(kOneOfTwo, std::vector<uint8_t>{1, 0}, 4).ok());
}

TEST_CASE("MX element values, e2m1 packing, shared scale, quantization",
          "[numerics][mx][L11.1]") {
  // value = 2^(scale-127) * element
  CHECK(to_double(mx_value(Scalar{DType::E2M1, 0x7}, 0x80, DType::F32)->bits, DType::F32) == 12.0);
  CHECK(to_double(mx_value(Scalar{DType::E2M1, 0xB}, 0x7E, DType::F32)->bits, DType::F32) == -0.75);
  CHECK(to_double(mx_value(Scalar{DType::E4M3, 0x7E}, 0xFE, DType::F64)->bits, DType::F64) ==
        448.0 * 0x1p127);
  CHECK(mx_value(Scalar{DType::E4M3, 0x7E}, 0xFE, DType::F32)->bits == 0x7F800000);  // overflow
  CHECK(mx_value(Scalar{DType::E4M3, 0x01}, 0x00, DType::F32)->bits == 0x2000);  // 2^-136 subnormal
  CHECK(mx_value(Scalar{DType::E4M3, 0x01}, 0x00, DType::F64)->bits ==
        std::bit_cast<uint64_t>(0x1p-136));
  CHECK(is_nan(mx_value(Scalar{DType::E2M1, 0x2}, 0xFF, DType::F32)->bits, DType::F32));
  CHECK(mx_value(Scalar{DType::E2M1, 0x2}, 0xFF, DType::E2M1).status() == Status::InvalidCast);
  // nibble order
  const std::vector<uint8_t> nib{0x1, 0x2, 0x3, 0xF, 0x7};
  const auto packed = pack_e2m1(nib);
  CHECK(packed == std::vector<uint8_t>{0x21, 0xF3, 0x07});
  CHECK(unpack_e2m1(packed, 5) == nib);
  // shared scale: floor(log2 amax) - emax_elem
  std::vector<float> blk(32, 0.25f);
  blk[7] = -6.5f;  // floor(log2 6.5) = 2
  CHECK(mx_shared_scale(blk, DType::E2M1) == 127);
  CHECK(mx_shared_scale(blk, DType::E4M3) == 127 - 6);
  CHECK(mx_shared_scale(blk, DType::E5M2) == 127 - 13);
  CHECK(mx_shared_scale(std::vector<float>(32, 0.f), DType::E4M3) == 0x00);
  blk[3] = INFINITY;
  CHECK(mx_shared_scale(blk, DType::E4M3) == 0xFF);
  blk[3] = 0.25f;
  auto q = mx_quantize(blk, DType::E2M1);
  REQUIRE(q.ok());
  CHECK(q->scale == 127);
  CHECK(q->elements[7] == 0xF);  // -6.5 clamps to -6
  CHECK(q->elements[0] == 0x0);  // 0.25 is a tie between 0 and 0.5: even -> 0
  // e4m3: 6.5 / 2^-6 = 416 representable; 0.25 / 2^-6 = 16
  auto q4 = mx_quantize(blk, DType::E4M3);
  CHECK(to_double(q4->elements[7], DType::E4M3) == -416.0);
  CHECK(to_double(q4->elements[0], DType::E4M3) == 16.0);
  // clamp instead of NaN: 7.9 * 2^6 = 505.6 > 448 after scale 2^-6 (floor(log2 7.9) = 2)
  std::vector<float> b2(32, 0.f);
  b2[0] = 7.9f;
  auto q5 = mx_quantize(b2, DType::E4M3);
  CHECK(q5->elements[0] == 0x7E);
}
