// Reassociation envelope: random orders and parenthesizations evaluated natively (f32, with and
// without FMA; f16 through a test-side rounding routine) must land inside the envelope, and the
// envelope's exact value must equal an exact Boost cpp_bin_float sum rounded by test code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "numerics/envelope.h"
#include "tests/numerics/math_reference.h"

using namespace kir;
using num::Envelope;

namespace {

using Exact = test::mp::number<test::mp::cpp_bin_float<4600, test::mp::digit_base_2>, test::mp::et_off>;

// RNE of a double into (p, emin, emax) by scaling, independent of numerics/format.
double round_fmt(double v, const test::Fmt& f) {
  if (v == 0 || !std::isfinite(v)) return v;
  int e;
  std::frexp(v, &e);
  const int q = std::max(e - 1, f.emin) - (f.p - 1);
  double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  const double maxv = std::ldexp(double((uint64_t{1} << f.p) - 1), f.emax - (f.p - 1));
  if (std::fabs(r) > maxv) r = std::copysign(INFINITY, v);
  return r;
}

std::vector<double> random_terms(std::mt19937_64& rng, int n, const test::Fmt& f, int spread) {
  std::uniform_real_distribution<double> m(-1, 1);
  std::uniform_int_distribution<int> ex(-spread, spread);
  std::vector<double> t(n);
  for (auto& x : t) x = round_fmt(std::ldexp(m(rng), ex(rng)), f);
  if (n > 3) t[n - 1] = round_fmt(-std::accumulate(t.begin(), t.end() - 1, 0.0), f);  // cancellation
  return t;
}

// Evaluate terms[lo, hi) with a random binary tree; add(a, b) is one rounded addition.
double random_tree(std::mt19937_64& rng, const std::vector<double>& t, size_t lo, size_t hi,
                   const std::function<double(double, double)>& add) {
  if (hi - lo == 1) return t[lo];
  std::uniform_int_distribution<size_t> cut(lo + 1, hi - 1);
  const size_t m = cut(rng);
  return add(random_tree(rng, t, lo, m, add), random_tree(rng, t, m, hi, add));
}

Exact exact_sum(const std::vector<double>& t) {
  Exact s = 0;
  for (double x : t) s += Exact(x);
  return s;
}

double exact_rounded(const Exact& s, const test::Fmt& f) {
  return *test::round_ref(s, f, 0, 100000, true);
}

}  // namespace

TEST_CASE("sum envelope holds for random orders in f32 and f16", "[L7.3][numerics]") {
  std::mt19937_64 rng(1);
  for (DType d : {DType::F32, DType::F16}) {
    const test::Fmt f = test::fmt_of(d);
    auto add = [&](double a, double b) {
      return d == DType::F32 ? double(float(a) + float(b)) : round_fmt(a + b, f);  // a+b exact in double
    };
    long outside = 0, wrong_exact = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const int n = 2 + int(rng() % 200);
      auto t = random_terms(rng, n, f, d == DType::F32 ? 30 : 6);
      const Envelope e = num::sum_envelope(t, d);
      if (e.exact_rounded != exact_rounded(exact_sum(t), f)) ++wrong_exact;
      for (int order = 0; order < 10; ++order) {
        std::shuffle(t.begin(), t.end(), rng);
        const double r = random_tree(rng, t, 0, t.size(), add);
        if (!e.contains(r)) ++outside;
      }
    }
    INFO(kir::name(d));
    CHECK(outside == 0);
    CHECK(wrong_exact == 0);
  }
}

TEST_CASE("dot envelope holds with and without FMA", "[L10.4][numerics]") {
  std::mt19937_64 rng(2);
  const test::Fmt f32 = test::fmt_of(DType::F32);
  long outside = 0, wrong_exact = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + int(rng() % 128);
    auto a = random_terms(rng, n, f32, 20), b = random_terms(rng, n, f32, 20);
    const Envelope e = num::dot_envelope(a, b, DType::F32);
    std::vector<double> prods(n);
    for (int i = 0; i < n; ++i) prods[i] = a[i] * b[i];  // exact in double
    if (e.exact_rounded != exact_rounded(exact_sum(prods), f32)) ++wrong_exact;
    // rounded products, random tree
    std::vector<double> rp(n);
    for (int i = 0; i < n; ++i) rp[i] = double(float(a[i]) * float(b[i]));
    auto add = [](double x, double y) { return double(float(x) + float(y)); };
    if (!e.contains(random_tree(rng, rp, 0, n, add))) ++outside;
    // FMA chain in a random order
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::shuffle(idx.begin(), idx.end(), rng);
    float acc = 0;
    for (int i : idx) acc = std::fmaf(float(a[i]), float(b[i]), acc);
    if (!e.contains(acc)) ++outside;
  }
  CHECK(outside == 0);
  CHECK(wrong_exact == 0);
}

TEST_CASE("f64 dot envelope exact value", "[L10.4][numerics]") {
  std::mt19937_64 rng(3);
  const test::Fmt f64 = test::fmt_of(DType::F64);
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 1 + int(rng() % 64);
    std::vector<double> a(n), b(n);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < n; ++i) { a[i] = std::ldexp(u(rng), int(rng() % 200) - 100); b[i] = u(rng); }
    Exact s = 0;
    for (int i = 0; i < n; ++i) s += Exact(a[i]) * Exact(b[i]);
    const Envelope e = num::dot_envelope(a, b, DType::F64);
    CHECK(e.exact_rounded == exact_rounded(s, f64));
    double acc = 0;
    for (int i = 0; i < n; ++i) acc = std::fma(a[i], b[i], acc);
    CHECK(e.contains(acc));
  }
}

TEST_CASE("scan envelopes hold for order-preserving evaluations", "[L8.1][numerics]") {
  std::mt19937_64 rng(4);
  const test::Fmt f = test::fmt_of(DType::F32);
  auto add = [](double x, double y) { return double(float(x) + float(y)); };
  long outside = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 1 + int(rng() % 100);
    auto t = random_terms(rng, n, f, 25);
    for (bool reverse : {false, true}) {
      const auto env = num::scan_envelope(t, DType::F32, reverse);
      for (int k = 0; k < n; ++k) {
        const size_t lo = reverse ? size_t(k) : 0, hi = reverse ? size_t(n) : size_t(k) + 1;
        if (!env[k].contains(random_tree(rng, t, lo, hi, add))) ++outside;
      }
    }
  }
  CHECK(outside == 0);
}

TEST_CASE("envelope special cases", "[L7.3][numerics]") {
  const double mx = 0x1.fffffep127;
  const std::vector<double> ov = {mx, mx, -mx};
  const Envelope e = num::sum_envelope(ov, DType::F32);
  CHECK(e.may_overflow);
  CHECK(e.contains(INFINITY));
  CHECK(e.contains(mx));
  CHECK(e.exact_rounded == mx);
  const std::vector<double> nz = {-0.0, -0.0};
  CHECK(num::sum_envelope(nz, DType::F32).contains(-0.0));
  CHECK(!num::sum_envelope(nz, DType::F32).contains(0.0));
  const std::vector<double> mixed = {-0.0, 0.0};
  CHECK(num::sum_envelope(mixed, DType::F32).contains(0.0));
  CHECK(!num::sum_envelope(mixed, DType::F32).contains(-0.0));
  const std::vector<double> nan = {1.0, NAN};
  CHECK(num::sum_envelope(nan, DType::F32).contains(NAN));
  CHECK(!num::sum_envelope(nan, DType::F32).contains(1.0));
  const std::vector<double> infs = {INFINITY, -INFINITY};
  CHECK(num::sum_envelope(infs, DType::F32).is_nan);
  const std::vector<double> pinf = {INFINITY, 1.0};
  CHECK(num::sum_envelope(pinf, DType::F32).contains(INFINITY));
  CHECK(!num::sum_envelope(pinf, DType::F32).contains(1.0));
  const std::vector<double> empty;
  CHECK(num::sum_envelope(empty, DType::F32).contains(0.0));
  const std::vector<double> one = {0x1p-149};
  CHECK(num::sum_envelope(one, DType::F32).bound == 0);
  CHECK_THROWS(num::sum_envelope(one, DType::I32));
  // subnormal products: the underflow term makes flushed/rounded tiny products legal
  const std::vector<double> a = {0x1p-100, 0x1p-100}, b = {0x1p-60, -0x1p-61};
  const Envelope d = num::dot_envelope(a, b, DType::F32);
  CHECK(d.contains(0.0));
  CHECK(d.contains(0x1p-149));
}
