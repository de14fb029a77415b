// q4_K / q8_K against the KAT produced by the real ggml library (reference doc §3.3) and
// hand-built blocks whose values are computed by hand.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "numerics/kquant.h"

using namespace kir::num;

namespace {

std::vector<float> kat_x(uint32_t mul, uint32_t add, float div) {
  std::vector<float> v(512);
  for (uint32_t i = 0; i < 512; ++i) {
    const uint32_t a = i * mul + add;
    v[i] = static_cast<float>(int(a >> 24) - 128) / div;
  }
  return v;
}

std::string hexbytes(const std::array<uint8_t, 144>& b) {
  std::string s;
  char buf[3];
  for (uint8_t c : b) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    s += buf;
  }
  return s;
}

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

}  // namespace

TEST_CASE("q4_K / q8_K reproduce the ggml KAT", "[numerics][kquant][L11.3]") {
  const auto x = kat_x(2654435761u, 0, 64.f);
  const auto y = kat_x(2246822519u, 12345, 32.f);
  CHECK(x[0] == -2.f);
  CHECK(x[1] == 0.46875f);
  CHECK(y[2] == -3.65625f);
  auto q4 = quantize_row_q4_K_ref(x);
  auto q8 = quantize_row_q8_K(y);
  REQUIRE(q4.ok());
  REQUIRE(q8.ok());
  REQUIRE(q4->size() == 2);
  CHECK(hexbytes(to_bytes((*q4)[0])) ==
        "3a1c1b28fffefefcfdfdfdfcadedbeffc06903ad47d17b15be58f39c36c06a14ad48e28b25cf69f39d37d17a15"
        "be58e258f39c36d06a04ae48e28b25cf69f39d37d17a14be58f28c26c06a04ad47e18be18b25cf69f39c36d07a"
        "14be58f28b25cf6903ad47e18b25be58f29c36d07a147a14ae58e28b25cf6903ad47d17a14be58f29c36c07a14"
        "ad47e18b25bf69f39c");
  CHECK(hexbytes(to_bytes((*q4)[1])) ==
        "2b1c2e28fdfffefefbfafcfacdadfebdf39d37d17b15af58e28c26c06a04ae48d17b15bf59f39d37c06a14ae48"
        "e28c268c26c06a04ad47d17b15bf59f39d37d06a04ae48e28c26cf69f39d37d17b15bf15bf59f39d37d06a04ae"
        "48e28c26cf69f39d37d17b15bf59f28c26c06a04ae48ae48e28c26cf6af39d37d17b15bf59f38c26c06a04ae48"
        "e28b15bf59f39d37d1");
  const BlockQ8K& b0 = (*q8)[0];
  const BlockQ8K& b1 = (*q8)[1];
  CHECK(fbits(b0.d) == 0x3d010204u);
  CHECK(fbits(b1.d) == 0x3d010204u);
  const int qs0[8] = {-127, 5, -116, 17, -104, 29, -92, 41};
  const int qs1[8] = {106, -15, 118, -3, -124, 9, -112, 21};
  const int bs0[16] = {-319, -84, 148, 130, -399, 89, 68, 49, -225, 9, 242, -31, -305, 182, 163, -112};
  const int bs1[16] = {-130, 101, 337, -192, -210, 21, 256, -272, -37, -60, 176, -98, -117, 114, 96, -178};
  for (int i = 0; i < 8; ++i) {
    CHECK(b0.qs[i] == qs0[i]);
    CHECK(b1.qs[i] == qs1[i]);
  }
  for (int i = 0; i < 16; ++i) {
    CHECK(b0.bsums[i] == bs0[i]);
    CHECK(b1.bsums[i] == bs1[i]);
  }
  const auto xd = dequantize_row_q4_K(*q4);
  REQUIRE(xd.size() == 512);
  const float want[8] = {-0x1.f4dep+0f, 0x1.88fep-2f, -0x1.2d298p+0f, 0x1.6c858p+0f,
                         -0x1.171cp-3f, -0x1.b24c8p+0f, 0x1.cec5p-1f, -0x1.500dp-1f};
  for (int i = 0; i < 8; ++i) CHECK(fbits(xd[i]) == fbits(want[i]));
  auto dot = vec_dot_q4_K_q8_K(*q4, *q8);
  REQUIRE(dot.ok());
  CHECK(fbits(*dot) == 0x422c2730u);
  // byte image round trip
  CHECK(q4k_from_bytes(to_bytes((*q4)[1])) == (*q4)[1]);
}

TEST_CASE("hand-built q4_K / q8_K blocks", "[numerics][kquant][L11.3]") {
  // q4_K: d = 1.0 (0x3C00), dmin = 0.5 (0x3800); sub-block j: scale j+1, min 2j (j<4) / 60+j-4
  BlockQ4K b{};
  b.d = 0x3C00;
  b.dmin = 0x3800;
  const uint8_t sc[8] = {1, 2, 3, 4, 17, 33, 49, 63};
  const uint8_t mn[8] = {0, 2, 4, 6, 60, 61, 62, 63};
  for (int j = 0; j < 4; ++j) {
    b.scales[j] = static_cast<uint8_t>(sc[j] | ((sc[j + 4] >> 4) << 6));
    b.scales[j + 4] = static_cast<uint8_t>(mn[j] | ((mn[j + 4] >> 4) << 6));
    b.scales[j + 8] = static_cast<uint8_t>((sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4));
  }
  for (int j = 0; j < 8; ++j) {
    uint8_t s, m;
    q4k_scale_min(b, j, s, m);
    CHECK(s == sc[j]);
    CHECK(m == mn[j]);
  }
  // quant of weight w = w % 16
  for (int c = 0; c < 4; ++c)
    for (int l = 0; l < 32; ++l)
      b.qs[32 * c + l] = static_cast<uint8_t>(((64 * c + l) % 16) | (((64 * c + 32 + l) % 16) << 4));
  const auto v = dequantize_row_q4_K(std::span<const BlockQ4K>(&b, 1));
  long bad = 0;
  for (int w = 0; w < 256; ++w) {
    const int j = w / 32;
    const float want = float(sc[j] * (w % 16)) - 0.5f * float(mn[j]);
    if (v[w] != want) ++bad;
  }
  CHECK(bad == 0);
  // q8_K of a row with all ones except x[5] = -2: max = -2 -> iscale = 63.5, d = 1/63.5
  std::vector<float> y(256, 1.f);
  y[5] = -2.f;
  auto q8 = quantize_row_q8_K(y);
  REQUIRE(q8.ok());
  CHECK((*q8)[0].qs[5] == -127);
  CHECK((*q8)[0].qs[0] == 64);  // 63.5 rounds half to even -> 64
  CHECK((*q8)[0].bsums[0] == 15 * 64 - 127);
  CHECK((*q8)[0].bsums[1] == 16 * 64);
  CHECK((*q8)[0].d == 1.f / 63.5f);
  // q8 of zeros: d = 0, qs = 0, bsums = 0
  auto z = quantize_row_q8_K(std::vector<float>(256, 0.f));
  CHECK(z->at(0).d == 0.f);
  CHECK(z->at(0).bsums[3] == 0);
  // dot against a q8 block with d = 1, qs = 1: sum_w (sc*q) - dmin*sum(min*16 per half)
  BlockQ8K ones{};
  ones.d = 1.f;
  ones.qs.fill(1);
  ones.bsums.fill(16);
  double want = 0;
  for (int w = 0; w < 256; ++w) want += double(v[w]);
  auto dot = vec_dot_q4_K_q8_K(std::span<const BlockQ4K>(&b, 1), std::span<const BlockQ8K>(&ones, 1));
  CHECK(double(*dot) == want);  // all partial sums are small integers/halves: exact
  CHECK(quantize_row_q8_K(std::vector<float>(100, 1.f)).status() == Status::TypeMismatch);
  CHECK(nearest_int(2.5f) == 2);
  CHECK(nearest_int(3.5f) == 4);
  CHECK(nearest_int(-2.5f) == -2);
  CHECK(nearest_int(-0.4f) == 0);
}
