// kir_rt.h — scalar runtime of the CPU backend's generated C++.
//
// Generated kernels are compiled at run time (g++ -O3, no fast-math, -ffp-contract=off) from a
// cache directory, so this header is self-contained: standard headers and kir_abi.h only. Every
// function computes exactly what the numerics library (kir::num, docs/numerics.md) computes, bit
// for bit: casts round once (RNE) with the target's overflow rule, NaN results are the target's
// canonical NaN, integer ops wrap. tests/backend/test_rt_scalar.cpp checks this against kir::num.
//
// Storage (kir_abi.h): bool 0/1 and e4m3/e5m2/e2m1/e8m0 codes as uint8_t (e2m1 in the low nibble),
// f16/bf16 bit patterns as uint16_t, f32 float, f64 double, i8..u64 native, index int64_t.
// The fnuz float8s (float8_e4m3fnuz / float8_e5m2fnuz, kir::num::Fnuz; not Intent dtypes) only
// convert to and from f32/f64.
//
// Status convention. An operation that can fail has the form
//     int32_t op(args..., T* out)
// returning 0 (KIR_FAULT_NONE) or a kir_fault_code: KIR_FAULT_DIVIDE_BY_ZERO, _INT_OVERFLOW,
// _SHIFT_OUT_OF_RANGE or _INVALID_CAST. *out is ALWAYS written (0 / +0 on failure), so loops can
// run to the end unconditionally and test the OR of the codes afterwards. Operations that cannot
// fail return their value. Fallible: float -> integer casts, anything that would store a NaN in
// e2m1 (casts from floats, e2m1 arithmetic), integer div/rem/shl/shr.
//
// Names: <from>_to_<to> for conversions (f16_to_f32, f64_to_e4m3, f64_to_i32(x, &out), ...);
// cast<dt_X, dt_Y>(x, &out) / cast_X_Y(x, &out) for every pair of dtypes (infallible pairs also
// have the value form cast_X_Y(x)); <op>_<dtype> for arithmetic (add_f16, min_f32, div_i32, ...).
// Assumes the default floating-point environment (round to nearest, no FTZ/DAZ), as kir::num does.
#ifndef KIR_RT_H
#define KIR_RT_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kir_abi.h"

namespace kir_rt {

// ---------------------------------------------------------------------------------------------
// Bit patterns

template <class To, class From>
inline To bitcast(From x) {
  static_assert(sizeof(To) == sizeof(From), "bitcast needs equal widths");
  To r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
inline uint32_t f32_bits(float x) { return std::bit_cast<uint32_t>(x); }
inline uint64_t f64_bits(double x) { return std::bit_cast<uint64_t>(x); }
inline float f32_from_bits(uint32_t b) { return std::bit_cast<float>(b); }
inline double f64_from_bits(uint64_t b) { return std::bit_cast<double>(b); }

inline constexpr uint16_t kF16NaN = 0x7E00, kBF16NaN = 0x7FC0;
inline constexpr uint8_t kE4M3NaN = 0x7F, kE5M2NaN = 0x7E, kE8M0NaN = 0xFF, kFnuzNaN = 0x80;
inline constexpr uint32_t kF32NaNBits = 0x7FC00000u;
inline constexpr uint64_t kF64NaNBits = 0x7FF8000000000000ull;

inline float f32_nan() { return std::bit_cast<float>(kF32NaNBits); }
inline double f64_nan() { return std::bit_cast<double>(kF64NaNBits); }
// Any NaN -> the canonical NaN (what every kir::num f32/f64 result is).
inline float canon_f32(float x) { return x != x ? f32_nan() : x; }
inline double canon_f64(double x) { return x != x ? f64_nan() : x; }

inline bool is_nan_f16(uint16_t a) { return (a & 0x7FFF) > 0x7C00; }
inline bool is_nan_bf16(uint16_t a) { return (a & 0x7FFF) > 0x7F80; }
inline bool is_nan_e4m3(uint8_t a) { return (a & 0x7F) == 0x7F; }
inline bool is_nan_e5m2(uint8_t a) { return (a & 0x7F) > 0x7C; }
inline bool is_nan_e8m0(uint8_t a) { return a == 0xFF; }

// ---------------------------------------------------------------------------------------------
// Exact widening conversions. NaN -> the target's canonical NaN.

inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t em = h & 0x7FFFu;
  const uint32_t shifted = em << 13;
  // Normal: rebias. Subnormal: build 2^-14 * (1 + m/1024) and subtract 2^-14, exact on normal
  // floats (no reliance on subnormal arithmetic).
  const uint32_t normal = shifted + ((127 - 15) << 23);
  const float sub = std::bit_cast<float>(shifted + (113u << 23)) - std::bit_cast<float>(113u << 23);
  uint32_t mag = em < 0x0400 ? std::bit_cast<uint32_t>(sub) : normal;
  mag = em >= 0x7C00 ? (em == 0x7C00 ? 0x7F800000u : kF32NaNBits) : mag;
  return std::bit_cast<float>(em > 0x7C00 ? mag : (mag | sign));
}
inline float bf16_to_f32(uint16_t h) {
  return std::bit_cast<float>(is_nan_bf16(h) ? kF32NaNBits : uint32_t(h) << 16);
}
inline double f16_to_f64(uint16_t h) { return double(f16_to_f32(h)); }
inline double bf16_to_f64(uint16_t h) { return double(bf16_to_f32(h)); }

namespace detail {

// Description of a narrow float format for the encoder and the decoder tables.
struct Fmt {
  int man;           // fraction bits
  int bias;
  uint32_t maxmag;   // magnitude code of the largest finite value
  uint32_t sign;     // sign bit (0: unsigned)
  uint32_t ovf;      // code for overflow and ±Inf (the sign is ORed in when ovf_signed)
  uint32_t nan;      // code for a NaN input
  bool ovf_signed;
  bool fnuz;         // no -0 (a zero result is +0), single NaN = sign bit, every other code finite
  bool has_inf;
};

inline constexpr Fmt kF16{10, 15, 0x7BFF, 0x8000, 0x7C00, 0x7E00, true, false, true};
inline constexpr Fmt kBF16{7, 127, 0x7F7F, 0x8000, 0x7F80, 0x7FC0, true, false, true};
inline constexpr Fmt kE4M3{3, 7, 0x7E, 0x80, 0x7F, 0x7F, true, false, false};  // overflow: ±NaN
inline constexpr Fmt kE5M2{2, 15, 0x7B, 0x80, 0x7C, 0x7E, true, false, true};
inline constexpr Fmt kE2M1{1, 1, 0x7, 0x8, 0x7, 0x0, true, false, false};      // saturate ±6
inline constexpr Fmt kE4M3Fnuz{3, 8, 0x7F, 0x80, 0x80, 0x80, false, true, false};
inline constexpr Fmt kE5M2Fnuz{2, 16, 0x7F, 0x80, 0x80, 0x80, false, true, false};

// Round the binary float with bit pattern b (U = uint32_t for f32, uint64_t for f64; SM fraction
// bits, SB bias) once to nearest-even into F, with gradual underflow and F's overflow rule
// (decided after rounding). Integer arithmetic only.
template <Fmt F, class U, int SM, int SB>
inline uint32_t encode(U b) {
  constexpr int W = int(sizeof(U) * 8);
  constexpr U kAbs = ~U(0) >> 1;
  constexpr U kInf = ((U(1) << (W - 1 - SM)) - 1) << SM;
  constexpr int emin = 1 - F.bias;
  const U a = b & kAbs;
  const int E = int(a >> SM);
  const int Ee = E | int(E == 0);
  const U sig = (a & ((U(1) << SM) - 1)) | (U(E != 0) << SM);
  const int e = Ee - SB;  // exponent of the leading significand bit position
  const int q = (e > emin ? e : emin) - F.man;  // exponent of the result's last bit
  int sh = q - (e - SM);                         // >= SM - F.man > 0
  sh = sh < W - 1 ? sh : W - 1;                  // larger shifts round to 0 just the same
  const U n0 = sig >> sh;
  const U rem = sig & ((U(1) << sh) - 1);
  const U half = U(1) << (sh - 1);
#ifdef KIR_MUTANT_CAST_ROUND_TOWARD_ZERO  // seeded mutant (backends/cpu/mutants/mutants.h)
  const U n = n0;  // rem and half unused
#else
  const U n = n0 + U((rem > half) | ((rem == half) & ((n0 & 1) != 0)));
#endif
  // (biased exponent << man) + significand, where a carry out of the significand bumps the
  // exponent and subnormals (q at its minimum) come out as the plain fraction.
  const U mag = (U(q - (emin - F.man)) << F.man) + n;
  const U sgn = (b >> (W - 1)) != 0 ? U(F.sign) : U(0);
#ifdef KIR_MUTANT_CAST_OVERFLOW_UNCHECKED  // seeded mutant (backends/cpu/mutants/mutants.h)
  U r = mag | sgn;
#else
  U r = mag > U(F.maxmag) ? (U(F.ovf) | (F.ovf_signed ? sgn : U(0))) : (mag | sgn);
#endif
  if constexpr (F.fnuz) r = mag == 0 ? U(0) : r;
  r = a > kInf ? U(F.nan) : r;
  return uint32_t(r);
}

// e8m0: nearest power of two, ties (1.5 * 2^k) up; below 2^-127 -> 0x00; above 2^127, zero,
// negative, Inf, NaN -> 0xFF. For f64 input only (an input subnormal is far below 2^-127).
template <class U, int SM, int SB>
inline uint8_t encode_e8m0(U b, bool positive) {
  const int E = int(b >> SM);  // positive: sign bit clear
  const int k = E - SB + int((b >> (SM - 1)) & 1);
  const int c = E == 0 ? 0 : (k < -127 ? 0 : k + 127);  // double/float subnormal: < 2^-127
  return !positive || k > 127 ? uint8_t(0xFF) : uint8_t(c);
}

// Exact decode of an 8-bit (or 4-bit) code to float bits.
constexpr uint32_t decode_bits(Fmt f, uint32_t c) {
  const uint32_t sign = (c & f.sign) != 0 ? 0x80000000u : 0u;
  const uint32_t mag = c & (f.sign - 1);
  if (f.fnuz ? c == f.nan : (f.has_inf ? mag > f.ovf : (f.nan != 0 && mag == f.nan)))
    return kF32NaNBits;
  if (f.has_inf && mag == f.ovf) return sign | 0x7F800000u;
  const uint32_t ef = mag >> f.man, mf = mag & ((1u << f.man) - 1);
  if (ef != 0) return sign | ((ef - uint32_t(f.bias) + 127) << 23) | (mf << (23 - f.man));
  if (mf == 0) return sign;
  // subnormal: mf * 2^(1 - bias - man), normalized (always a normal float)
  int e = 1 - f.bias - f.man;
  uint32_t m = mf;
  while (m < (1u << 23)) {
    m <<= 1;
    --e;
  }
  return sign | (uint32_t(e + 23 + 127) << 23) | (m & 0x7FFFFFu);
}

struct Table {
  float v[256];
};
constexpr Table make_table(Fmt f, uint32_t mask) {
  Table t{};
  for (uint32_t c = 0; c < 256; ++c) t.v[c] = std::bit_cast<float>(decode_bits(f, c & mask));
  return t;
}
constexpr Table make_e8m0_table() {
  Table t{};
  for (uint32_t c = 0; c < 256; ++c)
    t.v[c] = std::bit_cast<float>(c == 255 ? kF32NaNBits : c == 0 ? 0x00400000u : c << 23);
  return t;
}
inline constexpr Table kE4M3Table = make_table(kE4M3, 0xFF);
inline constexpr Table kE5M2Table = make_table(kE5M2, 0xFF);
inline constexpr Table kE2M1Table = make_table(kE2M1, 0x0F);  // high nibble ignored
inline constexpr Table kE8M0Table = make_e8m0_table();
inline constexpr Table kE4M3FnuzTable = make_table(kE4M3Fnuz, 0xFF);
inline constexpr Table kE5M2FnuzTable = make_table(kE5M2Fnuz, 0xFF);

}  // namespace detail

// Every 8-bit format value is an exact float (e8m0 0x00 = 2^-127 is the f32 subnormal 0x00400000).
inline float e4m3_to_f32(uint8_t c) { return detail::kE4M3Table.v[c]; }
inline float e5m2_to_f32(uint8_t c) { return detail::kE5M2Table.v[c]; }
inline float e2m1_to_f32(uint8_t c) { return detail::kE2M1Table.v[c]; }
inline float e8m0_to_f32(uint8_t c) { return detail::kE8M0Table.v[c]; }
inline float e4m3fnuz_to_f32(uint8_t c) { return detail::kE4M3FnuzTable.v[c]; }
inline float e5m2fnuz_to_f32(uint8_t c) { return detail::kE5M2FnuzTable.v[c]; }
inline double e4m3_to_f64(uint8_t c) { return double(e4m3_to_f32(c)); }
inline double e5m2_to_f64(uint8_t c) { return double(e5m2_to_f32(c)); }
inline double e2m1_to_f64(uint8_t c) { return double(e2m1_to_f32(c)); }
inline double e8m0_to_f64(uint8_t c) { return double(e8m0_to_f32(c)); }
inline double e4m3fnuz_to_f64(uint8_t c) { return double(e4m3fnuz_to_f32(c)); }
inline double e5m2fnuz_to_f64(uint8_t c) { return double(e5m2fnuz_to_f32(c)); }
inline double f32_to_f64(float x) { return canon_f64(double(x)); }

// ---------------------------------------------------------------------------------------------
// Rounding conversions: RNE once from the exact input, target overflow rule, NaN -> canonical.

inline float f64_to_f32(double x) { return canon_f32(float(x)); }

inline uint16_t f32_to_f16(float x) {
  return uint16_t(detail::encode<detail::kF16, uint32_t, 23, 127>(f32_bits(x)));
}
inline uint16_t f64_to_f16(double x) {
  return uint16_t(detail::encode<detail::kF16, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint16_t f32_to_bf16(float x) {
  // bf16 shares f32's exponent range: RNE on the top 16 bits (a carry into the exponent,
  // up to Inf, is the right result).
  const uint32_t b = f32_bits(x);
#ifdef KIR_MUTANT_CAST_ROUND_TOWARD_ZERO  // seeded mutant (backends/cpu/mutants/mutants.h)
  const uint32_t r = b >> 16;
#else
  const uint32_t r = (b + 0x7FFFu + ((b >> 16) & 1)) >> 16;
#endif
  return x != x ? kBF16NaN : uint16_t(r);
}
inline uint16_t f64_to_bf16(double x) {
  return uint16_t(detail::encode<detail::kBF16, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f64_to_e4m3(double x) {
  return uint8_t(detail::encode<detail::kE4M3, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f32_to_e4m3(float x) {
  return uint8_t(detail::encode<detail::kE4M3, uint32_t, 23, 127>(f32_bits(x)));
}
inline uint8_t f64_to_e5m2(double x) {
  return uint8_t(detail::encode<detail::kE5M2, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f32_to_e5m2(float x) {
  return uint8_t(detail::encode<detail::kE5M2, uint32_t, 23, 127>(f32_bits(x)));
}
// e2m1 has no NaN: the _raw forms return +0 for NaN (like kir::num::round_to); the status forms
// report KIR_FAULT_INVALID_CAST (and store +0).
inline uint8_t f64_to_e2m1_raw(double x) {
  return uint8_t(detail::encode<detail::kE2M1, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f32_to_e2m1_raw(float x) {
  return uint8_t(detail::encode<detail::kE2M1, uint32_t, 23, 127>(f32_bits(x)));
}
inline int32_t f64_to_e2m1(double x, uint8_t* out) {
  *out = f64_to_e2m1_raw(x);
  return x != x ? KIR_FAULT_INVALID_CAST : KIR_FAULT_NONE;
}
inline int32_t f32_to_e2m1(float x, uint8_t* out) {
  *out = f32_to_e2m1_raw(x);
  return x != x ? KIR_FAULT_INVALID_CAST : KIR_FAULT_NONE;
}
inline uint8_t f64_to_e8m0(double x) {
  return detail::encode_e8m0<uint64_t, 52, 1023>(f64_bits(x), x > 0);
}
inline uint8_t f32_to_e8m0(float x) { return f64_to_e8m0(double(x)); }  // f32 subnormals matter
// fnuz (kir::num::fnuz_from_double): too large, ±Inf, NaN -> 0x80; a zero result is +0.
inline uint8_t f64_to_e4m3fnuz(double x) {
  return uint8_t(detail::encode<detail::kE4M3Fnuz, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f32_to_e4m3fnuz(float x) {
  return uint8_t(detail::encode<detail::kE4M3Fnuz, uint32_t, 23, 127>(f32_bits(x)));
}
inline uint8_t f64_to_e5m2fnuz(double x) {
  return uint8_t(detail::encode<detail::kE5M2Fnuz, uint64_t, 52, 1023>(f64_bits(x)));
}
inline uint8_t f32_to_e5m2fnuz(float x) {
  return uint8_t(detail::encode<detail::kE5M2Fnuz, uint32_t, 23, 127>(f32_bits(x)));
}

// 64-bit integer magnitude -> double rounded to odd (truncate to 53 bits, OR the lost bits into the
// last one). Rounding that once more to any format of <= 51 bits is the same as rounding the
// integer once (Boldo-Melquiond), which a plain double conversion would not guarantee.
inline double u64_to_f64_odd(uint64_t m) {
  const int lz = std::countl_zero(m | 1);
  const int sh = lz < 11 ? 11 - lz : 0;
  const uint64_t t = (m >> sh) | uint64_t((m & ((uint64_t(1) << sh) - 1)) != 0);
  return double(t) * std::bit_cast<double>(uint64_t(1023 + sh) << 52);
}
inline double i64_to_f64_odd(int64_t x) {
  const uint64_t m = x < 0 ? 0 - uint64_t(x) : uint64_t(x);
  const double d = u64_to_f64_odd(m);
  return x < 0 ? -d : d;
}

// ---------------------------------------------------------------------------------------------
// Float -> integer: truncation toward zero; NaN, ±Inf, or a truncated value outside T's range ->
// KIR_FAULT_INVALID_CAST (and *out = 0).

template <class T>
inline int32_t f64_to_int(double x, T* out) {
  static_assert(std::is_integral_v<T>);
  constexpr int w = int(sizeof(T) * 8);
  bool ok;
  if constexpr (std::is_signed_v<T>) {
    constexpr double lim = double(uint64_t(1) << (w - 1));  // 2^(w-1), exact
    // trunc(x) >= -2^(w-1) <=> x > -2^(w-1) - 1; for w = 64 no double lies strictly between
    // -2^63 - 1 and -2^63.
    if constexpr (w < 64) ok = x > -lim - 1.0 && x < lim;
    else ok = x >= -lim && x < lim;
  } else {
    constexpr double lim = 2.0 * double(uint64_t(1) << (w - 1));  // 2^w
    ok = x > -1.0 && x < lim;
  }
  *out = T(ok ? x : 0.0);
  return ok ? KIR_FAULT_NONE : KIR_FAULT_INVALID_CAST;
}
template <class T>
inline int32_t f32_to_int(float x, T* out) { return f64_to_int<T>(double(x), out); }

inline int32_t f64_to_i8(double x, int8_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_i16(double x, int16_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_i32(double x, int32_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_i64(double x, int64_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_u8(double x, uint8_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_u16(double x, uint16_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_u32(double x, uint32_t* o) { return f64_to_int(x, o); }
inline int32_t f64_to_u64(double x, uint64_t* o) { return f64_to_int(x, o); }
inline int32_t f32_to_i8(float x, int8_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_i16(float x, int16_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_i32(float x, int32_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_i64(float x, int64_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_u8(float x, uint8_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_u16(float x, uint16_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_u32(float x, uint32_t* o) { return f32_to_int(x, o); }
inline int32_t f32_to_u64(float x, uint64_t* o) { return f32_to_int(x, o); }

// ---------------------------------------------------------------------------------------------
// Generic casts between every pair of dtypes (kir::num::cast). dt_* are the dtype tags.

enum class Kind { Bool, SInt, UInt, F16, BF16, F32, F64, E4M3, E5M2, E2M1, E8M0 };

#define KIR_RT_DTYPE(name, T, K) \
  struct dt_##name {             \
    using type = T;              \
    static constexpr Kind kind = Kind::K; \
  };
KIR_RT_DTYPE(bool, uint8_t, Bool)
KIR_RT_DTYPE(i8, int8_t, SInt)
KIR_RT_DTYPE(i16, int16_t, SInt)
KIR_RT_DTYPE(i32, int32_t, SInt)
KIR_RT_DTYPE(i64, int64_t, SInt)
KIR_RT_DTYPE(u8, uint8_t, UInt)
KIR_RT_DTYPE(u16, uint16_t, UInt)
KIR_RT_DTYPE(u32, uint32_t, UInt)
KIR_RT_DTYPE(u64, uint64_t, UInt)
KIR_RT_DTYPE(index, int64_t, SInt)
KIR_RT_DTYPE(f16, uint16_t, F16)
KIR_RT_DTYPE(bf16, uint16_t, BF16)
KIR_RT_DTYPE(f32, float, F32)
KIR_RT_DTYPE(f64, double, F64)
KIR_RT_DTYPE(e4m3, uint8_t, E4M3)
KIR_RT_DTYPE(e5m2, uint8_t, E5M2)
KIR_RT_DTYPE(e2m1, uint8_t, E2M1)
KIR_RT_DTYPE(e8m0, uint8_t, E8M0)
#undef KIR_RT_DTYPE

namespace detail {
constexpr bool is_int_kind(Kind k) { return k == Kind::SInt || k == Kind::UInt; }
constexpr bool is_float_kind(Kind k) { return k >= Kind::F16; }

// Exact value of a float dtype code as float (every dtype but f64) / double.
template <Kind K, class S>
inline float exact_f32(S x) {
  if constexpr (K == Kind::F16) return f16_to_f32(x);
  else if constexpr (K == Kind::BF16) return bf16_to_f32(x);
  else if constexpr (K == Kind::F32) return canon_f32(x);
  else if constexpr (K == Kind::E4M3) return e4m3_to_f32(x);
  else if constexpr (K == Kind::E5M2) return e5m2_to_f32(x);
  else if constexpr (K == Kind::E2M1) return e2m1_to_f32(x);
  else return e8m0_to_f32(x);
}
template <Kind K, class S>
inline double exact_f64(S x) {
  if constexpr (K == Kind::F64) return canon_f64(x);
  else return double(exact_f32<K>(x));
}
// The integer x converted to float type R. A converted integer is never -0, but GCC folds
// (double)(int64_t)d into trunc(d) when trapping math is off, and trunc(d) is -0 for d in
// (-1, -0]; clearing the sign bit where x is 0 keeps the +0 of the conversion (a bit operation,
// so loops still vectorize).
template <class R, class I>
inline R int_to(I x) {
  R r = R(x);
  if constexpr (sizeof(R) == 8) return f64_from_bits(f64_bits(r) & ~(uint64_t(x == 0) << 63));
  else return f32_from_bits(f32_bits(r) & ~(uint32_t(x == 0) << 31));
}
// Round a double (resp. float) once into float dtype K; e2m1 NaN -> +0 (callers check).
template <Kind K>
inline auto round_f64(double x) {
  if constexpr (K == Kind::F16) return f64_to_f16(x);
  else if constexpr (K == Kind::BF16) return f64_to_bf16(x);
  else if constexpr (K == Kind::F32) return f64_to_f32(x);
  else if constexpr (K == Kind::F64) return canon_f64(x);
  else if constexpr (K == Kind::E4M3) return f64_to_e4m3(x);
  else if constexpr (K == Kind::E5M2) return f64_to_e5m2(x);
  else if constexpr (K == Kind::E2M1) return f64_to_e2m1_raw(x);
  else return f64_to_e8m0(x);
}
template <Kind K>
inline auto round_f32(float x) {
  if constexpr (K == Kind::F16) return f32_to_f16(x);
  else if constexpr (K == Kind::BF16) return f32_to_bf16(x);
  else if constexpr (K == Kind::F32) return canon_f32(x);
  else if constexpr (K == Kind::F64) return f32_to_f64(x);
  else if constexpr (K == Kind::E4M3) return f32_to_e4m3(x);
  else if constexpr (K == Kind::E5M2) return f32_to_e5m2(x);
  else if constexpr (K == Kind::E2M1) return f32_to_e2m1_raw(x);
  else return f32_to_e8m0(x);
}
}  // namespace detail

// Whether cast<From, To> can report a fault: float -> integer, and float -> e2m1 (NaN).
template <class From, class To>
inline constexpr bool cast_can_fail =
    detail::is_float_kind(From::kind) && From::kind != Kind::E2M1 &&
    (detail::is_int_kind(To::kind) || To::kind == Kind::E2M1);

template <class From, class To>
inline int32_t cast(typename From::type x, typename To::type* out) {
  using T = typename To::type;
  constexpr Kind F = From::kind, K = To::kind;
  if constexpr (K == Kind::Bool) {
    if constexpr (F == Kind::Bool) *out = T(x & 1);
    else if constexpr (detail::is_int_kind(F)) *out = T(x != 0);
    else if constexpr (F == Kind::F32 || F == Kind::F64) *out = T(x != 0);  // NaN -> true
    else *out = T(detail::exact_f32<F>(x) != 0.0f);
    return KIR_FAULT_NONE;
  } else if constexpr (detail::is_int_kind(K)) {
    if constexpr (F == Kind::Bool) {
      *out = T(x & 1);
      return KIR_FAULT_NONE;
    } else if constexpr (detail::is_int_kind(F)) {
      *out = T(x);  // two's-complement wrap / extension (defined in C++20)
      return KIR_FAULT_NONE;
    } else {
      return f64_to_int<T>(detail::exact_f64<F>(x), out);
    }
  } else if constexpr (F == Kind::Bool) {
    *out = detail::round_f32<K>(float(x & 1));  // e8m0: false -> 0xFF (no zero)
    return KIR_FAULT_NONE;
  } else if constexpr (detail::is_int_kind(F)) {
    if constexpr (K == Kind::F64) *out = detail::int_to<double>(x);      // one hardware rounding (incl. u64)
    else if constexpr (K == Kind::F32) *out = detail::int_to<float>(x);  // likewise: i64 -> f32 directly
    else if constexpr (sizeof(x) <= 2) *out = detail::round_f32<K>(detail::int_to<float>(x));   // exact float
    else if constexpr (sizeof(x) <= 4) *out = detail::round_f64<K>(detail::int_to<double>(x));  // exact double
#ifdef KIR_MUTANT_I64_TO_FLOAT_DOUBLE_ROUNDING  // seeded mutant (backends/cpu/mutants/mutants.h)
    else *out = detail::round_f64<K>(double(x));
#else
    else if constexpr (F == Kind::SInt) *out = detail::round_f64<K>(i64_to_f64_odd(x));
    else *out = detail::round_f64<K>(u64_to_f64_odd(x));
#endif
    return KIR_FAULT_NONE;
  } else {  // float -> float
    if constexpr (F == Kind::F64) {
      *out = detail::round_f64<K>(x);
      if constexpr (K == Kind::E2M1) return x != x ? KIR_FAULT_INVALID_CAST : KIR_FAULT_NONE;
    } else {
      const float v = detail::exact_f32<F>(x);
      *out = detail::round_f32<K>(v);
      if constexpr (K == Kind::E2M1 && F != Kind::E2M1)
        return v != v ? KIR_FAULT_INVALID_CAST : KIR_FAULT_NONE;
    }
    return KIR_FAULT_NONE;
  }
}

// Value form of the infallible casts.
template <class From, class To>
inline typename To::type cast(typename From::type x) {
  static_assert(!cast_can_fail<From, To>, "this cast can fail: use cast(x, &out)");
  typename To::type r;
  cast<From, To>(x, &r);
  return r;
}

// Named casts: cast_<from>_<to>(x, &out) for every pair, cast_<from>_<to>(x) when infallible.
#define KIR_RT_CAST_FN(F, T)                                                          \
  inline int32_t cast_##F##_##T(dt_##F::type x, dt_##T::type* out) {                 \
    return cast<dt_##F, dt_##T>(x, out);                                               \
  }                                                                                    \
  template <class D = dt_##F, std::enable_if_t<!cast_can_fail<D, dt_##T>, int> = 0>   \
  inline dt_##T::type cast_##F##_##T(dt_##F::type x) {                                \
    return cast<dt_##F, dt_##T>(x);                                                    \
  }
#define KIR_RT_CAST_TO(F)                                                                    \
  KIR_RT_CAST_FN(F, bool) KIR_RT_CAST_FN(F, i8) KIR_RT_CAST_FN(F, i16) KIR_RT_CAST_FN(F, i32) \
  KIR_RT_CAST_FN(F, i64) KIR_RT_CAST_FN(F, u8) KIR_RT_CAST_FN(F, u16) KIR_RT_CAST_FN(F, u32)  \
  KIR_RT_CAST_FN(F, u64) KIR_RT_CAST_FN(F, index) KIR_RT_CAST_FN(F, f16)                     \
  KIR_RT_CAST_FN(F, bf16) KIR_RT_CAST_FN(F, f32) KIR_RT_CAST_FN(F, f64)                      \
  KIR_RT_CAST_FN(F, e4m3) KIR_RT_CAST_FN(F, e5m2) KIR_RT_CAST_FN(F, e2m1)                    \
  KIR_RT_CAST_FN(F, e8m0)
KIR_RT_CAST_TO(bool)
KIR_RT_CAST_TO(i8)
KIR_RT_CAST_TO(i16)
KIR_RT_CAST_TO(i32)
KIR_RT_CAST_TO(i64)
KIR_RT_CAST_TO(u8)
KIR_RT_CAST_TO(u16)
KIR_RT_CAST_TO(u32)
KIR_RT_CAST_TO(u64)
KIR_RT_CAST_TO(index)
KIR_RT_CAST_TO(f16)
KIR_RT_CAST_TO(bf16)
KIR_RT_CAST_TO(f32)
KIR_RT_CAST_TO(f64)
KIR_RT_CAST_TO(e4m3)
KIR_RT_CAST_TO(e5m2)
KIR_RT_CAST_TO(e2m1)
KIR_RT_CAST_TO(e8m0)
#undef KIR_RT_CAST_TO
#undef KIR_RT_CAST_FN

// ---------------------------------------------------------------------------------------------
// Float arithmetic (kir::num::float_binary / float_unary / float_compare).
//
// f32/f64: hardware, NaN results canonicalized. f16/bf16: computed in f32 and rounded once more,
// which equals one rounding: 24 >= 2p + 2 (Figueroa) for normal f32 results; f16 results are never
// f32-subnormal; in f32's subnormal range bf16 sums and products are exact or far below half the
// smallest bf16 subnormal, and a bf16 quotient there lies either exactly on a bf16 midpoint or
// more than 2^-150 (half an f32 quantum) from it. (kir::num takes an MPFR path there; all 2^32
// bf16 and f16 pairs are checked by the hidden test [rt-figueroa].) e4m3/e5m2/e2m1/e8m0: in f64
// (sums and products exact; div/sqrt rounded once more, innocuous since 53 >= 2p + 2; e8m0
// rounding only looks at the leading two bits).

inline float add_f32(float a, float b) { return canon_f32(a + b); }
inline float sub_f32(float a, float b) { return canon_f32(a - b); }
inline float mul_f32(float a, float b) { return canon_f32(a * b); }
inline float div_f32(float a, float b) { return canon_f32(a / b); }
inline float sqrt_f32(float a) { return canon_f32(std::sqrt(a)); }
inline float floor_f32(float a) { return canon_f32(std::floor(a)); }
inline float neg_f32(float a) { return a != a ? f32_nan() : f32_from_bits(f32_bits(a) ^ 0x80000000u); }
#ifdef KIR_MUTANT_ABS_KEEPS_NEG_ZERO  // seeded mutant (backends/cpu/mutants/mutants.h)
inline float abs_f32(float a) { return a != a ? f32_nan() : a < 0 ? -a : a; }
#else
inline float abs_f32(float a) { return a != a ? f32_nan() : f32_from_bits(f32_bits(a) & 0x7FFFFFFFu); }
#endif
inline double add_f64(double a, double b) { return canon_f64(a + b); }
inline double sub_f64(double a, double b) { return canon_f64(a - b); }
inline double mul_f64(double a, double b) { return canon_f64(a * b); }
inline double div_f64(double a, double b) { return canon_f64(a / b); }
inline double sqrt_f64(double a) { return canon_f64(std::sqrt(a)); }
inline double floor_f64(double a) { return canon_f64(std::floor(a)); }
inline double neg_f64(double a) {
  return a != a ? f64_nan() : f64_from_bits(f64_bits(a) ^ 0x8000000000000000ull);
}
inline double abs_f64(double a) {
#ifdef KIR_MUTANT_ABS_KEEPS_NEG_ZERO  // seeded mutant (backends/cpu/mutants/mutants.h)
  return a != a ? f64_nan() : a < 0 ? -a : a;
#endif
  return a != a ? f64_nan() : f64_from_bits(f64_bits(a) & 0x7FFFFFFFFFFFFFFFull);
}

// min/max: NaN in either operand -> canonical NaN; -0 < +0; otherwise the operand itself.
#ifdef KIR_MUTANT_MINMAX_NAN_DROPPED  // seeded mutant (backends/cpu/mutants/mutants.h): fmin/fmax
#define KIR_RT_MINMAX_NAN(a, b, nan, r) ((a) != (a) ? (b) : (b) != (b) ? (a) : (r))
#else
#define KIR_RT_MINMAX_NAN(a, b, nan, r) ((((a) != (a)) | ((b) != (b))) ? (nan) : (r))
#endif
// Equal values differ only as ±0, where OR of the codes picks -0 (min) and AND +0 (max).
inline float min_f32(float a, float b) {
  const uint32_t r = a < b ? f32_bits(a) : b < a ? f32_bits(b) : (f32_bits(a) | f32_bits(b));
  return KIR_RT_MINMAX_NAN(a, b, f32_nan(), f32_from_bits(r));
}
inline float max_f32(float a, float b) {
  const uint32_t r = a > b ? f32_bits(a) : b > a ? f32_bits(b) : (f32_bits(a) & f32_bits(b));
  return KIR_RT_MINMAX_NAN(a, b, f32_nan(), f32_from_bits(r));
}
inline double min_f64(double a, double b) {
  const uint64_t r = a < b ? f64_bits(a) : b < a ? f64_bits(b) : (f64_bits(a) | f64_bits(b));
  return KIR_RT_MINMAX_NAN(a, b, f64_nan(), f64_from_bits(r));
}
inline double max_f64(double a, double b) {
  const uint64_t r = a > b ? f64_bits(a) : b > a ? f64_bits(b) : (f64_bits(a) & f64_bits(b));
  return KIR_RT_MINMAX_NAN(a, b, f64_nan(), f64_from_bits(r));
}
#undef KIR_RT_MINMAX_NAN
// IEEE comparisons (NaN unordered, -0 == +0): the C++ operators on f32/f64 already are.
#if defined(KIR_MUTANT_EQ_BITWISE)  // seeded mutant (backends/cpu/mutants/mutants.h)
inline bool eq_f32(float a, float b) { return f32_bits(a) == f32_bits(b); }
inline bool ne_f32(float a, float b) { return f32_bits(a) != f32_bits(b); }
inline bool eq_f64(double a, double b) { return f64_bits(a) == f64_bits(b); }
inline bool ne_f64(double a, double b) { return f64_bits(a) != f64_bits(b); }
#else
inline bool eq_f32(float a, float b) { return a == b; }
inline bool ne_f32(float a, float b) { return !(a == b); }
inline bool eq_f64(double a, double b) { return a == b; }
inline bool ne_f64(double a, double b) { return !(a == b); }
#endif
#if defined(KIR_MUTANT_CMP_LT_UNORDERED)  // seeded mutant (backends/cpu/mutants/mutants.h)
inline bool lt_f32(float a, float b) { return !(a >= b); }
inline bool gt_f32(float a, float b) { return !(a <= b); }
inline bool lt_f64(double a, double b) { return !(a >= b); }
inline bool gt_f64(double a, double b) { return !(a <= b); }
#else
inline bool lt_f32(float a, float b) { return a < b; }
inline bool gt_f32(float a, float b) { return a > b; }
inline bool lt_f64(double a, double b) { return a < b; }
inline bool gt_f64(double a, double b) { return a > b; }
#endif
inline bool le_f32(float a, float b) { return a <= b; }
inline bool ge_f32(float a, float b) { return a >= b; }
inline bool le_f64(double a, double b) { return a <= b; }
inline bool ge_f64(double a, double b) { return a >= b; }

namespace detail {
// min/max/compare on codes whose exact values dec() gives as floats (NaN canonical).
template <class C, float (*Dec)(C)>
inline C min_code(C a, C b, C nan) {
  const float x = Dec(a), y = Dec(b);
  const C r = x < y ? a : y < x ? b : C(a | b);
  return ((x != x) | (y != y)) ? nan : r;
}
template <class C, float (*Dec)(C)>
inline C max_code(C a, C b, C nan) {
  const float x = Dec(a), y = Dec(b);
  const C r = x > y ? a : y > x ? b : C(a & b);
  return ((x != x) | (y != y)) ? nan : r;
}
}  // namespace detail

inline uint16_t add_f16(uint16_t a, uint16_t b) { return f32_to_f16(f16_to_f32(a) + f16_to_f32(b)); }
inline uint16_t sub_f16(uint16_t a, uint16_t b) { return f32_to_f16(f16_to_f32(a) - f16_to_f32(b)); }
inline uint16_t mul_f16(uint16_t a, uint16_t b) { return f32_to_f16(f16_to_f32(a) * f16_to_f32(b)); }
inline uint16_t div_f16(uint16_t a, uint16_t b) { return f32_to_f16(f16_to_f32(a) / f16_to_f32(b)); }
inline uint16_t sqrt_f16(uint16_t a) { return f32_to_f16(std::sqrt(f16_to_f32(a))); }
inline uint16_t floor_f16(uint16_t a) { return f32_to_f16(std::floor(f16_to_f32(a))); }
inline uint16_t neg_f16(uint16_t a) { return is_nan_f16(a) ? kF16NaN : uint16_t(a ^ 0x8000); }
inline uint16_t abs_f16(uint16_t a) { return is_nan_f16(a) ? kF16NaN : uint16_t(a & 0x7FFF); }
inline uint16_t min_f16(uint16_t a, uint16_t b) {
  return detail::min_code<uint16_t, f16_to_f32>(a, b, kF16NaN);
}
inline uint16_t max_f16(uint16_t a, uint16_t b) {
  return detail::max_code<uint16_t, f16_to_f32>(a, b, kF16NaN);
}

inline uint16_t add_bf16(uint16_t a, uint16_t b) { return f32_to_bf16(bf16_to_f32(a) + bf16_to_f32(b)); }
inline uint16_t sub_bf16(uint16_t a, uint16_t b) { return f32_to_bf16(bf16_to_f32(a) - bf16_to_f32(b)); }
inline uint16_t mul_bf16(uint16_t a, uint16_t b) { return f32_to_bf16(bf16_to_f32(a) * bf16_to_f32(b)); }
inline uint16_t div_bf16(uint16_t a, uint16_t b) { return f32_to_bf16(bf16_to_f32(a) / bf16_to_f32(b)); }
inline uint16_t sqrt_bf16(uint16_t a) { return f32_to_bf16(std::sqrt(bf16_to_f32(a))); }
inline uint16_t floor_bf16(uint16_t a) { return f32_to_bf16(std::floor(bf16_to_f32(a))); }
inline uint16_t neg_bf16(uint16_t a) { return is_nan_bf16(a) ? kBF16NaN : uint16_t(a ^ 0x8000); }
inline uint16_t abs_bf16(uint16_t a) { return is_nan_bf16(a) ? kBF16NaN : uint16_t(a & 0x7FFF); }
inline uint16_t min_bf16(uint16_t a, uint16_t b) {
  return detail::min_code<uint16_t, bf16_to_f32>(a, b, kBF16NaN);
}
inline uint16_t max_bf16(uint16_t a, uint16_t b) {
  return detail::max_code<uint16_t, bf16_to_f32>(a, b, kBF16NaN);
}

#define KIR_RT_CMP16(T)                                                                  \
  inline bool eq_##T(uint16_t a, uint16_t b) { return T##_to_f32(a) == T##_to_f32(b); }  \
  inline bool ne_##T(uint16_t a, uint16_t b) { return !(T##_to_f32(a) == T##_to_f32(b)); } \
  inline bool lt_##T(uint16_t a, uint16_t b) { return T##_to_f32(a) < T##_to_f32(b); }   \
  inline bool le_##T(uint16_t a, uint16_t b) { return T##_to_f32(a) <= T##_to_f32(b); }  \
  inline bool gt_##T(uint16_t a, uint16_t b) { return T##_to_f32(a) > T##_to_f32(b); }   \
  inline bool ge_##T(uint16_t a, uint16_t b) { return T##_to_f32(a) >= T##_to_f32(b); }
KIR_RT_CMP16(f16)
KIR_RT_CMP16(bf16)
#undef KIR_RT_CMP16

// Small formats (codes as uint8_t). e2m1 has no NaN: an operation whose exact result is NaN
// (0/0, sqrt of a negative) reports KIR_FAULT_INVALID_CAST and stores +0.
#define KIR_RT_SMALL_ARITH(T)                                                                \
  inline uint8_t add_##T(uint8_t a, uint8_t b) { return f64_to_##T(T##_to_f64(a) + T##_to_f64(b)); } \
  inline uint8_t sub_##T(uint8_t a, uint8_t b) { return f64_to_##T(T##_to_f64(a) - T##_to_f64(b)); } \
  inline uint8_t mul_##T(uint8_t a, uint8_t b) { return f64_to_##T(T##_to_f64(a) * T##_to_f64(b)); } \
  inline uint8_t div_##T(uint8_t a, uint8_t b) { return f64_to_##T(T##_to_f64(a) / T##_to_f64(b)); } \
  inline uint8_t sqrt_##T(uint8_t a) { return f64_to_##T(std::sqrt(T##_to_f64(a))); }     \
  inline uint8_t floor_##T(uint8_t a) { return f64_to_##T(std::floor(T##_to_f64(a))); }
KIR_RT_SMALL_ARITH(e4m3)
KIR_RT_SMALL_ARITH(e5m2)
KIR_RT_SMALL_ARITH(e8m0)
#undef KIR_RT_SMALL_ARITH

inline uint8_t neg_e4m3(uint8_t a) { return is_nan_e4m3(a) ? kE4M3NaN : uint8_t(a ^ 0x80); }
inline uint8_t abs_e4m3(uint8_t a) { return is_nan_e4m3(a) ? kE4M3NaN : uint8_t(a & 0x7F); }
inline uint8_t neg_e5m2(uint8_t a) { return is_nan_e5m2(a) ? kE5M2NaN : uint8_t(a ^ 0x80); }
inline uint8_t abs_e5m2(uint8_t a) { return is_nan_e5m2(a) ? kE5M2NaN : uint8_t(a & 0x7F); }
inline uint8_t neg_e8m0(uint8_t) { return kE8M0NaN; }  // no negative values
inline uint8_t abs_e8m0(uint8_t a) { return a; }
inline uint8_t neg_e2m1(uint8_t a) { return uint8_t((a ^ 0x8) & 0xF); }
inline uint8_t abs_e2m1(uint8_t a) { return uint8_t(a & 0x7); }

namespace detail {
inline int32_t e2m1_result(double r, uint8_t* out) { return f64_to_e2m1(r, out); }
}  // namespace detail
inline int32_t add_e2m1(uint8_t a, uint8_t b, uint8_t* out) {
  return detail::e2m1_result(e2m1_to_f64(a) + e2m1_to_f64(b), out);
}
inline int32_t sub_e2m1(uint8_t a, uint8_t b, uint8_t* out) {
  return detail::e2m1_result(e2m1_to_f64(a) - e2m1_to_f64(b), out);
}
inline int32_t mul_e2m1(uint8_t a, uint8_t b, uint8_t* out) {
  return detail::e2m1_result(e2m1_to_f64(a) * e2m1_to_f64(b), out);
}
inline int32_t div_e2m1(uint8_t a, uint8_t b, uint8_t* out) {  // x/0 -> ±6, 0/0 -> fault
  return detail::e2m1_result(e2m1_to_f64(a) / e2m1_to_f64(b), out);
}
inline int32_t sqrt_e2m1(uint8_t a, uint8_t* out) {
  return detail::e2m1_result(std::sqrt(e2m1_to_f64(a)), out);
}
inline uint8_t floor_e2m1(uint8_t a) { return f64_to_e2m1_raw(std::floor(e2m1_to_f64(a))); }

#define KIR_RT_SMALL_CMP(T, NAN_CODE)                                                          \
  inline uint8_t min_##T(uint8_t a, uint8_t b) {                                               \
    return detail::min_code<uint8_t, T##_to_f32>(a, b, NAN_CODE);                               \
  }                                                                                             \
  inline uint8_t max_##T(uint8_t a, uint8_t b) {                                               \
    return detail::max_code<uint8_t, T##_to_f32>(a, b, NAN_CODE);                               \
  }                                                                                             \
  inline bool eq_##T(uint8_t a, uint8_t b) { return T##_to_f32(a) == T##_to_f32(b); }          \
  inline bool ne_##T(uint8_t a, uint8_t b) { return !(T##_to_f32(a) == T##_to_f32(b)); }       \
  inline bool lt_##T(uint8_t a, uint8_t b) { return T##_to_f32(a) < T##_to_f32(b); }           \
  inline bool le_##T(uint8_t a, uint8_t b) { return T##_to_f32(a) <= T##_to_f32(b); }          \
  inline bool gt_##T(uint8_t a, uint8_t b) { return T##_to_f32(a) > T##_to_f32(b); }           \
  inline bool ge_##T(uint8_t a, uint8_t b) { return T##_to_f32(a) >= T##_to_f32(b); }
KIR_RT_SMALL_CMP(e4m3, kE4M3NaN)
KIR_RT_SMALL_CMP(e5m2, kE5M2NaN)
KIR_RT_SMALL_CMP(e2m1, 0)  // never NaN
KIR_RT_SMALL_CMP(e8m0, kE8M0NaN)
#undef KIR_RT_SMALL_CMP

// ---------------------------------------------------------------------------------------------
// Integer ops (kir::num::int_binary / int_unary / int_compare). Wrapping ops are done in an
// unsigned type of at least int's width (no promotion to signed int, so no UB).

namespace detail {
template <class T>
using uwide = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
}  // namespace detail

template <class T>
inline T add_wrap(T a, T b) {
  using U = detail::uwide<T>;
#ifdef KIR_MUTANT_INT_ADD_SATURATES  // seeded mutant (backends/cpu/mutants/mutants.h)
  if constexpr (std::is_signed_v<T>) {
    T r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    return r;
  }
#endif
  return T(U(a) + U(b));
}
template <class T>
inline T sub_wrap(T a, T b) {
  using U = detail::uwide<T>;
  return T(U(a) - U(b));
}
template <class T>
inline T mul_wrap(T a, T b) {
  using U = detail::uwide<T>;
  return T(U(a) * U(b));
}
template <class T>
inline T neg_wrap(T a) {
  using U = detail::uwide<T>;
  return T(U(0) - U(a));
}
template <class T>
inline T abs_wrap(T a) {  // abs(MIN) == MIN; identity for unsigned
  if constexpr (std::is_signed_v<T>) return a < 0 ? neg_wrap(a) : a;
  else return a;
}
// Truncating division; rem has the dividend's sign. b == 0 -> DIVIDE_BY_ZERO; MIN / -1 and
// MIN % -1 -> INT_OVERFLOW. *out = 0 on a fault.
template <class T>
inline int32_t div_int(T a, T b, T* out) {
  int32_t code = b == 0 ? KIR_FAULT_DIVIDE_BY_ZERO : KIR_FAULT_NONE;
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == T(-1)) code = KIR_FAULT_INT_OVERFLOW;
  *out = code ? T(0) : T(a / (code ? T(1) : b));
  return code;
}
template <class T>
inline int32_t rem_int(T a, T b, T* out) {
  int32_t code = b == 0 ? KIR_FAULT_DIVIDE_BY_ZERO : KIR_FAULT_NONE;
  if constexpr (std::is_signed_v<T>)
    if (a == std::numeric_limits<T>::min() && b == T(-1)) code = KIR_FAULT_INT_OVERFLOW;
  *out = code ? T(0) : T(a % (code ? T(1) : b));
#ifdef KIR_MUTANT_REM_FLOOR_SIGN  // seeded mutant (backends/cpu/mutants/mutants.h)
  if constexpr (std::is_signed_v<T>)
    if (*out != 0 && ((*out < 0) != (b < 0))) *out = T(*out + b);
#endif
  return code;
}
// Shift by b (same dtype); b < 0 or b >= width -> SHIFT_OUT_OF_RANGE. shl wraps; shr is
// arithmetic for signed types, logical for unsigned.
namespace detail {
template <class T>
inline bool shift_ok(T b) {
  using U = uwide<T>;
  constexpr U w = U(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) return b >= 0 && U(b) < w;
  else return U(b) < w;
}
}  // namespace detail
template <class T>
inline int32_t shl_int(T a, T b, T* out) {
  using U = detail::uwide<T>;
#ifdef KIR_MUTANT_SHIFT_AMOUNT_MASKED  // seeded mutant (backends/cpu/mutants/mutants.h)
  b = T(U(b) & U(sizeof(T) * 8 - 1));
#endif
  const bool ok = detail::shift_ok(b);
  const T r = T(U(a) << (ok ? U(b) : U(0)));
  *out = ok ? r : T(0);
  return ok ? KIR_FAULT_NONE : KIR_FAULT_SHIFT_OUT_OF_RANGE;
}
template <class T>
inline int32_t shr_int(T a, T b, T* out) {
#ifdef KIR_MUTANT_SHIFT_AMOUNT_MASKED  // seeded mutant (backends/cpu/mutants/mutants.h)
  b = T(detail::uwide<T>(b) & detail::uwide<T>(sizeof(T) * 8 - 1));
#endif
  const bool ok = detail::shift_ok(b);
  const T r = T(a >> (ok ? int(b) : 0));  // C++20: >> on negative signed is arithmetic
  *out = ok ? r : T(0);
  return ok ? KIR_FAULT_NONE : KIR_FAULT_SHIFT_OUT_OF_RANGE;
}
template <class T>
inline T min_int(T a, T b) { return b < a ? b : a; }
template <class T>
inline T max_int(T a, T b) { return a < b ? b : a; }

#define KIR_RT_INT_OPS(N, T)                                                           \
  inline T add_##N(T a, T b) { return add_wrap(a, b); }                                \
  inline T sub_##N(T a, T b) { return sub_wrap(a, b); }                                \
  inline T mul_##N(T a, T b) { return mul_wrap(a, b); }                                \
  inline T neg_##N(T a) { return neg_wrap(a); }                                        \
  inline T abs_##N(T a) { return abs_wrap(a); }                                        \
  inline T not_##N(T a) { return T(~a); }                                              \
  inline T and_##N(T a, T b) { return T(a & b); }                                      \
  inline T or_##N(T a, T b) { return T(a | b); }                                       \
  inline T xor_##N(T a, T b) { return T(a ^ b); }                                      \
  inline int32_t div_##N(T a, T b, T* out) { return div_int(a, b, out); }             \
  inline int32_t rem_##N(T a, T b, T* out) { return rem_int(a, b, out); }             \
  inline int32_t shl_##N(T a, T b, T* out) { return shl_int(a, b, out); }             \
  inline int32_t shr_##N(T a, T b, T* out) { return shr_int(a, b, out); }             \
  inline T min_##N(T a, T b) { return min_int(a, b); }                                 \
  inline T max_##N(T a, T b) { return max_int(a, b); }                                 \
  inline bool eq_##N(T a, T b) { return a == b; }                                     \
  inline bool ne_##N(T a, T b) { return a != b; }                                     \
  inline bool lt_##N(T a, T b) { return a < b; }                                      \
  inline bool le_##N(T a, T b) { return a <= b; }                                     \
  inline bool gt_##N(T a, T b) { return a > b; }                                      \
  inline bool ge_##N(T a, T b) { return a >= b; }
KIR_RT_INT_OPS(i8, int8_t)
KIR_RT_INT_OPS(i16, int16_t)
KIR_RT_INT_OPS(i32, int32_t)
KIR_RT_INT_OPS(i64, int64_t)
KIR_RT_INT_OPS(u8, uint8_t)
KIR_RT_INT_OPS(u16, uint16_t)
KIR_RT_INT_OPS(u32, uint32_t)
KIR_RT_INT_OPS(u64, uint64_t)
KIR_RT_INT_OPS(index, int64_t)
#undef KIR_RT_INT_OPS

// bool (0/1): and/or/xor/not are logical; min/max/compare in unsigned order.
inline uint8_t and_bool(uint8_t a, uint8_t b) { return uint8_t(a & b & 1); }
inline uint8_t or_bool(uint8_t a, uint8_t b) { return uint8_t((a | b) & 1); }
inline uint8_t xor_bool(uint8_t a, uint8_t b) { return uint8_t((a ^ b) & 1); }
inline uint8_t not_bool(uint8_t a) { return uint8_t((a & 1) ^ 1); }
inline uint8_t min_bool(uint8_t a, uint8_t b) { return uint8_t(a & b & 1); }
inline uint8_t max_bool(uint8_t a, uint8_t b) { return uint8_t((a | b) & 1); }
inline bool eq_bool(uint8_t a, uint8_t b) { return (a & 1) == (b & 1); }
inline bool ne_bool(uint8_t a, uint8_t b) { return (a & 1) != (b & 1); }
inline bool lt_bool(uint8_t a, uint8_t b) { return (a & 1) < (b & 1); }
inline bool le_bool(uint8_t a, uint8_t b) { return (a & 1) <= (b & 1); }
inline bool gt_bool(uint8_t a, uint8_t b) { return (a & 1) > (b & 1); }
inline bool ge_bool(uint8_t a, uint8_t b) { return (a & 1) >= (b & 1); }

}  // namespace kir_rt

#endif  // KIR_RT_H
