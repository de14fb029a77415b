// scan.blocks (C6, C4, L7.3): a one-component scan of a single line runs in blocks of C points as
// tasks — the blocks' totals, their prefixes, then each block scanned again and combined with its
// prefix — in the declared blocks order the interpreter evaluates too. Checked bit for bit against
// the interpreter over every tail (n = 0, below, at and above C, several blocks plus a tail),
// inclusive and exclusive, forward and reverse, f32, i32 and a combine that is not associative;
// against the test's own wrapped 64-bit prefix sums for i32 (every order gives those bits); by
// hand-computed answers only the blocks order gives; and by the golden expansion. A scan over
// several lines keeps scan.fold (its lines already run as tasks).
#include <cstdint>

#include "backend_test.h"

using namespace kir;

namespace {

std::string kernels(const std::string& t) {
  std::string k = R"(
fn @add(%a: $t, %b: $t) -> $t {
  %r = add(%a, %b) : $t
  return(%r)
}

fn @horner3(%a: $t, %b: $t) -> $t {
  %three = const() {value = $3} : $t
  %m = mul(%a, %three) : $t
  %r = add(%m, %b) : $t
  return(%r)
}

fn @add_row(%a: $t[M], %b: $t[M]) -> $t[M] {
  %r = add(%a, %b) : $t[M]
  return(%r)
}

)";
  auto scan = [&](const std::string& name, const std::string& attrs) {
    return "kernel @" + name + R"((%x: In<$t[N]>, %y: Out<$t[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : $t[N]
  %z = const() {value = $0} : $t
  %s = scan(%a, %z) {axis = 0, )" + attrs + R"(} : $t[N]
  view.store(%y, %rel, %s)
}

)";
  };
  k += scan("cumsum", "combine = @add") + scan("excl", "combine = @add, inclusive = false") +
       scan("rev", "combine = @add, reverse = true") + scan("rev_excl", "combine = @add, inclusive = false, reverse = true") +
       scan("horner", "combine = @horner3") + scan("horner_rev", "combine = @horner3, reverse = true");
  k += R"(kernel @rows(%x: In<$t[M, N]>, %y: Out<$t[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %rb = broadcast(%im) {dims = [0]} : index[M, N]
  %cb = broadcast(%in) {dims = [1]} : index[M, N]
  %rel = relation(%rb, %cb) : relation<2 -> [M, N]>
  %a = view.load(%x, %rel) : $t[M, N]
  %z = const() {value = $0} : $t
  %id = full(%z) : $t[M]
  %s = scan(%a, %id) {axis = 1, combine = @add_row} : $t[M, N]
  view.store(%y, %rel, %s)
}
)";
  const bool fl = t[0] == 'f';
  for (auto [from, to] : {std::pair<std::string, std::string>{"$t", t}, {"$0", fl ? "0.0" : "0"}, {"$3", fl ? "3.0" : "3"}})
    for (size_t p = 0; (p = k.find(from, p)) != std::string::npos; p += to.size()) k.replace(p, from.size(), to);
  return k;
}

const char* kRows = R"(rows:
  - name: blocks-C
    shared: {task_m: 0, task_n: 0, mc: 64, nc: 256, kc: 64}
    local: {mr: 4, nv: 4, lanes: 8, block: C}
    implementations: [contract.packed.portable, contract.sequential, reduce.fold, reduce.lanes, scan.fold, scan.blocks]
)";

std::string rows_with_block(int64_t block) {
  std::string t = kRows;
  t.replace(t.find("blocks-C"), 8, "blocks-" + std::to_string(block));
  t.replace(t.find("block: C"), 8, "block: " + std::to_string(block));
  return t;
}

// Values with cancellation (f32) or spread over the i32 range (sums wrap).
std::vector<double> values_for(DType d, int64_t n, uint64_t seed) {
  std::vector<double> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 3;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    if (d == DType::F32) x = std::ldexp(static_cast<double>((s >> 40) % 2001) - 1000.0, static_cast<int>((s >> 33) % 40) - 20);
    else x = static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(s >> 32)));
  }
  return v;
}

// The i32 prefix sums of x, wrapped: inclusive or exclusive, forward or reverse.
std::vector<double> prefix_sums(const std::vector<double>& x, bool inclusive, bool reverse) {
  const size_t n = x.size();
  std::vector<double> out(n);
  uint32_t acc = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t p = reverse ? n - 1 - k : k;
    if (!inclusive) out[p] = static_cast<int32_t>(acc);
    acc += static_cast<uint32_t>(static_cast<int64_t>(x[p]));
    if (inclusive) out[p] = static_cast<int32_t>(acc);
  }
  return out;
}

std::vector<double> run(const Module& m, const std::string& kernel, DType d, const std::vector<double>& x) {
  const int64_t n = static_cast<int64_t>(x.size());
  auto out = btest::differential(m, kernel, {{"x", btest::view(d, {n}, x)}, {"y", btest::view(d, {n})}});
  return btest::values(btest::out_view(out, "y"));
}

}  // namespace

TEST_CASE("scan.blocks: every tail, both directions, inclusive and exclusive agree with the interpreter", "[C6][C4][L7.3]") {
  auto f = btest::load(kernels("f32"));
  auto i = btest::load(kernels("i32"));
  for (int64_t block : {1, 2, 3, 64, 0}) {
    btest::WithRows rows(rows_with_block(block));
    for (int64_t n : {0, 1, 2, 3, 7, 63, 64, 65, 200}) {
      INFO("block " << block << " N = " << n);
      for (const char* k : {"cumsum", "excl", "rev", "rev_excl", "horner", "horner_rev"}) {
        INFO(k);
        run(*f, k, DType::F32, values_for(DType::F32, n, static_cast<uint64_t>(n + block)));
        const auto x = values_for(DType::I32, n, static_cast<uint64_t>(n + 7 * block));
        const auto got = run(*i, k, DType::I32, x);
        const std::string kk = k;
        if (kk.rfind("horner", 0) != 0)
          CHECK(got == prefix_sums(x, kk.find("excl") == std::string::npos, kk.rfind("rev", 0) == 0));
      }
    }
  }
}

TEST_CASE("scan.blocks: a long line runs its blocks as tasks and gives the wrapped prefix sums", "[C6][C4]") {
  auto i = btest::load(kernels("i32"));
  const auto x = values_for(DType::I32, 300000, 5);
  CHECK(run(*i, "cumsum", DType::I32, x) == prefix_sums(x, true, false));
  CHECK(run(*i, "rev_excl", DType::I32, x) == prefix_sums(x, false, true));
}

TEST_CASE("scan.blocks: answers only the blocks order gives", "[C6][L7.3]") {
  // f32 [1e8, 1, -1e8, 1] in blocks of two: the second block scans -1e8, -1e8 and adds P = 1e8,
  // giving 1e8, 1e8, 0, 0 (canonically the last is 1). 3a + b over [1, 2, 3, 4]: blocks of two
  // give 1, 5, 18, 28 (canonically 58 last); in reverse 48, 39, 21, 12 (canonically 30, 27).
  auto f = btest::load(kernels("f32"));
  auto i = btest::load(kernels("i32"));
  btest::WithRows rows(rows_with_block(2));
  CHECK(run(*f, "cumsum", DType::F32, {1e8, 1, -1e8, 1}) == std::vector<double>{1e8, 1e8, 0, 0});
  CHECK(run(*i, "horner", DType::I32, {1, 2, 3, 4}) == std::vector<double>{1, 5, 18, 28});
  CHECK(run(*i, "horner_rev", DType::I32, {1, 2, 3, 4}) == std::vector<double>{48, 39, 21, 12});
  btest::WithRows whole(rows_with_block(0));
  CHECK(run(*f, "cumsum", DType::F32, {1e8, 1, -1e8, 1}) == std::vector<double>{1e8, 1e8, 0, 1});
}

TEST_CASE("scan.blocks: a scan over several lines keeps scan.fold", "[C6][C11]") {
  auto f = btest::load(kernels("f32"));
  const std::string ir = btest::ir_after(*f, "rows", "avx512-12x2", "expand");
  CHECK(ir.find(" scan.fold ") != std::string::npos);
  auto out = btest::differential(*f, "rows", {{"x", btest::view(DType::F32, {3, 5}, values_for(DType::F32, 15, 1))},
                                              {"y", btest::view(DType::F32, {3, 5})}});
  (void)out;
}

TEST_CASE("scan.blocks: its expansion is real CPU IR (golden)", "[C7][C11]") {
  auto f = btest::load(kernels("f32"));
  const std::string ir = btest::ir_after(*f, "excl", "portable-4x4", "expand");
  INFO(ir);
  CHECK(ir.find(" scan.blocks {block=1024} order blocks") != std::string::npos);
  const char* golden[] = {
      "tasks %blk#",
      " = mul.index(%blk#",
      "store %s#4[%s#18] = load %s_prefix#6[%blk#14]",  // an exclusive block starts at its prefix
      "store %s_totals#",
      "select.index(eq.index(%N, 0), 0, floordiv.index(add.index(%N, 1023), 1024))",
      "store %s_prefix#",
  };
  for (const char* g : golden) {
    INFO(g);
    CHECK(ir.find(g) != std::string::npos);
  }
}
