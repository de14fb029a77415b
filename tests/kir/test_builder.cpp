// The C++ builder produces the same module as the equivalent hand-written text.
#include <catch2/catch.hpp>

#include "kir/builder.h"
#include "kir/text/printer.h"

using namespace kir;

TEST_CASE("builder output prints as the hand-written canonical text", "[kir][builder]") {
  Module m;
  Builder b(m);
  Extent M = Extent::symbol("M");
  Type acc = Type::tensor(DType::F32, {M});
  b.helper("add_acc", {acc});
  Value* x = b.param(acc, "a");
  Value* y = b.param(acc, "b");
  b.set_next_name("r");
  Value* r = b.value("add", {x, y}, acc);
  b.effect("return", {r});

  b.kernel("k");
  Value* v = b.param(Type::view(Access::In, Type::tensor(DType::F16, {M, Extent::constant(4)})), "x");
  b.param(Type::scalar(DType::F32), "s");
  Value* c = b.param(Type::scalar(DType::Bool), "C", /*is_constexpr=*/true);
  b.set_next_name("m");
  b.value("dim", {v}, Type::scalar(DType::Index), {{"axis", Attribute::integer(0)}});
  Operation& iff = b.op("if", {c}, {Type::scalar(DType::F32)});
  b.region(iff, {});
  Value* one = b.const_float(1.0, DType::F32);
  b.effect("yield", {one});
  b.end_region();
  b.region(iff, {});
  Value* two = b.const_float(2.5, DType::F32);
  b.effect("yield", {two});
  b.end_region();

  CHECK(print_module(m) ==
        "fn @add_acc(%a: f32[M], %b: f32[M]) -> f32[M] {\n"
        "  %r = add(%a, %b) : f32[M]\n"
        "  return(%r)\n"
        "}\n"
        "\n"
        "kernel @k(%x: In<f16[M, 4]>, %s: f32, constexpr %C: bool) {\n"
        "  %m = dim(%x) {axis = 0} : index\n"
        "  %t0 = if(%C) : f32 region() {\n"
        "    %t1 = const() {value = 1.0} : f32\n"
        "    yield(%t1)\n"
        "  } region() {\n"
        "    %t2 = const() {value = 2.5} : f32\n"
        "    yield(%t2)\n"
        "  }\n"
        "}\n");
}
