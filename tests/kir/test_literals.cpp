// Exact constants and bitcast (L4.14): a float literal is checked against its dtype from its text
// (decimal or hex float), never after a trip through double, and an inexact one is reported with
// the nearest values on both sides; integer literals are checked against the dtype's range;
// bitcast never takes or gives bool. Expected values and messages are written by hand.
#include <catch2/catch.hpp>

#include "kir/builder.h"
#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"

using namespace kir;

namespace {

std::string const_fn(const std::string& value, const std::string& dtype) {
  return "fn @f() -> " + dtype + " {\n  %r = const() {value = " + value + "} : " + dtype + "\n  return(%r)\n}\n";
}

// The verifier's messages for the module (empty when it verifies).
std::vector<std::string> errors(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  verify_module(*m, d);
  std::vector<std::string> out;
  for (const auto& e : d.all()) out.push_back(e.rule + ": " + e.message);
  return out;
}

}  // namespace

TEST_CASE("[L4.14] exact float literals verify in every spelling", "[L4.14]") {
  const std::vector<std::pair<const char*, const char*>> ok = {
      {"0x1.8p3", "f32"},      {"-0.0", "f32"},       {"inf", "f32"},      {"-inf", "f64"},
      {"nan", "f16"},          {"0x1p-149", "f32"},   {"65504.0", "f16"},  {"448.0", "e4m3"},
      {"-6.0", "e2m1"},        {"0x1p-127", "e8m0"},  {"1e22", "f64"},     {"0.5", "bf16"},
      {"0x1p-1074", "f64"},    {"57344.0", "e5m2"},   {"-0x1.8p+1", "f64"}, {"16777216.0", "f32"},
  };
  for (const auto& [v, d] : ok) {
    INFO(v << " : " << d);
    CHECK(errors(const_fn(v, d)).empty());
  }
}

TEST_CASE("[L4.14] inexact float literals are rejected with the nearest values below and above", "[L4.14]") {
  const std::vector<std::tuple<const char*, const char*, std::string>> bad = {
      {"1.0000000000000001", "f64",
       "literal 1.0000000000000001 is not exactly representable in f64; nearest: 1.0 and 0x1.0000000000001p+0 "
       "(about 1.0000000000000002)"},
      {"1e-400", "f64",
       "literal 1e-400 is not exactly representable in f64; nearest: 0.0 and 0x1p-1074 (about 5e-324)"},
      {"-1e-400", "f64",
       "literal -1e-400 is not exactly representable in f64; nearest: -0x1p-1074 (about -5e-324) and -0.0"},
      {"1.00000000000000000001", "f32",
       "literal 1.00000000000000000001 is not exactly representable in f32; nearest: 1.0 and 0x1.000002p+0 "
       "(about 1.0000001192092896)"},
      {"0.1", "f64",
       "literal 0.1 is not exactly representable in f64; nearest: 0x1.9999999999999p-4 (about 0.09999999999999999) "
       "and 0x1.999999999999ap-4 (about 0.1)"},
      {"0.1", "f16",
       "literal 0.1 is not exactly representable in f16; nearest: 0.0999755859375 and 0.10003662109375"},
      {"2049.0", "f16", "literal 2049.0 is not exactly representable in f16; nearest: 2048.0 and 2050.0"},
      {"3.4028235e38", "f32",
       "literal 3.4028235e38 is not exactly representable in f32; nearest: 0x1.fffffep+127 (about "
       "3.4028234663852886e+38) and inf"},
      {"464.0", "e4m3", "literal 464.0 is not exactly representable in e4m3; nearest: 448.0, the largest e4m3 value"},
      {"2.5", "e2m1", "literal 2.5 is not exactly representable in e2m1; nearest: 2.0 and 3.0"},
      {"0.0", "e8m0",
       "literal 0.0 is not exactly representable in e8m0; nearest: 0x1p-127 (about 5.877471754111438e-39), the "
       "smallest e8m0 value"},
      {"3.0", "e8m0", "literal 3.0 is not exactly representable in e8m0; nearest: 2.0 and 4.0"},
      {"1.00390625", "bf16", "literal 1.00390625 is not exactly representable in bf16; nearest: 1.0 and 1.0078125"},
  };
  for (const auto& [v, d, msg] : bad) {
    INFO(v << " : " << d);
    CHECK(errors(const_fn(v, d)) == std::vector<std::string>{"L4.14: op 'const': " + msg});
  }
}

TEST_CASE("[L4.14] NaN and infinity need a format that has them", "[L4.14]") {
  CHECK(errors(const_fn("nan", "e2m1")) == std::vector<std::string>{"L4.14: op 'const': e2m1 has no NaN"});
  CHECK(errors(const_fn("inf", "e4m3")) == std::vector<std::string>{"L4.14: op 'const': e4m3 has no infinity"});
}

TEST_CASE("[L4.14] integer literals outside their dtype's range are rejected with the range", "[L4.14]") {
  CHECK(errors(const_fn("256", "u8")) ==
        std::vector<std::string>{"L4.14: op 'const': value 256 is out of range for u8 [0, 255]"});
  CHECK(errors(const_fn("-129", "i8")) ==
        std::vector<std::string>{"L4.14: op 'const': value -129 is out of range for i8 [-128, 127]"});
  CHECK(errors(const_fn("-1", "u64")) ==
        std::vector<std::string>{"L4.14: op 'const': value -1 is out of range for u64 [0, 18446744073709551615]"});
  CHECK(errors(const_fn("9223372036854775808", "index")) ==
        std::vector<std::string>{"L4.14: op 'const': value 9223372036854775808 is out of range for index "
                                 "[-9223372036854775808, 9223372036854775807]"});
  CHECK(errors(const_fn("65535", "u16")).empty());
  CHECK(errors(const_fn("-2147483648", "i32")).empty());
}

TEST_CASE("[L4.14] printing spells every float exactly and never changes a literal", "[L4.14][kir][text]") {
  // An inexact literal prints as written (kir fmt does not turn 1.0000000000000001 into 1.0).
  Diagnostics d;
  auto m = parse_module(const_fn("1.0000000000000001", "f64"), "t.kir", d);
  REQUIRE(m);
  CHECK(print_module(*m) == const_fn("1.0000000000000001", "f64"));
  // An exact one prints canonically: the shortest decimal when that is exact, else a hex float.
  auto canon = [](const std::string& v, const std::string& dt) {
    Diagnostics dd;
    auto mm = parse_module(const_fn(v, dt), "t.kir", dd);
    REQUIRE(mm);
    return print_module(*mm);
  };
  CHECK(canon("0x1.8p+1", "f32") == const_fn("3.0", "f32"));
  CHECK(canon("0x1.99999ap-4", "f32") == const_fn("0x1.99999ap-4", "f32"));
  CHECK(canon("0.100000001490116119384765625", "f32") == const_fn("0x1.99999ap-4", "f32"));
  CHECK(canon("1e+22", "f64") == const_fn("1e+22", "f64"));
  // A constant built in code from a double prints as text that verifies again.
  Module built;
  Builder b(built);
  b.helper("f", {Type::scalar(DType::F32)});
  b.effect("return", {b.const_float(static_cast<double>(0.1f), DType::F32)});
  std::string text = print_module(built);
  CHECK(text.find("value = 0x1.99999ap-4}") != std::string::npos);
  CHECK(errors(text).empty());
}

TEST_CASE("[L4.14] a double built in code is checked like a literal", "[L4.14]") {
  Module m;
  Builder b(m);
  b.helper("f", {Type::scalar(DType::F32)});
  b.effect("return", {b.const_float(0.1, DType::F32)});
  Diagnostics d;
  CHECK_FALSE(verify_module(m, d));
  CHECK(d.contains("L4.14", "literal 0x1.999999999999ap-4 is not exactly representable in f32; nearest: "
                            "0x1.999998p-4 (about 0.09999999403953552) and 0x1.99999ap-4 (about 0.10000000149011612)"));
}

TEST_CASE("[L4.14] bitcast never takes or gives bool", "[L4.14]") {
  auto bitcast_fn = [](const std::string& from, const std::string& to) {
    return "fn @f(%x: " + from + "[N]) -> " + to + "[N] {\n  %r = bitcast(%x) : " + to + "[N]\n  return(%r)\n}\n";
  };
  CHECK(errors(bitcast_fn("bool", "u8")) ==
        std::vector<std::string>{"L4.14: op 'bitcast': bitcast bool -> u8: bool has no bit pattern to reinterpret; "
                                 "use cast (false/true <-> 0/1)"});
  CHECK(errors(bitcast_fn("u8", "bool")).size() == 1);
  CHECK(errors(bitcast_fn("i8", "bool")).size() == 1);
  CHECK(errors(bitcast_fn("bool", "e4m3")).size() == 1);
  CHECK(errors(bitcast_fn("bool", "bool")).size() == 1);
  CHECK(errors(bitcast_fn("e4m3", "u8")).empty());
  CHECK(errors(bitcast_fn("f32", "i32")).empty());
  // cast is the way between bool and integers.
  CHECK(errors("fn @f(%x: bool[N]) -> u8[N] {\n  %r = cast(%x) : u8[N]\n  return(%r)\n}\n").empty());
}
