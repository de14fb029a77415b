// Unit tests of the core-family verifier rules (value, domain, control, memory ops, module rules
// and the helper effects analysis), on modules built with kir::Builder or small texts. Expected
// diagnostics are written by hand from the spec (seed 000) and docs/kir-ops-core.md.
#include <catch2/catch.hpp>

#include <set>

#include "kir/builder.h"
#include "kir/text/parser.h"
#include "kir/verify/effects.h"
#include "kir/verify/verifier.h"
#include "tests/kir/file_suite.h"

using namespace kir;

namespace {

Type f32() { return Type::scalar(DType::F32); }
Type idx() { return Type::scalar(DType::Index); }
Type vec(DType d, const char* n) { return Type::tensor(d, {Extent::symbol(n)}); }

Diagnostics run_verify(const Module& m) {
  Diagnostics d;
  verify_module(m, d);
  return d;
}

Diagnostics verify_text(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  REQUIRE(m);
  verify_module(*m, d);
  return d;
}

}  // namespace

TEST_CASE("carry types must match between init and yield", "[L6.2]") {
  Module m;
  Builder b(m);
  b.helper("f", {vec(DType::F32, "M")});
  Value* n = b.param(idx(), "n");
  Value* a = b.param(vec(DType::F32, "M"), "a");
  Value* other = b.param(vec(DType::F32, "N"), "other");
  Value* c0 = b.const_int(0);
  Value* d = b.value("domain", {c0, n}, Type::domain(Extent::symbol("%n")));
  Operation& loop = b.op("for", {d, a}, {vec(DType::F32, "M")});
  b.region(loop, {idx(), vec(DType::F32, "M")}, {"i", "c"});
  b.effect("yield", {other});
  b.end_region();
  b.effect("return", {loop.result(0)});
  Diagnostics diags = run_verify(m);
  CHECK(diags.error_count() == 1);
  CHECK(diags.contains("L6.2", "carry 0 has type f32[M] in the init but f32[N] in the yield"));
}

TEST_CASE("two distinct dynamic extents are not compatible", "[L4.2][L4.1]") {
  Module m;
  Builder b(m);
  b.helper("f", {vec(DType::F32, "M")});
  Value* x = b.param(vec(DType::F32, "M"), "x");
  Value* y = b.param(vec(DType::F32, "N"), "y");
  Value* s = b.value("add", {x, y}, vec(DType::F32, "M"));
  b.effect("return", {s});
  Diagnostics diags = run_verify(m);
  CHECK(diags.contains("L4.2", "axis 0 has extent M vs N"));

  // The same extent symbol on both sides is provably equal: no error.
  Module ok;
  Builder b2(ok);
  b2.helper("g", {vec(DType::F32, "M")});
  Value* p = b2.param(vec(DType::F32, "M"), "p");
  Value* q = b2.param(vec(DType::F32, "M"), "q");
  b2.effect("return", {b2.value("add", {p, q}, vec(DType::F32, "M"))});
  CHECK_FALSE(run_verify(ok).has_errors());
}

TEST_CASE("recursion through call is rejected", "[L1.3]") {
  Module m;
  Builder b(m);
  b.helper("f", {f32()});
  Value* a = b.param(f32(), "a");
  Value* r = b.value("call", {a}, f32(), {{"callee", Attribute::symbol("g")}});
  b.effect("return", {r});
  b.helper("g", {f32()});
  Value* a2 = b.param(f32(), "a");
  Value* r2 = b.value("call", {a2}, f32(), {{"callee", Attribute::symbol("f")}});
  b.effect("return", {r2});
  Diagnostics diags = run_verify(m);
  CHECK(diags.contains("L1.3", "recursion is not allowed: @f -> @g -> @f"));
}

TEST_CASE("helper effects are transitive and cycle-safe", "[L1.5][L7.2]") {
  Diagnostics d;
  auto m = parse_module(R"(
fn @leaf(%a: f32) -> f32 {
  %b = buffer.alloc(%a) : buffer<f32[1]>
  return(%a)
}
fn @mid(%a: f32) -> f32 {
  %r = call(%a) {callee = @leaf} : f32
  return(%r)
}
fn @pure(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}
fn @loop1(%a: f32) -> f32 {
  %r = call(%a) {callee = @loop2} : f32
  return(%r)
}
fn @loop2(%a: f32) -> f32 {
  %r = call(%a) {callee = @loop1} : f32
  return(%r)
}
fn @rng(%a: f32) -> f32 {
  %s = const() {value = 1} : u64
  %u = random.uniform(%s, %s) : f32
  return(%u)
}
)",
                        "fx.kir", d);
  REQUIRE(m);
  auto fx = verify::helper_effects(*m, *m->find_function("mid"));
  CHECK(fx.writes);
  CHECK_FALSE(fx.reads);
  CHECK_FALSE(fx.pure());
  CHECK(fx.offender_op == "buffer.alloc");
  CHECK(fx.offender_function == "leaf");
  CHECK(fx.first_offender.line == 3);
  CHECK(fx.describe("mid").find("'buffer.alloc' in @leaf") != std::string::npos);
  CHECK(verify::helper_effects(*m, *m->find_function("pure")).pure());
  CHECK(verify::helper_effects(*m, *m->find_function("loop1")).pure());  // the cycle terminates
  auto r = verify::helper_effects(*m, *m->find_function("rng"));
  CHECK(r.random);
  CHECK(r.offender_op == "random.uniform");
}

TEST_CASE("stores in parallel that ignore the point coordinate conflict", "[L5.1]") {
  const std::string pre = R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %v = const() {value = 1.0} : f32
  %r0 = relation(%c0) : relation<1 -> []>
  parallel(%d) region(%i: index) {
)";
  // Every point stores to y[0].
  auto bad = verify_text(pre + "    view.store(%y, %r0, %v)\n    yield()\n  }\n}\n");
  CHECK(bad.contains("L5.1", "write-write conflict"));
  // Each point stores to y[i]: no conflict.
  auto good = verify_text(pre + "    %ri = relation(%i) : relation<1 -> []>\n    view.store(%y, %ri, %v)\n    yield()\n  }\n}\n");
  CHECK_FALSE(good.has_errors());
  // Only the point where the condition holds stores: not provably conflicting.
  auto guarded = verify_text(pre + R"(    %first = cmp(%i, %c0) {pred = eq} : bool
    if(%first) region() {
      view.store(%y, %r0, %v)
      yield()
    } region() {
      yield()
    }
    yield()
  }
}
)");
  CHECK_FALSE(guarded.has_errors());
}

TEST_CASE("an Out view is unreadable before a store", "[L2.2][L2.3]") {
  const std::string head = R"(
kernel @k(%y: Out<f32[N]>, %z: InOut<f32[N]>, %v: f32) {
  %c0 = const() {value = 0} : index
  %rel = relation(%c0) : relation<1 -> []>
)";
  CHECK(verify_text(head + "  %a = view.load(%y, %rel) : f32\n}\n").contains("L2.2", "before any store"));
  CHECK_FALSE(verify_text(head + "  view.store(%y, %rel, %v)\n  %a = view.load(%y, %rel) : f32\n}\n").has_errors());
  CHECK_FALSE(verify_text(head + "  %a = view.load(%z, %rel) : f32\n}\n").has_errors());  // InOut keeps its contents
}

TEST_CASE("kernel and helper signatures", "[L1.1][L2.4][L2.6][L4.13]") {
  Module m;
  Builder b(m);
  b.add_enum("E", {{"a", 0}});
  b.kernel("k");
  b.param(f32(), "runtime_scalar");                      // L2.4: fine
  b.param(Type::enumeration("E"), "mode");               // runtime enum: L2.6
  b.param(Type::tuple({f32(), f32()}), "pair");          // L4.13
  b.param(Type::view(Access::In, vec(DType::F32, "N")), "x");
  Diagnostics d = run_verify(m);
  CHECK(d.contains("L2.6", "runtime enum"));
  CHECK(d.contains("L4.13", "%pair"));
  CHECK(d.error_count() == 2);
}

TEST_CASE("malformed ops are reported, never crash", "[L19.1][L6.1][L15.1]") {
  Module m;
  Builder b(m);
  b.helper("f", {f32()});
  Value* a = b.param(f32(), "a");
  b.op("add", {}, {});                                   // no operands, no result
  b.op("if", {a}, {f32()});                              // non-bool condition, no regions
  b.op("for", {}, {});                                   // nothing at all
  b.op("while", {a}, {f32()});                           // no regions
  b.op("parallel", {}, {});
  b.op("relation", {a}, {});                             // no result
  b.op("view.load", {nullptr, nullptr}, {f32()});        // null operands
  b.op("atomic.rmw", {a}, {f32()}, {{"kind", Attribute::integer(3)}});
  b.op("call", {a}, {f32()}, {{"callee", Attribute::integer(1)}});
  b.op("transpose", {a}, {f32()}, {{"perm", Attribute::boolean(true)}});
  b.op("dim", {a}, {}, {});
  b.op("record.get", {a}, {f32()});
  b.op("tuple.get", {a}, {f32()}, {{"index", Attribute::integer(-1)}});
  b.op("broadcast", {a}, {Type()}, {});
  b.op("yield", {a}, {});
  b.op("break", {}, {});
  b.op("condition", {}, {});
  b.op("random.bits", {a, a}, {f32()});
  b.op("scatter_reduce", {a, a, a}, {}, {{"combine", Attribute::symbol("nope")}});
  b.effect("return", {a});
  Diagnostics d;
  REQUIRE_NOTHROW(verify_module(m, d));
  CHECK(d.has_errors());
}

TEST_CASE("the documented row_sum example verifies", "[L4.1][L15.1][L3.1]") {
  auto d = verify_text(R"(
fn @add_rows(%a: f32[M], %b: f32[M]) -> f32[M] {
  %s = add(%a, %b) : f32[M]
  return(%s)
}

kernel @row_sum(%x: In<f32[M, N]>, %y: Out<f32[M]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %rows = domain(%zero, %m) : domain<M>
  %cols = domain(%zero, %n) : domain<N>
  %ri = indices(%rows) : index[M]
  %ci = indices(%cols) : index[N]
  %rb = broadcast(%ri) {dims = [0]} : index[M, N]
  %cb = broadcast(%ci) {dims = [1]} : index[M, N]
  %rel = relation(%rb, %cb) : relation<2 -> [M, N]>
  %v = view.load(%x, %rel) : f32[M, N]
  %orel = relation(%ri) : relation<1 -> [M]>
  %s = gather(%v, %orel) : f32[M]
  view.store(%y, %orel, %s)
}
)");
  INFO(d.render());
  CHECK(d.contains("L15.1", "rank-1 source"));  // gather of a rank-2 value with a rank-1 relation
  CHECK(d.error_count() == 1);
}

// Each core_* invalid file tests one rule in isolation: every error it produces carries one of
// the rules it expects.
TEST_CASE("core invalid files report only their expected rules", "[L19.1]") {
  for (const auto& path : test::kir_files("invalid")) {
    if (path.filename().string().rfind("core_", 0) != 0) continue;
    INFO(path.string());
    std::string src = test::read_text(path);
    std::set<std::string> rules;
    for (const auto& e : test::expectations(src)) rules.insert(e.rule);
    Diagnostics d;
    auto m = parse_module(src, path.string(), d);
    REQUIRE(m);
    verify_module(*m, d);
    INFO(d.render(src));
    CHECK(d.has_errors());
    for (const auto& diag : d.all())
      if (diag.severity == Severity::Error) CHECK(rules.count(diag.rule) == 1);
  }
}
