// The three reference programs of seed 000 §9.7 (issue 4 item 5): examples/flash_attention.kir
// (region_fold), examples/causal_linear_attention.kir (region_scan) and
// examples/mamba_chunk_scan.kir (ordered carry over an explicit chunk domain), each run against
// its independent plain-loop formulation in examples/reference/*_loops.kir on empty,
// single-element, exact-multiple and tail shapes with seeded random inputs; exactly equal where
// every operation is exact (small-integer data), within a derived tolerance otherwise. The region
// programs are also evaluated under other segmentations: by the interpreter's law checking
// (bitwise, exact data) and by chaining their helpers over random slices in the test (any data).
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "tests/run_tool.h"
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

// f32 unit roundoff: one correctly rounded f32 operation has relative error at most u.
constexpr double kU = 1.0 / 16777216.0;

std::filesystem::path source_path(const std::string& rel) { return std::filesystem::path(KIR_SOURCE_DIR) / rel; }

std::unique_ptr<Module> load_example(const std::string& rel) {
  std::ifstream in(source_path(rel));
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return load(ss.str());
}

// Seeded inputs, already rounded to f32 so the C++ side sees the values the kernel sees.
std::vector<double> uniform(std::mt19937_64& g, int64_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<float>(d(g));
  return v;
}
std::vector<double> small_ints(std::mt19937_64& g, int64_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(g);
  return v;
}

interp::Value f32_tensor(const interp::Shape& shape, const std::vector<double>& vals) {
  interp::Tensor t;
  t.dtype = DType::F32;
  t.shape = shape;
  for (double v : vals) t.bits.push_back(num::from_double(v, DType::F32));
  return interp::Value(std::move(t));
}
interp::Value index_tensor(int64_t begin, int64_t end) {
  interp::Tensor t;
  t.dtype = DType::Index;
  t.shape = {end - begin};
  for (int64_t i = begin; i < end; ++i) t.bits.push_back(static_cast<uint64_t>(i));
  return interp::Value(std::move(t));
}
std::vector<double> tensor_values(const interp::Value& v) {
  std::vector<double> out;
  for (uint64_t b : v.tensor().bits) out.push_back(num::to_double(b, DType::F32));
  return out;
}
// Rows [b, e) of a row-major matrix with `cols` columns.
std::vector<double> rows(const std::vector<double>& m, int64_t cols, int64_t b, int64_t e) {
  return {m.begin() + b * cols, m.begin() + e * cols};
}

// A random segmentation of [0, n) into contiguous non-empty slices (each boundary with p = 1/3).
std::vector<std::pair<int64_t, int64_t>> random_segments(std::mt19937_64& g, int64_t n) {
  std::vector<std::pair<int64_t, int64_t>> segs;
  int64_t begin = 0;
  for (int64_t i = 1; i < n; ++i)
    if (g() % 3 == 0) segs.push_back({begin, i}), begin = i;
  if (n > 0) segs.push_back({begin, n});
  return segs;
}

// |got - want| <= tol[i] for every element (tol of size 1 applies to all); reports the worst.
void check_close(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& tol,
                 const std::string& what) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  size_t at = 0;
  bool ok = true;
  for (size_t i = 0; i < got.size(); ++i) {
    const double t = tol.size() == 1 ? tol[0] : tol[i];
    const double err = std::fabs(got[i] - want[i]);
    if (!(err <= t)) ok = false;
    if (!(err <= worst)) worst = err, at = i;
  }
  INFO(what << ": worst |difference| " << worst << " at element " << at);
  CHECK(ok);
}

// ---------------------------------------------------------------------------------------------
// Flash attention: O[M, E] = softmax_rows(scale * Q[M, D] K[N, D]^T) V[N, E].
struct Attention {
  int64_t m, n, d, e;
  std::vector<double> q, k, v;
  double scale;
};

Attention random_attention(std::mt19937_64& g, int64_t m, int64_t n, int64_t d, int64_t e) {
  return {m, n, d, e, uniform(g, m * d, -1, 1), uniform(g, n * d, -1, 1), uniform(g, n * e, -1, 1),
          static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)))};
}

std::vector<double> run_attention(const Module& mod, const Attention& a, interp::Options opts = {},
                                  interp::LawReport* laws = nullptr) {
  auto o = view(DType::F32, {a.m, a.e});
  interp::Interpreter it(mod, opts);
  std::map<std::string, interp::KernelArg> args;
  args["q"] = view(DType::F32, {a.m, a.d}, a.q);
  args["k"] = view(DType::F32, {a.n, a.d}, a.k);
  args["v"] = view(DType::F32, {a.n, a.e}, a.v);
  args["o"] = o;
  args["scale"] = f32(a.scale);
  it.run_kernel("flash_attention", args);
  if (laws) *laws = it.law_report();
  return values(o);
}

// The attention in double precision straight from the formula (two-pass softmax).
std::vector<double> attention_double(const Attention& a) {
  std::vector<double> o(static_cast<size_t>(a.m * a.e), 0.0);
  for (int64_t i = 0; i < a.m; ++i) {
    std::vector<double> s(static_cast<size_t>(a.n));
    double mx = -INFINITY;
    for (int64_t j = 0; j < a.n; ++j) {
      double dot = 0;
      for (int64_t t = 0; t < a.d; ++t) dot += a.q[i * a.d + t] * a.k[j * a.d + t];
      s[j] = dot * a.scale;
      mx = std::max(mx, s[j]);
    }
    double l = 0;
    for (int64_t j = 0; j < a.n; ++j) l += std::exp(s[j] - mx);
    for (int64_t c = 0; c < a.e; ++c) {
      double acc = 0;
      for (int64_t j = 0; j < a.n; ++j) acc += std::exp(s[j] - mx) * a.v[j * a.e + c];
      o[i * a.e + c] = a.n > 0 ? acc / l : 0.0;
    }
  }
  return o;
}

// Tolerance between two f32 evaluations of attention (or one and the exact value). A score
// x = scale * q.k carries an absolute error of at most ~(D + 2) u |scale| sum|q||k| <= (D + 2) u X
// with X = max over rows of scale * |q| |k| (|q_t|, |k_t| <= 1: X <= D * scale); exp turns it
// into a relative error of the same size on every weight, shifted by the row maximum (same bound
// again), plus (N + 4) u for exp, the sums of N terms and the final division. The output is a
// convex combination of V rows, so its absolute error is at most
// (2 (D + 2) X + N + 4) u max|v| per evaluation; two evaluations: twice that, with a factor 2
// of slack.
double attention_tol(const Attention& a) {
  double vmax = 0;
  for (double x : a.v) vmax = std::max(vmax, std::fabs(x));
  const double x_bound = static_cast<double>(a.d) * std::fabs(a.scale);
  return 4.0 * (2.0 * static_cast<double>(a.d + 2) * x_bound + static_cast<double>(a.n + 4)) * kU * std::max(vmax, 1e-30);
}

// ---------------------------------------------------------------------------------------------
// Causal linear attention: o_t = q_t S_t, S_t = S_0 + sum_{s<=t} k_s^T v_s.
struct Linear {
  int64_t l, d, e;
  std::vector<double> q, k, v, s0;
};

struct LinearOut {
  std::vector<double> o, s_final;
};

LinearOut run_linear(const Module& mod, const Linear& p, interp::Options opts = {}, interp::LawReport* laws = nullptr) {
  auto o = view(DType::F32, {p.l, p.e}), sf = view(DType::F32, {p.d, p.e});
  interp::Interpreter it(mod, opts);
  std::map<std::string, interp::KernelArg> args;
  args["q"] = view(DType::F32, {p.l, p.d}, p.q);
  args["k"] = view(DType::F32, {p.l, p.d}, p.k);
  args["v"] = view(DType::F32, {p.l, p.e}, p.v);
  args["s0"] = view(DType::F32, {p.d, p.e}, p.s0);
  args["o"] = o;
  args["s_final"] = sf;
  it.run_kernel("causal_linear_attention", args);
  if (laws) *laws = it.law_report();
  return {values(o), values(sf)};
}

// Per-element error scale of causal linear attention: every output is a sum of at most
// (L + 1) D terms q_td k_sd v_se (or q_td S0_de), each formed with at most 2 roundings and summed
// in some order: an f32 evaluation is within (L + D + 4) u of the exact value times the sum of
// the terms' magnitudes; two evaluations differ by at most twice that (factor 2 of slack).
LinearOut linear_tol(const Linear& p) {
  LinearOut t{std::vector<double>(static_cast<size_t>(p.l * p.e)), std::vector<double>(static_cast<size_t>(p.d * p.e))};
  std::vector<double> mag(p.s0.size());
  for (size_t i = 0; i < mag.size(); ++i) mag[i] = std::fabs(p.s0[i]);
  const double c = 4.0 * static_cast<double>(p.l + p.d + 4) * kU;
  for (int64_t s = 0; s < p.l; ++s) {
    for (int64_t i = 0; i < p.d; ++i)
      for (int64_t j = 0; j < p.e; ++j) mag[i * p.e + j] += std::fabs(p.k[s * p.d + i] * p.v[s * p.e + j]);
    for (int64_t j = 0; j < p.e; ++j) {
      double m = 0;
      for (int64_t i = 0; i < p.d; ++i) m += std::fabs(p.q[s * p.d + i]) * mag[i * p.e + j];
      t.o[s * p.e + j] = c * m + 1e-30;
    }
  }
  for (size_t i = 0; i < mag.size(); ++i) t.s_final[i] = c * mag[i] + 1e-30;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Mamba: h_t = a_t h_{t-1} + b_t^T x_t, y_t = c_t h_t.
struct Ssm {
  int64_t l, p, e;
  std::vector<double> x, a, b, c, h0;
};

struct SsmOut {
  std::vector<double> y, h_final;
};

std::map<std::string, interp::KernelArg> ssm_args(const Ssm& s, int64_t chunk) {
  std::map<std::string, interp::KernelArg> args;
  args["x"] = view(DType::F32, {s.l, s.e}, s.x);
  args["a"] = view(DType::F32, {s.l}, s.a);
  args["b"] = view(DType::F32, {s.l, s.p}, s.b);
  args["c"] = view(DType::F32, {s.l, s.p}, s.c);
  args["h0"] = view(DType::F32, {s.p, s.e}, s.h0);
  args["y"] = view(DType::F32, {s.l, s.e});
  args["h_final"] = view(DType::F32, {s.p, s.e});
  args["chunk"] = idx(chunk);
  return args;
}

SsmOut run_ssm(const Module& mod, const Ssm& s, int64_t chunk) {
  auto args = ssm_args(s, chunk);
  interp::Interpreter(mod).run_kernel("mamba_chunk_scan", args);
  return {values(std::get<interp::HostView>(args["y"])), values(std::get<interp::HostView>(args["h_final"]))};
}

// With |a_t| <= 1, h_t is a sum of at most t + 1 terms (decay product) * b_s x_s or * h0, each
// formed with at most L + 2 roundings (the scan's decay products, the b x product, the final
// a h + u), and summed in some order: error <= (2L + 4) u times the sum of their magnitudes
// H = |h0| + sum |b_s x_s|; y_t adds P more terms and roundings. Two evaluations: twice that,
// factor 2 of slack.
SsmOut ssm_tol(const Ssm& s) {
  SsmOut t{std::vector<double>(static_cast<size_t>(s.l * s.e)), std::vector<double>(static_cast<size_t>(s.p * s.e))};
  std::vector<double> mag(s.h0.size());
  for (size_t i = 0; i < mag.size(); ++i) mag[i] = std::fabs(s.h0[i]);
  const double c = 4.0 * static_cast<double>(2 * s.l + s.p + 6) * kU;
  for (int64_t r = 0; r < s.l; ++r) {
    for (int64_t i = 0; i < s.p; ++i)
      for (int64_t j = 0; j < s.e; ++j) mag[i * s.e + j] += std::fabs(s.b[r * s.p + i] * s.x[r * s.e + j]);
    for (int64_t j = 0; j < s.e; ++j) {
      double m = 0;
      for (int64_t i = 0; i < s.p; ++i) m += std::fabs(s.c[r * s.p + i]) * mag[i * s.e + j];
      t.y[r * s.e + j] = c * m + 1e-30;
    }
  }
  for (size_t i = 0; i < mag.size(); ++i) t.h_final[i] = c * mag[i] + 1e-30;
  return t;
}

}  // namespace

// ------------------------------------------------------------------------------- flash attention

TEST_CASE("[L9.7] flash attention with region_fold agrees with its plain-loop formulation", "[interp][L9.7][L9.1]") {
  auto fold = load_example("examples/flash_attention.kir");
  auto loops = load_example("examples/reference/flash_attention_loops.kir");
  std::mt19937_64 g(20240601);
  // (M, N, D, E): no query rows, one key, a few keys, 8 keys, 13 keys, 40 keys.
  const std::vector<std::array<int64_t, 4>> shapes = {{0, 5, 3, 2}, {1, 1, 1, 1}, {3, 1, 4, 2},
                                                      {4, 8, 4, 3}, {3, 13, 5, 2}, {2, 40, 8, 4}};
  for (const auto& s : shapes) {
    Attention a = random_attention(g, s[0], s[1], s[2], s[3]);
    INFO("M=" << a.m << " N=" << a.n << " D=" << a.d << " E=" << a.e);
    auto got = run_attention(*fold, a);
    auto want = run_attention(*loops, a);
    check_close(got, want, {attention_tol(a)}, "region_fold vs loops");
  }
}

TEST_CASE("[L9.7] flash attention with zero keys takes the identity path: every output is 0", "[interp][L9.7][L9.1]") {
  // region_fold of an empty source returns the identity (m = -inf, l = 0, acc = 0); the kernel
  // maps l = 0 to the output 0. The loop formulation never enters its key loops: the same 0.
  auto fold = load_example("examples/flash_attention.kir");
  auto loops = load_example("examples/reference/flash_attention_loops.kir");
  std::mt19937_64 g(7);
  Attention a = random_attention(g, 3, 0, 4, 2);
  const std::vector<double> zeros(6, 0.0);
  CHECK(run_attention(*fold, a) == zeros);
  CHECK(run_attention(*loops, a) == zeros);
}

TEST_CASE("[L9.7] flash attention is exact when every key scores the same", "[interp][L9.7][L9.3]") {
  // All keys equal: every score of a row equals the row maximum, so every weight is exp(0) = 1
  // exactly, every rescaling factor is exp(0) = 1, l = N and acc = sum of V's column, exact for
  // small integers. The output is that sum / N rounded once to f32 in all three evaluations; and
  // under the interpreter's law checking (per-element, two-segment and random segmentations,
  // compared bit for bit) no law of §9.1 breaks.
  auto fold = load_example("examples/flash_attention.kir");
  auto loops = load_example("examples/reference/flash_attention_loops.kir");
  std::mt19937_64 g(99);
  for (int64_t n : {1, 2, 5, 12}) {
    Attention a{3, n, 4, 2, small_ints(g, 3 * 4, -3, 3), {}, small_ints(g, n * 2, -4, 4), 0.5};
    auto krow = small_ints(g, 4, -2, 2);
    for (int64_t j = 0; j < n; ++j) a.k.insert(a.k.end(), krow.begin(), krow.end());
    std::vector<double> want;
    for (int64_t i = 0; i < a.m; ++i)
      for (int64_t c = 0; c < a.e; ++c) {
        double col = 0;
        for (int64_t j = 0; j < n; ++j) col += a.v[j * a.e + c];
        want.push_back(static_cast<float>(col) / static_cast<float>(n));
      }
    interp::Options opts;
    opts.check_laws = true;
    opts.law_seed = 11;
    interp::LawReport rep;
    INFO("N=" << n);
    CHECK(run_attention(*fold, a, opts, &rep) == want);
    CHECK(run_attention(*loops, a) == want);
    INFO(rep.str());
    CHECK(rep.ok());
    CHECK(rep.folds_checked == 1);
  }
}

TEST_CASE("[L9.7] flash attention summaries combined over random key segmentations give the same output",
          "[interp][L9.7][L9.1][L9.3]") {
  // The interpreter runs region_fold on the whole source; here the test evaluates other legal
  // segmentations itself: summarize_keys on each slice, merge_summaries left to right starting
  // from the identity, then acc / l — against the kernel's result, within attention_tol.
  auto fold = load_example("examples/flash_attention.kir");
  interp::Interpreter it(*fold);
  std::mt19937_64 g(31337);
  for (const auto& s : std::vector<std::array<int64_t, 4>>{{1, 1, 2, 2}, {2, 7, 3, 3}, {3, 13, 4, 2}}) {
    Attention a = random_attention(g, s[0], s[1], s[2], s[3]);
    const auto whole = run_attention(*fold, a);
    for (int trial = 0; trial < 5; ++trial) {
      auto segs = random_segments(g, a.n);
      if (trial == 0) {  // one key per segment
        segs.clear();
        for (int64_t j = 0; j < a.n; ++j) segs.push_back({j, j + 1});
      }
      interp::Value acc(interp::TupleV{{f32_tensor({a.m}, std::vector<double>(a.m, -INFINITY)),
                                        f32_tensor({a.m}, std::vector<double>(a.m, 0.0)),
                                        f32_tensor({a.m, a.e}, std::vector<double>(a.m * a.e, 0.0))}});
      for (auto [b, e] : segs) {
        auto sum = it.call_helper("summarize_keys", {f32_tensor({e - b, a.d}, rows(a.k, a.d, b, e)),
                                                     f32_tensor({e - b, a.e}, rows(a.v, a.e, b, e)),
                                                     f32_tensor({a.m, a.d}, a.q), f32(a.scale)});
        acc = it.call_helper("merge_summaries", {acc, sum.at(0)}).at(0);
      }
      const auto l = tensor_values(acc.tuple().elems[1]), num = tensor_values(acc.tuple().elems[2]);
      std::vector<double> o;
      for (int64_t i = 0; i < a.m; ++i)
        for (int64_t c = 0; c < a.e; ++c) o.push_back(static_cast<float>(num[i * a.e + c]) / static_cast<float>(l[i]));
      INFO("N=" << a.n << " segments=" << segs.size());
      check_close(o, whole, {attention_tol(a)}, "segmented vs whole");
    }
  }
}

TEST_CASE("[L9.7] flash attention matches the softmax formula evaluated in double precision", "[interp][L9.7]") {
  // Independent of KIR: O = softmax(scale Q K^T) V computed in C++ doubles (error ~1e-16,
  // negligible) against the interpreter's f32 result, within one f32 evaluation's bound.
  auto fold = load_example("examples/flash_attention.kir");
  std::mt19937_64 g(4242);
  Attention a = random_attention(g, 3, 6, 4, 5);
  check_close(run_attention(*fold, a), attention_double(a), {attention_tol(a) / 2}, "f32 kernel vs double formula");
}

// ---------------------------------------------------------------------- causal linear attention

Linear random_linear(std::mt19937_64& g, int64_t l, int64_t d, int64_t e) {
  return {l, d, e, uniform(g, l * d, -1, 1), uniform(g, l * d, -1, 1), uniform(g, l * e, -1, 1), uniform(g, d * e, -1, 1)};
}

TEST_CASE("[L9.7] causal linear attention with region_scan agrees with the recurrent loop formulation",
          "[interp][L9.7][L9.5]") {
  auto scan = load_example("examples/causal_linear_attention.kir");
  auto loops = load_example("examples/reference/causal_linear_attention_loops.kir");
  std::mt19937_64 g(5150);
  // (L, D, E): empty sequence, one position, then 4, 7 and 16 positions.
  for (const auto& s : std::vector<std::array<int64_t, 3>>{{0, 3, 2}, {1, 2, 2}, {4, 3, 2}, {7, 2, 3}, {16, 4, 4}}) {
    Linear p = random_linear(g, s[0], s[1], s[2]);
    INFO("L=" << p.l << " D=" << p.d << " E=" << p.e);
    auto got = run_linear(*scan, p), want = run_linear(*loops, p);
    auto tol = linear_tol(p);
    check_close(got.o, want.o, tol.o, "o");
    check_close(got.s_final, want.s_final, tol.s_final, "final state");
    if (p.l == 0) CHECK(got.s_final == p.s0);  // empty source: final state = initial state
  }
}

TEST_CASE("[L9.7] causal linear attention is exact on small integers, and lawful under segmentations",
          "[interp][L9.7][L9.5]") {
  // Integers in [-3, 3] with L <= 12, D = 3: every product and partial sum is an integer below
  // 2^12, exact in f32, so both formulations give identical bits, and the interpreter's law
  // checking (bitwise) finds every region_scan law of §9.2 satisfied.
  auto scan = load_example("examples/causal_linear_attention.kir");
  auto loops = load_example("examples/reference/causal_linear_attention_loops.kir");
  std::mt19937_64 g(8);
  for (int64_t l : {0, 1, 5, 12}) {
    Linear p{l, 3, 2, small_ints(g, l * 3, -3, 3), small_ints(g, l * 3, -3, 3), small_ints(g, l * 2, -3, 3),
             small_ints(g, 6, -3, 3)};
    interp::Options opts;
    opts.check_laws = true;
    opts.law_seed = 3;
    interp::LawReport rep;
    auto got = run_linear(*scan, p, opts, &rep), want = run_linear(*loops, p);
    INFO("L=" << l << "\n" << rep.str());
    CHECK(got.o == want.o);
    CHECK(got.s_final == want.s_final);
    CHECK(rep.ok());
    if (l > 1) CHECK(rep.scans_checked == 1);
  }
}

TEST_CASE("[L9.7] causal linear attention helpers chained over random segmentations give the same outputs",
          "[interp][L9.7][L9.5]") {
  // Another legal segmentation evaluated by the test: for each slice, emit(slice, state) gives
  // its outputs and state = apply(summarize(slice), state); the concatenated outputs and the
  // last state must match the kernel's (whole-source) run within linear_tol.
  auto scan = load_example("examples/causal_linear_attention.kir");
  interp::Interpreter it(*scan);
  std::mt19937_64 g(77);
  for (const auto& s : std::vector<std::array<int64_t, 3>>{{1, 2, 2}, {6, 3, 2}, {15, 2, 3}}) {
    Linear p = random_linear(g, s[0], s[1], s[2]);
    const auto whole = run_linear(*scan, p);
    const auto tol = linear_tol(p);
    for (int trial = 0; trial < 4; ++trial) {
      auto segs = random_segments(g, p.l);
      interp::Value state = f32_tensor({p.d, p.e}, p.s0);
      std::vector<double> o;
      for (auto [b, e] : segs) {
        std::vector<interp::Value> slice = {f32_tensor({e - b, p.d}, rows(p.q, p.d, b, e)),
                                            f32_tensor({e - b, p.d}, rows(p.k, p.d, b, e)),
                                            f32_tensor({e - b, p.e}, rows(p.v, p.e, b, e)), index_tensor(b, e)};
        auto emit_args = slice;
        emit_args.push_back(state);
        auto out = tensor_values(it.call_helper("emit_outputs", emit_args).at(0));
        o.insert(o.end(), out.begin(), out.end());
        auto t = it.call_helper("summarize_kv", slice).at(0);
        state = it.call_helper("apply_kv", {t, state}).at(0);
      }
      INFO("L=" << p.l << " segments=" << segs.size());
      check_close(o, whole.o, tol.o, "segmented outputs");
      check_close(tensor_values(state), whole.s_final, tol.s_final, "segmented final state");
    }
  }
}

// --------------------------------------------------------------------------- Mamba chunk scan

Ssm random_ssm(std::mt19937_64& g, int64_t l, int64_t p, int64_t e) {
  return {l, p, e, uniform(g, l * e, -1, 1), uniform(g, l, 0.5, 1.0), uniform(g, l * p, -1, 1), uniform(g, l * p, -1, 1),
          uniform(g, p * e, -1, 1)};
}

TEST_CASE("[L9.7] Mamba chunked state passing agrees with the plain recurrence for every chunk size",
          "[interp][L9.7][L6.1]") {
  auto chunked = load_example("examples/mamba_chunk_scan.kir");
  auto loops = load_example("examples/reference/mamba_chunk_scan_loops.kir");
  std::mt19937_64 g(1234);
  // L = 0 (no chunk), 1, 8 (a multiple of 4) and 10 (tails for chunk 3 and 4); chunk sizes 1,
  // 3, 4, L and L + 2 (one chunk shorter than its size).
  for (int64_t l : {0, 1, 8, 10}) {
    Ssm s = random_ssm(g, l, 3, 2);
    const auto want = run_ssm(*loops, s, 4);
    const auto tol = ssm_tol(s);
    for (int64_t chunk : {int64_t{1}, int64_t{3}, int64_t{4}, l, l + 2}) {
      if (chunk <= 0) continue;
      INFO("L=" << l << " chunk=" << chunk);
      auto got = run_ssm(*chunked, s, chunk);
      check_close(got.y, want.y, tol.y, "y");
      check_close(got.h_final, want.h_final, tol.h_final, "final state");
      if (l == 0) CHECK(got.h_final == s.h0);
    }
  }
}

TEST_CASE("[L9.7] Mamba chunked state passing is exact on dyadic data for every chunk size", "[interp][L9.7][L6.1]") {
  // Decays in {0.5, 1}, everything else integers in [-3, 3], L <= 10: every value is a multiple of
  // 2^-10 below 2^10 in magnitude (20 significant bits), so no operation rounds and the chunked
  // program equals the recurrence bit for bit, whatever the chunking.
  auto chunked = load_example("examples/mamba_chunk_scan.kir");
  auto loops = load_example("examples/reference/mamba_chunk_scan_loops.kir");
  std::mt19937_64 g(55);
  for (int64_t l : {1, 4, 9, 10}) {
    Ssm s{l, 2, 3, small_ints(g, l * 3, -3, 3), small_ints(g, l, 1, 2), small_ints(g, l * 2, -3, 3),
          small_ints(g, l * 2, -3, 3), small_ints(g, 6, -3, 3)};
    for (auto& a : s.a) a *= 0.5;
    const auto want = run_ssm(*loops, s, 1);
    for (int64_t chunk : {1, 2, 3, 4, 16}) {
      INFO("L=" << l << " chunk=" << chunk);
      auto got = run_ssm(*chunked, s, chunk);
      CHECK(got.y == want.y);
      CHECK(got.h_final == want.h_final);
    }
  }
}

TEST_CASE("[L9.7] Mamba chunk scan rejects a chunk size of 0 at its chunk domain", "[interp][L9.7][L3.1]") {
  auto chunked = load_example("examples/mamba_chunk_scan.kir");
  std::mt19937_64 g(1);
  Ssm s = random_ssm(g, 4, 2, 2);
  expect_error(*chunked, "mamba_chunk_scan", ssm_args(s, 0), interp::ErrorKind::InvalidValue,
               {"domain", "step must be positive, got 0"});
}

// ------------------------------------------------------------------------------------ kir run

TEST_CASE("[L9.7] kir run executes the reference programs and their loop formulations", "[interp][L9.7][cli]") {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"examples/flash_attention.kir --dim M=2 --dim N=9 --dim D=4 --dim E=3", "%o: f32[2, 3]"},
      {"examples/flash_attention.kir --dim N=0", "%o: f32[4, 3] min=0 max=0 nan=0"},
      {"examples/reference/flash_attention_loops.kir --dim M=2 --dim N=9", "%o: f32[2, 3]"},
      {"examples/causal_linear_attention.kir --dim L=11 --dim D=2 --dim E=2", "%o: f32[11, 2]"},
      {"examples/reference/causal_linear_attention_loops.kir --dim L=0", "%o: f32[0, 2]"},
      {"examples/mamba_chunk_scan.kir --dim L=10 --input chunk=3", "%y: f32[10, 2]"},
      {"examples/reference/mamba_chunk_scan_loops.kir", "%h_final: f32[3, 2]"},
  };
  for (const auto& [args, expect] : runs) {
    auto r = kir::test::run_kir("run " + source_path("").string() + args);
    INFO(args << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(expect) != std::string::npos);
  }
}
