// Contract family at run time through the normalizer: matmul with right-aligned batch broadcast
// and transpose flags, dot, matvec, vecmat (L10.1), integer accumulators and empty K (L10.2),
// outer as a broadcast multiply (L10.3), generic contract with batch pairs and result axis order
// (L10.4). Expected values are hand-computed (sums of small integers, exact in f32).
#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

namespace {
interp::Value f32t(const interp::Shape& s, const std::vector<double>& v) { return interp::Value(tensor(DType::F32, s, v)); }
}  // namespace

TEST_CASE("[L10.1] matmul broadcasts batch axes right-aligned; transpose flags swap the last two axes",
          "[interp][L10.1]") {
  auto m = load_surface(R"(
fn @bm(%a: f32[1, M, K], %b: f32[B, K, N]) -> f32[B, M, N] {
  %c = matmul(%a, %b) {acc_dtype = f32} : f32[B, M, N]
  return(%c)
}

fn @tt(%a: f32[K, M], %b: f32[N, K]) -> f32[M, N] {
  %c = matmul(%a, %b) {acc_dtype = f32, transpose_lhs = true, transpose_rhs = true} : f32[M, N]
  return(%c)
}
)");
  interp::Interpreter it(*m);
  // a = [[1, 2]] (1x1x2); b[0] = [[1, 0], [0, 1]], b[1] = [[2, 3], [4, 5]]
  auto r = it.call_helper("bm", {f32t({1, 1, 2}, {1, 2}), f32t({2, 2, 2}, {1, 0, 0, 1, 2, 3, 4, 5})});
  CHECK(r[0].tensor().shape == interp::Shape{2, 1, 2});
  CHECK(tvalues(r[0]) == std::vector<double>{1, 2, 10, 13});  // [1*2+2*4, 1*3+2*5]
  // a^T with a = [[1, 2], [3, 4]] (K=2, M=2) -> A = [[1, 3], [2, 4]]; b^T with b = [[5, 6], [7, 8]] (N=2, K=2)
  // -> B = [[5, 7], [6, 8]]; A·B = [[1*5+3*6, 1*7+3*8], [2*5+4*6, 2*7+4*8]] = [[23, 31], [34, 46]]
  auto t = it.call_helper("tt", {f32t({2, 2}, {1, 2, 3, 4}), f32t({2, 2}, {5, 6, 7, 8})});
  CHECK(tvalues(t[0]) == std::vector<double>{23, 31, 34, 46});
}

TEST_CASE("[L10.1] dot, matvec (with transpose), vecmat shapes and values", "[interp][L10.1]") {
  auto m = load_surface(R"(
fn @d(%a: f32[K], %b: f32[K]) -> f32[] {
  %c = dot(%a, %b) {acc_dtype = f32} : f32[]
  return(%c)
}

fn @mv(%m: f32[M, K], %v: f32[K]) -> f32[M] {
  %c = matvec(%m, %v) {acc_dtype = f32} : f32[M]
  return(%c)
}

fn @mvt(%m: f32[K, M], %v: f32[K]) -> f32[M] {
  %c = matvec(%m, %v) {acc_dtype = f32, transpose = true} : f32[M]
  return(%c)
}

fn @vm(%v: f32[K], %m: f32[K, N]) -> f32[N] {
  %c = vecmat(%v, %m) {acc_dtype = f32} : f32[N]
  return(%c)
}
)");
  interp::Interpreter it(*m);
  auto d = it.call_helper("d", {f32t({3}, {1, 2, 3}), f32t({3}, {4, 5, 6})});
  CHECK(d[0].tensor().shape.empty());
  CHECK(tvalues(d[0]) == std::vector<double>{32});  // 4 + 10 + 18
  const auto M23 = f32t({2, 3}, {1, 2, 3, 4, 5, 6});
  auto mv = it.call_helper("mv", {M23, f32t({3}, {1, 0, -1})});
  CHECK(tvalues(mv[0]) == std::vector<double>{-2, -2});  // 1-3, 4-6
  auto mvt = it.call_helper("mvt", {M23, f32t({2}, {1, -1})});
  CHECK(tvalues(mvt[0]) == std::vector<double>{-3, -3, -3});  // columns of m: 1-4, 2-5, 3-6
  auto vm = it.call_helper("vm", {f32t({2}, {1, 2}), M23});
  CHECK(tvalues(vm[0]) == std::vector<double>{9, 12, 15});  // 1*[1,2,3] + 2*[4,5,6]
}

TEST_CASE("[L10.2] integer accumulator: i8 x i8 into i32; empty K gives zero", "[interp][L10.2]") {
  auto m = load_surface(R"(
fn @f(%a: i8[M, K], %b: i8[K, N]) -> i32[M, N] {
  %c = matmul(%a, %b) {acc_dtype = i32} : i32[M, N]
  return(%c)
}

fn @g(%a: f16[M, K], %b: f16[K, N]) -> f32[M, N] {
  %c = matmul(%a, %b) {acc_dtype = f32} : f32[M, N]
  return(%c)
}
)");
  interp::Interpreter it(*m);
  // 127*127 + 127*127 = 32258 (beyond i8 and i16 products of one step, fine in i32); -128*127*2 = -32512
  auto r = it.call_helper("f", {interp::Value(tensor(DType::I8, {2, 2}, {127, 127, -128, -128})),
                                interp::Value(tensor(DType::I8, {2, 1}, {127, 127}))});
  CHECK(tvalues(r[0]) == std::vector<double>{32258, -32512});
  auto e = it.call_helper("f", {interp::Value(tensor(DType::I8, {2, 0}, {})), interp::Value(tensor(DType::I8, {0, 3}, {}))});
  CHECK(tvalues(e[0]) == std::vector<double>(6, 0.0));
  // f16 operands, f32 accumulator: 2048*1 + 1*1 + 1*1 = 2050 (not representable in f16).
  auto h = it.call_helper("g", {interp::Value(tensor(DType::F16, {1, 3}, {2048, 1, 1})), interp::Value(tensor(DType::F16, {3, 1}, {1, 1, 1}))});
  CHECK(tvalues(h[0]) == std::vector<double>{2050});
}

TEST_CASE("[L10.3] outer is a broadcast multiply rounded per element, not a contract", "[interp][L10.3]") {
  auto m = load_surface(R"(
fn @f(%a: f16[M], %b: f16[N]) -> f16[M, N] {
  %c = outer(%a, %b) : f16[M, N]
  return(%c)
}
)");
  CHECK_FALSE(has_op(*m, "contract"));
  CHECK(has_op(*m, "mul"));
  auto r = interp::Interpreter(*m).call_helper("f", {interp::Value(tensor(DType::F16, {2}, {1, 3})), interp::Value(tensor(DType::F16, {3}, {2, -1, 683}))});
  // 3 * 683 = 2049 rounds to even in f16 (spacing 2 above 2048): 2048.
  CHECK(tvalues(r[0]) == std::vector<double>{2, -1, 683, 6, -3, 2048});
}

TEST_CASE("[L10.4] generic contract: batch pairs, several reduce pairs, result axis order", "[interp][L10.4]") {
  auto m = load(R"(
fn @g(%a: f32[K, B, M], %b: f32[B, K, N]) -> f32[B, M, N] {
  %c = contract(%a, %b) {batch = [[1, 0]], reduce = [[0, 1]]} : f32[B, M, N]
  return(%c)
}

fn @h(%a: f32[P, Q], %b: f32[Q, P]) -> f32[] {
  %c = contract(%a, %b) {batch = [], reduce = [[0, 1], [1, 0]]} : f32[]
  return(%c)
}
)");
  interp::Interpreter it(*m);
  // a[k, b, m] with K=2, B=2, M=1: a[:, 0, 0] = [1, 2], a[:, 1, 0] = [3, 4]
  // b[b, k, n] with N=1: b[0, :, 0] = [10, 20], b[1, :, 0] = [5, 6]
  // c[b=0] = 1*10 + 2*20 = 50; c[b=1] = 3*5 + 4*6 = 39. Result axes: lhs (B, M) then rhs free (N).
  auto r = it.call_helper("g", {f32t({2, 2, 1}, {1, 3, 2, 4}), f32t({2, 2, 1}, {10, 20, 5, 6})});
  CHECK(r[0].tensor().shape == interp::Shape{2, 1, 1});
  CHECK(tvalues(r[0]) == std::vector<double>{50, 39});
  // Two reduce pairs: trace(a·b) = sum_pq a[p,q] b[q,p]; a = [[1,2],[3,4]], b = [[5,6],[7,8]]:
  // 1*5 + 2*7 + 3*6 + 4*8 = 69
  auto h = it.call_helper("h", {f32t({2, 2}, {1, 2, 3, 4}), f32t({2, 2}, {5, 6, 7, 8})});
  CHECK(tvalues(h[0]) == std::vector<double>{69});
}
