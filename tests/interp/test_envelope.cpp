// The envelope log (interp/envelope_log.h): for every executed reduce / scan / contract-family op,
// per result element the canonical value, the exact value rounded once, the rigorous bound and
// whether a candidate is legal. Expected envelopes are computed by hand from the formula in
// docs/numerics.md ("Reassociation envelope": bound = γ_k Σ|x_i| [+ n η (1 + γ_k) for products],
// γ_k = k u / (1 - k u), u = 2^-p); canonical values from an independent C++ float left fold.
#include <cmath>
#include <cstring>
#include <random>

#include "interp/envelope_log.h"
#include "ops_test.h"

using namespace kir;
using namespace kir::itest;
using interp::Uniqueness;

namespace {

const char* kSums = R"(
fn @sum(%x: f32[N]) -> f32 {
  %s = reduce.sum(%x) {axis = 0} : f32
  return(%s)
}

fn @sum_f16(%x: f16[N]) -> f32 {
  %s = reduce.sum(%x) {axis = 0} : f32
  return(%s)
}

fn @sum_i32(%x: i32[N]) -> i32 {
  %s = reduce.sum(%x) {axis = 0} : i32
  return(%s)
}

fn @max_f32(%x: f32[N]) -> f32 {
  %s = reduce.max(%x) {axis = 0} : f32
  return(%s)
}

fn @cumsum(%x: f32[N]) -> f32[N] {
  %p = cumsum(%x) {axis = 0} : f32[N]
  return(%p)
}

fn @dot(%a: f32[1, K], %b: f32[K, 1]) -> f32[1, 1] {
  %c = matmul(%a, %b) {acc_dtype = f32} : f32[1, 1]
  return(%c)
}
)";

const char* kGeneric = R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

fn @mul(%a: f32, %b: f32) -> f32 {
  %s = mul(%a, %b) : f32
  return(%s)
}

fn @sub(%a: f32, %b: f32) -> f32 {
  %s = sub(%a, %b) : f32
  return(%s)
}

fn @sum_count(%a: tuple<f32, i32>, %b: tuple<f32, i32>) -> tuple<f32, i32> {
  %as = tuple.get(%a) {index = 0} : f32
  %ac = tuple.get(%a) {index = 1} : i32
  %bs = tuple.get(%b) {index = 0} : f32
  %bc = tuple.get(%b) {index = 1} : i32
  %s = add(%bs, %as) : f32
  %c = add(%ac, %bc) : i32
  %r = tuple(%s, %c) : tuple<f32, i32>
  return(%r)
}

fn @product(%x: f32[N]) -> f32 {
  %one = const() {value = 1.0} : f32
  %p = reduce(%x, %one) {axes = [0], combine = @mul} : f32
  return(%p)
}

fn @fold_sub(%x: f32[N]) -> f32 {
  %z = const() {value = 0.0} : f32
  %p = reduce(%x, %z) {axes = [0], combine = @sub} : f32
  return(%p)
}

fn @sum_from(%x: f32[N], %h: f32) -> f32 {
  %p = reduce(%x, %h) {axes = [0], combine = @add} : f32
  return(%p)
}

fn @rev_exclusive(%x: f32[N]) -> f32[N] {
  %z = const() {value = 0.0} : f32
  %p = scan(%x, %z) {axis = 0, combine = @add, inclusive = false, reverse = true} : f32[N]
  return(%p)
}

fn @mean_parts(%x: f32[N], %n: i32[N]) -> tuple<f32, i32> {
  %src = tuple(%x, %n) : tuple<f32[N], i32[N]>
  %z = const() {value = 0.0} : f32
  %zi = const() {value = 0} : i32
  %id = tuple(%z, %zi) : tuple<f32, i32>
  %r = reduce(%src, %id) {axes = [0], combine = @sum_count} : tuple<f32, i32>
  return(%r)
}

fn @batched(%a: f32[B, 1, K], %b: f32[B, K, 1]) -> f32[B, 1, 1] {
  %c = contract(%a, %b) {batch = [[0, 0]], reduce = [[2, 1]]} : f32[B, 1, 1]
  return(%c)
}
)";

// Runs helper `fn` with an envelope log; returns the log.
interp::EnvelopeLog run_logged(const Module& m, const std::string& fn, const std::vector<interp::Value>& args,
                               std::vector<interp::Value>* results = nullptr) {
  interp::EnvelopeLog log;
  interp::Options o;
  o.envelopes = &log;
  auto r = interp::Interpreter(m, o).call_helper(fn, args);
  if (results) *results = r;
  return log;
}

interp::Value f32s(const std::vector<double>& v) { return interp::Value(tensor(DType::F32, {static_cast<int64_t>(v.size())}, v)); }
uint64_t f32b(double v) { return num::from_double(v, DType::F32); }
const double kE23 = std::ldexp(1.0, -23), kE24 = std::ldexp(1.0, -24);

}  // namespace

TEST_CASE("[L7.3] f32 sum 1 + 2^-24 + 2^-24: canonical 1, exact 1 + 2^-23, hand-computed bound", "[interp][L7.3]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "sum", {f32s({1, kE24, kE24})});
  REQUIRE(log.records.size() == 1);
  const auto& c = log.records[0].components.at(0);
  CHECK(c.kind == Uniqueness::Envelope);
  CHECK(c.dtype == DType::F32);
  REQUIRE(c.elements.size() == 1);
  const auto& e = c.elements[0];
  // left fold: 1 + 2^-24 is a tie between 1 and 1 + 2^-23 -> even: 1, twice.
  CHECK(e.canonical == f32b(1));
  CHECK(e.env.exact_rounded == 1 + kE23);
  // k = n - 1 = 2, u = 2^-24: γ2 = 2^-23 / (1 - 2^-23); A = 1 + 2^-23.
  // bound = 2^-23 (1 + ε)/(1 - ε), ε = 2^-23, = 2^-23 + 2^-45 + 2^-68 + ... (rounded up)
  CHECK(e.env.bound > kE23 + std::ldexp(1.0, -45));
  CHECK(e.env.bound < kE23 + std::ldexp(1.0, -45) + std::ldexp(1.0, -66));
  CHECK(e.env.lo < 1.0);  // s - bound = 1 - 2^-45 - ...
  CHECK(e.inside);
  CHECK(log.check(0, 0, f32b(1)));
  CHECK(log.check(0, 0, f32b(1 + kE23)));
  CHECK(log.check(0, 0, f32b(1 + 2 * kE23)));   // hi = 1 + 2^-22 + 2^-45 + ...
  CHECK_FALSE(log.check(0, 0, f32b(1 + 3 * kE23)));
  CHECK_FALSE(log.check(0, 0, f32b(1 - kE24)));  // the f32 below 1 is under lo
  CHECK(log.records[0].max_bound_ulps() == Approx(1.0).epsilon(1e-6));  // ulp(1 + 2^-23) = 2^-23
  CHECK(log.line(0).find("reduce %s: 1 elements, envelope, max bound 1 ulp (f32), canonical inside envelope: yes") != std::string::npos);
}

TEST_CASE("[L7.3] an integer sum is unique (wrapping)", "[interp][L7.3]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "sum_i32", {interp::Value(tensor(DType::I32, {3}, {2147483647, 1, 5}))});
  REQUIRE(log.records.size() == 1);
  const auto& c = log.records[0].components.at(0);
  CHECK(c.kind == Uniqueness::Unique);
  CHECK(c.reason.find("integer add") != std::string::npos);
  // 2^31 - 1 + 1 wraps to -2^31; + 5 = -2147483643
  CHECK(log.check_value(0, 0, -2147483643.0));
  CHECK_FALSE(log.check_value(0, 0, -2147483642.0));
  CHECK(log.records[0].canonical_inside());
}

TEST_CASE("[L7.3] max is unique; a NaN result accepts any NaN", "[interp][L7.3]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "max_f32", {f32s({3, -1, 7})});
  REQUIRE(log.records.size() == 1);
  CHECK(log.records[0].components.at(0).kind == Uniqueness::Unique);
  CHECK(log.check_value(0, 0, 7));
  CHECK_FALSE(log.check_value(0, 0, 7 - std::ldexp(1.0, -21)));
  auto n = run_logged(*m, "max_f32", {f32s({3, std::nan(""), 7})});
  CHECK(n.check(0, 0, 0x7fc00000u));
  CHECK(n.check(0, 0, 0xffc00001u));  // another NaN payload and sign
  CHECK_FALSE(n.check(0, 0, f32b(7)));
}

TEST_CASE("[L7.3] f16 source reduced with the f32 accumulator: the envelope is in f32", "[interp][L7.3][L7.5]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "sum_f16", {interp::Value(tensor(DType::F16, {3}, {2048, 1, 1}))});
  REQUIRE(log.records.size() == 1);  // the cast is not a structured op
  const auto& c = log.records[0].components.at(0);
  CHECK(c.dtype == DType::F32);
  CHECK(c.kind == Uniqueness::Envelope);
  const auto& e = c.elements.at(0);
  CHECK(e.env.exact_rounded == 2050);
  // γ2(f32) A = 2^-23/(1 - 2^-23) * 2050 ≈ 2.44e-4 (in f16, u = 2^-11, it would be 2^-10 * 2050)
  CHECK(e.env.bound == Approx(2050 * kE23).epsilon(1e-6));
  CHECK(log.check_value(0, 0, 2050));
  // an f16 accumulation (2048 + 1 -> 2048 by ties-to-even, twice) is not a legal result
  CHECK_FALSE(log.check_value(0, 0, 2048));
}

TEST_CASE("[L8.1] cumsum: one envelope per prefix", "[interp][L8.1][L7.3]") {
  auto m = load_surface(kSums);
  std::vector<interp::Value> res;
  auto log = run_logged(*m, "cumsum", {f32s({1, kE24, kE24, 1})}, &res);
  REQUIRE(log.records.size() == 1);
  const auto& c = log.records[0].components.at(0);
  CHECK(c.kind == Uniqueness::Envelope);
  REQUIRE(c.elements.size() == 4);
  // canonical prefixes 1, 1, 1, 2 (ties to even at every step)
  CHECK(tvalues(res[0]) == std::vector<double>{1, 1, 1, 2});
  // prefix 0 = {1}: k = 0, bound 0
  CHECK(c.elements[0].env.exact_rounded == 1);
  CHECK(c.elements[0].env.bound == 0);
  // prefix 1 = 1 + 2^-24, rounds (tie) to 1; bound γ1 (1 + 2^-24) = 2^-24 (1 + 2^-24)/(1 - 2^-24)
  CHECK(c.elements[1].env.exact_rounded == 1);
  CHECK(c.elements[1].env.bound == Approx(kE24 * (1 + kE24) / (1 - kE24)).epsilon(1e-12));
  // prefix 2 = 1 + 2^-23 exactly
  CHECK(c.elements[2].env.exact_rounded == 1 + kE23);
  // prefix 3 = 2 + 2^-23: tie between 2 and 2 + 2^-22 -> 2; bound γ3 (2 + 2^-23)
  CHECK(c.elements[3].env.exact_rounded == 2);
  CHECK(c.elements[3].env.bound == Approx(3 * kE24 / (1 - 3 * kE24) * (2 + kE23)).epsilon(1e-12));
  CHECK(log.records[0].canonical_inside());
  CHECK_FALSE(log.check(0, 0, f32b(1 + kE23)));  // a one-term prefix is exact
}

TEST_CASE("[L8.1] reverse exclusive scan: element p covers the terms after p; the last is the identity", "[interp][L8.1]") {
  auto m = load(kGeneric);
  auto log = run_logged(*m, "rev_exclusive", {f32s({1, 2, 3, 4})});
  const auto& c = log.records.at(0).components.at(0);
  REQUIRE(c.elements.size() == 4);
  CHECK(c.elements[0].env.exact_rounded == 9);
  CHECK(c.elements[1].env.exact_rounded == 7);
  CHECK(c.elements[2].env.exact_rounded == 4);
  CHECK(c.elements[3].env.exact_rounded == 0);
  CHECK(c.elements[2].env.bound == 0);  // one term
  CHECK(c.elements[3].env.bound == 0);  // no term: the identity
  CHECK(c.elements[1].env.bound == Approx(kE24 / (1 - kE24) * 7).epsilon(1e-12));  // {3, 4}: γ1 * 7
  CHECK(log.records[0].canonical_inside());
}

TEST_CASE("[L10.4] contract element: exact products, n roundings", "[interp][L10.4][L10.2]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "dot", {interp::Value(tensor(DType::F32, {1, 3}, {1, kE24, kE24})),
                                    interp::Value(tensor(DType::F32, {3, 1}, {1, 1, 1}))});
  REQUIRE(log.records.size() == 1);
  CHECK(log.records[0].op_name == "contract");
  const auto& e = log.records[0].components.at(0).elements.at(0);
  CHECK(e.canonical == f32b(1 + kE23));  // the interpreter rounds the exact sum once
  CHECK(e.env.exact_rounded == 1 + kE23);
  // k = n = 3: γ3 A + 3 η (1 + γ3), η = 2^-150: ≈ 3 2^-24 (1 + 2^-23)
  const double g3 = 3 * kE24 / (1 - 3 * kE24);
  CHECK(e.env.bound == Approx(g3 * (1 + kE23)).epsilon(1e-12));
  CHECK(e.env.bound >= g3 * (1 + kE23));
  CHECK(log.check_value(0, 0, 1));  // a left-to-right f32 evaluation
  CHECK_FALSE(log.check_value(0, 0, 1 + 4 * kE23));
}

TEST_CASE("[L10.4] batched contract: each element's envelope uses its own batch", "[interp][L10.4]") {
  auto m = load(kGeneric);
  // b0: [1, 2] . [3, 4] = 11; b1: [5, 6] . [7, 8] = 83
  auto log = run_logged(*m, "batched", {interp::Value(tensor(DType::F32, {2, 1, 2}, {1, 2, 5, 6})),
                                        interp::Value(tensor(DType::F32, {2, 2, 1}, {3, 4, 7, 8}))});
  const auto& c = log.records.at(0).components.at(0);
  REQUIRE(c.elements.size() == 2);
  CHECK(c.elements[0].env.exact_rounded == 11);
  CHECK(c.elements[1].env.exact_rounded == 83);
  CHECK(log.records[0].canonical_inside());
}

TEST_CASE("[L10.2] empty K: +0 is the only legal result", "[interp][L10.2]") {
  auto m = load_surface(kSums);
  auto log = run_logged(*m, "dot", {interp::Value(tensor(DType::F32, {1, 0}, {})), interp::Value(tensor(DType::F32, {0, 1}, {}))});
  CHECK(log.check(0, 0, 0));
  CHECK_FALSE(log.check(0, 0, 0x80000000u));
}

TEST_CASE("[L7.3] a floating multiply combine is canonical-only; so is an arbitrary combine", "[interp][L7.3]") {
  auto m = load(kGeneric);
  auto log = run_logged(*m, "product", {f32s({3, 0.1, 7})});
  const auto& c = log.records.at(0).components.at(0);
  CHECK(c.kind == Uniqueness::CanonicalOnly);
  CHECK(c.reason.find("floating mul is not associative") != std::string::npos);
  CHECK(log.records[0].canonical_inside());
  CHECK(log.line(0).find("canonical-only") != std::string::npos);
  // ((0 - 1) - 2) = -3: sub is not recognized
  auto s = run_logged(*m, "fold_sub", {f32s({1, 2})});
  CHECK(s.records.at(0).components.at(0).kind == Uniqueness::CanonicalOnly);
  CHECK(s.records[0].components[0].reason.find("sub") != std::string::npos);
  CHECK(s.check_value(0, 0, -3));
  CHECK_FALSE(s.check_value(0, 0, 1));
}

TEST_CASE("[L7.4] an add combine with a non-zero identity is canonical-only", "[interp][L7.3][L7.4]") {
  auto m = load(kGeneric);
  auto log = run_logged(*m, "sum_from", {f32s({1, 2}), interp::Value(f32(100))});
  const auto& c = log.records.at(0).components.at(0);
  CHECK(c.kind == Uniqueness::CanonicalOnly);
  CHECK(c.reason.find("identity") != std::string::npos);
  // identity -0 is neutral: an envelope; all terms -0 then require -0
  auto z = run_logged(*m, "sum_from", {f32s({-0.0, -0.0}), interp::Value(f32(-0.0))});
  CHECK(z.records.at(0).components.at(0).kind == Uniqueness::Envelope);
  CHECK(z.check(0, 0, 0x80000000u));
  CHECK_FALSE(z.check(0, 0, 0));
  // identity +0 (what reduce.sum uses): the left fold gives +0, a tree without the identity -0
  auto p = run_logged(*m, "sum_from", {f32s({-0.0, -0.0}), interp::Value(f32(0.0))});
  CHECK(p.check(0, 0, 0x80000000u));
  CHECK(p.check(0, 0, 0));
  CHECK(p.records[0].canonical_inside());
}

TEST_CASE("[L7.1] tuple accumulator: an envelope per float-add component, unique for the integer one", "[interp][L7.3][L7.1]") {
  auto m = load(kGeneric);
  auto log = run_logged(*m, "mean_parts", {f32s({1, kE24, kE24}), interp::Value(tensor(DType::I32, {3}, {1, 1, 1}))});
  const auto& r = log.records.at(0);
  REQUIRE(r.components.size() == 2);
  CHECK(r.components[0].path == ".0");
  CHECK(r.components[0].kind == Uniqueness::Envelope);  // add(%bs, %as): swapped operands still a sum
  CHECK(r.components[0].elements[0].env.exact_rounded == 1 + kE23);
  CHECK(r.components[1].path == ".1");
  CHECK(r.components[1].kind == Uniqueness::Unique);
  CHECK(log.check_value(0, 0, 3, 1));
  CHECK(r.kinds() == "envelope,unique");
  CHECK(r.canonical_inside());
}

TEST_CASE("[L11.1] scaled contract: envelope of the scaled exact products", "[interp][L11.1]") {
  auto m = load_surface(R"(
fn @e2m1_e4m3(%l: u8[M, G, 1], %ls: e8m0[M, G], %r: u8[G, 2, N], %rs: e8m0[N, G]) -> f32[M, N] {
  %c = scaled_matmul(%l, %ls, %r, %rs) {acc_dtype = f32, group_size = 2, lhs_format = e2m1, rhs_format = e4m3} : f32[M, N]
  return(%c)
}
)");
  // the hand-computed case of test_ops_scaled_sparse_quant.cpp: terms 2*1.5, 2*(-6), 2*(-6), 2*2
  // (lhs scale 2, rhs 1; lhs 1/2, rhs 4): exact -17 = 3 - 12 - 12 + 4; A = 31, k = n = 4
  auto u8 = [](const interp::Shape& s, std::vector<uint64_t> b) { return interp::Value(raw_tensor(DType::U8, s, std::move(b))); };
  auto e8 = [](const interp::Shape& s, std::vector<uint64_t> b) { return interp::Value(raw_tensor(DType::E8M0, s, std::move(b))); };
  auto log = run_logged(*m, "e2m1_e4m3", {u8({1, 2, 1}, {0xD2, 0x17}), e8({1, 2}, {128, 126}), u8({2, 2, 1}, {0x3C, 0x40, 0xB8, 0x48}),
                                          e8({1, 2}, {127, 129})});
  const auto& c = log.records.at(0).components.at(0);
  CHECK(log.records[0].op_name == "scaled_contract");
  CHECK(c.kind == Uniqueness::Envelope);
  CHECK(c.elements.at(0).env.exact_rounded == -17);
  CHECK(c.elements[0].env.bound == Approx(4 * kE24 / (1 - 4 * kE24) * 31).epsilon(1e-9));
  CHECK(log.records[0].canonical_inside());
}

TEST_CASE("[L12.1] sparse contract: envelope over the kept positions only", "[interp][L12.1][L10.4]") {
  auto m = load_surface(R"(
fn @s24(%c: f32[M, 4], %meta: u8[M, 4], %rhs: f32[8, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = two_of_four} : f32[M, N]
  return(%y)
}
)");
  // dense row [0, 2, 0, 5, -1, 0, 4, 0]; rhs column 0 = 1..8: 2*2 + 5*4 - 1*5 + 4*7 = 47, A = 57
  auto log = run_logged(*m, "s24", {interp::Value(tensor(DType::F32, {1, 4}, {2, 5, -1, 4})), interp::Value(tensor(DType::U8, {1, 4}, {1, 3, 0, 2})),
                                    interp::Value(tensor(DType::F32, {8, 1}, {1, 2, 3, 4, 5, 6, 7, 8}))});
  const auto& e = log.records.at(0).components.at(0).elements.at(0);
  CHECK(e.env.exact_rounded == 47);
  // 4 kept products (not 8): γ4 * 57
  CHECK(e.env.bound == Approx(4 * kE24 / (1 - 4 * kE24) * 57).epsilon(1e-9));
  CHECK(e.inside);
}

TEST_CASE("[L7.3] 1000 random f32 reductions: the canonical left fold is always inside the envelope", "[interp][L7.3]") {
  auto m = load_surface(kSums);
  interp::EnvelopeLog log;
  interp::Options o;
  o.envelopes = &log;
  interp::Interpreter it(*m, o);
  std::mt19937_64 rng(20240607);
  std::uniform_int_distribution<int> len(0, 40), ex(-30, 30), coin(0, 3);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  int runs = 0;
  for (int t = 0; t < 1000; ++t) {
    const int n = len(rng);
    std::vector<double> v;
    std::vector<float> fv;
    for (int i = 0; i < n; ++i) {
      float x = static_cast<float>(std::ldexp(mant(rng), ex(rng)) * (coin(rng) == 0 ? -1 : 1));
      if (coin(rng) == 0 && !fv.empty()) x = -fv[static_cast<size_t>(i) / 2];  // exact cancellations
      fv.push_back(x);
      v.push_back(x);
    }
    auto r = it.call_helper("sum", {f32s(v)});
    float fold = 0.0f;  // an independent canonical: C++ float left fold from +0
    for (float x : fv) fold += x;
    uint32_t fb;
    std::memcpy(&fb, &fold, 4);
    const auto& rec = log.records.at(static_cast<size_t>(t));
    CHECK(rec.components.at(0).elements.at(0).canonical == fb);
    CHECK(rec.canonical_inside());
    CHECK(log.check_value(static_cast<size_t>(t), 0, rec.components[0].elements[0].env.exact_rounded));
    runs += rec.canonical_inside();
  }
  CHECK(runs == 1000);
}

TEST_CASE("[L7.3] no log is kept unless Options::envelopes is set", "[interp][L7.3]") {
  auto m = load_surface(kSums);
  interp::Options o;
  CHECK(o.envelopes == nullptr);
  auto r = interp::Interpreter(*m, o).call_helper("sum", {f32s({1, 2})});
  CHECK(svalue(r[0]) == 3);
}
