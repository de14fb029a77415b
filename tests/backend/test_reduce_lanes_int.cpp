// reduce.lanes over integers and bools (C6, C4, L7.3): a one-component reduce of any scalar dtype
// runs in the declared lanes order, its blocks as tasks when the result is one element, so
// integer sums of long sources spread over the threads too. Checked bit for bit against the
// interpreter under the same declared order and against the test's own sum in 64-bit integers
// wrapped to the dtype (an integer add wraps, so every order gives those bits); a combine that
// is not associative shows the lanes order itself by a hand-computed answer.
#include <cstdint>
#include <limits>

#include "backend_test.h"

using namespace kir;

namespace {

// Kernels over a 2-D view %x of dtype $t: row sums, the whole sum, row maxima, and a fold with
// the non-associative combine acc * 3 + x.
std::string kernels(const std::string& t, const std::string& low) {
  const std::string head = R"((%x: In<$t[M, N]>, %y: Out<$t[$OUT]>) {
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
  %v = view.load(%x, %rel) : $t[M, N]
)";
  auto kernel = [&](const std::string& name, const std::string& out, const std::string& body) {
    std::string h = head;
    h.replace(h.find("$OUT"), 4, out);
    return "kernel @" + name + h + body + "}\n\n";
  };
  const std::string per_row = "  %orel = relation(%ri) : relation<1 -> [M]>\n  view.store(%y, %orel, %s)\n";
  std::string k = R"(
fn @add_acc(%a: $t[R], %b: $t[R]) -> $t[R] {
  %r = add(%a, %b) : $t[R]
  return(%r)
}

fn @add_s(%a: $t, %b: $t) -> $t {
  %r = add(%a, %b) : $t
  return(%r)
}

fn @max_acc(%a: $t[R], %b: $t[R]) -> $t[R] {
  %r = max(%a, %b) : $t[R]
  return(%r)
}

fn @horner3(%a: $t[R], %b: $t[R]) -> $t[R] {
  %three = const() {value = 3} : $t
  %t3 = full(%three) : $t[R]
  %m = mul(%a, %t3) : $t[R]
  %r = add(%m, %b) : $t[R]
  return(%r)
}

)" + kernel("rows", "M", "  %z = const() {value = 0} : $t\n  %id = full(%z) : $t[M]\n"
                         "  %s = reduce(%v, %id) {axes = [1], combine = @add_acc} : $t[M]\n" + per_row) +
                  kernel("all", "1", "  %z = const() {value = 0} : $t\n"
                                     "  %s = reduce(%v, %z) {axes = [0, 1], combine = @add_s} : $t\n"
                                     "  %orel = relation(%zero) : relation<1 -> []>\n  view.store(%y, %orel, %s)\n") +
                  kernel("rowmax", "M", "  %lo = const() {value = $LOW} : $t\n  %id = full(%lo) : $t[M]\n"
                                        "  %s = reduce(%v, %id) {axes = [1], combine = @max_acc} : $t[M]\n" + per_row) +
                  kernel("horner", "M", "  %z = const() {value = 0} : $t\n  %id = full(%z) : $t[M]\n"
                                        "  %s = reduce(%v, %id) {axes = [1], combine = @horner3} : $t[M]\n" + per_row);
  for (size_t p = 0; (p = k.find("$t", p)) != std::string::npos; p += t.size()) k.replace(p, 2, t);
  for (size_t p = 0; (p = k.find("$LOW", p)) != std::string::npos; p += low.size()) k.replace(p, 4, low);
  return k;
}

struct IntType {
  const char* name;
  DType dtype;
  int bits;
  bool is_signed;
};

const IntType kTypes[] = {{"i32", DType::I32, 32, true}, {"i64", DType::I64, 64, true}, {"u8", DType::U8, 8, false},
                          {"i16", DType::I16, 16, true}};

// Values spread over the dtype's range (sums wrap); 64-bit ones stay within 2^52 so that the
// test's doubles hold them exactly.
std::vector<double> values_for(const IntType& t, int64_t n, uint64_t seed) {
  std::vector<double> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 7;
  const int bits = t.bits == 64 ? 52 : t.bits;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t r = (s >> 11) & ((uint64_t{1} << bits) - 1);
    x = t.is_signed ? static_cast<double>(static_cast<int64_t>(r) - (int64_t{1} << (bits - 1))) : static_cast<double>(r);
  }
  return v;
}

// The sum of `v`, wrapped to the dtype as the language's integer add wraps.
double wrapped_sum(const IntType& t, const std::vector<double>& v, size_t from, size_t count) {
  uint64_t s = 0;
  for (size_t i = from; i < from + count; ++i) s += static_cast<uint64_t>(static_cast<int64_t>(v[i]));
  if (t.bits == 64) return static_cast<double>(static_cast<int64_t>(s));
  const uint64_t m = s & ((uint64_t{1} << t.bits) - 1);
  if (t.is_signed && (m >> (t.bits - 1)) != 0) return static_cast<double>(static_cast<int64_t>(m) - (int64_t{1} << t.bits));
  return static_cast<double>(m);
}

std::string low_of(const IntType& t) {
  if (!t.is_signed) return "0";
  return std::to_string(t.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (t.bits - 1)));
}

const char* kRowsL = R"(rows:
  - name: lanes-L
    shared: {task_m: 0, task_n: 0, mc: 64, nc: 256, kc: 64}
    local: {mr: 4, nv: 4, lanes: L, block: B}
    implementations: [contract.packed.portable, contract.sequential, reduce.fold, reduce.lanes, scan.fold]
)";

std::string rows_with_lanes(int64_t lanes, int64_t block) {
  std::string t = kRowsL;
  t.replace(t.find("lanes-L"), 7, "lanes-" + std::to_string(lanes));
  t.replace(t.find("lanes: L"), 8, "lanes: " + std::to_string(lanes));
  t.replace(t.find("block: B"), 8, "block: " + std::to_string(block));
  return t;
}

}  // namespace

TEST_CASE("reduce.lanes over integers: sums wrap and agree with a 64-bit sum over every tail and block", "[C6][C4][L7.3]") {
  for (const auto& t : kTypes) {
    auto m = btest::load(kernels(t.name, low_of(t)));
    for (auto [lanes, block] : {std::pair<int64_t, int64_t>{64, 65536}, {4, 8}, {3, 0}, {1, 1}}) {
      btest::WithRows rows(rows_with_lanes(lanes, block));
      for (int64_t n : {0, 1, 7, 8, 9, 64, 65, 1000}) {
        INFO(t.name << " lanes " << lanes << " block " << block << " N = " << n);
        auto x = values_for(t, 3 * n, static_cast<uint64_t>(n + lanes));
        auto all = btest::differential(*m, "all", {{"x", btest::view(t.dtype, {3, n}, x)}, {"y", btest::view(t.dtype, {1})}});
        CHECK(btest::values(btest::out_view(all, "y")) == std::vector<double>{wrapped_sum(t, x, 0, x.size())});
        auto row = btest::differential(*m, "rows", {{"x", btest::view(t.dtype, {3, n}, x)}, {"y", btest::view(t.dtype, {3})}});
        std::vector<double> expect;
        for (size_t r = 0; r < 3; ++r) expect.push_back(wrapped_sum(t, x, r * static_cast<size_t>(n), static_cast<size_t>(n)));
        CHECK(btest::values(btest::out_view(row, "y")) == expect);
        btest::differential(*m, "rowmax", {{"x", btest::view(t.dtype, {2, n}, values_for(t, 2 * n, static_cast<uint64_t>(n) + 9))},
                                           {"y", btest::view(t.dtype, {2})}});
      }
    }
  }
}

TEST_CASE("reduce.lanes over integers: a long sum runs its blocks as tasks and still gives the wrapped sum", "[C6][C4]") {
  // 2^20 values of 2^30 - 1 sum to 2^50 - 2^20, which wraps in i32 to -2^20.
  const IntType& t = kTypes[0];
  auto m = btest::load(kernels(t.name, low_of(t)));
  const int64_t n = int64_t{1} << 20;
  std::vector<double> x(static_cast<size_t>(n), static_cast<double>((int64_t{1} << 30) - 1));
  auto all = btest::differential(*m, "all", {{"x", btest::view(t.dtype, {1, n}, x)}, {"y", btest::view(t.dtype, {1})}});
  CHECK(btest::values(btest::out_view(all, "y")) == std::vector<double>{-1048576.0});
  const std::string ir = btest::ir_after(*m, "all", "avx512-12x2", "expand");
  INFO(ir);
  CHECK(ir.find(" reduce.lanes {lanes=64, block=65536} order lanes") != std::string::npos);
  CHECK(ir.find("tasks %blk#") != std::string::npos);
}

TEST_CASE("reduce.lanes over integers: a combine that is not associative folds in the lanes order", "[C6][L7.3]") {
  // combine(acc, x) = 3 acc + x over [1, 2, 3, 4] from 0: canonically ((1·3 + 2)·3 + 3)·3 + 4 =
  // 58; in two lanes, lane 0 folds 1, 3 to 6 and lane 1 folds 2, 4 to 10, then 3·6 + 10 = 28;
  // in one lane with blocks of two, the blocks give 5 and 11, then 3·5 + 11 = 26.
  auto m = btest::load(kernels("i32", low_of(kTypes[0])));
  for (auto [lanes, block, expect] : {std::tuple<int64_t, int64_t, double>{1, 0, 58.0}, {2, 0, 28.0}, {3, 0, 72.0}}) {
    INFO("lanes " << lanes << " block " << block);
    btest::WithRows rows(rows_with_lanes(lanes, block));
    auto out = btest::differential(*m, "horner", {{"x", btest::view(DType::I32, {1, 4}, {1, 2, 3, 4})}, {"y", btest::view(DType::I32, {1})}});
    CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{expect});
  }
}
