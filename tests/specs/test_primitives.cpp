// Primitives on the reference's documented input/output pairs and domain errors (M11).
#include <catch2/catch.hpp>

#include "specs/src/expr_eval.h"
#include "specs/src/expr_parser.h"
#include "specs/src/primitives.h"

using namespace kir::specs;

namespace {
Value run(const std::string& text) {
  ParseError err;
  auto e = parse_expr(text, err);
  if (!e) FAIL("parse error: " << err.message);
  Env env;
  return eval(*e, env);
}
std::string show(const std::string& text) { return run(text).repr(); }
std::string error_of(const std::string& text) {
  try {
    run(text);
  } catch (const EvalError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("broadcast right-aligns shapes", "[M11]") { CHECK(show("broadcast((8, 1, 16), (4, 16))") == "(8, 4, 16)"); }
TEST_CASE("broadcast rejects incompatible shapes", "[M11]") {
  CHECK(error_of("broadcast((2,), (3,))").find("not broadcastable") != std::string::npos);
}
TEST_CASE("reduced keeps reduced axes with keepdim", "[M11]") {
  CHECK(show("reduced((4, 8, 16), (0, 2), True, 'full')") == "(1, 8, 1)");
}
TEST_CASE("reduced of a rank-0 shape is rank 0", "[M11]") { CHECK(show("reduced((), (0,), False, 'full')") == "()"); }
TEST_CASE("reduced noop keeps every axis for an empty dim list", "[M11]") {
  CHECK(show("reduced((4, 8), (), False, 'noop')") == "(4, 8)");
}
TEST_CASE("reduced full reduces every axis for an empty dim list", "[M11]") {
  CHECK(show("reduced((4, 8), (), False, 'full')") == "()");
}
TEST_CASE("reduced reject refuses an empty dim list", "[M11]") {
  CHECK(error_of("reduced((4, 8), (), False, 'reject')").find("rejected") != std::string::npos);
}
TEST_CASE("reduced with dim None reduces all axes", "[M11]") { CHECK(show("reduced((4, 8), None, True, 'full')") == "(1, 1)"); }
TEST_CASE("reduced rejects an axis outside the rank", "[M11]") {
  CHECK(error_of("reduced((4, 8), 2, False, 'full')").find("outside the rank") != std::string::npos);
}
TEST_CASE("reduced rejects an unknown mode", "[M11]") {
  CHECK(error_of("reduced((4, 8), 0, False, 'other')").find("is not one of") != std::string::npos);
}
TEST_CASE("valid_axes accepts 0 and -1 at rank 0", "[M11]") { CHECK(show("valid_axes((0, -1), 0)") == "True"); }
TEST_CASE("valid_axes rejects 1 at rank 0", "[M11]") { CHECK(show("valid_axes(1, 0)") == "False"); }
TEST_CASE("valid_axes accepts [-r, r)", "[M11]") {
  CHECK(show("valid_axes((-3, 2), 3)") == "True");
  CHECK(show("valid_axes(3, 3)") == "False");
  CHECK(show("valid_axes(-4, 3)") == "False");
}
TEST_CASE("valid_axes accepts None", "[M11]") { CHECK(show("valid_axes(None, 2)") == "True"); }
TEST_CASE("unique_axes detects duplicates after normalization", "[M11]") {
  CHECK(show("unique_axes((0, -2), 2)") == "False");
  CHECK(show("unique_axes((0, 1), 2)") == "True");
  CHECK(show("unique_axes((0, -1), 0)") == "False");
}
TEST_CASE("per_axis falls back for None", "[M11]") { CHECK(show("per_axis(None, 0, 2, 3)") == "3"); }
TEST_CASE("per_axis takes item i of a sequence", "[M11]") { CHECK(show("per_axis((5, 6), 1, 2)") == "6"); }
TEST_CASE("per_axis keeps a scalar", "[M11]") { CHECK(show("per_axis(7, 1, 2)") == "7"); }
TEST_CASE("per_axis keyword fallback", "[M11]") { CHECK(show("per_axis((None, 4), 0, 2, fallback=9)") == "9"); }
TEST_CASE("per_axis None without fallback is a domain error", "[M11]") {
  CHECK(error_of("per_axis(None, 0, 2)").find("no fallback") != std::string::npos);
}
TEST_CASE("per_axis length mismatch is a domain error", "[M11]") {
  CHECK(error_of("per_axis((1, 2, 3), 0, 2)").find("has length 3") != std::string::npos);
}
TEST_CASE("ceil_div rounds up", "[M11]") {
  CHECK(show("ceil_div(7, 2)") == "4");
  CHECK(show("ceil_div(-7, 2)") == "-3");
  CHECK(show("ceil_div(8, 2)") == "4");
}
TEST_CASE("ceil_div by zero is a domain error", "[M11]") { CHECK(error_of("ceil_div(7, 0)").find("> 0") != std::string::npos); }
TEST_CASE("max with default of an empty sequence", "[M11]") { CHECK(show("max((), default=0)") == "0"); }
TEST_CASE("max of an empty sequence without default is a domain error", "[M11]") {
  CHECK(error_of("max(())").find("empty") != std::string::npos);
}
TEST_CASE("min, len, prod, sum, all", "[M11]") {
  CHECK(show("min((4, 2, 9))") == "2");
  CHECK(show("len((4, 2, 9))") == "3");
  CHECK(show("prod(())") == "1");
  CHECK(show("prod((2, 3, 4))") == "24");
  CHECK(show("sum(())") == "0");
  CHECK(show("all(())") == "True");
  CHECK(show("all((True, False))") == "False");
}
TEST_CASE("sum over the restricted comprehension", "[M11]") {
  CHECK(show("sum(1 if n == 0 else 0 for n in (0, 3, 0))") == "2");
}
TEST_CASE("conv.out", "[M11]") { CHECK(show("conv.out(32, 3, 2, 1, 1)") == "16"); }
TEST_CASE("pool.out with and without ceil_mode", "[M11]") {
  CHECK(show("pool.out(8, 3, 2, 0, 1, True)") == "4");
  CHECK(show("pool.out(8, 3, 2, 0, 1, False)") == "3");
}
TEST_CASE("pool.out drops a last window starting in the padding", "[M11]") {
  // L=5, k=2, s=2, p=1, ceil: span 2, (5+2-2+1)//2+1 = 4; window 3 starts at 6 >= L+p = 6 → 3.
  CHECK(show("pool.out(5, 2, 2, 1, 1, True)") == "3");
}
TEST_CASE("mhc.expansion solves n*n + 2n = Q", "[M11]") { CHECK(show("mhc.expansion(8)") == "2"); }
TEST_CASE("mhc.expansion rejects a non-square", "[M11]") {
  CHECK(error_of("mhc.expansion(7)").find("is not n*n + 2*n") != std::string::npos);
}
TEST_CASE("promote_int_to_float and coalesce_dtype", "[M11]") {
  CHECK(show("promote_int_to_float('int32')") == "'float32'");
  CHECK(show("promote_int_to_float('bfloat16')") == "'bfloat16'");
  CHECK(show("promote_int_to_float('bool')") == "'bool'");
  CHECK(show("coalesce_dtype(None, 'float16')") == "'float16'");
  CHECK(show("coalesce_dtype('float32', 'float16')") == "'float32'");
}
TEST_CASE("balanced_sizes spreads the remainder over the first counts", "[M11]") {
  CHECK(show("balanced_sizes(10, 4)") == "(3, 3, 2, 2)");
  CHECK(show("balanced_sizes(0, 2)") == "(0, 0)");
}
TEST_CASE("balanced_sizes needs count > 0", "[M11]") { CHECK(error_of("balanced_sizes(10, 0)").find("count") != std::string::npos); }
TEST_CASE("repeat", "[M11]") {
  CHECK(show("repeat(512, 3)") == "(512, 512, 512)");
  CHECK(error_of("repeat(1, -1)").find(">= 0") != std::string::npos);
}
TEST_CASE("repeat with a huge count fails instead of exhausting memory", "[M11]") {
  CHECK(error_of("repeat(1, 1000000000000)").find("too large") != std::string::npos);
}
TEST_CASE("category of dtypes and numbers", "[M18]") {
  CHECK(show("category('float16')") == "'float'");
  CHECK(show("category('int8')") == "'int'");
  CHECK(show("category('complex64')") == "'complex'");
  CHECK(show("category(True)") == "'bool'");
  CHECK(show("category(3)") == "'int'");
  CHECK(show("category(2.5)") == "'float'");
}
TEST_CASE("representable follows the scalar-fill rule", "[M18]") {
  CHECK(show("representable(65504, 'float16')") == "True");
  CHECK(show("representable(65505.0, 'float16')") == "False");
  CHECK(show("representable(448, 'float8_e4m3fn')") == "True");
  CHECK(show("representable(449, 'float8_e4m3fn')") == "False");
  CHECK(show("representable(inf, 'float8_e4m3fn')") == "False");
  CHECK(show("representable(inf, 'float16')") == "True");
  CHECK(show("representable(-inf, 'float8_e5m2fnuz')") == "False");
  CHECK(show("representable(127, 'int8')") == "True");
  CHECK(show("representable(128, 'int8')") == "False");
  CHECK(show("representable(-255, 'uint8')") == "True");
  CHECK(show("representable(-256, 'uint8')") == "False");
  CHECK(show("representable(1.5, 'int32')") == "True");
  CHECK(show("representable(inf, 'int32')") == "False");
  CHECK(show("representable(100000, 'bool')") == "True");
}
TEST_CASE("moe.capacity on the documented layouts", "[M11][M9]") {
  // Constructed through the ADT value API: see test_instantiate for literal rows.
  auto adt = [](std::string ctor, std::vector<std::pair<std::string, Value>> fields) {
    auto a = std::make_shared<AdtValue>();
    a->adt = "MGroupedLayout";
    a->ctor = std::move(ctor);
    a->fields = std::move(fields);
    Value v;
    v.t = Value::T::Adt;
    v.adt = a;
    return v;
  };
  Value aligned_rows = adt("contiguous", {{"packing", Value::str("aligned")}, {"metadata_kind", Value::str("per_row")}, {"alignment", Value::integer(8L)}});
  Value masked = adt("masked", {{"max_m", Value::integer(5L)}});
  Value psum = adt("contiguous", {{"packing", Value::str("aligned")}, {"metadata_kind", Value::str("physical_psum")}, {"alignment", Value::integer(8L)}});
  mpz_class big("100000000000000000001");
  CHECK(call_primitive("moe.capacity", {aligned_rows, Value::integer(big), Value::integer(3L)}, {}).repr() == "100000000000000000024");
  CHECK(call_primitive("moe.capacity", {masked, Value::integer(7L), Value::integer(3L)}, {}).repr() == "15");
  CHECK(call_primitive("moe.capacity", {psum, Value::integer(10L), Value::integer(3L)}, {}).repr() == "32");
}
TEST_CASE("primitive arity errors name the missing slot", "[M11]") {
  CHECK(error_of("max(default=3)").find("misses argument 1") != std::string::npos);
  CHECK(error_of("ceil_div(1, 2, 3)").find("at most 2") != std::string::npos);
  CHECK(error_of("per_axis(1, 0, 2, nope=3)").find("no keyword 'nope'") != std::string::npos);
}
TEST_CASE("axis rule: rank 0 accepts 0 and -1 only", "[M11]") {
  long out = 7;
  CHECK(normalize_axis(0, 0, out));
  CHECK(normalize_axis(-1, 0, out));
  CHECK_FALSE(normalize_axis(1, 0, out));
  CHECK(normalize_axis(-2, 3, out));
  CHECK(out == 1);
  CHECK_FALSE(normalize_axis(3, 3, out));
}
