// region_fold and region_scan on the CPU backend (C3, C4; L9.1–L9.5, L9.7): the helpers of the
// valid files structured_region_fold.kir / structured_region_scan.kir wrapped in small kernels,
// and the reference programs examples/causal_linear_attention.kir (region_scan) and
// examples/mamba_chunk_scan.kir (ordered carry), each run natively and bit for bit against the
// interpreter's canonical (whole-source) segmentation, on empty, single and longer sources, plus
// hand-computed values.
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "backend_test.h"

using namespace kir;

namespace {

std::string read_source(const std::string& rel) {
  std::ifstream in(std::filesystem::path(KIR_SOURCE_DIR) / rel);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Seeded values rounded to f32.
std::vector<double> uniform(std::mt19937_64& g, int64_t n, double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<float>(d(g));
  return v;
}

interp::Scalar f32(double v) { return num::Scalar{DType::F32, num::from_double(v, DType::F32)}; }
interp::Scalar idx(int64_t v) { return num::make_int(DType::Index, static_cast<uint64_t>(v)); }

// Kernels around the helpers of the valid files.
const char* kFoldKernels = R"(
kernel @argmax_k(%x: In<f32[N]>, %scale: f32, %o: Out<index[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %xv = view.load(%x, %rel) : f32[N]
  %r = call(%xv, %scale) {callee = @scaled_argmax} : index
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %r)
}

kernel @argmax0_k(%x: In<f32[0]>, %scale: f32, %o: Out<index[1]>) {
  %zero = const() {value = 0} : index
  %d = domain(%zero, %zero) : domain<0>
  %i = indices(%d) : index[0]
  %rel = relation(%i) : relation<1 -> [0]>
  %xv = view.load(%x, %rel) : f32[0]
  %r = call(%xv, %scale) {callee = @scaled_argmax} : index
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %r)
}

kernel @kv_k(%k: In<f32[T, D]>, %v: In<f32[T, E]>, %o: Out<f32[D, E]>) {
  %zero = const() {value = 0} : index
  %t = dim(%k) {axis = 0} : index
  %dd = dim(%k) {axis = 1} : index
  %de = dim(%v) {axis = 1} : index
  %dt = domain(%zero, %t) : domain<T>
  %ddd = domain(%zero, %dd) : domain<D>
  %dde = domain(%zero, %de) : domain<E>
  %it = indices(%dt) : index[T]
  %id = indices(%ddd) : index[D]
  %ie = indices(%dde) : index[E]
  %kr = broadcast(%it) {dims = [0]} : index[T, D]
  %kc = broadcast(%id) {dims = [1]} : index[T, D]
  %krel = relation(%kr, %kc) : relation<2 -> [T, D]>
  %vr = broadcast(%it) {dims = [0]} : index[T, E]
  %vc = broadcast(%ie) {dims = [1]} : index[T, E]
  %vrel = relation(%vr, %vc) : relation<2 -> [T, E]>
  %kv = view.load(%k, %krel) : f32[T, D]
  %vv = view.load(%v, %vrel) : f32[T, E]
  %s = call(%kv, %vv) {callee = @kv_state} : f32[D, E]
  %or = broadcast(%id) {dims = [0]} : index[D, E]
  %oc = broadcast(%ie) {dims = [1]} : index[D, E]
  %orel = relation(%or, %oc) : relation<2 -> [D, E]>
  view.store(%o, %orel, %s)
}
)";

const char* kScanKernels = R"(
kernel @cumsum_k(%x: In<f32[N]>, %w: f32, %init: f32, %o: Out<f32[N]>, %f: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %xv = view.load(%x, %rel) : f32[N]
  %r = call(%xv, %w, %init) {callee = @weighted_cumsum} : tuple<f32[N], f32>
  %out = tuple.get(%r) {index = 0} : f32[N]
  %fin = tuple.get(%r) {index = 1} : f32
  view.store(%o, %rel, %out)
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%f, %r0, %fin)
}

kernel @cumsum4_k(%x: In<f32[4]>, %w: f32, %init: f32, %o: Out<f32[4]>, %f: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %four = const() {value = 4} : index
  %d = domain(%zero, %four) : domain<4>
  %i = indices(%d) : index[4]
  %rel = relation(%i) : relation<1 -> [4]>
  %xv = view.load(%x, %rel) : f32[4]
  %r = call(%xv, %w, %init) {callee = @weighted_cumsum} : tuple<f32[4], f32>
  %out = tuple.get(%r) {index = 0} : f32[4]
  %fin = tuple.get(%r) {index = 1} : f32
  view.store(%o, %rel, %out)
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%f, %r0, %fin)
}

kernel @rows_k(%x: In<f32[M, N]>, %init: In<f32[M]>, %o: Out<f32[M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%x) {axis = 0} : index
  %n = dim(%x) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %in = indices(%dn) : index[N]
  %xr = broadcast(%im) {dims = [0]} : index[M, N]
  %xc = broadcast(%in) {dims = [1]} : index[M, N]
  %xrel = relation(%xr, %xc) : relation<2 -> [M, N]>
  %mrel = relation(%im) : relation<1 -> [M]>
  %xv = view.load(%x, %xrel) : f32[M, N]
  %iv = view.load(%init, %mrel) : f32[M]
  %r = call(%xv, %iv) {callee = @row_prefix} : f32[M, N]
  view.store(%o, %xrel, %r)
}
)";

std::map<std::string, interp::KernelArg> linear_args(int64_t l, int64_t d, int64_t e, const std::vector<double>& q,
                                                     const std::vector<double>& k, const std::vector<double>& v,
                                                     const std::vector<double>& s0) {
  return {{"q", btest::view(DType::F32, {l, d}, q)},     {"k", btest::view(DType::F32, {l, d}, k)},
          {"v", btest::view(DType::F32, {l, e}, v)},     {"s0", btest::view(DType::F32, {d, e}, s0)},
          {"o", btest::view(DType::F32, {l, e})},        {"s_final", btest::view(DType::F32, {d, e})}};
}

std::map<std::string, interp::KernelArg> ssm_args(int64_t l, int64_t p, int64_t e, const std::vector<double>& x,
                                                  const std::vector<double>& a, const std::vector<double>& b,
                                                  const std::vector<double>& c, const std::vector<double>& h0,
                                                  int64_t chunk) {
  return {{"x", btest::view(DType::F32, {l, e}, x)}, {"a", btest::view(DType::F32, {l}, a)},
          {"b", btest::view(DType::F32, {l, p}, b)}, {"c", btest::view(DType::F32, {l, p}, c)},
          {"h0", btest::view(DType::F32, {p, e}, h0)}, {"y", btest::view(DType::F32, {l, e})},
          {"h_final", btest::view(DType::F32, {p, e})}, {"chunk", idx(chunk)}};
}

}  // namespace

TEST_CASE("[L9.1] [L9.4] region_fold argmax over absolute coordinates runs natively", "[C3][C4][L9.1][L9.4]") {
  auto m = btest::load(read_source("tests/kir/valid/structured_region_fold.kir") + kFoldKernels);
  // x * -1 = [-1, 5, -2]: the maximum is at position 1.
  auto out = btest::differential(*m, "argmax_k",
                                 {{"x", btest::view(DType::F32, {3}, {1, -5, 2})}, {"scale", f32(-1)},
                                  {"o", btest::view(DType::Index, {1}, {7})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{1});
  // Empty source: the identity (-inf, 0) -> 0.
  out = btest::differential(*m, "argmax_k",
                            {{"x", btest::view(DType::F32, {0})}, {"scale", f32(2)}, {"o", btest::view(DType::Index, {1}, {7})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{0});
  // A constant empty extent takes the identity at construction.
  out = btest::differential(*m, "argmax0_k",
                            {{"x", btest::view(DType::F32, {0})}, {"scale", f32(2)}, {"o", btest::view(DType::Index, {1}, {7})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{0});
  std::mt19937_64 g(11);
  for (int64_t n : {1, 2, 9, 33}) {
    INFO("N=" << n);
    btest::differential(*m, "argmax_k",
                        {{"x", btest::view(DType::F32, {n}, uniform(g, n))}, {"scale", f32(0.75)},
                         {"o", btest::view(DType::Index, {1})}});
  }
}

TEST_CASE("[L9.1] [L9.3] region_fold with a tensor summary (contract in summarize) runs natively", "[C3][C4][L9.1][L9.3]") {
  auto m = btest::load(read_source("tests/kir/valid/structured_region_fold.kir") + kFoldKernels);
  // k = [[1, 2], [3, 4]], v = [[5], [6]]: k^T v = [[1*5 + 3*6], [2*5 + 4*6]] = [[23], [34]].
  auto out = btest::differential(*m, "kv_k",
                                 {{"k", btest::view(DType::F32, {2, 2}, {1, 2, 3, 4})},
                                  {"v", btest::view(DType::F32, {2, 1}, {5, 6})},
                                  {"o", btest::view(DType::F32, {2, 1})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{23, 34});
  // No rows: the identity (zeros).
  out = btest::differential(*m, "kv_k",
                            {{"k", btest::view(DType::F32, {0, 2})}, {"v", btest::view(DType::F32, {0, 3})},
                             {"o", btest::view(DType::F32, {2, 3}, {9, 9, 9, 9, 9, 9})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>(6, 0.0));
  std::mt19937_64 g(12);
  for (int64_t t : {1, 5, 17}) {
    INFO("T=" << t);
    btest::differential(*m, "kv_k",
                        {{"k", btest::view(DType::F32, {t, 3}, uniform(g, t * 3))},
                         {"v", btest::view(DType::F32, {t, 4}, uniform(g, t * 4))},
                         {"o", btest::view(DType::F32, {3, 4})}});
  }
}

TEST_CASE("[L9.5] region_scan weighted running sum and final state run natively", "[C3][C4][L9.5]") {
  auto m = btest::load(read_source("tests/kir/valid/structured_region_scan.kir") + kScanKernels);
  // x = [1, 2, 3], w = 2, init = 10: outputs 10 + 2, 10 + 6, 10 + 12; final 22.
  auto out = btest::differential(*m, "cumsum_k",
                                 {{"x", btest::view(DType::F32, {3}, {1, 2, 3})}, {"w", f32(2)}, {"init", f32(10)},
                                  {"o", btest::view(DType::F32, {3})}, {"f", btest::view(DType::F32, {1})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{12, 16, 22});
  CHECK(btest::values(btest::out_view(out, "f")) == std::vector<double>{22});
  // Empty source: no outputs, final state = initial state.
  out = btest::differential(*m, "cumsum_k",
                            {{"x", btest::view(DType::F32, {0})}, {"w", f32(2)}, {"init", f32(-3.5)},
                             {"o", btest::view(DType::F32, {0})}, {"f", btest::view(DType::F32, {1}, {0})}});
  CHECK(btest::values(btest::out_view(out, "f")) == std::vector<double>{-3.5});
  // A constant non-empty extent: no run-time test of the extent. 0.5 * [2, 4, 6, 8] from 1.
  out = btest::differential(*m, "cumsum4_k",
                            {{"x", btest::view(DType::F32, {4}, {2, 4, 6, 8})}, {"w", f32(0.5)}, {"init", f32(1)},
                             {"o", btest::view(DType::F32, {4})}, {"f", btest::view(DType::F32, {1})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{2, 4, 7, 11});
  CHECK(btest::values(btest::out_view(out, "f")) == std::vector<double>{11});
  std::mt19937_64 g(13);
  for (int64_t n : {1, 4, 19}) {
    INFO("N=" << n);
    btest::differential(*m, "cumsum_k",
                        {{"x", btest::view(DType::F32, {n}, uniform(g, n))}, {"w", f32(0.3)}, {"init", f32(0.1)},
                         {"o", btest::view(DType::F32, {n})}, {"f", btest::view(DType::F32, {1})}});
  }
}

TEST_CASE("[L9.5] [L9.4] region_scan along axis 1 with two emit outputs runs natively", "[C3][C4][L9.5][L9.4]") {
  auto m = btest::load(read_source("tests/kir/valid/structured_region_scan.kir") + kScanKernels);
  // Row prefix sums from init: [[1, 2, 3], [4, 5, 6]] from [10, 20].
  auto out = btest::differential(*m, "rows_k",
                                 {{"x", btest::view(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6})},
                                  {"init", btest::view(DType::F32, {2}, {10, 20})},
                                  {"o", btest::view(DType::F32, {2, 3})}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{11, 13, 16, 24, 29, 35});
  std::mt19937_64 g(14);
  for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{{3, 0}, {1, 1}, {4, 7}}) {
    INFO("M=" << r << " N=" << c);
    btest::differential(*m, "rows_k",
                        {{"x", btest::view(DType::F32, {r, c}, uniform(g, r * c))},
                         {"init", btest::view(DType::F32, {r}, uniform(g, r))}, {"o", btest::view(DType::F32, {r, c})}});
  }
}

TEST_CASE("[L9.7] [L9.5] causal linear attention (region_scan) runs natively", "[C3][C4][L9.7][L9.5]") {
  auto m = btest::load(read_source("examples/causal_linear_attention.kir"));
  // L = 2, D = E = 1: q = [1, 2], k = [3, 4], v = [5, 6], S0 = 7. S_1 = 7 + 15 = 22, o_0 = 22;
  // S_2 = 22 + 24 = 46, o_1 = 2 * 46 = 92.
  auto out = btest::differential(*m, "causal_linear_attention", linear_args(2, 1, 1, {1, 2}, {3, 4}, {5, 6}, {7}));
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{22, 92});
  CHECK(btest::values(btest::out_view(out, "s_final")) == std::vector<double>{46});
  // Empty sequence: final state = initial state.
  out = btest::differential(*m, "causal_linear_attention", linear_args(0, 3, 2, {}, {}, {}, {1, 2, 3, 4, 5, 6}));
  CHECK(btest::values(btest::out_view(out, "s_final")) == std::vector<double>{1, 2, 3, 4, 5, 6});
  std::mt19937_64 g(15);
  for (const auto& s : std::vector<std::array<int64_t, 3>>{{1, 2, 2}, {4, 3, 2}, {7, 2, 3}, {16, 4, 4}}) {
    INFO("L=" << s[0] << " D=" << s[1] << " E=" << s[2]);
    btest::differential(*m, "causal_linear_attention",
                        linear_args(s[0], s[1], s[2], uniform(g, s[0] * s[1]), uniform(g, s[0] * s[1]),
                                    uniform(g, s[0] * s[2]), uniform(g, s[1] * s[2])));
  }
}

TEST_CASE("[L9.7] Mamba chunked state passing runs natively for several chunk sizes", "[C3][C4][L9.7][L6.1]") {
  auto m = btest::load(read_source("examples/mamba_chunk_scan.kir"));
  // L = P = E = 1: h = a h0 + b x = 0.5 * 2 + 3 * 4 = 13, y = c h = 2 * 13 = 26.
  auto out = btest::differential(*m, "mamba_chunk_scan", ssm_args(1, 1, 1, {4}, {0.5}, {3}, {2}, {2}, 4));
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{26});
  CHECK(btest::values(btest::out_view(out, "h_final")) == std::vector<double>{13});
  std::mt19937_64 g(16);
  for (int64_t l : {0, 1, 8, 10}) {
    const int64_t p = 3, e = 2;
    auto x = uniform(g, l * e), a = uniform(g, l, 0.5, 1.0), b = uniform(g, l * p), c = uniform(g, l * p),
         h0 = uniform(g, p * e);
    for (int64_t chunk : {int64_t{1}, int64_t{3}, int64_t{4}, l + 2}) {
      INFO("L=" << l << " chunk=" << chunk);
      btest::differential(*m, "mamba_chunk_scan", ssm_args(l, p, e, x, a, b, c, h0, chunk));
    }
  }
}

TEST_CASE("[L9.7] [L9.5] LinearAttentionFwdOp (region_scan inside nested parallel) runs natively",
          "[C3][C4][L9.7][L9.5]") {
  auto m = btest::load(read_source("specs/kernels/LinearAttentionFwdOp.kir"));
  std::mt19937_64 g(17);
  for (bool present : {false, true})
    for (const auto& s : std::vector<std::array<int64_t, 5>>{{1, 1, 0, 2, 2}, {2, 3, 5, 3, 2}, {1, 2, 9, 4, 3}}) {
      const int64_t b = s[0], h = s[1], l = s[2], d = s[3], e = s[4];
      INFO("B=" << b << " H=" << h << " L=" << l << " D=" << d << " E=" << e << " present=" << present);
      std::map<std::string, interp::KernelArg> args = {
          {"q", btest::view(DType::F32, {b, h, l, d}, uniform(g, b * h * l * d))},
          {"k", btest::view(DType::F32, {b, h, l, d}, uniform(g, b * h * l * d))},
          {"v", btest::view(DType::F32, {b, h, l, e}, uniform(g, b * h * l * e))},
          {"initial_state", btest::view(DType::F32, {b, h, d, e}, uniform(g, b * h * d * e))},
          {"o", btest::view(DType::F32, {b, h, l, e})},
          {"final_state", btest::view(DType::F32, {b, h, d, e})},
          {"present_initial_state", num::Scalar{DType::Bool, present ? 1u : 0u}}};
      auto out = btest::differential(*m, "LinearAttentionFwdOp__f32", args);
      // Empty sequence: the final state is the initial state (or 0 without one).
      if (l == 0)
        CHECK(btest::values(btest::out_view(out, "final_state")) ==
              (present ? btest::values(std::get<interp::HostView>(args.at("initial_state")))
                       : std::vector<double>(static_cast<size_t>(b * h * d * e), 0.0)));
    }
}

TEST_CASE("[L9.7] MambaChunkScanFwdOp (ordered carry inside parallel) runs natively", "[C3][C4][L9.7][L6.1]") {
  auto m = btest::load(read_source("specs/kernels/MambaChunkScanFwdOp.kir"));
  std::mt19937_64 g(18);
  for (bool present : {false, true})
    for (const auto& s : std::vector<std::array<int64_t, 5>>{{1, 0, 2, 2, 4}, {2, 10, 3, 2, 4}, {3, 7, 2, 3, 3}}) {
      const int64_t b = s[0], l = s[1], p = s[2], e = s[3], chunk = s[4];
      INFO("B=" << b << " L=" << l << " P=" << p << " E=" << e << " chunk=" << chunk << " present=" << present);
      btest::differential(*m, "MambaChunkScanFwdOp__f32",
                          {{"x", btest::view(DType::F32, {b, l, e}, uniform(g, b * l * e))},
                           {"a", btest::view(DType::F32, {b, l}, uniform(g, b * l, 0.5, 1.0))},
                           {"b", btest::view(DType::F32, {b, l, p}, uniform(g, b * l * p))},
                           {"c", btest::view(DType::F32, {b, l, p}, uniform(g, b * l * p))},
                           {"initial_state", btest::view(DType::F32, {b, p, e}, uniform(g, b * p * e))},
                           {"y", btest::view(DType::F32, {b, l, e})},
                           {"final_state", btest::view(DType::F32, {b, p, e})},
                           {"chunk_size", idx(chunk)},
                           {"present_initial_state", num::Scalar{DType::Bool, present ? 1u : 0u}}});
    }
}

TEST_CASE("[L9.7] [L9.1] flash attention (region_fold with a tuple summary) runs natively", "[C3][C4][L9.7][L9.1]") {
  auto m = btest::load(read_source("examples/flash_attention.kir"));
  auto args = [](int64_t mq, int64_t n, int64_t d, int64_t e, std::vector<double> q, std::vector<double> k,
                 std::vector<double> v, double scale) {
    return std::map<std::string, interp::KernelArg>{
        {"q", btest::view(DType::F32, {mq, d}, q)}, {"k", btest::view(DType::F32, {n, d}, k)},
        {"v", btest::view(DType::F32, {n, e}, v)},  {"o", btest::view(DType::F32, {mq, e})},
        {"scale", f32(scale)}};
  };
  // One key: its softmax weight is exp(0) / exp(0) = 1, so o = v.
  auto out = btest::differential(*m, "flash_attention", args(1, 1, 1, 2, {3}, {-2}, {1.5, -4}, 0.5));
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{1.5, -4});
  // No keys: the identity path (l = 0) gives 0.
  out = btest::differential(*m, "flash_attention", args(2, 0, 2, 2, {1, 2, 3, 4}, {}, {}, 1));
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>(4, 0.0));
  std::mt19937_64 g(19);
  for (const auto& s : std::vector<std::array<int64_t, 4>>{{4, 10, 4, 3}, {3, 17, 2, 5}}) {
    INFO("M=" << s[0] << " N=" << s[1] << " D=" << s[2] << " E=" << s[3]);
    btest::differential(*m, "flash_attention",
                        args(s[0], s[1], s[2], s[3], uniform(g, s[0] * s[2]), uniform(g, s[1] * s[2]),
                             uniform(g, s[1] * s[3]), 0.5));
  }
}

namespace {

// The arguments of specs/kernels/FlashAttentionFwdOp.kir: q, k, v, attn_bias seeded from `g`.
std::map<std::string, interp::KernelArg> fwd_args(std::mt19937_64& g, const std::array<int64_t, 6>& s, bool causal, bool bias) {
  const int64_t b = s[0], h = s[1], sq = s[2], sk = s[3], d = s[4], dv = s[5];
  return {{"q", btest::view(DType::F32, {b, h, sq, d}, uniform(g, b * h * sq * d))},
          {"k", btest::view(DType::F32, {b, h, sk, d}, uniform(g, b * h * sk * d))},
          {"v", btest::view(DType::F32, {b, h, sk, dv}, uniform(g, b * h * sk * dv))},
          {"attn_bias", btest::view(DType::F32, {b, h, sq, sk}, uniform(g, b * h * sq * sk))},
          {"o", btest::view(DType::F32, {b, h, sq, dv})},
          {"is_causal", num::Scalar{DType::Bool, causal ? 1u : 0u}},
          {"softmax_scale", f32(0.7)},
          {"present_attn_bias", num::Scalar{DType::Bool, bias ? 1u : 0u}}};
}

}  // namespace

TEST_CASE("[L9.7] [L9.1] FlashAttentionFwdOp (region_fold inside nested parallel) runs natively", "[C3][C4][L9.7][L9.1]") {
  auto m = btest::load(read_source("specs/kernels/FlashAttentionFwdOp.kir"));
  std::mt19937_64 g(20);
  for (bool causal : {false, true})
    for (bool bias : {false, true})
      for (const auto& s : std::vector<std::array<int64_t, 6>>{{1, 1, 2, 0, 2, 2}, {2, 2, 3, 5, 4, 3}}) {
        INFO("B=" << s[0] << " H=" << s[1] << " S=" << s[2] << " SK=" << s[3] << " causal=" << causal << " bias=" << bias);
        btest::differential(*m, "FlashAttentionFwdOp__f32", fwd_args(g, s, causal, bias));
      }
}

namespace {

// The built-in rows with every region_block replaced by `b` (the rows' other values kept).
std::string rows_with_region_block(int64_t b) {
  std::string t(cpu::default_config_rows_text());
  const std::string key = "region_block: ";
  for (size_t p = t.find(key); p != std::string::npos; p = t.find(key, p + 1)) {
    const size_t e = t.find_first_not_of("0123456789", p + key.size());
    t.replace(p + key.size(), e - p - key.size(), std::to_string(b));
  }
  return t;
}

// The region_fold of tests/kir/valid/region_fold_segments.kir (summarize = the slice's sum,
// combine(a, b) = 100·a + b: the result spells the segmentation) over 1..n, with a symbolic and
// a constant extent.
const char* kBlockFolds = R"(
kernel @fold_k(%x: In<i32[N]>, %o: Out<i32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %xv = view.load(%x, %rel) : i32[N]
  %id = const() {value = 7} : i32
  %s = region_fold(%xv, %id) {axis = 0, combine = @seg_shift, segments = [1, 1, 0], summarize = @seg_sum} : i32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %s)
}

kernel @fold10_k(%x: In<i32[10]>, %o: Out<i32[1]>) {
  %zero = const() {value = 0} : index
  %ten = const() {value = 10} : index
  %d = domain(%zero, %ten) : domain<10>
  %i = indices(%d) : index[10]
  %rel = relation(%i) : relation<1 -> [10]>
  %xv = view.load(%x, %rel) : i32[10]
  %id = const() {value = 7} : i32
  %s = region_fold(%xv, %id) {axis = 0, combine = @seg_shift, segments = [1, 1, 0], summarize = @seg_sum} : i32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%o, %r0, %s)
}
)";

double fold_of(const Module& m, const std::string& kernel, int64_t n) {
  std::vector<double> x;
  for (int64_t i = 1; i <= n; ++i) x.push_back(static_cast<double>(i));
  auto out = btest::differential(m, kernel, {{"x", btest::view(DType::I32, {n}, x)}, {"o", btest::view(DType::I32, {1})}});
  return btest::values(btest::out_view(out, "o")).at(0);
}

}  // namespace

TEST_CASE("[L9.1] region_fold.blocks segments the source in blocks of region_block rows (hand-computed)",
          "[C3][C4][C6][L9.1]") {
  auto m = btest::load(read_source("tests/kir/valid/region_fold_segments.kir") + kBlockFolds);
  {
    btest::WithRows rows(rows_with_region_block(4));
    // 1..10 in blocks of 4: 10, 26, 19 -> (10·100 + 26)·100 + 19.
    CHECK(fold_of(*m, "fold_k", 10) == 102619);
    CHECK(fold_of(*m, "fold10_k", 10) == 102619);
    // Whole blocks only: 1..8 -> 10, 26 -> 1026; one block: 1..4 -> 10; shorter than a block: 1..3 -> 6.
    CHECK(fold_of(*m, "fold_k", 8) == 1026);
    CHECK(fold_of(*m, "fold_k", 4) == 10);
    CHECK(fold_of(*m, "fold_k", 3) == 6);
    CHECK(fold_of(*m, "fold_k", 0) == 7);
  }
  {
    btest::WithRows rows(rows_with_region_block(3));
    // Blocks of 3: 6, 15, 24, 10.
    CHECK(fold_of(*m, "fold_k", 10) == 6152410);
    CHECK(fold_of(*m, "fold10_k", 10) == 6152410);
  }
  {
    btest::WithRows rows(rows_with_region_block(0));  // the whole source
    CHECK(fold_of(*m, "fold_k", 10) == 55);
    CHECK(fold_of(*m, "fold10_k", 10) == 55);
  }
}

TEST_CASE("[L9.7] [L9.1] flash attention in key blocks (region_fold.blocks) agrees bit for bit on every tail",
          "[C3][C4][C6][L9.7][L9.1]") {
  auto m = btest::load(read_source("examples/flash_attention.kir"));
  std::mt19937_64 g(21);
  for (int64_t b : {1, 4}) {
    btest::WithRows rows(rows_with_region_block(b));
    // n < B, n = B, B < n < 2B, whole blocks only, whole blocks and a tail.
    for (int64_t n : {int64_t{0}, b - 1, b, b + 1, 2 * b, 3 * b + 2}) {
      if (n < 0) continue;
      const int64_t mq = 3, d = 4, e = 3;
      INFO("B=" << b << " M=" << mq << " N=" << n);
      btest::differential(*m, "flash_attention",
                          {{"q", btest::view(DType::F32, {mq, d}, uniform(g, mq * d, -3, 3))},
                           {"k", btest::view(DType::F32, {n, d}, uniform(g, n * d, -3, 3))},
                           {"v", btest::view(DType::F32, {n, e}, uniform(g, n * e))},
                           {"o", btest::view(DType::F32, {mq, e})},
                           {"scale", f32(0.5)}});
    }
  }
}

TEST_CASE("[L9.7] FlashAttentionFwdOp in key blocks agrees bit for bit (causal, bias, tails)", "[C3][C4][C6][L9.7][L9.1]") {
  auto m = btest::load(read_source("specs/kernels/FlashAttentionFwdOp.kir"));
  btest::WithRows rows(rows_with_region_block(4));
  std::mt19937_64 g(22);
  for (bool causal : {false, true})
    for (const auto& s : std::vector<std::array<int64_t, 6>>{{1, 2, 3, 9, 4, 3}, {2, 1, 5, 8, 2, 2}}) {
      INFO("B=" << s[0] << " H=" << s[1] << " S=" << s[2] << " SK=" << s[3] << " causal=" << causal);
      btest::differential(*m, "FlashAttentionFwdOp__f32", fwd_args(g, s, causal, true));
    }
}

TEST_CASE("region_fold.blocks expansion (golden): the first block, a loop over the further blocks, the tail under a test",
          "[C4][C6][L9.1]") {
  auto m = btest::load(read_source("tests/kir/valid/region_fold_segments.kir") + kBlockFolds);
  btest::WithRows rows(rows_with_region_block(4));
  const std::string ir = btest::ir_after(*m, "fold_k", "", "construct");
  INFO(ir);
  // n < B: the whole source; else block 0, blocks 1 .. n/B - 1 in a loop, the tail when n mod B != 0.
  CHECK(ir.find("if lt.index(%N, 4)") != std::string::npos);
  CHECK(ir.find("loop %rblk = 1 to floordiv.index(%N, 4) step 1") != std::string::npos);
  CHECK(ir.find("if ne.index(sub.index(%N, mul.index(floordiv.index(%N, 4), 4)), 0)") != std::string::npos);
  // The constant extent decides at construction: no run-time test, one loop step (block 1), a tail of 2.
  const std::string ir10 = btest::ir_after(*m, "fold10_k", "", "construct");
  CAPTURE(ir10);
  CHECK(ir10.find("if ") == std::string::npos);
  CHECK(ir10.find("loop %rblk = 1 to 2 step 1") != std::string::npos);
  CHECK(ir10.find("load %xv#3[add.index(%c0#14, 8)]") != std::string::npos);
}
