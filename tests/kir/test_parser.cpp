// Parser behaviour on well-formed and malformed text: locations, literals, scoping, limits.
#include <catch2/catch.hpp>

#include "kir/text/parser.h"
#include "kir/text/printer.h"

using namespace kir;

namespace {
std::string first_error(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  if (m) return "";
  return d.all().empty() ? "?" : d.all()[0].loc.str() + ": " + d.all()[0].message;
}
std::string roundtrip(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  return print_module(*m);
}
}  // namespace

TEST_CASE("ops carry their text location", "[kir][text]") {
  Diagnostics d;
  auto m = parse_module("kernel @k(%a: f32) {\n\n    %b = neg(%a) : f32\n}\n", "x.kir", d);
  REQUIRE(m);
  const Operation& op = *m->functions[0]->body.ops[0];
  CHECK(op.loc.str() == "x.kir:3:5");
  CHECK_FALSE(op.loc.explicit_loc);
}

TEST_CASE("explicit frontend locations round-trip", "[kir][text]") {
  std::string text = "kernel @k(%a: f32) {\n  %b = neg(%a) : f32 loc(\"model.py\":12:7)\n}\n";
  CHECK(roundtrip(text) == text);
  Diagnostics d;
  auto m = parse_module(text, "x.kir", d);
  CHECK(m->functions[0]->body.ops[0]->loc.str() == "model.py:12:7");
}

TEST_CASE("literals print canonically and exactly", "[kir][text]") {
  std::string text =
      "kernel @k() {\n"
      "  %a = const() {value = 0x1.8p+1} : f32\n"
      "  %b = const() {value = -0.0} : f32\n"
      "  %c = const() {value = 18446744073709551615} : u64\n"
      "  %d = const() {value = -9223372036854775808} : i64\n"
      "  %e = const() {value = -inf} : f32\n"
      "  %f = const() {value = 0x1p-149} : f32\n"
      "}\n";
  std::string out = roundtrip(text);
  CHECK(out.find("value = 3.0}") != std::string::npos);
  CHECK(out.find("value = -0.0}") != std::string::npos);
  CHECK(out.find("value = 18446744073709551615}") != std::string::npos);
  CHECK(out.find("value = -9223372036854775808}") != std::string::npos);
  CHECK(out.find("value = -inf}") != std::string::npos);
  CHECK(out.find("value = 0x1p-149}") != std::string::npos);  // 2^-149 has no exact short decimal
  CHECK(roundtrip(out) == out);
}

TEST_CASE("attributes print sorted", "[kir][text]") {
  CHECK(roundtrip("kernel @k(%a: f32) {\n  %b = exp2(%a) {flush_to_zero = true, approximate = true} : f32\n}\n") ==
        "kernel @k(%a: f32) {\n  %b = exp2(%a) {approximate = true, flush_to_zero = true} : f32\n}\n");
}

TEST_CASE("syntax errors name the place", "[kir][text]") {
  CHECK(first_error("kernel @k(%a: f33) {}") == "t.kir:1:15: unknown type 'f33'");
  CHECK(first_error("kernel @k() {\n  %a = const() {value = 99999999999999999999} : i64\n}") ==
        "t.kir:2:25: integer '99999999999999999999' does not fit in 64 bits");
  CHECK(first_error("kernel @k() {") == "t.kir:1:14: unexpected end of input: missing '}'");
  CHECK(first_error("kernel @k() {}\nkernel @k() {}") == "t.kir:2:8: redefinition of symbol '@k'");
  CHECK(first_error("kernel @k(%a: f32, %a: f32) {}") == "t.kir:1:20: redefinition of value '%a'");
  CHECK(first_error("kernel @k(%a: f32[M) {}").find("expected ']'") != std::string::npos);
  CHECK(first_error("kernel @k() {\n  %x = add() {a = 1, a = 2} : f32\n}").find("duplicate attribute 'a'") != std::string::npos);
  CHECK(first_error("kernel @k() { %s = const() {value = \"abc} : f32 }").find("unterminated string") != std::string::npos);
  CHECK(first_error("kernel @k() { # }").find("unexpected character '#'") != std::string::npos);
  CHECK(first_error("kernel @k(%a: f32[4611686018427387905]) {}").find("too large") != std::string::npos);
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[kir][text]") {
  std::string deep = "kernel @k(%a: f32[" + std::string(100000, '(') + "1" + std::string(100000, ')') + "]) {}";
  CHECK(first_error(deep).find("nesting deeper than") != std::string::npos);
  std::string list = "kernel @k() {\n  %x = const() {value = " + std::string(100000, '[') + "} : f32\n}";
  CHECK(first_error(list).find("nesting deeper than") != std::string::npos);
}

TEST_CASE("extent overflow in types is a diagnostic", "[kir][text]") {
  CHECK(first_error("kernel @k(%a: f32[4611686018427387904 * 4611686018427387904]) {}").find("overflow") !=
        std::string::npos);
}

TEST_CASE("long unary minus chains are bounded", "[kir][text]") {
  CHECK(first_error("kernel @k(%a: f32[" + std::string(100000, '-') + "1]) {}").find("nesting deeper than") !=
        std::string::npos);
}

TEST_CASE("a kernel's fixes clause round-trips in declaration order", "[kir][text][L2.5]") {
  const std::string text =
      "kernel @k(%x: In<f32[N, C]>) invocation {N = 2} fixes {stride = [1, 1], padding = \"same\", eps = 1e-6, "
      "scale = none, shape = [C], ceil = true, layout.alignment = 4} {\n"
      "  %z = const() {value = 0.0} : f32\n}\n";
  CHECK(roundtrip(text) == text);
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  const auto& fx = m->functions[0]->fixes;
  REQUIRE(fx.size() == 7);
  CHECK(fx[0].first == "stride");
  CHECK(fx[0].second.ints() == std::vector<int64_t>{1, 1});
  CHECK(fx[1].second.kind == Attribute::Kind::String);
  CHECK(fx[2].second.f == 1e-6);
  CHECK(fx[3].second.kind == Attribute::Kind::Keyword);
  CHECK(fx[6].first == "layout.alignment");
  // a clone keeps it
  CHECK(print_module(*clone(*m)) == text);
  CHECK(first_error("kernel @k(%x: In<f32[N]>) fixes {stride 2} {\n}\n") == "t.kir:1:41: expected '=' after the param name, found integer '2'");
}
