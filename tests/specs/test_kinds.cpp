// The parameter type grammar and forall index kinds (M3, M9, M11).
#include <catch2/catch.hpp>

#include "specs/src/kind.h"

using namespace kir::specs;

namespace {
std::string ptype(const std::string& t) {
  std::string err;
  auto k = parse_param_type(t, {"MGroupedLayout"}, err);
  return k ? k->str() : "ERROR: " + err;
}
std::string ikind(const std::string& t) {
  std::string err;
  auto k = parse_index_kind(t, err);
  return k ? k->str() : "ERROR: " + err;
}
}  // namespace

TEST_CASE("int and bool", "[M11]") {
  CHECK(ptype("int") == "Int");
  CHECK(ptype("bool") == "Bool");
}
TEST_CASE("X | None is Maybe", "[M3]") {
  CHECK(ptype("int | None") == "Maybe[Int]");
  CHECK(ptype("MGroupedLayout | None") == "Maybe[MGroupedLayout]");
}
TEST_CASE("quoted literals merge into one enum", "[M11]") { CHECK(ptype("'valid' | 'same'") == "'same' | 'valid'"); }
TEST_CASE("sequences of int or int | None", "[M11]") {
  CHECK(ptype("list[int]") == "Seq[Int]");
  CHECK(ptype("tuple[int, ...]") == "Seq[Int]");
  CHECK(ptype("tuple[int, int]") == "Seq[Int](len 2)");
  CHECK(ptype("list[int | None]") == "Seq[Maybe[Int]]");
  CHECK(ptype("list[float]").find("expected Seq[Int]") != std::string::npos);
  CHECK(ptype("tuple[int, bool]").find("holds int or") != std::string::npos);
}
TEST_CASE("unions of ints, sequences and literals", "[M11]") {
  CHECK(ptype("int | tuple[int, int] | 'valid' | 'same'") == "Int | Seq[Int](len 2) | 'same' | 'valid'");
}
TEST_CASE("dtype parameters", "[M16]") {
  CHECK(ptype("torch.dtype") == "DType");
  CHECK(ptype("float16 | bfloat16 | None") == "Maybe[DType[bfloat16 | float16]]");
}
TEST_CASE("opaque values", "[M18]") {
  CHECK(ptype("float") == "Value");
  CHECK(ptype("Number | None") == "Maybe[Value]");
  CHECK(ptype("torch.device | str | None") == "Maybe[Value]");
  CHECK(ptype("int | float") == "Value");
}
TEST_CASE("ADT names", "[M9]") { CHECK(ptype("MGroupedLayout") == "MGroupedLayout"); }
TEST_CASE("index kinds", "[M14]") {
  CHECK(ikind("Dim") == "Dim");
  CHECK(ikind("Shape") == "Shape");
  CHECK(ikind("Seq[Int]") == "Seq[Int]");
  CHECK(ikind("DType[float16 | bfloat16]") == "DType[bfloat16 | float16]");
  CHECK(ikind("DType[banana]").find("unknown kind") != std::string::npos);
  CHECK(ikind("Tensor").find("unknown kind") != std::string::npos);
}
