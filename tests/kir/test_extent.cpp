// Symbolic extents: canonical form, provable equality (L4.2), substitution and evaluation,
// checked against direct integer evaluation of random expression trees (RapidCheck).
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <functional>
#include <map>

#include "kir/extent.h"

using kir::Extent;

TEST_CASE("extent canonical form", "[kir][extent][L4.2]") {
  Extent M = Extent::symbol("M"), N = Extent::symbol("N"), K = Extent::symbol("K");
  CHECK((M * N) == (N * M));
  CHECK((M * N).str() == "M*N");
  CHECK((M + M).str() == "2*M");
  CHECK((M - M).str() == "0");
  CHECK((Extent::constant(2) * M * N + K - Extent::constant(1)).str() == "2*M*N + K - 1");
  CHECK((Extent::constant(0) - M).str() == "-M");
  CHECK(M != N);  // two dynamic extents are not equal merely because both are dynamic
  CHECK(Extent::floordiv(Extent::constant(7), Extent::constant(2)) == Extent::constant(3));
  CHECK(Extent::floordiv(Extent::constant(-7), Extent::constant(2)) == Extent::constant(-4));
  CHECK(Extent::floordiv(M, Extent::constant(1)) == M);
  CHECK(Extent::floordiv(M + N, Extent::constant(2)).str() == "floordiv(M + N, 2)");
  CHECK(Extent::floordiv(M + N, Extent::constant(2)) == Extent::floordiv(N + M, Extent::constant(2)));
}

TEST_CASE("extent substitution binds symbols", "[kir][extent]") {
  Extent M = Extent::symbol("M"), N = Extent::symbol("N");
  Extent e = M * N + Extent::floordiv(M, Extent::constant(4));
  auto s = e.substitute({{"M", Extent::constant(8)}, {"N", Extent::symbol("%n")}});
  CHECK(s.str() == "8*%n + 2");
  CHECK(e.symbols() == std::vector<std::string>{"M", "N"});
}

TEST_CASE("extent overflow is an error, not UB", "[kir][extent]") {
  Extent big = Extent::constant(INT64_MAX);
  CHECK_THROWS_AS(big + Extent::constant(1), kir::ExtentOverflow);
  CHECK_THROWS_AS(big * Extent::constant(2), kir::ExtentOverflow);
}

namespace {
// A random expression tree evaluated two ways: directly on integers, and through Extent.
struct Expr {
  int kind;  // 0 const, 1 symbol, 2 add, 3 sub, 4 mul, 5 floordiv by positive const
  int64_t c;
  int sym;
  std::shared_ptr<Expr> a, b;
};

std::shared_ptr<Expr> gen_expr(int depth) {
  auto e = std::make_shared<Expr>();
  e->kind = depth <= 0 ? *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 6);
  e->c = *rc::gen::inRange<int64_t>(-20, 21);
  e->sym = *rc::gen::inRange(0, 3);
  if (e->kind >= 2) {
    e->a = gen_expr(depth - 1);
    e->b = gen_expr(depth - 1);
  }
  if (e->kind == 5) e->c = *rc::gen::inRange<int64_t>(1, 9);
  return e;
}
const char* kSyms[] = {"M", "N", "%k"};

int64_t floordiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t eval(const Expr& e, const int64_t* vals) {
  switch (e.kind) {
    case 0: return e.c;
    case 1: return vals[e.sym];
    case 2: return eval(*e.a, vals) + eval(*e.b, vals);
    case 3: return eval(*e.a, vals) - eval(*e.b, vals);
    case 4: return eval(*e.a, vals) * eval(*e.b, vals);
    default: return floordiv(eval(*e.a, vals), e.c);
  }
}
Extent build(const Expr& e) {
  switch (e.kind) {
    case 0: return Extent::constant(e.c);
    case 1: return Extent::symbol(kSyms[e.sym]);
    case 2: return build(*e.a) + build(*e.b);
    case 3: return build(*e.a) - build(*e.b);
    case 4: return build(*e.a) * build(*e.b);
    default: return Extent::floordiv(build(*e.a), Extent::constant(e.c));
  }
}
}  // namespace

TEST_CASE("extent arithmetic agrees with integer evaluation", "[kir][extent][property]") {
  bool ok = rc::check("canonical extents evaluate like the expression they came from", [] {
    auto e = gen_expr(4);
    int64_t vals[3] = {*rc::gen::inRange<int64_t>(-30, 31), *rc::gen::inRange<int64_t>(-30, 31),
                       *rc::gen::inRange<int64_t>(-30, 31)};
    Extent x = build(*e);
    auto v = x.evaluate([&](const std::string& s) -> std::optional<int64_t> {
      for (int i = 0; i < 3; ++i)
        if (s == kSyms[i]) return vals[i];
      return std::nullopt;
    });
    RC_ASSERT(v.has_value());
    RC_ASSERT(*v == eval(*e, vals));
  });
  CHECK(ok);
}
