// Verifier and interpreter agree on cast and bitcast (L4.14): for every pair of dtypes, a cast or
// bitcast the verifier accepts runs in the interpreter. Bitcast runs on every bit pattern without
// error; cast runs 0 and 1 (1 and 2 for e8m0, which has no zero) without error, and every bit
// pattern numerics converts; the others fail with the data-dependent InvalidCast (NaN or
// out-of-range float -> int, NaN -> e2m1), never with any other kind of error.
#include "interp_test.h"
#include "numerics/cast.h"

using namespace kir;

namespace {

std::vector<DType> all_dtypes() {
  std::vector<DType> out;
  for (int i = 0; i < kNumDTypes; ++i) out.push_back(static_cast<DType>(i));
  return out;
}

// Bit patterns of d to run: all of them up to 16 bits, else a spread including the extremes.
std::vector<uint64_t> patterns(DType d) {
  const int w = info(d).bits;
  if (d == DType::Bool) return {0, 1};
  std::vector<uint64_t> out;
  if (w <= 16) {
    for (uint64_t b = 0; b < (uint64_t{1} << w); ++b) out.push_back(b);
    return out;
  }
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  for (uint64_t b : {uint64_t{0}, uint64_t{1}, mask, mask >> 1, (mask >> 1) + 1, uint64_t{0x7F800000},
                     uint64_t{0xFF800000}, uint64_t{0x7FC00000}, uint64_t{0x3F800000}, uint64_t{0x4F000000},
                     uint64_t{0x7FF0000000000000}, uint64_t{0x7FF8000000000000}, uint64_t{0x3FF0000000000000},
                     uint64_t{0x43E0000000000000}, uint64_t{0x123456789ABCDEF0}})
    out.push_back(b & mask);
  for (uint64_t k = 0; k < 64; ++k) out.push_back((k * 0x9E3779B97F4A7C15ull) & mask);
  return out;
}

// 0 and 1 in d (e8m0: 1 and 2).
std::vector<uint64_t> zero_one(DType d) {
  if (d == DType::E8M0) return {0x7F, 0x80};
  if (is_any_float(d)) return {num::from_double(0.0, d), num::from_double(1.0, d)};
  return {0, 1};
}

interp::Value tensor_of(DType d, const std::vector<uint64_t>& bits) {
  interp::Tensor t;
  t.dtype = d;
  t.shape = {static_cast<int64_t>(bits.size())};
  t.bits = bits;
  return interp::Value(t);
}

}  // namespace

TEST_CASE("[L4.14] every cast and bitcast the verifier accepts runs in the interpreter", "[interp][L4.14]") {
  int accepted = 0, rejected = 0;
  for (const char* op : {"cast", "bitcast"}) {
    const bool bit = std::string(op) == "bitcast";
    for (DType s : all_dtypes())
      for (DType t : all_dtypes()) {
        const std::string sn(name(s)), tn(name(t));
        INFO(op << " " << sn << " -> " << tn);
        const std::string text = "fn @f(%x: " + sn + "[N]) -> " + tn + "[N] {\n  %r = " + op + "(%x) : " + tn +
                                 "[N]\n  return(%r)\n}\n";
        Diagnostics d;
        auto m = parse_module(text, "pair.kir", d);
        REQUIRE(m);
        const bool ok = verify_module(*m, d);
        if (bit) {
          // The rule: equal storage width, and never bool.
          const bool rule = info(s).bits == info(t).bits && s != DType::Bool && t != DType::Bool;
          CHECK(ok == rule);
        }
        if (!ok) {
          ++rejected;
          continue;
        }
        ++accepted;
        interp::Interpreter it(*m);
        // Ordinary values never fail.
        try {
          auto r = it.call_helper("f", {tensor_of(s, zero_one(s))});
          CHECK(r[0].tensor().dtype == t);
        } catch (const std::exception& e) {
          FAIL("0/1 input: " << e.what());
        }
        // Every pattern: the ones numerics converts run together without any error; each one it
        // refuses (cast only) fails alone with InvalidCast.
        std::vector<uint64_t> good, refused;
        for (uint64_t b : patterns(s)) {
          auto r = bit ? num::bitcast(num::Scalar{s, b}, t) : num::cast(num::Scalar{s, b}, t);
          (r ? good : refused).push_back(b);
        }
        if (bit) CHECK(refused.empty());
        try {
          auto r = it.call_helper("f", {tensor_of(s, good)});
          CHECK(r[0].tensor().bits.size() == good.size());
        } catch (const std::exception& e) {
          FAIL(e.what());
        }
        for (size_t k = 0; k < refused.size(); k += 1 + refused.size() / 8) {
          try {
            it.call_helper("f", {tensor_of(s, {refused[k]})});
            FAIL("bits " << refused[k] << ": expected InvalidCast");
          } catch (const interp::RuntimeError& e) {
            INFO("bits " << refused[k] << ": " << e.what());
            CHECK(e.kind() == interp::ErrorKind::InvalidCast);
          }
        }
      }
  }
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

TEST_CASE("[L4.14] an unverified bitcast from bool is a located interpreter error", "[interp][L4.14]") {
  Diagnostics d;
  auto m = parse_module("fn @f(%x: bool[N]) -> u8[N] {\n  %r = bitcast(%x) : u8[N]\n  return(%r)\n}\n", "b.kir", d);
  REQUIRE(m);
  interp::Interpreter it(*m);  // not verified on purpose
  try {
    it.call_helper("f", {tensor_of(DType::Bool, {1, 0})});
    FAIL("expected a run-time error");
  } catch (const interp::RuntimeError& e) {
    CHECK(e.kind() == interp::ErrorKind::InvalidValue);
    CHECK(e.location() == "b.kir:2:3");
    CHECK(std::string(e.what()).find("bitcast bool -> u8 is not in the language") != std::string::npos);
  }
}
