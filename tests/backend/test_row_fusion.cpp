// Row fusion (passes/row_fusion.cpp; C5): softmax's four passes and layer-norm's five become one
// loop over the rows, each row going through every pass in cache, bit for bit the interpreter's
// result; nests that share a buffer other than row by row (a column reduction, a per-row result
// read at another row) stay separate loops and still agree.
#include <random>

#include "backend_test.h"

using namespace kir;

namespace {

std::vector<double> random_values(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-4, 4);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

// A kernel over %x: f32[M, N] with the combine helpers, the coordinates and %v = x loaded;
// `body` continues from there and stores into %y (f32[M, N]); `extra` adds parameters.
std::string rows_kernel(const std::string& body, const std::string& extra = "") {
  return R"(fn @max_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = max(%a, %b) : f32[R]
  return(%r)
}

fn @add_acc(%a: f32[R], %b: f32[R]) -> f32[R] {
  %r = add(%a, %b) : f32[R]
  return(%r)
}

kernel @k(%x: In<f32[M, N]>)" + extra + R"(, %y: Out<f32[M, N]>) {
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
  %zf = const() {value = 0.0} : f32
  %sum_id = full(%zf) : f32[M]
)" + body + "}\n";
}

const std::string kSoftmax = R"(  %ninf = const() {value = -inf} : f32
  %max_id = full(%ninf) : f32[M]
  %mx = reduce(%v, %max_id) {axes = [1], combine = @max_acc} : f32[M]
  %mxb = broadcast(%mx) {dims = [0]} : f32[M, N]
  %shifted = sub(%v, %mxb) : f32[M, N]
  %e = exp(%shifted) : f32[M, N]
  %s = reduce(%e, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %sb = broadcast(%s) {dims = [0]} : f32[M, N]
  %out = div(%e, %sb) : f32[M, N]
  view.store(%y, %rel, %out)
)";

const std::string kLayerNorm = R"(  %crel = relation(%ci) : relation<1 -> [N]>
  %g = view.load(%gamma, %crel) : f32[N]
  %gb = broadcast(%g) {dims = [1]} : f32[M, N]
  %nf_s = cast(%n) : f32
  %eps_s = const() {value = 0x1.4f8b58p-17} : f32
  %nf = broadcast(%nf_s) {dims = []} : f32[M]
  %eps = broadcast(%eps_s) {dims = []} : f32[M]
  %s = reduce(%v, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %mean = div(%s, %nf) : f32[M]
  %meanb = broadcast(%mean) {dims = [0]} : f32[M, N]
  %d = sub(%v, %meanb) : f32[M, N]
  %d2 = mul(%d, %d) : f32[M, N]
  %ss = reduce(%d2, %sum_id) {axes = [1], combine = @add_acc} : f32[M]
  %var = div(%ss, %nf) : f32[M]
  %ve = add(%var, %eps) : f32[M]
  %r = rsqrt(%ve) : f32[M]
  %rb2 = broadcast(%r) {dims = [0]} : f32[M, N]
  %nrm = mul(%d, %rb2) : f32[M, N]
  %out = mul(%nrm, %gb) : f32[M, N]
  view.store(%y, %rel, %out)
)";

// How many loops over the rows (`to %M step 1`) the program has after `pass`.
size_t row_loops(const Module& m, const std::string& pass) {
  const std::string ir = btest::ir_after(m, "k", "", pass);
  size_t n = 0;
  for (size_t at = ir.find(" to %M step 1 {"); at != std::string::npos; at = ir.find(" to %M step 1 {", at + 1)) ++n;
  return n;
}

struct Shape2 {
  int64_t m, n;
};
const std::vector<Shape2> kShapes = {{1, 1}, {3, 70}, {65, 33}, {130, 1000}, {7, 0}};

}  // namespace

TEST_CASE("row fusion: softmax's passes run as one loop over the rows, bit for bit", "[C5]") {
  auto m = btest::load(rows_kernel(kSoftmax));
  CHECK(row_loops(*m, "loop-formation") == 4);  // max, exp, sum, divide
  CHECK(row_loops(*m, "row-fusion") == 1);
  uint32_t seed = 1;
  for (const auto& s : kShapes) {
    INFO("M=" << s.m << " N=" << s.n);
    btest::differential(*m, "k", {{"x", btest::view(DType::F32, {s.m, s.n}, random_values(static_cast<size_t>(s.m * s.n), seed++))},
                                  {"y", btest::view(DType::F32, {s.m, s.n})}});
  }
}

TEST_CASE("row fusion: layer-norm's reductions, per-row scalars and normalization fuse, bit for bit", "[C5]") {
  auto m = btest::load(rows_kernel(kLayerNorm, ", %gamma: In<f32[N]>"));
  CHECK(row_loops(*m, "loop-formation") > 1);
  CHECK(row_loops(*m, "row-fusion") == 1);
  uint32_t seed = 20;
  for (const auto& s : kShapes) {
    INFO("M=" << s.m << " N=" << s.n);
    btest::differential(*m, "k", {{"x", btest::view(DType::F32, {s.m, s.n}, random_values(static_cast<size_t>(s.m * s.n), seed++))},
                                  {"gamma", btest::view(DType::F32, {s.n}, random_values(static_cast<size_t>(s.n), seed++))},
                                  {"y", btest::view(DType::F32, {s.m, s.n})}});
  }
}

TEST_CASE("row fusion: a per-row result read at another row keeps its own loop", "[C5]") {
  // y[i, j] = x[i, j] - max of row M-1-i: row i needs a row the fused loop has not reached yet
  // (the gather's read is also checked, which alone keeps the loops apart).
  auto m = btest::load(rows_kernel(R"(  %ninf = const() {value = -inf} : f32
  %max_id = full(%ninf) : f32[M]
  %mx = reduce(%v, %max_id) {axes = [1], combine = @max_acc} : f32[M]
  %one = const() {value = 1} : index
  %last = sub(%m, %one) : index
  %lastb = broadcast(%last) {dims = []} : index[M]
  %flip = sub(%lastb, %ri) : index[M]
  %frel = relation(%flip) : relation<1 -> [M]>
  %mxf = gather(%mx, %frel) : f32[M]
  %mxb = broadcast(%mxf) {dims = [0]} : f32[M, N]
  %out = sub(%v, %mxb) : f32[M, N]
  view.store(%y, %rel, %out)
)"));
  CHECK(row_loops(*m, "row-fusion") == row_loops(*m, "loop-formation"));
  CHECK(row_loops(*m, "row-fusion") >= 2);
  btest::differential(*m, "k", {{"x", btest::view(DType::F32, {9, 13}, random_values(117, 5))},
                                {"y", btest::view(DType::F32, {9, 13})}});
}

TEST_CASE("row fusion: a column reduction read by every row keeps its own loop", "[C5]") {
  // The column sums (a loop over N) are read at every column of each row; with M = N the
  // loops have the same range, but the sums are not accessed row by row.
  auto m = btest::load(rows_kernel(R"(  %csum_id = full(%zf) : f32[N]
  %cs = reduce(%v, %csum_id) {axes = [0], combine = @add_acc} : f32[N]
  %csb = broadcast(%cs) {dims = [1]} : f32[M, N]
  %out = sub(%v, %csb) : f32[M, N]
  view.store(%y, %rel, %out)
)"));
  btest::differential(*m, "k", {{"x", btest::view(DType::F32, {11, 11}, random_values(121, 6))},
                                {"y", btest::view(DType::F32, {11, 11})}});
  const std::string ir = btest::ir_after(*m, "k", "", "row-fusion");
  INFO(ir);
  CHECK(ir.find(" to %N step 1 {") != std::string::npos);
  CHECK(ir.find(" to %M step 1 {") != std::string::npos);
}

TEST_CASE("hoist: a per-row value read at every column is computed once before the column loop", "[C5]") {
  // Layer-norm's normalization reads mean = s / n and the row's rsqrt at every column; computed
  // inside the loop, GCC's own hoisting left the loop in a form it did not vectorize.
  auto m = btest::load(rows_kernel(kLayerNorm, ", %gamma: In<f32[N]>"));
  const std::string ir = btest::ir_after(*m, "k", "", "hoist");
  INFO(ir);
  const auto let = ir.find("let %inv");
  REQUIRE(let != std::string::npos);
  CHECK(ir.find("select.f32(lt.index(0, %N), div.f32") != std::string::npos);  // only when the loop runs
  const auto loop = ir.find(" = 0 to %N step 1 {", let);
  REQUIRE(loop != std::string::npos);
  CHECK(ir.find("%inv", loop) != std::string::npos);  // the store reads the let
}
