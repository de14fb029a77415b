// The expression language parser: Python precedence over the documented node set, constructs
// outside the language rejected, and bounded depth and size (M11).
#include <catch2/catch.hpp>

#include "specs/src/expr_eval.h"
#include "specs/src/expr_parser.h"

using namespace kir::specs;

namespace {
std::string round_trip(const std::string& text) {
  ParseError err;
  auto e = parse_expr(text, err);
  return e ? unparse(*e) : "ERROR: " + err.message;
}
std::string parse_error(const std::string& text) {
  ParseError err;
  auto e = parse_expr(text, err);
  return e ? "" : err.message;
}
std::string value_of(const std::string& text) {
  ParseError err;
  auto e = parse_expr(text, err);
  if (!e) return "ERROR: " + err.message;
  try {
    return eval(*e, Env{}).repr();
  } catch (const EvalError& x) {
    return std::string("EVAL: ") + x.what();
  }
}
}  // namespace

TEST_CASE("multiplication binds tighter than addition", "[M11]") {
  CHECK(value_of("2 + 3 * 4") == "14");
  CHECK(round_trip("(2 + 3) * 4") == "(2 + 3) * 4");
}
TEST_CASE("subtraction is left-associative", "[M11]") {
  CHECK(value_of("10 - 4 - 3") == "3");
  CHECK(round_trip("10 - (4 - 3)") == "10 - (4 - 3)");
}
TEST_CASE("floor division and modulo follow Python", "[M11]") {
  CHECK(value_of("-7 // 2") == "-4");
  CHECK(value_of("-7 % 2") == "1");
  CHECK(value_of("7 % -2") == "-1");
}
TEST_CASE("unary minus binds tighter than multiplication", "[M11]") { CHECK(value_of("-2 * 3") == "-6"); }
TEST_CASE("comparisons chain", "[M11]") {
  CHECK(value_of("0 <= 1 <= 2") == "True");
  CHECK(value_of("0 <= 3 <= 2") == "False");
  CHECK(value_of("1 < 2 > 0") == "True");
}
TEST_CASE("not binds looser than comparisons, and looser than not", "[M11]") {
  CHECK(value_of("not 1 == 2") == "True");
  CHECK(value_of("True or False and False") == "True");
  CHECK(value_of("(True or False) and False") == "False");
}
TEST_CASE("the conditional is the loosest and nests to the right", "[M11]") {
  CHECK(value_of("1 if False else 2 if True else 3") == "2");
  CHECK(value_of("1 + 1 if True else 0") == "2");
}
TEST_CASE("in and not in", "[M11]") {
  CHECK(value_of("2 in (1, 2, 3)") == "True");
  CHECK(value_of("'a' not in ('b', 'c')") == "True");
}
TEST_CASE("tuples compare lexicographically", "[M11]") {
  CHECK(value_of("(1, 2) < (1, 3)") == "True");
  CHECK(value_of("(4, 2) == (4, 2)") == "True");
}
TEST_CASE("subscripts, negative indices and slices", "[M11]") {
  CHECK(value_of("(5, 6, 7)[-1]") == "7");
  CHECK(value_of("(5, 6, 7, 8)[1:3]") == "(6, 7)");
  CHECK(value_of("(5, 6, 7, 8)[::-1]") == "(8, 7, 6, 5)");
  CHECK(value_of("(5, 6, 7, 8)[::2]") == "(5, 7)");
}
TEST_CASE("arbitrary-precision integers", "[M11]") {
  CHECK(value_of("100000000000000000000 * 100000000000000000000") == "10000000000000000000000000000000000000000");
}
TEST_CASE("division by zero is an evaluation error", "[M11]") {
  CHECK(value_of("1 // 0").find("EVAL: ") == 0);
  CHECK(value_of("1 % 0").find("EVAL: ") == 0);
}
TEST_CASE("keyword arguments in calls", "[M11]") { CHECK(value_of("max((), default=5)") == "5"); }
TEST_CASE("the restricted comprehension", "[M11]") {
  CHECK(value_of("all(x > 0 for x in (1, 2, 3))") == "True");
  CHECK(value_of("max(x * 2 for x in (1, 5, 3))") == "10");
}
TEST_CASE("inf is a reserved name, -inf its negation", "[M11]") {
  CHECK(value_of("inf > 10 ** 3").find("outside") != std::string::npos);
  CHECK(value_of("inf > 100000") == "True");
  CHECK(value_of("-inf < 0") == "True");
}
TEST_CASE("constructs outside the language are rejected", "[M11]") {
  for (const char* t : {"a / b", "a ** 2", "a | b", "a & b", "a is None", "lambda x: x", "{1, 2}", "[x for x in s]",
                        "f'x'", "~a", "a << 1", "x if y"})
    CHECK(!parse_error(t).empty());
  CHECK(parse_error("a / b").find("outside the expression language") != std::string::npos);
  CHECK(parse_error("a is None").find("outside the expression language") != std::string::npos);
  CHECK(parse_error("f'x'").find("outside the expression language") != std::string::npos);
}
TEST_CASE("a comprehension may not filter or nest", "[M11]") {
  CHECK(parse_error("sum(x for x in s if x)").find("filter") != std::string::npos);
  CHECK(parse_error("sum(x for x in s for y in t)").find("nest") != std::string::npos);
}
TEST_CASE("non-finite float literals are rejected", "[M11]") {
  CHECK(parse_error("1e999").find("non-finite") != std::string::npos);
}
TEST_CASE("calls only of names", "[M11]") {
  CHECK(parse_error("(a)(b)") == "");  // a parenthesized name is still a name
  CHECK(!parse_error("(1)(2)").empty());
}
TEST_CASE("deep nesting is an error, not a crash", "[M11]") {
  std::string deep(5000, '(');
  deep += "1" + std::string(5000, ')');
  CHECK(parse_error(deep).find("nests too deeply") != std::string::npos);
  std::string nots;
  for (int i = 0; i < 3000; ++i) nots += "not ";
  CHECK(parse_error(nots + "True").find("nests too deeply") != std::string::npos);
  std::string negs(3000, '-');
  CHECK(parse_error(negs + "1").find("nests too deeply") != std::string::npos);
}
TEST_CASE("huge expressions are an error, not a hang", "[M11]") {
  std::string big = "1";
  for (int i = 0; i < 9000; ++i) big += " + 1";
  CHECK(!parse_error(big).empty());
  std::string wide = "1";
  for (int i = 0; i < 3000; ++i) wide += "+1";
  CHECK(parse_error(wide).find("too large") != std::string::npos);
}
TEST_CASE("shapes: lists with splices and family applications", "[M7]") {
  ShapeExpr s;
  ParseError err;
  REQUIRE(parse_shape("[*S, N + 1]", s, err));
  CHECK(!s.is_family);
  CHECK(s.items.size() == 2);
  CHECK(s.items[0]->k == Expr::K::Star);
  ShapeExpr f;
  REQUIRE(parse_shape("Mat[trans_a, M, K]", f, err));
  CHECK(f.is_family);
  CHECK(f.family == "Mat");
  CHECK(f.items.size() == 3);
  ShapeExpr bad;
  CHECK_FALSE(parse_shape("M + 1", bad, err));
  CHECK(err.message.find("a shape must be") != std::string::npos);
  ShapeExpr empty;
  REQUIRE(parse_shape("[]", empty, err));
  CHECK(empty.items.empty());
}
