// Formats and rounding: reference-document vectors (§2.3), exhaustive casts from every 4/8/16-bit
// float pattern, f32 -> small formats on every rounding boundary, and the MPFR path on values
// wider than a double — all checked against the test-side Boost implementation (ref_float.h).
#include <catch2/catch.hpp>
#include <mpfr.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "numerics/cast.h"
#include "numerics/format.h"
#include "ref_float.h"

using kir::DType;
using namespace kir::num;

namespace {

const DType kFloatTypes[] = {DType::F16,  DType::BF16, DType::F32,  DType::F64,
                             DType::E4M3, DType::E5M2, DType::E2M1, DType::E8M0};

uint64_t f32(uint32_t b, DType to) { return from_double(double(reftest::f32_from(b)), to); }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

TEST_CASE("reference doc 2.3 derived conversion vectors (non-saturating column)",
          "[numerics][formats][L4.14]") {
  struct V {
    DType d;
    uint32_t in;
    uint64_t out;
  };
  const V vs[] = {
      // bf16
      {DType::BF16, 0x00000000, 0x0000}, {DType::BF16, 0x80000000, 0x8000},
      {DType::BF16, 0x00010000, 0x0001}, {DType::BF16, 0x00008000, 0x0000},
      {DType::BF16, 0x0000C000, 0x0001}, {DType::BF16, 0x00018000, 0x0002},
      {DType::BF16, 0x00028000, 0x0002}, {DType::BF16, 0x007F8000, 0x0080},
      {DType::BF16, 0x00800000, 0x0080}, {DType::BF16, 0x3F800000, 0x3F80},
      {DType::BF16, 0x3F808000, 0x3F80}, {DType::BF16, 0x3F808001, 0x3F81},
      {DType::BF16, 0x3F818000, 0x3F82}, {DType::BF16, 0xBF818000, 0xBF82},
      {DType::BF16, 0x7F7F0000, 0x7F7F}, {DType::BF16, 0x7F7F8000, 0x7F80},
      {DType::BF16, 0x7F7F8001, 0x7F80}, {DType::BF16, 0xFF800000, 0xFF80},
      {DType::BF16, 0x7F800000, 0x7F80}, {DType::BF16, 0x7FC00000, 0x7FC0},
      {DType::BF16, 0x3FFFFFFF, 0x4000},
      // f16
      {DType::F16, 0x00000000, 0x0000}, {DType::F16, 0x80000000, 0x8000},
      {DType::F16, 0x33800000, 0x0001}, {DType::F16, 0x33000000, 0x0000},
      {DType::F16, 0x33400000, 0x0001}, {DType::F16, 0x33C00000, 0x0002},
      {DType::F16, 0x34200000, 0x0002}, {DType::F16, 0x387FE000, 0x0400},
      {DType::F16, 0x38800000, 0x0400}, {DType::F16, 0x3F800000, 0x3C00},
      {DType::F16, 0x3F801000, 0x3C00}, {DType::F16, 0x3F801001, 0x3C01},
      {DType::F16, 0x3F803000, 0x3C02}, {DType::F16, 0xBF803000, 0xBC02},
      {DType::F16, 0x477FE000, 0x7BFF}, {DType::F16, 0x477FF000, 0x7C00},
      {DType::F16, 0x477FF001, 0x7C00}, {DType::F16, 0xC7FFE000, 0xFC00},
      {DType::F16, 0x7F800000, 0x7C00}, {DType::F16, 0xFF800000, 0xFC00},
      {DType::F16, 0x7FC00000, 0x7E00}, {DType::F16, 0x3FFFFFFF, 0x4000},
      // e5m2
      {DType::E5M2, 0x00000000, 0x00}, {DType::E5M2, 0x80000000, 0x80},
      {DType::E5M2, 0x37800000, 0x01}, {DType::E5M2, 0x37000000, 0x00},
      {DType::E5M2, 0x37400000, 0x01}, {DType::E5M2, 0x37C00000, 0x02},
      {DType::E5M2, 0x38200000, 0x02}, {DType::E5M2, 0x38600000, 0x04},
      {DType::E5M2, 0x38800000, 0x04}, {DType::E5M2, 0x3F800000, 0x3C},
      {DType::E5M2, 0x3F900000, 0x3C}, {DType::E5M2, 0x3F900001, 0x3D},
      {DType::E5M2, 0x3FB00000, 0x3E}, {DType::E5M2, 0xBFB00000, 0xBE},
      {DType::E5M2, 0x47600000, 0x7B}, {DType::E5M2, 0x47700000, 0x7C},
      {DType::E5M2, 0x47700001, 0x7C}, {DType::E5M2, 0xC7E00000, 0xFC},
      {DType::E5M2, 0x7F800000, 0x7C}, {DType::E5M2, 0xFF800000, 0xFC},
      {DType::E5M2, 0x7FC00000, 0x7E}, {DType::E5M2, 0x3FFFFFFF, 0x40},
      // e4m3 (overflow -> NaN with the value's sign)
      {DType::E4M3, 0x00000000, 0x00}, {DType::E4M3, 0x80000000, 0x80},
      {DType::E4M3, 0x3B000000, 0x01}, {DType::E4M3, 0x3A800000, 0x00},
      {DType::E4M3, 0x3AC00000, 0x01}, {DType::E4M3, 0x3B400000, 0x02},
      {DType::E4M3, 0x3BA00000, 0x02}, {DType::E4M3, 0x3C700000, 0x08},
      {DType::E4M3, 0x3C800000, 0x08}, {DType::E4M3, 0x3F800000, 0x38},
      {DType::E4M3, 0x3F880000, 0x38}, {DType::E4M3, 0x3F880001, 0x39},
      {DType::E4M3, 0x3F980000, 0x3A}, {DType::E4M3, 0xBF980000, 0xBA},
      {DType::E4M3, 0x43E00000, 0x7E}, {DType::E4M3, 0x43E80000, 0x7E},
      {DType::E4M3, 0x43E80001, 0x7F}, {DType::E4M3, 0xC4600000, 0xFF},
      {DType::E4M3, 0x7F800000, 0x7F}, {DType::E4M3, 0xFF800000, 0xFF},
      {DType::E4M3, 0x7FC00000, 0x7F}, {DType::E4M3, 0x3FFFFFFF, 0x40},
      // e2m1 (saturating: no Inf/NaN)
      {DType::E2M1, 0x00000000, 0x0}, {DType::E2M1, 0x80000000, 0x8},
      {DType::E2M1, 0x3F000000, 0x1}, {DType::E2M1, 0x3E800000, 0x0},
      {DType::E2M1, 0x3EC00000, 0x1}, {DType::E2M1, 0x3F400000, 0x2},
      {DType::E2M1, 0x3FA00000, 0x2}, {DType::E2M1, 0x3F800000, 0x2},
      {DType::E2M1, 0x3FA00001, 0x3}, {DType::E2M1, 0x3FE00000, 0x4},
      {DType::E2M1, 0xBFE00000, 0xC}, {DType::E2M1, 0x40C00000, 0x7},
      {DType::E2M1, 0x40E00000, 0x7}, {DType::E2M1, 0x40E00001, 0x7},
      {DType::E2M1, 0xC1400000, 0xF}, {DType::E2M1, 0x7F800000, 0x7},
      {DType::E2M1, 0xFF800000, 0xF}, {DType::E2M1, 0x3FFFFFFF, 0x4},
      // e8m0 (ml_dtypes column)
      {DType::E8M0, 0x3F800000, 0x7F}, {DType::E8M0, 0x3FC00000, 0x80},
      {DType::E8M0, 0x3FBFFFFF, 0x7F}, {DType::E8M0, 0x3F400000, 0x7F},
      {DType::E8M0, 0x40400000, 0x81}, {DType::E8M0, 0x7F000000, 0xFE},
      {DType::E8M0, 0x7F400000, 0xFF}, {DType::E8M0, 0x00400000, 0x00},
      {DType::E8M0, 0x00000000, 0xFF}, {DType::E8M0, 0xC0000000, 0xFF},
      {DType::E8M0, 0x7F800000, 0xFF}, {DType::E8M0, 0x7FC00000, 0xFF},
  };
  for (const V& v : vs) {
    INFO(std::string(kir::name(v.d)) << " from f32 " << hex(v.in));
    CHECK(hex(f32(v.in, v.d)) == hex(v.out));
    // same through cast() from an f32 scalar
    auto c = cast(Scalar{DType::F32, v.in}, v.d);
    REQUIRE(c.ok());
    CHECK(hex(c->bits) == hex(v.out));
  }
  // e8m0 decode of 0x00 into f32 is the subnormal 2^-127 (0x00400000)
  CHECK(cast(Scalar{DType::E8M0, 0x00}, DType::F32)->bits == 0x00400000);
  // NaN into e2m1 has no encoding: an error for cast
  CHECK(cast(Scalar{DType::F32, 0x7FC00000}, DType::E2M1).status() == Status::InvalidCast);
}

TEST_CASE("format table facts", "[numerics][formats]") {
  CHECK(to_double(0x7E, DType::E4M3) == 448.0);
  CHECK(to_double(0x01, DType::E4M3) == 0x1p-9);
  CHECK(to_double(0x7B, DType::E5M2) == 57344.0);
  CHECK(to_double(0x01, DType::E5M2) == 0x1p-16);
  CHECK(to_double(0x7, DType::E2M1) == 6.0);
  CHECK(to_double(0x1, DType::E2M1) == 0.5);
  CHECK(to_double(0xFE, DType::E8M0) == 0x1p127);
  CHECK(to_double(0x00, DType::E8M0) == 0x1p-127);
  CHECK(classify(0x7F, DType::E4M3) == FpClass::NaN);
  CHECK(classify(0x78, DType::E4M3) == FpClass::Normal);  // 256: exponent 1111 is finite
  CHECK(classify(0x7C, DType::E5M2) == FpClass::Infinite);
  CHECK(classify(0x7D, DType::E5M2) == FpClass::NaN);
  CHECK(classify(0x0001, DType::F16) == FpClass::Subnormal);
  CHECK(classify(0x8000, DType::F16) == FpClass::Zero);
  CHECK(classify(0xFF, DType::E8M0) == FpClass::NaN);
  CHECK(classify(0x00, DType::E8M0) == FpClass::Normal);
  CHECK(float_format(DType::F32).precision == 24);
  CHECK(float_format(DType::E4M3).overflow == OverflowRule::ToNaN);
  CHECK(float_format(DType::E2M1).overflow == OverflowRule::Saturate);
  CHECK(float_format(DType::E5M2).overflow == OverflowRule::ToInf);
}

TEST_CASE("neighbours and ulp distance", "[numerics][formats]") {
  CHECK(next_up(0x0000, DType::F16) == 0x0001);
  CHECK(next_up(0x8000, DType::F16) == 0x0001);
  CHECK(next_down(0x0000, DType::F16) == 0x8001);
  CHECK(next_down(0x0001, DType::F16) == 0x0000);
  CHECK(next_up(0x8001, DType::F16) == 0x8000);
  CHECK(next_up(0x7BFF, DType::F16) == 0x7C00);
  CHECK(next_up(0x7C00, DType::F16) == 0x7C00);
  CHECK(next_up(0xFC00, DType::F16) == 0xFBFF);
  CHECK(next_up(0x7E, DType::E4M3) == 0x7E);
  CHECK(next_up(0x7, DType::E2M1) == 0x7);
  CHECK(next_down(0x0, DType::E2M1) == 0x9);
  CHECK(next_up(0x7F, DType::E8M0) == 0x80);
  CHECK(next_down(0x00, DType::E8M0) == 0x00);
  CHECK(ulp_distance(0x3F800000, 0x3F800001, DType::F32) == 1);
  CHECK(ulp_distance(0x80000001, 0x00000001, DType::F32) == 2);
  CHECK(ulp_distance(0x80000000, 0x00000000, DType::F32) == 0);
  CHECK(ulp_distance(0x7F7FFFFF, 0x7F800000, DType::F32) == 1);
  CHECK(ulp_distance(0xFFEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF, DType::F64) == 0xFFDFFFFFFFFFFFFEull);
  CHECK(ulp_distance(0x7FC00000, 0, DType::F32) == UINT64_MAX);
  CHECK(ulp_value(0x3C00, DType::F16) == 0x1p-10);
  CHECK(ulp_value(0x0001, DType::F16) == 0x1p-24);
  CHECK(ulp_value(0x0400, DType::F16) == 0x1p-24);
  CHECK(ulp_value(0x38, DType::E4M3) == 0.125);
  CHECK(ordered_key(0x8000, DType::F16) < ordered_key(0x0000, DType::F16));
  CHECK(ordered_key(0xFC00, DType::F16) < ordered_key(0xFBFF, DType::F16));
  // every adjacent pair of f16 values differs by exactly one step, and next_up agrees
  long bad = 0;
  for (uint32_t b = 0; b < 0x7C00; ++b) {
    if (next_up(b, DType::F16) != b + 1) ++bad;
    if (b > 0 && next_down(b, DType::F16) != b - 1) ++bad;
    if (ulp_distance(b, 0x8000 | b, DType::F16) != 2ull * b) ++bad;
  }
  REQUIRE(bad == 0);
}

TEST_CASE("exhaustive: every 4/8-bit float and every f16/bf16 pattern to every float dtype",
          "[numerics][formats][L4.14]") {
  struct Src {
    DType d;
    uint32_t count;
  };
  const Src srcs[] = {{DType::E4M3, 256},  {DType::E5M2, 256},  {DType::E2M1, 16},
                      {DType::E8M0, 256},  {DType::F16, 65536}, {DType::BF16, 65536}};
  long checks = 0, bad = 0;
  std::string first;
  for (const Src& s : srcs) {
    const reftest::Fmt sf = reftest::fmt(s.d);
    for (uint32_t b = 0; b < s.count; ++b) {
      const double v = reftest::decode(b, sf);
      // decode agrees with the test-side decoder
      if (!reftest::same(to_double(b, s.d), v)) {
        if (bad++ == 0) first = "decode " + std::string(kir::name(s.d)) + " " + hex(b);
      }
      for (DType to : kFloatTypes) {
        const reftest::Fmt tf = reftest::fmt(to);
        const double want = reftest::round(reftest::BF64(v), tf);
        auto r = cast(Scalar{s.d, b}, to);
        ++checks;
        bool ok;
        if (std::isnan(v) && to == DType::E2M1) {
          ok = !r.ok() && r.status() == Status::InvalidCast;
        } else {
          ok = r.ok() && reftest::same(reftest::decode(r->bits, tf), want) &&
               (!std::isnan(want) || std::isnan(v) || to == DType::E8M0 || to == DType::E4M3);
          // canonical NaN for NaN inputs
          if (ok && std::isnan(v)) ok = r->bits == float_format(to).canonical_nan;
        }
        // MPFR path gives the same bits
        if (ok && !std::isnan(v)) {
          mpfr_t x;
          mpfr_init2(x, 64);
          decode(x, b, s.d);
          ok = round_to(x, to) == r->bits;
          mpfr_clear(x);
        }
        if (!ok && bad++ == 0)
          first = std::string(kir::name(s.d)) + " " + hex(b) + " -> " +
                  std::string(kir::name(to)) + " got " + (r.ok() ? hex(r->bits) : "error");
      }
    }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
  REQUIRE(checks == 8 * (3 * 256 + 16 + 2 * 65536));
}

TEST_CASE("f32 -> small formats on every rounding boundary plus random inputs",
          "[numerics][formats][L4.14]") {
  std::mt19937 rng(12345);
  long checks = 0, bad = 0;
  std::string first;
  const DType targets[] = {DType::E4M3, DType::E5M2, DType::E2M1, DType::E8M0, DType::F16,
                           DType::BF16};
  for (DType to : targets) {
    const reftest::Fmt tf = reftest::fmt(to);
    std::vector<uint32_t> inputs;
    // boundaries: midpoints between adjacent representable values (and the overflow threshold
    // max + ulp/2), each with ±1, ±2 f32 ulps
    std::vector<double> vals;
    const uint32_t n = to == DType::E2M1 ? 16 : (to == DType::F16 || to == DType::BF16) ? 65536 : 256;
    for (uint32_t b = 0; b < n; ++b) {
      const double v = reftest::decode(b, tf);
      if (std::isfinite(v)) vals.push_back(v);
    }
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    const double top = vals.back();
    const double gap_top = top - vals[vals.size() - 2];
    if (to == DType::E8M0) vals.push_back(0x1p128);
    else vals.push_back(top + gap_top);  // the next value an unbounded format would have
    for (size_t i = 0; i + 1 < vals.size(); ++i) {
      const float mid = static_cast<float>((vals[i] + vals[i + 1]) / 2);  // exact in f32
      const uint32_t mb = reftest::f32_bits(mid);
      for (int k = -2; k <= 2; ++k) inputs.push_back(mb + uint32_t(k));
    }
    // the representable values themselves and random patterns
    for (double v : vals) inputs.push_back(reftest::f32_bits(static_cast<float>(v)));
    const size_t want = to == DType::F16 || to == DType::BF16 ? 400000 : 1000000;
    while (inputs.size() < want) inputs.push_back(rng());
    for (uint32_t in : inputs) {
      const float x = reftest::f32_from(in);
      const double expect = reftest::round(reftest::BF64(x), tf);
      const uint64_t got = from_double(double(x), to);
      ++checks;
      // NaN has no e2m1 encoding: from_double documents +0 (cast() reports an error)
      bool ok = (std::isnan(x) && to == DType::E2M1)
                    ? got == 0
                    : reftest::same(reftest::decode(got, tf), expect);
      if (ok && (in & 0x7FFFFFFF) < 0x7F800000 && (in & 1)) {
        // also through cast(), for half of the finite inputs
        auto c = cast(Scalar{DType::F32, in}, to);
        ok = c.ok() && c->bits == got;
      }
      if (!ok && bad++ == 0)
        first = "f32 " + hex(in) + " -> " + std::string(kir::name(to)) + " got " + hex(got);
    }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
  REQUIRE(checks >= 4000000);
}

TEST_CASE("round_to on wide MPFR values has no double rounding", "[numerics][formats]") {
  // x = midpoint(a, next(a)) ± 2^-k for a tiny k-dependent offset far below double precision:
  // a double-based path would see the exact midpoint and round to even.
  std::mt19937_64 rng(7);
  long checks = 0, bad = 0;
  std::string first;
  mpfr_t x, off;
  mpfr_init2(x, 400);
  mpfr_init2(off, 64);
  for (DType to : kFloatTypes) {
    if (to == DType::E8M0) continue;
    const reftest::Fmt tf = reftest::fmt(to);
    for (int i = 0; i < 4000; ++i) {
      uint64_t a = rng();
      if (to != DType::F64) a &= (uint64_t{1} << reftest::width(tf)) - 1;
      const double va = reftest::decode(a, tf);
      uint64_t nb = a + 1;
      if (to != DType::F64) nb &= (uint64_t{1} << reftest::width(tf)) - 1;
      const double vb = reftest::decode(nb, tf);
      if (!std::isfinite(va) || !std::isfinite(vb) || std::signbit(va) != std::signbit(vb))
        continue;
      const int sgn = (i & 1) ? 1 : -1;
      const int k = 60 + int(rng() % 200);
      mpfr_set_d(x, va, MPFR_RNDN);
      mpfr_add_d(x, x, vb, MPFR_RNDN);
      mpfr_div_2ui(x, x, 1, MPFR_RNDN);  // exact midpoint
      mpfr_set_si_2exp(off, sgn, mpfr_get_exp(x) - k, MPFR_RNDN);
      mpfr_add(x, x, off, MPFR_RNDN);  // exact at 400 bits
      reftest::BF400 bx = (reftest::BF400(va) + reftest::BF400(vb)) / 2 +
                          ldexp(reftest::BF400(sgn), int(mpfr_get_exp(x)) - k);
      const double expect = reftest::round(bx, tf);
      const uint64_t got = round_to(x, to);
      ++checks;
      if (!reftest::same(reftest::decode(got, tf), expect) && bad++ == 0)
        first = std::string(kir::name(to)) + " near " + hex(a) + " got " + hex(got);
    }
  }
  mpfr_clear(x);
  mpfr_clear(off);
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
  REQUIRE(checks > 10000);
}

TEST_CASE("FTZ flushes subnormal results to signed zero", "[numerics][formats]") {
  CHECK(from_double(0x1p-24, DType::F16, true) == 0x0000);
  CHECK(from_double(-0x1p-20, DType::F16, true) == 0x8000);
  CHECK(from_double(0x1p-14, DType::F16, true) == 0x0400);
  // rounds up to the smallest normal: kept
  CHECK(from_double(0x1.ffep-15, DType::F16, true) == 0x0400);
  CHECK(from_double(0x1p-130, DType::F32, true) == 0);
  CHECK(from_double(0x1p-130, DType::F32, false) == 0x00080000);
}
