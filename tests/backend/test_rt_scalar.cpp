// The CPU backend's scalar runtime (backends/cpu/rt/kir_rt.h) against the numerics library, bit for
// bit: generated code calls the runtime, so this is where the numerics contract ([C9]) is kept for
// compiled scalar operations. Exhaustive over every 8- and 16-bit code; >= 10^6 f32 and f64 values
// (random, specials, and every rounding boundary of every narrow format) for casts from f32/f64.
#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include "backends/cpu/rt/kir_rt.h"
#include "numerics/arith.h"
#include "numerics/cast.h"
#include "numerics/fnuz.h"
#include "numerics/format.h"

namespace {

namespace num = kir::num;
namespace rt = kir_rt;
using kir::DType;

template <class D>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<D, rt::dt_bool>) return DType::Bool;
  else if constexpr (std::is_same_v<D, rt::dt_i8>) return DType::I8;
  else if constexpr (std::is_same_v<D, rt::dt_i16>) return DType::I16;
  else if constexpr (std::is_same_v<D, rt::dt_i32>) return DType::I32;
  else if constexpr (std::is_same_v<D, rt::dt_i64>) return DType::I64;
  else if constexpr (std::is_same_v<D, rt::dt_u8>) return DType::U8;
  else if constexpr (std::is_same_v<D, rt::dt_u16>) return DType::U16;
  else if constexpr (std::is_same_v<D, rt::dt_u32>) return DType::U32;
  else if constexpr (std::is_same_v<D, rt::dt_u64>) return DType::U64;
  else if constexpr (std::is_same_v<D, rt::dt_index>) return DType::Index;
  else if constexpr (std::is_same_v<D, rt::dt_f16>) return DType::F16;
  else if constexpr (std::is_same_v<D, rt::dt_bf16>) return DType::BF16;
  else if constexpr (std::is_same_v<D, rt::dt_f32>) return DType::F32;
  else if constexpr (std::is_same_v<D, rt::dt_f64>) return DType::F64;
  else if constexpr (std::is_same_v<D, rt::dt_e4m3>) return DType::E4M3;
  else if constexpr (std::is_same_v<D, rt::dt_e5m2>) return DType::E5M2;
  else if constexpr (std::is_same_v<D, rt::dt_e2m1>) return DType::E2M1;
  else return DType::E8M0;
}

using AllDTypes =
    std::tuple<rt::dt_bool, rt::dt_i8, rt::dt_i16, rt::dt_i32, rt::dt_i64, rt::dt_u8, rt::dt_u16,
               rt::dt_u32, rt::dt_u64, rt::dt_index, rt::dt_f16, rt::dt_bf16, rt::dt_f32,
               rt::dt_f64, rt::dt_e4m3, rt::dt_e5m2, rt::dt_e2m1, rt::dt_e8m0>;

// Storage value -> the numerics Scalar bit pattern (right-aligned, two's complement of the width).
template <class T>
uint64_t bits_of(T x) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(x);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(x);
  else return uint64_t(std::make_unsigned_t<T>(x));
}
template <class T>
T from_bits(uint64_t b) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(uint32_t(b));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(b);
  else return T(std::make_unsigned_t<T>(b));
}

int32_t code_of(num::Status s) {
  switch (s) {
    case num::Status::Ok: return KIR_FAULT_NONE;
    case num::Status::DivideByZero: return KIR_FAULT_DIVIDE_BY_ZERO;
    case num::Status::IntOverflow: return KIR_FAULT_INT_OVERFLOW;
    case num::Status::ShiftOutOfRange: return KIR_FAULT_SHIFT_OUT_OF_RANGE;
    case num::Status::InvalidCast: return KIR_FAULT_INVALID_CAST;
    default: return -1;
  }
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// Counts mismatches and keeps the first few descriptions (one CHECK per batch keeps Catch fast).
struct Mismatches {
  uint64_t count = 0;
  uint64_t checked = 0;
  std::string first;
  void add(const std::string& what) {
    if (count++ < 8) first += what + "\n";
  }
};

// Runs body(lo, hi, mm) over [0, n) on up to four threads (the reference library is pure; MPFR is
// thread-safe) and merges the records.
template <class Body>
void par_for(size_t n, Mismatches& mm, Body body) {
  const size_t k = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<Mismatches> parts(k);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < k; ++i)
    threads.emplace_back([&, i] { body(n * i / k, n * (i + 1) / k, parts[i]); });
  for (auto& t : threads) t.join();
  for (const auto& p : parts) {
    mm.checked += p.checked;
    if (mm.count < 8) mm.first += p.first;
    mm.count += p.count;
  }
}

#define CHECK_NO_MISMATCH(mm)       \
  do {                              \
    INFO((mm).first);               \
    CHECK((mm).count == 0);         \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Casts

template <class F, class T>
void check_cast(typename F::type x, Mismatches& mm) {
  typename T::type out;
  const int32_t c = rt::cast<F, T>(x, &out);
  const auto ref = num::cast(num::Scalar{dtype_of<F>(), bits_of(x)}, dtype_of<T>());
  const int32_t want_code = code_of(ref.status());
  const uint64_t want = ref.ok() ? ref->bits : 0;
  const uint64_t got = bits_of(out);
  ++mm.checked;
  if (c != want_code || got != want)
    mm.add(std::string(kir::name(dtype_of<F>())) + " " + hex(bits_of(x)) + " -> " +
           std::string(kir::name(dtype_of<T>())) + ": rt " + hex(got) + " code " +
           std::to_string(c) + ", numerics " + hex(want) + " code " + std::to_string(want_code));
}

template <class F, class T>
void check_cast_all(const std::vector<typename F::type>& xs, Mismatches& mm) {
  par_for(xs.size(), mm, [&](size_t lo, size_t hi, Mismatches& m) {
    for (size_t i = lo; i < hi; ++i) check_cast<F, T>(xs[i], m);
  });
}

// Every cast from F, over the inputs xs; one CHECK per target dtype.
template <class F, class... Ts>
void check_casts_from(const std::vector<typename F::type>& xs, std::tuple<Ts...>*) {
  auto one = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    Mismatches mm;
    check_cast_all<F, T>(xs, mm);
    INFO(std::string(kir::name(dtype_of<F>())) + " -> " + std::string(kir::name(dtype_of<T>())) +
         ", " + std::to_string(mm.checked) + " values");
    CHECK_NO_MISMATCH(mm);
  };
  (one(static_cast<Ts*>(nullptr)), ...);
}

template <class F>
void check_casts_from(const std::vector<typename F::type>& xs) {
  check_casts_from<F>(xs, static_cast<AllDTypes*>(nullptr));
}

template <class T>
std::vector<T> all_codes() {
  std::vector<T> v;
  for (uint64_t b = 0; b <= std::numeric_limits<std::make_unsigned_t<T>>::max(); ++b)
    v.push_back(from_bits<T>(b));
  return v;
}

// Finite values of a format in increasing order (±0 once).
std::vector<double> sorted_values(const std::vector<double>& raw) {
  std::vector<double> v;
  for (double x : raw)
    if (std::isfinite(x)) v.push_back(x == 0 ? 0.0 : x);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}
std::vector<double> format_values(DType d) {
  std::vector<double> raw;
  const uint64_t n = d == DType::F16 || d == DType::BF16 ? 65536 : d == DType::E2M1 ? 16 : 256;
  for (uint64_t c = 0; c < n; ++c) raw.push_back(num::to_double(c, d));
  return sorted_values(raw);
}
std::vector<double> fnuz_values(num::Fnuz f) {
  std::vector<double> raw;
  for (int c = 0; c < 256; ++c) raw.push_back(num::fnuz_to_double(uint8_t(c), f));
  return sorted_values(raw);
}

// Every value of a format, every rounding point between neighbours (the midpoint; for e8m0 it is
// 1.5 * 2^k, also the arithmetic midpoint) and the overflow rounding point beyond ±max, each with
// its neighbours in T.
template <class T>
void add_boundaries(std::vector<T>& out, const std::vector<double>& vals) {
  auto with_neighbours = [&](double m) {
    const T t = T(m);
    out.push_back(t);
    out.push_back(std::nextafter(t, T(-INFINITY)));
    out.push_back(std::nextafter(t, T(INFINITY)));
  };
  for (size_t i = 0; i < vals.size(); ++i) {
    out.push_back(T(vals[i]));
    if (i + 1 < vals.size()) with_neighbours((vals[i] + vals[i + 1]) / 2);
  }
  const size_t n = vals.size();
  if (n >= 2) {
    with_neighbours(vals[n - 1] + (vals[n - 1] - vals[n - 2]) / 2);
    with_neighbours(vals[0] - (vals[1] - vals[0]) / 2);
  }
}

template <class T>
void add_specials(std::vector<T>& v) {
  using L = std::numeric_limits<T>;
  const T base[] = {T(0), T(1), T(0.5), T(1.5), T(2), T(3), T(6), T(7), T(448), T(464), T(480),
                    T(65504), T(65520), T(57344), T(240), T(248), L::infinity(), L::max(),
                    L::min(), L::denorm_min(), T(L::min() / 2), L::epsilon(),
                    T(0.9), T(0.99999), T(127.5), T(128), T(255.9), T(256)};
  for (T x : base) {
    v.push_back(x);
    v.push_back(-x);
  }
  // NaNs with various signs and payloads
  if constexpr (std::is_same_v<T, float>) {
    for (uint32_t b : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u, 0x7FBFFFFFu, 0x7FC12345u})
      v.push_back(std::bit_cast<float>(b));
  } else {
    for (uint64_t b : {0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull,
                       0xFFF0000000000001ull, 0x7FF7FFFFFFFFFFFFull, 0x7FF8000012345678ull})
      v.push_back(std::bit_cast<double>(b));
  }
  // integer-range boundaries for float -> int, with fractions and neighbours
  for (int w : {8, 16, 32, 64}) {
    const double p = std::ldexp(1.0, w), h = std::ldexp(1.0, w - 1);
    for (double x : {p, h, p - 1, h - 1, -h, -h - 1, p - 0.5, h - 0.5, -h - 0.5, -h + 0.5}) {
      const T t = T(x);
      v.push_back(t);
      v.push_back(std::nextafter(t, T(0)));
      v.push_back(std::nextafter(t, T(INFINITY)));
      v.push_back(std::nextafter(t, T(-INFINITY)));
    }
  }
  for (double x : {-1.0, -0.5, -0.999, 1e-300, -1e-300})
    v.push_back(T(x));
  // e8m0 rounding points 1.5 * 2^k and its range ends
  for (int k = -152; k <= 130; ++k) {
    const T t = T(std::ldexp(1.5, k));
    for (T x : {t, std::nextafter(t, T(0)), std::nextafter(t, T(INFINITY)), T(std::ldexp(1.0, k)),
                T(std::ldexp(0.75, k))})
      v.push_back(x);
  }
}

// >= 10^6 values: specials, every rounding boundary of every narrower format (for doubles also
// f32's, around random floats), then random: half uniform bit patterns, half with exponents in
// the range where the narrow formats live.
template <class T>
std::vector<T> float_inputs(uint64_t seed) {
  std::vector<T> v;
  add_specials(v);
  for (DType d : {DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::E2M1, DType::E8M0})
    add_boundaries(v, format_values(d));
  add_boundaries(v, fnuz_values(num::Fnuz::E4M3));
  add_boundaries(v, fnuz_values(num::Fnuz::E5M2));
  std::mt19937_64 g(seed);
  if constexpr (std::is_same_v<T, double>) {
    for (int i = 0; i < 60000; ++i) {  // f64 -> f32 rounding points around random floats
      const float f = std::bit_cast<float>(uint32_t(g()) & 0x7F7FFFFFu) * (g() & 1 ? 1.0f : -1.0f);
      const double next = double(std::nextafter(f, f < 0 ? -INFINITY : INFINITY));
      const double mid = (double(f) + next) / 2;
      for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY), double(f)})
        v.push_back(x);
    }
  }
  const size_t target = 1'100'000;
  while (v.size() < target) {
    const uint64_t r = g();
    if (r & 1) {
      v.push_back(from_bits<T>(g()));
    } else {
      // exponent in [-160, 140], random significand and sign
      const int e = int(g() % 301) - 160;
      const double m = 1.0 + double(g() >> 11) * 0x1p-53;
      const T x = T(std::ldexp(m, e));
      v.push_back((r & 2) ? -x : x);
    }
  }
  return v;
}

template <class T>
std::vector<T> int_inputs(uint64_t seed, size_t n) {
  using L = std::numeric_limits<T>;
  std::vector<T> v;
  for (T x : {T(0), T(1), T(2), T(3), T(L::max()), T(L::min()), T(L::max() - 1), T(L::min() + 1),
              T(-1), T(-2)})
    v.push_back(x);
  // values around powers of two and float rounding points (2^k ± small, 2^k + 2^(k-p) ...)
  for (int k = 1; k < int(sizeof(T) * 8); ++k)
    for (int j = 0; j < k; j += (j < 4 ? 1 : 3)) {
      const uint64_t p = uint64_t(1) << k, q = uint64_t(1) << j;
      for (uint64_t b : {p, p + q, p - q, p + q + 1, p + q - 1, p - q + 1, p - q - 1})
        for (uint64_t s : {b, 0 - b}) v.push_back(from_bits<T>(s));
    }
  std::mt19937_64 g(seed);
  while (v.size() < n) {
    const uint64_t r = g();
    const int len = int(g() % 65);  // random bit length for a spread of magnitudes
    const uint64_t mag = len == 0 ? 0 : len == 64 ? r : r & ((uint64_t(1) << len) - 1);
    v.push_back(from_bits<T>(g() & 1 ? 0 - mag : mag));
  }
  return v;
}

TEST_CASE("kir_rt widening conversions are exact on every 16- and 8-bit code", "[C9][rt-decode]") {
  Mismatches mm;
  auto same = [](double got, double want) {
    return std::isnan(want) ? std::isnan(got) : std::bit_cast<uint64_t>(got) ==
                                                    std::bit_cast<uint64_t>(want);
  };
  auto canon32 = [](float f) { return !std::isnan(f) || std::bit_cast<uint32_t>(f) == 0x7FC00000u; };
  for (uint32_t c = 0; c < 65536; ++c) {
    const float a = rt::f16_to_f32(uint16_t(c)), b = rt::bf16_to_f32(uint16_t(c));
    if (!same(a, num::to_double(c, DType::F16)) || !canon32(a)) mm.add("f16 " + hex(c));
    if (!same(b, num::to_double(c, DType::BF16)) || !canon32(b)) mm.add("bf16 " + hex(c));
    if (!same(rt::f16_to_f64(uint16_t(c)), num::to_double(c, DType::F16))) mm.add("f16->f64 " + hex(c));
    if (!same(rt::bf16_to_f64(uint16_t(c)), num::to_double(c, DType::BF16))) mm.add("bf16->f64 " + hex(c));
  }
  struct Dec {
    const char* name;
    float (*f32)(uint8_t);
    double (*f64)(uint8_t);
    double (*ref)(uint8_t);
  };
  const Dec decs[] = {
      {"e4m3", rt::e4m3_to_f32, rt::e4m3_to_f64, [](uint8_t c) { return num::to_double(c, DType::E4M3); }},
      {"e5m2", rt::e5m2_to_f32, rt::e5m2_to_f64, [](uint8_t c) { return num::to_double(c, DType::E5M2); }},
      {"e2m1", rt::e2m1_to_f32, rt::e2m1_to_f64, [](uint8_t c) { return num::to_double(c, DType::E2M1); }},
      {"e8m0", rt::e8m0_to_f32, rt::e8m0_to_f64, [](uint8_t c) { return num::to_double(c, DType::E8M0); }},
      {"e4m3fnuz", rt::e4m3fnuz_to_f32, rt::e4m3fnuz_to_f64,
       [](uint8_t c) { return num::fnuz_to_double(c, num::Fnuz::E4M3); }},
      {"e5m2fnuz", rt::e5m2fnuz_to_f32, rt::e5m2fnuz_to_f64,
       [](uint8_t c) { return num::fnuz_to_double(c, num::Fnuz::E5M2); }},
  };
  for (const Dec& d : decs)
    for (uint32_t c = 0; c < 256; ++c) {
      const double want = d.ref(uint8_t(c));
      const float f = d.f32(uint8_t(c));
      const double g = d.f64(uint8_t(c));
      if (!same(f, want) || !same(g, want) || !canon32(f) ||
          (std::isnan(g) && std::bit_cast<uint64_t>(g) != 0x7FF8000000000000ull))
        mm.add(std::string(d.name) + " " + hex(c));
    }
  CHECK(std::bit_cast<uint32_t>(rt::e8m0_to_f32(0x00)) == 0x00400000u);  // docs: the f32 subnormal
  CHECK_NO_MISMATCH(mm);
}

TEST_CASE("kir_rt casts from every 8- and 16-bit dtype agree with numerics::cast on every code",
          "[C9][rt-cast]") {
  check_casts_from<rt::dt_bool>({0, 1});
  check_casts_from<rt::dt_i8>(all_codes<int8_t>());
  check_casts_from<rt::dt_u8>(all_codes<uint8_t>());
  check_casts_from<rt::dt_e4m3>(all_codes<uint8_t>());
  check_casts_from<rt::dt_e5m2>(all_codes<uint8_t>());
  check_casts_from<rt::dt_e2m1>(all_codes<uint8_t>());  // the high nibble is ignored by both
  check_casts_from<rt::dt_e8m0>(all_codes<uint8_t>());
  check_casts_from<rt::dt_i16>(all_codes<int16_t>());
  check_casts_from<rt::dt_u16>(all_codes<uint16_t>());
  check_casts_from<rt::dt_f16>(all_codes<uint16_t>());
  check_casts_from<rt::dt_bf16>(all_codes<uint16_t>());
}

TEST_CASE("kir_rt casts from f32 and f64 agree with numerics::cast on 10^6 values with boundaries",
          "[C9][rt-cast]") {
  const auto f32s = float_inputs<float>(0xC9F32);
  const auto f64s = float_inputs<double>(0xC9F64);
  REQUIRE(f32s.size() >= 1'000'000);
  REQUIRE(f64s.size() >= 1'000'000);
  check_casts_from<rt::dt_f32>(f32s);
  check_casts_from<rt::dt_f64>(f64s);
}

TEST_CASE("kir_rt casts from 32- and 64-bit integers agree with numerics::cast", "[C9][rt-cast]") {
  check_casts_from<rt::dt_i32>(int_inputs<int32_t>(1, 100'000));
  check_casts_from<rt::dt_u32>(int_inputs<uint32_t>(2, 100'000));
  check_casts_from<rt::dt_i64>(int_inputs<int64_t>(3, 200'000));
  check_casts_from<rt::dt_u64>(int_inputs<uint64_t>(4, 200'000));
  check_casts_from<rt::dt_index>(int_inputs<int64_t>(5, 50'000));
}

TEST_CASE("kir_rt fnuz float8 encoders agree with numerics::fnuz_from_double", "[C9][rt-fnuz]") {
  const auto f32s = float_inputs<float>(0xF32F);
  const auto f64s = float_inputs<double>(0xF64F);
  Mismatches mm;
  for (auto [f, n] : {std::pair{num::Fnuz::E4M3, "e4m3fnuz"}, std::pair{num::Fnuz::E5M2, "e5m2fnuz"}}) {
    const bool e4 = f == num::Fnuz::E4M3;
    for (double x : f64s) {
      const uint8_t got = e4 ? rt::f64_to_e4m3fnuz(x) : rt::f64_to_e5m2fnuz(x);
      const uint8_t want = num::fnuz_from_double(x, f);
      if (got != want) mm.add(std::string(n) + " f64 " + hex(std::bit_cast<uint64_t>(x)));
    }
    for (float x : f32s) {
      const uint8_t got = e4 ? rt::f32_to_e4m3fnuz(x) : rt::f32_to_e5m2fnuz(x);
      const uint8_t want = num::fnuz_from_double(double(x), f);
      if (got != want) mm.add(std::string(n) + " f32 " + hex(std::bit_cast<uint32_t>(x)));
    }
    // round trip of every code (NaN 0x80 included)
    for (int c = 0; c < 256; ++c) {
      const double v = e4 ? rt::e4m3fnuz_to_f64(uint8_t(c)) : rt::e5m2fnuz_to_f64(uint8_t(c));
      const uint8_t back = e4 ? rt::f64_to_e4m3fnuz(v) : rt::f64_to_e5m2fnuz(v);
      if (back != (c == 0x80 ? 0x80 : c)) mm.add(std::string(n) + " round trip " + hex(uint64_t(c)));
    }
  }
  CHECK_NO_MISMATCH(mm);
}

TEST_CASE("kir_rt named casts, value forms and raw e2m1 encoders", "[C9][rt-cast]") {
  static_assert(rt::cast_can_fail<rt::dt_f32, rt::dt_i32>);
  static_assert(rt::cast_can_fail<rt::dt_f16, rt::dt_e2m1>);
  static_assert(!rt::cast_can_fail<rt::dt_e2m1, rt::dt_e2m1>);
  static_assert(!rt::cast_can_fail<rt::dt_i64, rt::dt_e2m1>);
  static_assert(!rt::cast_can_fail<rt::dt_f64, rt::dt_bool>);
  CHECK(rt::cast_f32_f16(65520.0f) == 0x7C00);
  CHECK(rt::cast_f64_e4m3(464.0) == 0x7E);
  CHECK(rt::cast_f64_e4m3(-465.0) == 0xFF);
  uint8_t e2 = 0xAA;
  CHECK(rt::cast_f64_e2m1(7.0, &e2) == KIR_FAULT_NONE);
  CHECK(e2 == 0x7);  // saturates to 6
  CHECK(rt::cast_f32_e2m1(NAN, &e2) == KIR_FAULT_INVALID_CAST);
  CHECK(e2 == 0);
  CHECK(rt::cast_e2m1_f32(0x7) == 6.0f);
  CHECK(rt::cast_bool_e8m0(0) == 0xFF);
  CHECK(rt::cast_bool_e8m0(1) == 0x7F);
  CHECK(rt::cast_i64_bf16(int64_t((uint64_t(1) << 62) + (uint64_t(1) << 54) + 1)) ==
        rt::f64_to_bf16(std::ldexp(1.0, 62) + std::ldexp(1.0, 55)));  // rounds up, not to even
  int32_t i = 7;
  CHECK(rt::cast_f64_i32(-2147483648.9, &i) == KIR_FAULT_NONE);
  CHECK(i == INT32_MIN);
  CHECK(rt::cast_f64_i32(2147483648.0, &i) == KIR_FAULT_INVALID_CAST);
  CHECK(i == 0);
  uint64_t u = 1;
  CHECK(rt::cast_f64_u64(-0.9, &u) == KIR_FAULT_NONE);
  CHECK(u == 0);
  CHECK(rt::f64_to_u64(18446744073709549568.0, &u) == KIR_FAULT_NONE);
  CHECK(u == 18446744073709549568ull);
  CHECK(rt::f64_to_u64(18446744073709551616.0, &u) == KIR_FAULT_INVALID_CAST);
  // raw encoders (no status) = numerics' round_to (from_double), NaN -> +0 for e2m1
  Mismatches mm;
  for (double x : float_inputs<double>(77)) {
    if (rt::f64_to_e2m1_raw(x) != num::from_double(x, DType::E2M1)) mm.add("e2m1 raw " + hex(std::bit_cast<uint64_t>(x)));
    const float f = float(x);
    if (rt::f32_to_e2m1_raw(f) != num::from_double(double(f), DType::E2M1)) mm.add("e2m1 raw f32");
    if (rt::f32_to_e8m0(f) != num::from_double(double(f), DType::E8M0)) mm.add("e8m0 f32 " + hex(std::bit_cast<uint32_t>(f)));
  }
  CHECK_NO_MISMATCH(mm);
}

// ---------------------------------------------------------------------------------------------
// Float arithmetic

using num::BinaryOp;
using num::CompareOp;
using num::UnaryOp;

// Second operands: specials (±0, ±Inf, NaNs, extremes of each range) plus random codes.
std::vector<uint64_t> chosen_codes(DType d, int n_random, uint64_t seed) {
  const num::FloatFormat& f = num::float_format(d);
  std::vector<uint64_t> v;
  const uint64_t s = uint64_t(1) << (f.bits - 1);
  for (uint64_t m : {uint64_t(0), uint64_t(1), uint64_t(2), num::max_finite(d), num::max_finite(d) - 1,
                     uint64_t(1) << f.man_bits, (uint64_t(1) << f.man_bits) - 1,
                     (uint64_t(1) << f.man_bits) + 1, uint64_t(f.bias) << f.man_bits,
                     (uint64_t(f.bias) << f.man_bits) + 1, (uint64_t(f.bias + 1) << f.man_bits) | 1,
                     f.canonical_nan, s - 1}) {
    v.push_back(m);
    v.push_back(m | s);
  }
  if (f.has_inf) {
    v.push_back(num::inf_bits(d));
    v.push_back(num::inf_bits(d, true));
  }
  std::mt19937_64 g(seed);
  for (int i = 0; i < n_random; ++i) v.push_back(g() & (s | (s - 1)));
  return v;
}

template <class C>
void check_binary(DType d, BinaryOp op, C (*fn)(C, C), const std::vector<uint64_t>& as,
                  const std::vector<uint64_t>& bs, Mismatches& mm) {
  par_for(as.size(), mm, [&](size_t lo, size_t hi, Mismatches& m) {
    for (size_t i = lo; i < hi; ++i)
      for (uint64_t b : bs) {
        const uint64_t a = as[i];
        const uint64_t got = fn(C(a), C(b));
        const auto ref = num::binary(op, num::Scalar{d, a}, num::Scalar{d, b});
        ++m.checked;
        if (!ref.ok() || ref->bits != got)
          m.add(std::string(kir::name(d)) + " " + num::op_name(op) + "(" + hex(a) + ", " + hex(b) +
                "): rt " + hex(got) + ", numerics " + (ref.ok() ? hex(ref->bits) : "error"));
      }
  });
}

template <class C>
void check_compare(DType d, const std::vector<uint64_t>& as, const std::vector<uint64_t>& bs,
                   bool (*const (&fns)[6])(C, C), Mismatches& mm) {
  const CompareOp ops[6] = {CompareOp::Eq, CompareOp::Ne, CompareOp::Lt,
                            CompareOp::Le, CompareOp::Gt, CompareOp::Ge};
  par_for(as.size(), mm, [&](size_t lo, size_t hi, Mismatches& m) {
    for (size_t i = lo; i < hi; ++i)
      for (uint64_t b : bs)
        for (int k = 0; k < 6; ++k) {
          const uint64_t a = as[i];
          const bool got = fns[k](C(a), C(b));
          const auto ref = num::compare(ops[k], num::Scalar{d, a}, num::Scalar{d, b});
          if (!ref.ok() || *ref != got)
            m.add(std::string(kir::name(d)) + " compare " + std::to_string(k) + "(" + hex(a) + ", " +
                  hex(b) + ")");
        }
  });
}

template <class C>
void check_unary(DType d, UnaryOp op, C (*fn)(C), const std::vector<uint64_t>& as, Mismatches& mm) {
  for (uint64_t a : as) {
    const uint64_t got = fn(C(a));
    const auto ref = num::unary(op, num::Scalar{d, a});
    if (!ref.ok() || ref->bits != got)
      mm.add(std::string(kir::name(d)) + " " + num::op_name(op) + "(" + hex(a) + "): rt " + hex(got) +
             ", numerics " + (ref.ok() ? hex(ref->bits) : "error"));
  }
}

std::vector<uint64_t> range_codes(uint64_t n) {
  std::vector<uint64_t> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

struct Half {
  DType d;
  uint16_t (*add)(uint16_t, uint16_t), (*sub)(uint16_t, uint16_t), (*mul)(uint16_t, uint16_t),
      (*div)(uint16_t, uint16_t), (*min)(uint16_t, uint16_t), (*max)(uint16_t, uint16_t);
  uint16_t (*neg)(uint16_t), (*abs)(uint16_t), (*sqrt)(uint16_t), (*floor)(uint16_t);
  bool (*cmp[6])(uint16_t, uint16_t);
};
const Half kHalves[] = {
    {DType::F16, rt::add_f16, rt::sub_f16, rt::mul_f16, rt::div_f16, rt::min_f16, rt::max_f16,
     rt::neg_f16, rt::abs_f16, rt::sqrt_f16, rt::floor_f16,
     {rt::eq_f16, rt::ne_f16, rt::lt_f16, rt::le_f16, rt::gt_f16, rt::ge_f16}},
    {DType::BF16, rt::add_bf16, rt::sub_bf16, rt::mul_bf16, rt::div_bf16, rt::min_bf16, rt::max_bf16,
     rt::neg_bf16, rt::abs_bf16, rt::sqrt_bf16, rt::floor_bf16,
     {rt::eq_bf16, rt::ne_bf16, rt::lt_bf16, rt::le_bf16, rt::gt_bf16, rt::ge_bf16}},
};

TEST_CASE("kir_rt f16/bf16 arithmetic: every code against chosen second operands",
          "[C9][rt-arith]") {
  const auto all = range_codes(65536);
  for (const Half& h : kHalves) {
    const auto bs = chosen_codes(h.d, 172, 0xB16 + int(h.d));   // 200 second operands
    const auto few = chosen_codes(h.d, 20, 0xC16 + int(h.d));   // 48
    const auto cmp = chosen_codes(h.d, 12, 0xD16 + int(h.d));   // 40 (x 6 predicates)
    Mismatches mm;
    check_binary(h.d, BinaryOp::Add, h.add, all, bs, mm);
    check_binary(h.d, BinaryOp::Mul, h.mul, all, bs, mm);
    check_binary(h.d, BinaryOp::Div, h.div, all, bs, mm);
    check_binary(h.d, BinaryOp::Div, h.div, few, all, mm);  // every code as divisor too
    check_binary(h.d, BinaryOp::Sub, h.sub, all, few, mm);
    check_binary(h.d, BinaryOp::Min, h.min, all, few, mm);
    check_binary(h.d, BinaryOp::Max, h.max, all, few, mm);
    check_compare<uint16_t>(h.d, all, cmp, h.cmp, mm);
    check_unary(h.d, UnaryOp::Neg, h.neg, all, mm);
    check_unary(h.d, UnaryOp::Abs, h.abs, all, mm);
    check_unary(h.d, UnaryOp::Sqrt, h.sqrt, all, mm);
    check_unary(h.d, UnaryOp::Floor, h.floor, all, mm);
    INFO(std::string(kir::name(h.d)) + ": " + std::to_string(mm.checked) + " binary checks");
    CHECK_NO_MISMATCH(mm);
  }
}

TEST_CASE("kir_rt e4m3/e5m2/e2m1/e8m0 arithmetic on all pairs", "[C9][rt-arith]") {
  struct Small {
    DType d;
    uint8_t (*add)(uint8_t, uint8_t), (*sub)(uint8_t, uint8_t), (*mul)(uint8_t, uint8_t),
        (*div)(uint8_t, uint8_t);
    uint8_t (*sqrt)(uint8_t), (*floor)(uint8_t);
  };
  const Small smalls[] = {
      {DType::E4M3, rt::add_e4m3, rt::sub_e4m3, rt::mul_e4m3, rt::div_e4m3, rt::sqrt_e4m3, rt::floor_e4m3},
      {DType::E5M2, rt::add_e5m2, rt::sub_e5m2, rt::mul_e5m2, rt::div_e5m2, rt::sqrt_e5m2, rt::floor_e5m2},
      {DType::E8M0, rt::add_e8m0, rt::sub_e8m0, rt::mul_e8m0, rt::div_e8m0, rt::sqrt_e8m0, rt::floor_e8m0},
  };
  const auto all = range_codes(256);
  for (const Small& s : smalls) {
    Mismatches mm;
    check_binary(s.d, BinaryOp::Add, s.add, all, all, mm);
    check_binary(s.d, BinaryOp::Sub, s.sub, all, all, mm);
    check_binary(s.d, BinaryOp::Mul, s.mul, all, all, mm);
    check_binary(s.d, BinaryOp::Div, s.div, all, all, mm);
    check_unary(s.d, UnaryOp::Sqrt, s.sqrt, all, mm);
    check_unary(s.d, UnaryOp::Floor, s.floor, all, mm);
    INFO(kir::name(s.d));
    CHECK_NO_MISMATCH(mm);
  }
  Mismatches mm;
  check_binary(DType::E4M3, BinaryOp::Min, rt::min_e4m3, all, all, mm);
  check_binary(DType::E4M3, BinaryOp::Max, rt::max_e4m3, all, all, mm);
  check_binary(DType::E5M2, BinaryOp::Min, rt::min_e5m2, all, all, mm);
  check_binary(DType::E5M2, BinaryOp::Max, rt::max_e5m2, all, all, mm);
  check_binary(DType::E8M0, BinaryOp::Min, rt::min_e8m0, all, all, mm);
  check_binary(DType::E8M0, BinaryOp::Max, rt::max_e8m0, all, all, mm);
  const auto e2 = range_codes(16);
  check_binary(DType::E2M1, BinaryOp::Min, rt::min_e2m1, e2, e2, mm);
  check_binary(DType::E2M1, BinaryOp::Max, rt::max_e2m1, e2, e2, mm);
  bool (*const c4[6])(uint8_t, uint8_t) = {rt::eq_e4m3, rt::ne_e4m3, rt::lt_e4m3, rt::le_e4m3, rt::gt_e4m3, rt::ge_e4m3};
  bool (*const c5[6])(uint8_t, uint8_t) = {rt::eq_e5m2, rt::ne_e5m2, rt::lt_e5m2, rt::le_e5m2, rt::gt_e5m2, rt::ge_e5m2};
  bool (*const c8[6])(uint8_t, uint8_t) = {rt::eq_e8m0, rt::ne_e8m0, rt::lt_e8m0, rt::le_e8m0, rt::gt_e8m0, rt::ge_e8m0};
  bool (*const c2[6])(uint8_t, uint8_t) = {rt::eq_e2m1, rt::ne_e2m1, rt::lt_e2m1, rt::le_e2m1, rt::gt_e2m1, rt::ge_e2m1};
  check_compare<uint8_t>(DType::E4M3, all, all, c4, mm);
  check_compare<uint8_t>(DType::E5M2, all, all, c5, mm);
  check_compare<uint8_t>(DType::E8M0, all, all, c8, mm);
  check_compare<uint8_t>(DType::E2M1, e2, e2, c2, mm);
  check_unary(DType::E4M3, UnaryOp::Neg, rt::neg_e4m3, all, mm);
  check_unary(DType::E4M3, UnaryOp::Abs, rt::abs_e4m3, all, mm);
  check_unary(DType::E5M2, UnaryOp::Neg, rt::neg_e5m2, all, mm);
  check_unary(DType::E5M2, UnaryOp::Abs, rt::abs_e5m2, all, mm);
  check_unary(DType::E8M0, UnaryOp::Neg, rt::neg_e8m0, all, mm);
  check_unary(DType::E8M0, UnaryOp::Abs, rt::abs_e8m0, all, mm);
  check_unary(DType::E2M1, UnaryOp::Neg, rt::neg_e2m1, e2, mm);
  check_unary(DType::E2M1, UnaryOp::Abs, rt::abs_e2m1, e2, mm);
  check_unary(DType::E2M1, UnaryOp::Floor, rt::floor_e2m1, e2, mm);
  // e2m1 (no NaN): status forms; 0/0 and sqrt(negative) are InvalidCast in both
  using E2Bin = int32_t (*)(uint8_t, uint8_t, uint8_t*);
  const std::pair<BinaryOp, E2Bin> e2ops[] = {{BinaryOp::Add, rt::add_e2m1}, {BinaryOp::Sub, rt::sub_e2m1},
                                              {BinaryOp::Mul, rt::mul_e2m1}, {BinaryOp::Div, rt::div_e2m1}};
  for (auto [op, fn] : e2ops)
    for (uint64_t a : e2)
      for (uint64_t b : e2) {
        uint8_t out = 0xAA;
        const int32_t c = fn(uint8_t(a), uint8_t(b), &out);
        const auto ref = num::binary(op, num::Scalar{DType::E2M1, a}, num::Scalar{DType::E2M1, b});
        if (c != code_of(ref.status()) || out != (ref.ok() ? ref->bits : 0))
          mm.add(std::string("e2m1 ") + num::op_name(op) + "(" + hex(a) + ", " + hex(b) + ")");
      }
  for (uint64_t a : e2) {
    uint8_t out = 0xAA;
    const int32_t c = rt::sqrt_e2m1(uint8_t(a), &out);
    const auto ref = num::unary(UnaryOp::Sqrt, num::Scalar{DType::E2M1, a});
    if (c != code_of(ref.status()) || out != (ref.ok() ? ref->bits : 0)) mm.add("e2m1 sqrt " + hex(a));
  }
  CHECK_NO_MISMATCH(mm);
}

TEST_CASE("kir_rt f32/f64 arithmetic, min/max and compare with canonical NaN", "[C9][rt-arith]") {
  Mismatches mm;
  std::vector<float> f32s = float_inputs<float>(0xA32);
  std::vector<double> f64s = float_inputs<double>(0xA64);
  f32s.resize(200'000);  // specials and boundaries come first
  f64s.resize(200'000);
  std::mt19937_64 g(0xAB);
  auto check32 = [&](BinaryOp op, float (*fn)(float, float), float a, float b) {
    const uint64_t got = std::bit_cast<uint32_t>(fn(a, b));
    const auto ref = num::binary(op, num::Scalar{DType::F32, bits_of(a)}, num::Scalar{DType::F32, bits_of(b)});
    if (!ref.ok() || ref->bits != got) mm.add(std::string("f32 ") + num::op_name(op) + "(" + hex(bits_of(a)) + ", " + hex(bits_of(b)) + ")");
  };
  auto check64 = [&](BinaryOp op, double (*fn)(double, double), double a, double b) {
    const uint64_t got = std::bit_cast<uint64_t>(fn(a, b));
    const auto ref = num::binary(op, num::Scalar{DType::F64, bits_of(a)}, num::Scalar{DType::F64, bits_of(b)});
    if (!ref.ok() || ref->bits != got) mm.add(std::string("f64 ") + num::op_name(op) + "(" + hex(bits_of(a)) + ", " + hex(bits_of(b)) + ")");
  };
  const std::pair<BinaryOp, float (*)(float, float)> ops32[] = {
      {BinaryOp::Add, rt::add_f32}, {BinaryOp::Sub, rt::sub_f32}, {BinaryOp::Mul, rt::mul_f32},
      {BinaryOp::Div, rt::div_f32}, {BinaryOp::Min, rt::min_f32}, {BinaryOp::Max, rt::max_f32}};
  const std::pair<BinaryOp, double (*)(double, double)> ops64[] = {
      {BinaryOp::Add, rt::add_f64}, {BinaryOp::Sub, rt::sub_f64}, {BinaryOp::Mul, rt::mul_f64},
      {BinaryOp::Div, rt::div_f64}, {BinaryOp::Min, rt::min_f64}, {BinaryOp::Max, rt::max_f64}};
  bool (*const c32[6])(float, float) = {rt::eq_f32, rt::ne_f32, rt::lt_f32, rt::le_f32, rt::gt_f32, rt::ge_f32};
  bool (*const c64[6])(double, double) = {rt::eq_f64, rt::ne_f64, rt::lt_f64, rt::le_f64, rt::gt_f64, rt::ge_f64};
  const CompareOp cops[6] = {CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge};
  const size_t nspecial = 120;  // the specials at the front of the input vectors, paired with all
  for (size_t i = 0; i < f32s.size(); ++i) {
    const float a = f32s[i];
    const float b = i < nspecial * nspecial ? f32s[i % nspecial] : f32s[g() % f32s.size()];
    const float a2 = i < nspecial * nspecial ? f32s[i / nspecial] : a;
    for (auto [op, fn] : ops32) check32(op, fn, a2, b);
    for (int k = 0; k < 6; ++k)
      if (*num::compare(cops[k], num::Scalar{DType::F32, bits_of(a2)}, num::Scalar{DType::F32, bits_of(b)}) != c32[k](a2, b))
        mm.add("f32 compare");
  }
  for (size_t i = 0; i < f64s.size(); ++i) {
    const double a = f64s[i];
    const double b = i < nspecial * nspecial ? f64s[i % nspecial] : f64s[g() % f64s.size()];
    const double a2 = i < nspecial * nspecial ? f64s[i / nspecial] : a;
    for (auto [op, fn] : ops64) check64(op, fn, a2, b);
    for (int k = 0; k < 6; ++k)
      if (*num::compare(cops[k], num::Scalar{DType::F64, bits_of(a2)}, num::Scalar{DType::F64, bits_of(b)}) != c64[k](a2, b))
        mm.add("f64 compare");
  }
  auto un32 = [&](UnaryOp op, float (*fn)(float)) {
    for (float a : f32s) {
      const auto ref = num::unary(op, num::Scalar{DType::F32, bits_of(a)});
      if (!ref.ok() || ref->bits != bits_of(fn(a))) mm.add(std::string("f32 ") + num::op_name(op) + " " + hex(bits_of(a)));
    }
  };
  auto un64 = [&](UnaryOp op, double (*fn)(double)) {
    for (double a : f64s) {
      const auto ref = num::unary(op, num::Scalar{DType::F64, bits_of(a)});
      if (!ref.ok() || ref->bits != bits_of(fn(a))) mm.add(std::string("f64 ") + num::op_name(op) + " " + hex(bits_of(a)));
    }
  };
  un32(UnaryOp::Neg, rt::neg_f32);
  un32(UnaryOp::Abs, rt::abs_f32);
  un32(UnaryOp::Sqrt, rt::sqrt_f32);
  un32(UnaryOp::Floor, rt::floor_f32);
  un64(UnaryOp::Neg, rt::neg_f64);
  un64(UnaryOp::Abs, rt::abs_f64);
  un64(UnaryOp::Sqrt, rt::sqrt_f64);
  un64(UnaryOp::Floor, rt::floor_f64);
  CHECK_NO_MISMATCH(mm);
  // the docs' rules, spelled out
  CHECK(std::bit_cast<uint32_t>(rt::min_f32(0.0f, -0.0f)) == 0x80000000u);
  CHECK(std::bit_cast<uint32_t>(rt::max_f32(-0.0f, 0.0f)) == 0u);
  CHECK(std::bit_cast<uint64_t>(rt::min_f64(-NAN, 1.0)) == 0x7FF8000000000000ull);
  CHECK(rt::min_f16(0x8000, 0x0000) == 0x8000);
  CHECK(rt::max_bf16(0x8000, 0x0000) == 0x0000);
  CHECK(rt::add_f16(0x8000, 0x8000) == 0x8000);
}

// ---------------------------------------------------------------------------------------------
// Integer ops

template <class T>
void check_int_ops(DType d, const std::vector<T>& as, const std::vector<T>& bs, Mismatches& mm) {
  auto ref_bin = [&](BinaryOp op, T a, T b) {
    return num::binary(op, num::Scalar{d, bits_of(a)}, num::Scalar{d, bits_of(b)});
  };
  auto value_op = [&](BinaryOp op, T a, T b, T got) {
    const auto ref = ref_bin(op, a, b);
    if (!ref.ok() || ref->bits != bits_of(got))
      mm.add(std::string(kir::name(d)) + " " + num::op_name(op) + "(" + hex(bits_of(a)) + ", " +
             hex(bits_of(b)) + "): rt " + hex(bits_of(got)));
  };
  auto status_op = [&](BinaryOp op, T a, T b, int32_t (*fn)(T, T, T*)) {
    T out = T(0x5A);
    const int32_t c = fn(a, b, &out);
    const auto ref = ref_bin(op, a, b);
    if (c != code_of(ref.status()) || bits_of(out) != (ref.ok() ? ref->bits : 0))
      mm.add(std::string(kir::name(d)) + " " + num::op_name(op) + "(" + hex(bits_of(a)) + ", " +
             hex(bits_of(b)) + "): rt " + hex(bits_of(out)) + " code " + std::to_string(c));
  };
  const CompareOp cops[6] = {CompareOp::Eq, CompareOp::Ne, CompareOp::Lt, CompareOp::Le, CompareOp::Gt, CompareOp::Ge};
  for (T a : as) {
    using Un = T (*)(T);
    for (auto [op, fn] : {std::pair<UnaryOp, Un>{UnaryOp::Neg, rt::neg_wrap<T>},
                          std::pair<UnaryOp, Un>{UnaryOp::Abs, rt::abs_wrap<T>}}) {
      const auto ref = num::unary(op, num::Scalar{d, bits_of(a)});
      if (!ref.ok() || ref->bits != bits_of(fn(a))) mm.add(std::string(kir::name(d)) + " " + num::op_name(op) + " " + hex(bits_of(a)));
    }
    {
      const auto ref = num::unary(UnaryOp::Not, num::Scalar{d, bits_of(a)});
      if (!ref.ok() || ref->bits != bits_of(T(~a))) mm.add("not");
    }
    for (T b : bs) {
      value_op(BinaryOp::Add, a, b, rt::add_wrap(a, b));
      value_op(BinaryOp::Sub, a, b, rt::sub_wrap(a, b));
      value_op(BinaryOp::Mul, a, b, rt::mul_wrap(a, b));
      value_op(BinaryOp::Min, a, b, rt::min_int(a, b));
      value_op(BinaryOp::Max, a, b, rt::max_int(a, b));
      value_op(BinaryOp::And, a, b, T(a & b));
      value_op(BinaryOp::Or, a, b, T(a | b));
      value_op(BinaryOp::Xor, a, b, T(a ^ b));
      status_op(BinaryOp::Div, a, b, rt::div_int<T>);
      status_op(BinaryOp::Rem, a, b, rt::rem_int<T>);
      status_op(BinaryOp::Shl, a, b, rt::shl_int<T>);
      status_op(BinaryOp::Shr, a, b, rt::shr_int<T>);
      const bool got[6] = {a == b, a != b, a < b, a <= b, a > b, a >= b};
      for (int k = 0; k < 6; ++k)
        if (*num::compare(cops[k], num::Scalar{d, bits_of(a)}, num::Scalar{d, bits_of(b)}) != got[k])
          mm.add(std::string(kir::name(d)) + " compare");
    }
  }
  ++mm.checked;
}

// Edge values, every shift amount around [0, width), and random values of every bit length.
template <class T>
std::vector<T> int_operands(uint64_t seed, size_t n) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), T(1), T(-1), T(2), T(-2), L::min(), L::max(), T(L::min() + 1), T(L::max() - 1)};
  const int w = int(sizeof(T) * 8);
  for (int s : {w - 1, w, w + 1, w / 2, 63, 64, 65}) v.push_back(T(s));
  std::mt19937_64 g(seed);
  while (v.size() < n) {
    const int len = int(g() % 65);
    const uint64_t r = g();
    v.push_back(from_bits<T>(len == 0 ? 0 : len == 64 ? r : r & ((uint64_t(1) << len) - 1)));
  }
  return v;
}

template <class T>
void check_int_dtype(DType d, bool exhaustive) {
  Mismatches mm;
  if (exhaustive) {
    const auto all = all_codes<T>();
    check_int_ops<T>(d, all, all, mm);
  } else {
    const auto xs = int_operands<T>(uint64_t(d) * 7919, 400);
    check_int_ops<T>(d, xs, xs, mm);
  }
  INFO(kir::name(d));
  CHECK_NO_MISMATCH(mm);
}

TEST_CASE("kir_rt integer ops wrap and fault exactly as numerics (every width)", "[C9][rt-int]") {
  check_int_dtype<int8_t>(DType::I8, true);
  check_int_dtype<uint8_t>(DType::U8, true);
  check_int_dtype<int16_t>(DType::I16, false);
  check_int_dtype<uint16_t>(DType::U16, false);
  check_int_dtype<int32_t>(DType::I32, false);
  check_int_dtype<uint32_t>(DType::U32, false);
  check_int_dtype<int64_t>(DType::I64, false);
  check_int_dtype<uint64_t>(DType::U64, false);
  check_int_dtype<int64_t>(DType::Index, false);
  // the named forms are the templates; spot checks of the fault codes
  int32_t o = 1;
  CHECK(rt::div_i32(INT32_MIN, -1, &o) == KIR_FAULT_INT_OVERFLOW);
  CHECK(rt::rem_i32(INT32_MIN, -1, &o) == KIR_FAULT_INT_OVERFLOW);
  CHECK(rt::rem_i32(5, 0, &o) == KIR_FAULT_DIVIDE_BY_ZERO);
  CHECK(rt::shl_i32(1, 32, &o) == KIR_FAULT_SHIFT_OUT_OF_RANGE);
  CHECK(rt::shr_i32(-8, 1, &o) == KIR_FAULT_NONE);
  CHECK(o == -4);
  uint8_t u = 0;
  CHECK(rt::shr_u8(0x80, 7, &u) == KIR_FAULT_NONE);
  CHECK(u == 1);
  CHECK(rt::abs_i64(INT64_MIN) == INT64_MIN);
  CHECK(rt::mul_u16(0xFFFF, 0xFFFF) == 1);
  CHECK(rt::add_index(INT64_MAX, 1) == INT64_MIN);
  // bool: logical ops and unsigned order
  for (uint8_t a : {0, 1})
    for (uint8_t b : {0, 1}) {
      const num::Scalar x{DType::Bool, a}, y{DType::Bool, b};
      CHECK(rt::and_bool(a, b) == num::binary(BinaryOp::And, x, y)->bits);
      CHECK(rt::or_bool(a, b) == num::binary(BinaryOp::Or, x, y)->bits);
      CHECK(rt::xor_bool(a, b) == num::binary(BinaryOp::Xor, x, y)->bits);
      CHECK(rt::min_bool(a, b) == num::binary(BinaryOp::Min, x, y)->bits);
      CHECK(rt::max_bool(a, b) == num::binary(BinaryOp::Max, x, y)->bits);
      CHECK(rt::not_bool(a) == num::unary(UnaryOp::Not, x)->bits);
    }
  // bool compares (regression, fuzz: `cmp` on bool did not compile, kir_rt had no le_bool)
  Mismatches mm;
  bool (*const cb[6])(uint8_t, uint8_t) = {rt::eq_bool, rt::ne_bool, rt::lt_bool, rt::le_bool, rt::gt_bool, rt::ge_bool};
  check_compare<uint8_t>(DType::Bool, {0, 1}, {0, 1}, cb, mm);
  CHECK_NO_MISMATCH(mm);
}

TEST_CASE("kir_rt bitcast helpers move bit patterns unchanged (NaN payloads kept)", "[C9][rt-bitcast]") {
  const uint32_t nan_payload = 0xFFC12345u;
  CHECK(rt::f32_bits(rt::f32_from_bits(nan_payload)) == nan_payload);
  CHECK(rt::bitcast<uint64_t>(rt::f64_from_bits(0x7FF0000000000001ull)) == 0x7FF0000000000001ull);
  CHECK(rt::bitcast<int16_t>(uint16_t(0xFC01)) == int16_t(-1023));
  CHECK(rt::bitcast<float>(int32_t(0x3F800000)) == 1.0f);
  const auto ref = num::bitcast(num::Scalar{DType::F32, nan_payload}, DType::I32);
  CHECK(bits_of(rt::bitcast<int32_t>(rt::f32_from_bits(nan_payload))) == ref->bits);
}

}  // namespace

namespace {
// docs/numerics.md: f16/bf16 +, -, *, / and sqrt computed in f32 and rounded again equal one
// rounding (24 >= 2p + 2, Figueroa; for bf16 also in f32's subnormal range, see kir_rt.h). Checked
// here on all 2^32 operand pairs against one rounding from f64, where + - * are exact and / is
// rounded twice innocuously (53 >= 2p + 2). Hidden, and not tagged [C9] (a [C9] filter would
// select it): run with "[rt-figueroa]", a few minutes per format.
TEST_CASE("f32-computed f16/bf16 arithmetic is correctly rounded on all operand pairs",
          "[.][rt-figueroa]") {
  for (bool bf : {false, true}) {
    float (*dec)(uint16_t) = bf ? rt::bf16_to_f32 : rt::f16_to_f32;
    uint16_t (*r32)(float) = bf ? rt::f32_to_bf16 : rt::f32_to_f16;
    uint16_t (*r64)(double) = bf ? rt::f64_to_bf16 : rt::f64_to_f16;
    Mismatches mm;
    par_for(65536, mm, [&](size_t lo, size_t hi, Mismatches& m) {
      for (size_t a = lo; a < hi; ++a) {
        const float x = dec(uint16_t(a));
        const double dx = x;
        for (uint32_t b = 0; b < 65536; ++b) {
          const float y = dec(uint16_t(b));
          const double dy = y;
          if (r32(x + y) != r64(dx + dy) || r32(x - y) != r64(dx - dy) ||
              r32(x * y) != r64(dx * dy) || r32(x / y) != r64(dx / dy))
            m.add(hex(a) + ", " + hex(b));
        }
        if (r32(std::sqrt(x)) != r64(std::sqrt(dx))) m.add("sqrt " + hex(a));
      }
    });
    INFO((bf ? "bf16" : "f16"));
    CHECK_NO_MISMATCH(mm);
  }
}
}  // namespace
