// Casts between every pair of dtypes: exhaustive from every 4/8-bit source to every dtype,
// wide-integer sources against Boost, float->int edge cases, int wrap, bool, bitcast.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "numerics/cast.h"
#include "numerics/format.h"
#include "ref_float.h"

using kir::DType;
using namespace kir::num;

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const DType kAll[] = {DType::Bool, DType::I8,   DType::I16,  DType::I32,  DType::I64, DType::U8,
                      DType::U16,  DType::U32,  DType::U64,  DType::Index, DType::F16, DType::BF16,
                      DType::F32,  DType::F64,  DType::E4M3, DType::E5M2, DType::E2M1, DType::E8M0};

// Test-side value of an 8-bit-or-less source pattern.
double source_value(DType d, uint64_t b) {
  switch (d) {
    case DType::Bool: return double(b);
    case DType::I8: return double(int8_t(uint8_t(b)));
    case DType::U8: return double(b);
    default: return reftest::decode(b, reftest::fmt(d));
  }
}

int width(DType d) { return kir::info(d).bits; }

// Expected integer result bits of a cast of value v (from a float source) or nullopt = error.
bool expect_float_to_int(double v, DType to, uint64_t& bits) {
  if (!std::isfinite(v)) return false;
  const double t = std::trunc(v);
  const int w = width(to);
  if (kir::is_signed_integer(to)) {
    const double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1);
    if (!(t >= lo && t < hi)) return false;
    const int64_t i = static_cast<int64_t>(t);
    bits = static_cast<uint64_t>(i) & (w == 64 ? ~0ull : (1ull << w) - 1);
    return true;
  }
  if (!(t >= 0 && t < std::ldexp(1.0, w))) return false;
  bits = static_cast<uint64_t>(t);
  return true;
}

}  // namespace

TEST_CASE("exhaustive casts from every 8-bit and 4-bit source to every dtype",
          "[numerics][casts][L4.14]") {
  const struct {
    DType d;
    uint32_t n;
  } srcs[] = {{DType::Bool, 2},   {DType::I8, 256},   {DType::U8, 256},   {DType::E4M3, 256},
              {DType::E5M2, 256}, {DType::E2M1, 16},  {DType::E8M0, 256}};
  long checks = 0, bad = 0;
  std::string first;
  for (const auto& s : srcs) {
    for (uint32_t b = 0; b < s.n; ++b) {
      const double v = source_value(s.d, b);
      const bool src_int = !kir::is_any_float(s.d);
      for (DType to : kAll) {
        auto r = cast(Scalar{s.d, b}, to);
        ++checks;
        bool ok;
        if (to == DType::Bool) {
          ok = r.ok() && r->bits == ((std::isnan(v) || v != 0) ? 1u : 0u);
        } else if (kir::is_integer(to)) {
          uint64_t want = 0;
          if (src_int) {  // wrap
            const int w = width(to);
            want = static_cast<uint64_t>(static_cast<int64_t>(v)) &
                   (w == 64 ? ~0ull : (1ull << w) - 1);
            ok = r.ok() && r->bits == want;
          } else if (expect_float_to_int(v, to, want)) {
            ok = r.ok() && r->bits == want;
          } else {
            ok = !r.ok() && r.status() == Status::InvalidCast;
          }
        } else {
          const reftest::Fmt tf = reftest::fmt(to);
          if (std::isnan(v) && to == DType::E2M1) {
            ok = !r.ok() && r.status() == Status::InvalidCast;
          } else {
            const double want = reftest::round(reftest::BF64(v), tf);
            ok = r.ok() && reftest::same(reftest::decode(r->bits, tf), want);
          }
        }
        if (!ok && bad++ == 0)
          first = std::string(kir::name(s.d)) + " " + hex(b) + " -> " +
                  std::string(kir::name(to)) + " got " + (r.ok() ? hex(r->bits) : r.error().message);
      }
    }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
}

TEST_CASE("wide integers to floats round once (vs Boost)", "[numerics][casts][L4.14]") {
  std::mt19937_64 rng(99);
  const DType floats[] = {DType::F16, DType::BF16, DType::F32,  DType::F64,
                          DType::E4M3, DType::E5M2, DType::E2M1, DType::E8M0};
  long checks = 0, bad = 0;
  std::string first;
  for (int i = 0; i < 60000; ++i) {
    uint64_t raw = rng() >> (rng() % 64);  // spread magnitudes
    if (i < 64) raw = (1ull << i) + (i % 3 == 0 ? 1 : 0);
    for (DType src : {DType::I64, DType::U64, DType::I32, DType::U16}) {
      const Scalar x = make_int(src, (i & 1) && kir::is_signed_integer(src) ? 0 - raw : raw);
      reftest::BF64 exact = kir::is_signed_integer(src) ? reftest::BF64(as_signed(x))
                                                        : reftest::BF64(x.bits);
      for (DType to : floats) {
        const double want = reftest::round(exact, reftest::fmt(to));
        auto r = cast(x, to);
        ++checks;
        if (!(r.ok() && reftest::same(reftest::decode(r->bits, reftest::fmt(to)), want)) &&
            bad++ == 0)
          first = std::string(kir::name(src)) + " " + hex(x.bits) + " -> " +
                  std::string(kir::name(to));
      }
    }
  }
  INFO("first mismatch: " << first << " (" << bad << " of " << checks << ")");
  REQUIRE(bad == 0);
}

TEST_CASE("float to int: truncation, range errors", "[numerics][casts][L4.14]") {
  auto f64 = [](double v) { return Scalar{DType::F64, std::bit_cast<uint64_t>(v)}; };
  CHECK(cast(f64(-2.9), DType::I32)->bits == 0xFFFFFFFEu);
  CHECK(cast(f64(2.9), DType::U8)->bits == 2);
  CHECK(cast(f64(-0.9), DType::U8)->bits == 0);  // truncates to 0: in range
  CHECK(cast(f64(-1.0), DType::U8).status() == Status::InvalidCast);
  CHECK(cast(f64(255.99), DType::U8)->bits == 255);
  CHECK(cast(f64(256.0), DType::U8).status() == Status::InvalidCast);
  CHECK(cast(f64(-128.5), DType::I8)->bits == 0x80);
  CHECK(cast(f64(-129.0), DType::I8).status() == Status::InvalidCast);
  CHECK(cast(f64(0x1p63), DType::I64).status() == Status::InvalidCast);
  CHECK(cast(f64(-0x1p63), DType::I64)->bits == 0x8000000000000000ull);
  CHECK(cast(f64(-0x1p63), DType::Index)->bits == 0x8000000000000000ull);
  CHECK(cast(f64(0x1.fffffffffffffp63), DType::U64)->bits == 0xFFFFFFFFFFFFF800ull);
  CHECK(cast(f64(0x1p64), DType::U64).status() == Status::InvalidCast);
  CHECK(cast(f64(1e300), DType::I64).status() == Status::InvalidCast);
  CHECK(cast(f64(NAN), DType::I32).status() == Status::InvalidCast);
  CHECK(cast(f64(-INFINITY), DType::I32).status() == Status::InvalidCast);
  CHECK(cast(f64(0x1p-1074), DType::I32)->bits == 0);
  // int -> int wraps
  CHECK(cast(make_int(DType::I32, 0xFFFFFF80u), DType::I8)->bits == 0x80);
  CHECK(cast(make_int(DType::I8, 0x80), DType::I64)->bits == 0xFFFFFFFFFFFFFF80ull);
  CHECK(cast(make_int(DType::I8, 0x80), DType::U16)->bits == 0xFF80);
  CHECK(cast(make_int(DType::U64, ~0ull), DType::I32)->bits == 0xFFFFFFFFu);
  CHECK(cast(make_int(DType::U8, 0xFF), DType::I64)->bits == 0xFF);
  // bool
  CHECK(cast(make_int(DType::I32, 5), DType::Bool)->bits == 1);
  CHECK(cast(f64(-0.0), DType::Bool)->bits == 0);
  CHECK(cast(f64(NAN), DType::Bool)->bits == 1);
  CHECK(cast(make_bool(true), DType::F16)->bits == 0x3C00);
  CHECK(cast(make_bool(true), DType::E8M0)->bits == 0x7F);
  CHECK(cast(make_bool(false), DType::E8M0)->bits == 0xFF);  // e8m0 has no zero
  // ints -> small floats: overflow rules
  CHECK(cast(make_int(DType::I32, 1000), DType::E4M3)->bits == 0x7F);
  CHECK(cast(make_int(DType::I32, 0xFFFFFC18u), DType::E4M3)->bits == 0xFF);  // -1000
  CHECK(cast(make_int(DType::I32, 1000), DType::E2M1)->bits == 0x7);
  CHECK(cast(make_int(DType::I32, 70000), DType::F16)->bits == 0x7C00);
  CHECK(cast(make_int(DType::U64, ~0ull), DType::F32)->bits == 0x5F800000);
}

TEST_CASE("bitcast needs equal widths", "[numerics][casts][L4.14]") {
  CHECK(bitcast(Scalar{DType::F32, 0x3F800000}, DType::I32)->bits == 0x3F800000);
  CHECK(bitcast(Scalar{DType::F16, 0x7C01}, DType::U16)->bits == 0x7C01);  // payload kept
  CHECK(bitcast(Scalar{DType::U8, 0x7F}, DType::E4M3)->bits == 0x7F);
  CHECK(bitcast(Scalar{DType::E8M0, 0x80}, DType::I8)->bits == 0x80);
  CHECK(bitcast(Scalar{DType::F64, 1}, DType::Index)->bits == 1);
  CHECK(bitcast(Scalar{DType::F16, 0}, DType::BF16).ok());
  CHECK(bitcast(Scalar{DType::F32, 0}, DType::F64).status() == Status::TypeMismatch);
  CHECK(bitcast(Scalar{DType::E2M1, 0}, DType::U8).status() == Status::TypeMismatch);
  CHECK(bitcast(make_bool(true), DType::U8).status() == Status::TypeMismatch);
  CHECK(bitcast(Scalar{DType::U8, 1}, DType::Bool).status() == Status::TypeMismatch);
}
