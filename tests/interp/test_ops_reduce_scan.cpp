// Reduce, scan and the degenerate region forms at run time: combines with explicit captures
// (L7.2), no hidden accumulator (L7.5), the builtin reductions (L7.6) and arg_reduce.max ties
// (L7.7) through the normalizer, an associative non-commutative scan (L8.1), cumsum/cummax
// (L8.2) and degenerate region_fold/region_scan (L9.6). Expected values are hand-computed.
#include <cmath>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

TEST_CASE("[L7.2] a combine receives its explicit captures after the accumulators", "[interp][L7.2]") {
  auto m = load(R"(
fn @add_scaled(%a: i32, %b: i32, %w: i32) -> i32 {
  %p = mul(%b, %w) : i32
  %s = add(%a, %p) : i32
  return(%s)
}

fn @f(%x: i32[N], %w: i32) -> i32 {
  %z = const() {value = 0} : i32
  %r = reduce(%x, %z, %w) {axes = [0], combine = @add_scaled} : i32
  return(%r)
}
)");
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(tensor(DType::I32, {3}, {1, 2, 3})), interp::Scalar{DType::I32, 10}});
  CHECK(svalue(r[0]) == 60);  // ((0 + 1*10) + 2*10) + 3*10
}

TEST_CASE("[L7.5] reduce.sum widens f16 to f32 by a cast first; acc_dtype overrides", "[interp][L7.5]") {
  auto m = load_surface(R"(
fn @f(%x: f16[N], %y: i8[N]) -> (f32, i32, i16) {
  %s = reduce.sum(%x) {axis = 0} : f32
  %t = reduce.sum(%y) {axis = 0} : i32
  %u = reduce.sum(%y) {acc_dtype = i16, axis = 0} : i16
  return(%s, %t, %u)
}
)");
  CHECK(has_op(*m, "cast"));  // the conversion is explicit in the canonical program
  auto r = interp::Interpreter(*m).call_helper(
      "f", {interp::Value(tensor(DType::F16, {3}, {2048, 1, 1})), interp::Value(tensor(DType::I8, {3}, {100, 100, 100}))});
  // f32: 2048 + 1 + 1 = 2050 (an f16 accumulator would stay at 2048: spacing 2, ties to even).
  CHECK(svalue(r[0]) == 2050);
  CHECK(svalue(r[1]) == 300);  // an i8 accumulator would wrap
  CHECK(svalue(r[2]) == 300);
}

TEST_CASE("[L7.6] reduce.sum/max/any/all: negative and tuple axes, identities, NaN propagation", "[interp][L7.6]") {
  auto m = load_surface(R"(
fn @f(%x: f32[M, N], %b: bool[M, N]) -> (f32[M], f32, f32[N], bool[M], bool[N]) {
  %rows = reduce.sum(%x) {axis = -1} : f32[M]
  %all = reduce.sum(%x) {axis = [0, -1]} : f32
  %cmax = reduce.max(%x) {axis = 0} : f32[N]
  %any = reduce.any(%b) {axis = 1} : bool[M]
  %every = reduce.all(%b) {axis = -2} : bool[N]
  return(%rows, %all, %cmax, %any, %every)
}
)");
  interp::Interpreter it(*m);
  const double nan = std::nan("");
  // x = [[1, 2, 3], [4, nan, -6]], b = [[0, 0, 0], [1, 0, 1]]
  auto r = it.call_helper("f", {interp::Value(tensor(DType::F32, {2, 3}, {1, 2, 3, 4, nan, -6})),
                                interp::Value(tensor(DType::Bool, {2, 3}, {0, 0, 0, 1, 0, 1}))});
  auto rows = tvalues(r[0]);
  CHECK(rows[0] == 6);
  CHECK(std::isnan(rows[1]));
  CHECK(std::isnan(svalue(r[1])));
  auto cmax = tvalues(r[2]);
  CHECK(cmax[0] == 4);
  CHECK(std::isnan(cmax[1]));  // max propagates NaN
  CHECK(cmax[2] == 3);
  CHECK(tvalues(r[3]) == std::vector<double>{0, 1});
  CHECK(tvalues(r[4]) == std::vector<double>{0, 0, 0});
  // Empty reduced axis: sum 0, max -inf, any false, all true.
  auto e = it.call_helper("f", {interp::Value(tensor(DType::F32, {2, 0}, {})), interp::Value(tensor(DType::Bool, {2, 0}, {}))});
  CHECK(tvalues(e[0]) == std::vector<double>{0, 0});
  CHECK(svalue(e[1]) == 0);
  CHECK(tvalues(e[2]).empty());
  CHECK(tvalues(e[3]) == std::vector<double>{0, 0});
  CHECK(tvalues(e[4]).empty());
  auto e2 = it.call_helper("f", {interp::Value(tensor(DType::F32, {0, 2}, {})), interp::Value(tensor(DType::Bool, {0, 2}, {}))});
  CHECK(tvalues(e2[2]) == std::vector<double>{-INFINITY, -INFINITY});
  CHECK(tvalues(e2[4]) == std::vector<double>{1, 1});
}

TEST_CASE("[L7.7] arg_reduce.max: lowest index wins ties, indices relative to the axis, NaN wins", "[interp][L7.7]") {
  auto m = load_surface(R"(
fn @f(%x: f32[M, N]) -> (f32[M], index[M]) {
  %v, %i = arg_reduce.max(%x) {axis = -1} : (f32[M], index[M])
  return(%v, %i)
}

fn @g(%x: i32[M, N]) -> (i32[N], index[N]) {
  %v, %i = arg_reduce.max(%x) {axis = 0} : (i32[N], index[N])
  return(%v, %i)
}
)");
  interp::Interpreter it(*m);
  const double nan = std::nan("");
  // rows: [3, 7, 7, 1] -> (7, 1); [5, 5, 5, 5] -> (5, 0); [1, nan, 9, nan] -> (nan, 1)
  auto r = it.call_helper("f", {interp::Value(tensor(DType::F32, {3, 4}, {3, 7, 7, 1, 5, 5, 5, 5, 1, nan, 9, nan}))});
  auto v = tvalues(r[0]);
  CHECK(v[0] == 7);
  CHECK(v[1] == 5);
  CHECK(std::isnan(v[2]));
  CHECK(r[1].tensor().dtype == DType::Index);
  CHECK(tvalues(r[1]) == std::vector<double>{1, 0, 1});
  // columns of [[2, -1], [2, 4], [0, 4]]: col 0 ties (2 at rows 0, 1) -> 0; col 1 ties (4 at 1, 2) -> 1.
  auto g = it.call_helper("g", {interp::Value(tensor(DType::I32, {3, 2}, {2, -1, 2, 4, 0, 4}))});
  CHECK(tvalues(g[0]) == std::vector<double>{2, 4});
  CHECK(tvalues(g[1]) == std::vector<double>{0, 1});
}

TEST_CASE("[L8.1] scan with an associative, non-commutative combine keeps operand order", "[interp][L8.1]") {
  // Affine maps x -> a*x + b as (a, b); combine(p, q) = q after p = (p.a*q.a, q.a*p.b + q.b).
  auto m = load(R"(
fn @compose(%p: tuple<i64, i64>, %q: tuple<i64, i64>) -> tuple<i64, i64> {
  %pa = tuple.get(%p) {index = 0} : i64
  %pb = tuple.get(%p) {index = 1} : i64
  %qa = tuple.get(%q) {index = 0} : i64
  %qb = tuple.get(%q) {index = 1} : i64
  %a = mul(%pa, %qa) : i64
  %t = mul(%qa, %pb) : i64
  %b = add(%t, %qb) : i64
  %r = tuple(%a, %b) : tuple<i64, i64>
  return(%r)
}

fn @f(%a: i64[N], %b: i64[N]) -> (tuple<i64[N], i64[N]>, tuple<i64[N], i64[N]>, tuple<i64[N], i64[N]>) {
  %src = tuple(%a, %b) : tuple<i64[N], i64[N]>
  %one = const() {value = 1} : i64
  %zero = const() {value = 0} : i64
  %id = tuple(%one, %zero) : tuple<i64, i64>
  %inc = scan(%src, %id) {axis = 0, combine = @compose} : tuple<i64[N], i64[N]>
  %exc = scan(%src, %id) {axis = 0, combine = @compose, inclusive = false} : tuple<i64[N], i64[N]>
  %rev = scan(%src, %id) {axis = 0, combine = @compose, reverse = true} : tuple<i64[N], i64[N]>
  return(%inc, %exc, %rev)
}
)");
  // maps: f0 = 2x+1, f1 = 3x+0, f2 = 1x+5
  auto r = interp::Interpreter(*m).call_helper(
      "f", {interp::Value(tensor(DType::I64, {3}, {2, 3, 1})), interp::Value(tensor(DType::I64, {3}, {1, 0, 5}))});
  auto comp = [&](const interp::Value& t, int c) { return tvalues(t.tuple().elems[static_cast<size_t>(c)]); };
  // inclusive: f0 = (2,1); f1∘f0 = 3(2x+1) = (6,3); f2∘f1∘f0 = (6,8)
  CHECK(comp(r[0], 0) == std::vector<double>{2, 6, 6});
  CHECK(comp(r[0], 1) == std::vector<double>{1, 3, 8});
  // exclusive: id, f0, f1∘f0
  CHECK(comp(r[1], 0) == std::vector<double>{1, 2, 6});
  CHECK(comp(r[1], 1) == std::vector<double>{0, 1, 3});
  // reverse: acc = combine(x_p, acc): p=2: f2 = (1,5); p=1: combine(f1, f2) = f2∘f1 = 3x+5;
  // p=0: combine(f0, (3,5)) = 3(2x+1)+5 = (6, 8)
  CHECK(comp(r[2], 0) == std::vector<double>{6, 3, 1});
  CHECK(comp(r[2], 1) == std::vector<double>{8, 5, 5});
}

TEST_CASE("[L8.2] cumsum/cummax: negative axis, inclusive/exclusive/reverse, acc_dtype, empty", "[interp][L8.2]") {
  auto m = load_surface(R"(
fn @f(%x: i8[M, N]) -> (i32[M, N], i32[M, N], i32[M, N], i8[M, N], i8[M, N]) {
  %a = cumsum(%x) {axis = -1} : i32[M, N]
  %b = cumsum(%x) {axis = 1, inclusive = false} : i32[M, N]
  %c = cumsum(%x) {acc_dtype = i32, axis = 0, reverse = true} : i32[M, N]
  %d = cummax(%x) {axis = -1} : i8[M, N]
  %e = cummax(%x) {axis = -1, inclusive = false, reverse = true} : i8[M, N]
  return(%a, %b, %c, %d, %e)
}
)");
  interp::Interpreter it(*m);
  // x = [[100, 100, -5], [1, 7, 3]]
  auto r = it.call_helper("f", {interp::Value(tensor(DType::I8, {2, 3}, {100, 100, -5, 1, 7, 3}))});
  CHECK(tvalues(r[0]) == std::vector<double>{100, 200, 195, 1, 8, 11});  // widened: no i8 wrap
  CHECK(tvalues(r[1]) == std::vector<double>{0, 100, 200, 0, 1, 8});
  CHECK(tvalues(r[2]) == std::vector<double>{101, 107, -2, 1, 7, 3});  // column suffix sums
  CHECK(tvalues(r[3]) == std::vector<double>{100, 100, 100, 1, 7, 7});
  // exclusive reverse max: element p gets max of x[p+1:], identity -128 at the end.
  CHECK(tvalues(r[4]) == std::vector<double>{100, -5, -128, 7, 3, -128});
  auto e = it.call_helper("f", {interp::Value(tensor(DType::I8, {2, 0}, {}))});
  CHECK(e[0].tensor().shape == interp::Shape{2, 0});
  CHECK(e[4].tensor().bits.empty());
}

TEST_CASE("[L9.6] degenerate region_fold / region_scan run as ordinary reduce / scan", "[interp][L9.6]") {
  auto m = load_surface(R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @summarize(%s: f32[L]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = reduce(%s, %z) {axes = [0], combine = @add} : f32
  return(%r)
}

fn @apply(%t: f32, %st: f32) -> f32 {
  %r = add(%st, %t) : f32
  return(%r)
}

fn @emit(%s: f32[L], %st: f32) -> f32[L] {
  %z = const() {value = 0.0} : f32
  %p = scan(%s, %z) {axis = 0, combine = @add, inclusive = true, reverse = false} : f32[L]
  %b = broadcast(%st) {dims = []} : f32[L]
  %o = add(%b, %p) : f32[L]
  return(%o)
}

fn @f(%x: f32[N], %s0: f32) -> (f32[N], f32, f32) {
  %id = const() {value = 0.0} : f32
  %out, %final = region_scan(%x, %id, %s0) {apply = @apply, axis = 0, combine = @add, emit = @emit, summarize = @summarize} : (f32[N], f32)
  %tot = region_fold(%x, %id) {axis = -1, combine = @add, summarize = @summarize} : f32
  return(%out, %final, %tot)
}
)");
  CHECK_FALSE(has_op(*m, "region_scan"));
  CHECK_FALSE(has_op(*m, "region_fold"));
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(tensor(DType::F32, {4}, {1, 2, 3, 4})), f32(10)});
  CHECK(tvalues(r[0]) == std::vector<double>{11, 13, 16, 20});  // 10 + running sum
  CHECK(svalue(r[1]) == 20);
  CHECK(svalue(r[2]) == 10);
}
