// The math accuracy section of kir report (report/math/): each test checks one rule against a value
// derived independently of the section — known correctly rounded results, glibc recomputed in a
// loop of its own, the contract table's numbers from docs/numerics.md, the schema's required
// fields, and seeded backend mutants that must turn a PASS into a FAIL naming the worst input.
// Sample counts are small and most tests share one section (one compiled batch, cached).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <string>

#include "backends/cpu/mutants/mutants.h"
#include "numerics/contract.h"
#include "numerics/format.h"
#include "numerics/math.h"
#include "report/math/math_accuracy.h"
#include "report/math/math_glibc.h"
#include "report/math/math_inputs.h"
#include "report/math/math_kernels.h"
#include "report/math/math_stats.h"

using namespace kir;
using nlohmann::json;

namespace {

constexpr uint64_t kSamples = 2000;
constexpr uint64_t kSeed = 7;

report::MathOptions shared_options() {
  report::MathOptions o;
  o.samples = kSamples;
  o.seed = kSeed;
  o.functions = {"exp", "log", "sqrt", "abs", "lgamma", "i0"};
  o.dtypes = {DType::F16, DType::F32, DType::F64};
  o.threads = 2;
  return o;
}

// One section for most tests: 18 rows compiled as one batch.
const json& shared_section() {
  static const json s = report::math_section(shared_options());
  return s;
}

const json& row(const json& section, const std::string& fn, const std::string& dtype) {
  for (const auto& r : section["functions"])
    if (r["function"] == fn && r["dtype"] == dtype) return r;
  FAIL("no row " << fn << "/" << dtype);
  static const json none;
  return none;
}

// Sets KIR_MUTANT for a scope.
struct WithMutant {
  explicit WithMutant(const char* name) { setenv("KIR_MUTANT", name, 1); }
  ~WithMutant() { unsetenv("KIR_MUTANT"); }
  WithMutant(const WithMutant&) = delete;
  WithMutant& operator=(const WithMutant&) = delete;
};

// Independent f32 ulp distance: map bits onto a line ordered like the values (-0 = +0), subtract.
int64_t f32_line(uint32_t b) {
  const int64_t mag = b & 0x7fffffffu;
  return (b >> 31) ? -mag : mag;
}
uint64_t f32_ulps(uint32_t a, uint32_t b) {
  const int64_t d = f32_line(a) - f32_line(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}
bool f32_nan(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }

}  // namespace

TEST_CASE("math: the backend's kernels return known correctly rounded values", "[report]") {
  using report::math_kernel_name;
  const auto k = report::build_math_kernels({{num::MathFn::Exp, DType::F32}, {num::MathFn::Log, DType::F32},
                                             {num::MathFn::Sqrt, DType::F32}, {num::MathFn::Exp, DType::F64}});
  REQUIRE(k.errors.empty());
  const uint64_t one = 0x3f800000u, four = 0x40800000u;
  // exp(0) = 1, exp(1) = e = 2.71828182845904523... -> f32 0x402df854 (2.71828175, the nearer neighbour)
  CHECK(report::run_math_kernel(k, math_kernel_name(num::MathFn::Exp, DType::F32), DType::F32, {0, one}) ==
        std::vector<uint64_t>{one, 0x402df854u});
  CHECK(report::run_math_kernel(k, math_kernel_name(num::MathFn::Log, DType::F32), DType::F32, {one}) ==
        std::vector<uint64_t>{0});
  CHECK(report::run_math_kernel(k, math_kernel_name(num::MathFn::Sqrt, DType::F32), DType::F32, {four}) ==
        std::vector<uint64_t>{0x40000000u});
  // f64 exp(1) = 0x4005bf0a8b145769 (the double nearest e)
  CHECK(report::run_math_kernel(k, math_kernel_name(num::MathFn::Exp, DType::F64), DType::F64,
                                {0, 0x3ff0000000000000u}) == std::vector<uint64_t>{0x3ff0000000000000u, 0x4005bf0a8b145769u});
}

TEST_CASE("math: 16-bit rows are exhaustive, 32/64-bit rows count the samples and 12 special inputs", "[report]") {
  const json& s = shared_section();
  CHECK(s["samples"] == kSamples);
  CHECK(s["seed"] == kSeed);
  CHECK(s["functions"].size() == 18);
  for (const auto& r : s["functions"]) {
    INFO(r["function"] << "/" << r["dtype"]);
    if (r["dtype"] == "f16") {
      CHECK(r["inputs"] == "exhaustive");
      CHECK(r["count"] == 65536);
    } else {
      CHECK(r["inputs"] == "sampled");
      CHECK(r["count"] == kSamples + 12);
    }
  }
}

TEST_CASE("math: inputs are deterministic, start with the special values and cover the binades", "[report]") {
  const auto a = report::math_inputs(DType::F32, 5000, 1), b = report::math_inputs(DType::F32, 5000, 1),
             c = report::math_inputs(DType::F32, 5000, 2);
  CHECK(a.bits == b.bits);
  CHECK(a.bits != c.bits);
  CHECK_FALSE(a.exhaustive);
  REQUIRE(a.bits.size() == 5012);
  const std::vector<uint64_t> specials = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 1, 0x80000001u,
                                          0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x3f000000u};
  CHECK(std::vector<uint64_t>(a.bits.begin(), a.bits.begin() + 12) == specials);
  std::set<uint64_t> exponents;
  for (uint64_t x : a.bits) {
    CHECK(x <= 0xffffffffu);
    exponents.insert((x >> 23) & 0xff);
  }
  CHECK(exponents.size() > 250);  // 5000 uniform patterns reach nearly all 256 exponent fields
  const auto h = report::math_inputs(DType::BF16, 5000, 1);
  CHECK(h.exhaustive);
  CHECK(h.bits.size() == 65536);
  CHECK(h.bits[65535] == 65535);
  CHECK(report::math_inputs(DType::F64, 10, 1).bits[4] == 0x7ff8000000000000u);
}

TEST_CASE("math: glibc's max ulp over the sample equals an independent loop calling expf", "[report]") {
  const json& r = row(shared_section(), "exp", "f32");
  CHECK(r["glibc_function"] == "expf");
  float (*volatile expf_ptr)(float) = &::expf;
  uint64_t worst = 0;
  for (uint64_t x : report::math_inputs(DType::F32, kSamples, kSeed).bits) {
    const auto bx = static_cast<uint32_t>(x);
    const uint32_t got = std::bit_cast<uint32_t>(expf_ptr(std::bit_cast<float>(bx)));
    const auto cr = static_cast<uint32_t>(num::eval(num::MathFn::Exp, DType::F32, x));
    if (f32_nan(cr) && f32_nan(got)) continue;
    REQUIRE(f32_nan(cr) == f32_nan(got));
    worst = std::max(worst, f32_ulps(got, cr));
  }
  CHECK(r["glibc_max_ulps"] == static_cast<double>(worst));
  CHECK(worst <= 1);  // glibc's expf is documented correctly rounded in practice; at most 1
}

TEST_CASE("math: glibc anchors name what they call; i0 has none", "[report]") {
  CHECK(row(shared_section(), "exp", "f16")["glibc_function"] == "expf rounded to f16");
  CHECK(row(shared_section(), "lgamma", "f64")["glibc_function"] == "lgamma_r");
  CHECK(report::glibc_anchor(num::MathFn::Sigmoid, DType::F32).function == "1/(1+expf(-x))");
  CHECK(report::glibc_anchor(num::MathFn::Rsqrt, DType::F64).function == "1/sqrt(x)");
  const json& i0 = row(shared_section(), "i0", "f32");
  CHECK(i0["glibc_max_ulps"].is_null());
  CHECK(i0["glibc_function"] == "none (glibc has no i0)");
  CHECK(i0["glibc_scatter"].empty());
  // f16 through expf rounded once: exp(1) = 2.71828 -> f16 0x4170 (2.71875; the neighbours are 2.716797 and 2.720703)
  const auto a = report::glibc_anchor(num::MathFn::Exp, DType::F16);
  REQUIRE(a.available);
  CHECK(a.eval(0x3c00) == 0x4170);
  // f64 sqrt(2) = 0x3ff6a09e667f3bcd
  CHECK(report::glibc_anchor(num::MathFn::Sqrt, DType::F64).eval(0x4000000000000000u) == 0x3ff6a09e667f3bcdu);
}

TEST_CASE("math: contract_ulps is the numerics contract's bound (docs/numerics.md table)", "[report]") {
  const json& s = shared_section();
  CHECK(row(s, "exp", "f32")["contract_ulps"] == 2);
  CHECK(row(s, "exp", "f16")["contract_ulps"] == 1);
  CHECK(row(s, "exp", "f64")["contract_ulps"] == 1);
  CHECK(row(s, "lgamma", "f32")["contract_ulps"] == 6);
  CHECK(row(s, "i0", "f64")["contract_ulps"] == 6);
  CHECK(row(s, "sqrt", "f32")["contract_ulps"] == 0);
  CHECK(row(s, "abs", "f64")["contract_ulps"] == 0);
}

TEST_CASE("math: the unmutated backend is correctly rounded: every row PASS with 0 ulps", "[report]") {
  for (const auto& r : shared_section()["functions"]) {
    INFO(r.dump().substr(0, 600));
    CHECK(r["verdict"] == "PASS");
    CHECK(r["reason"] == "");
    CHECK(r["backend_max_ulps"] == 0);
    CHECK(r["backend_mean_ulps"] == 0);
    CHECK(r["worst_input"] == "");
    uint64_t total = 0;
    for (const auto& b : r["histogram"]) total += b["count"].get<uint64_t>();
    CHECK(total == r["count"].get<uint64_t>());
    CHECK(r["histogram"][0]["bucket"] == "0");
    CHECK(r["histogram"][0]["count"] == r["count"]);
    CHECK(r["scatter"].size() <= 256);
    CHECK(r["glibc_scatter"].size() <= 256);
  }
}

TEST_CASE("math: every row has the schema's required fields, known keys and types", "[report]") {
  std::ifstream f(std::string(KIR_SOURCE_DIR) + "/docs/report-schema.json");
  REQUIRE(f);
  const json schema = json::parse(f);
  const json& math = schema["$defs"]["math"];
  const json& def = schema["$defs"]["math_row"];
  const json& s = shared_section();
  for (const auto& k : math["required"]) CHECK(s.contains(k.get<std::string>()));
  for (const auto& [k, v] : s.items()) CHECK(math["properties"].contains(k));
  for (const auto& r : s["functions"]) {
    for (const auto& k : def["required"]) CHECK(r.contains(k.get<std::string>()));
    for (const auto& [k, v] : r.items()) {
      INFO(k);
      REQUIRE(def["properties"].contains(k));
      const json& p = def["properties"][k];
      if (p.contains("enum")) CHECK(std::find(p["enum"].begin(), p["enum"].end(), v) != p["enum"].end());
      if (p.contains("type")) {
        std::set<std::string> types;
        if (p["type"].is_string()) types.insert(p["type"].get<std::string>());
        else
          for (const auto& t : p["type"]) types.insert(t.get<std::string>());
        const std::string t = v.is_null() ? "null" : v.is_number_integer() && types.count("integer") ? "integer"
                              : v.is_number()                                                       ? "number"
                              : v.is_string()                                                       ? "string"
                                                                                                    : "array";
        CHECK(types.count(t) == 1);
      }
    }
    CHECK(r["verdict"] == "PASS");
    for (const auto& p : r["scatter"]) CHECK(p.size() == 2);
  }
}

TEST_CASE("math: histogram buckets double from 3-4 up to 2^20, then >2^20 and NaN mismatch", "[report]") {
  using report::bucket_label;
  using report::bucket_of;
  CHECK(bucket_label(bucket_of(0)) == "0");
  CHECK(bucket_label(bucket_of(1)) == "1");
  CHECK(bucket_label(bucket_of(2)) == "2");
  CHECK(bucket_label(bucket_of(3)) == "3-4");
  CHECK(bucket_label(bucket_of(4)) == "3-4");
  CHECK(bucket_label(bucket_of(5)) == "5-8");
  CHECK(bucket_label(bucket_of(9)) == "9-16");
  CHECK(bucket_label(bucket_of(uint64_t{1} << 20)) == "524289-1048576");
  CHECK(bucket_label(bucket_of((uint64_t{1} << 20) + 1)) == ">2^20");
  CHECK(bucket_label(bucket_of(UINT64_MAX - 1)) == ">2^20");
  CHECK(bucket_label(report::kNanBucket) == "NaN mismatch");
  CHECK(report::kNumBuckets == 24);
}

TEST_CASE("math: errors follow the contract's NaN, signed-zero and absolute-bound rules", "[report]") {
  const auto acc = num::accuracy(num::ContractOp::Exp, DType::F32);
  const uint64_t nan = 0x7fc00000u, other_nan = 0xffc00001u, one = 0x3f800000u;
  // x values are irrelevant to the errors; distinct for the worst-input index.
  const std::vector<uint64_t> x = {one, 0x40000000u, 0x40400000u, 0x40800000u, 0x40a00000u};
  const std::vector<uint64_t> cr = {nan, one, 0, one, one};
  const std::vector<uint64_t> got = {other_nan, one + 2, 0x80000000u, one + 3, nan};
  const auto s = report::measure_errors(DType::F32, x, got, cr, acc);
  CHECK(s.count == 5);
  CHECK(s.nan_mismatches == 1);   // NaN against 1; NaN against NaN (any payload) is 0 error
  CHECK(s.max_ulps == 3);
  CHECK(s.histogram[0] == 2);     // the two NaNs and the zeros of opposite sign
  CHECK(s.histogram[2] == 1);
  CHECK(s.histogram[3] == 1);
  CHECK(s.histogram[report::kNanBucket] == 1);
  CHECK(s.rejected == 3);         // -0 for +0, 3 ulps > 2, NaN for 1
  CHECK(s.worst == 4);
  CHECK(s.worst_rejected == 4);
  CHECK(s.mean_ulps == Approx(5.0 / 4.0));
  // lgamma f32 allows an absolute error of 2^-20 near its zeros: lgamma(1) = +0 and a result of
  // 2^-21 is ~10^9 ulps away but inside the contract; 2^-18 is not.
  const auto lg = num::accuracy(num::ContractOp::Lgamma, DType::F32);
  const auto t = report::measure_errors(DType::F32, {one, one}, {std::bit_cast<uint32_t>(0x1p-21f), std::bit_cast<uint32_t>(0x1p-18f)},
                                        {0, 0}, lg);
  CHECK(t.max_ulps == 0x36800000u);  // 2^-18 against +0: its bit pattern
  CHECK(t.rejected == 1);
  CHECK(t.worst_rejected == 1);
}

TEST_CASE("math: the scatter keeps at most 256 finite nonzero inputs and favours the errors", "[report]") {
  std::vector<uint64_t> x;
  std::vector<std::optional<uint64_t>> e;
  for (uint32_t i = 0; i < 10000; ++i) {
    x.push_back(0x3f800000u + i);
    e.push_back(i % 100 == 0 ? std::optional<uint64_t>(1 + i / 100) : std::optional<uint64_t>(0));
  }
  x.push_back(0);  // x = 0, NaN and a NaN mismatch never appear
  e.push_back(7);
  x.push_back(0x7fc00000u);
  e.push_back(9);
  x.push_back(0x40000000u);
  e.push_back(std::nullopt);
  const auto p = report::scatter_sample(DType::F32, x, e);
  CHECK(p.size() == 256);
  int nonzero = 0;
  double worst = 0;
  for (const auto& q : p) {
    CHECK(q[0] >= 0.0);
    CHECK(q[0] < 1.0);
    nonzero += q[1] > 0;
    worst = std::max(worst, q[1]);
  }
  CHECK(nonzero == 100);  // all 100 errors, then 156 exact points
  CHECK(worst == 100);
  CHECK(report::scatter_sample(DType::F32, x, e) == p);  // deterministic
}

TEST_CASE("math: a backend that flushes subnormals (mutant) fails sqrt f32, naming a subnormal input", "[report]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF: no mutant to run");
    return;
  }
  WithMutant m("fpenv_flush_denormals");
  report::MathOptions o;
  o.samples = kSamples;
  o.seed = kSeed;
  o.functions = {"sqrt"};
  o.dtypes = {DType::F32};
  const json r = report::math_section(o)["functions"][0];
  INFO(r.dump().substr(0, 800));
  CHECK(r["verdict"] == "FAIL");
  // sqrt of a negative subnormal is NaN, read as -0 under DAZ it gives -0: a NaN mismatch, so no
  // finite max; sqrt of the smallest subnormal 2^-149 is 2^-74.5, read as 0: billions of ulps.
  CHECK(r["backend_max_ulps"].is_null());
  const std::string reason = r["reason"];
  CHECK(reason.find("inputs outside the contract (0 ulps): worst x = -") != std::string::npos);
  CHECK(reason.find("got -0 (0x80000000), correctly rounded nan (0x7fc00000), NaN mismatch") != std::string::npos);
  const std::string w = r["worst_input"];
  CHECK(reason.find(w) != std::string::npos);
  const uint64_t wbits = std::stoull(w.substr(w.find("(0x") + 3), nullptr, 16);
  CHECK(num::classify(wbits, DType::F32) == num::FpClass::Subnormal);
  CHECK(r["histogram"].back()["bucket"] == "NaN mismatch");
  CHECK(r["histogram"].back()["count"].get<uint64_t>() > 0);
  CHECK(r["histogram"][22]["count"].get<uint64_t>() > 0);  // '>2^20'
}

TEST_CASE("math: abs(-0) = -0 (mutant) fails with 0 ulps on the sign of zero", "[report]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("built with -DKIR_MUTANTS=OFF: no mutant to run");
    return;
  }
  WithMutant m("abs_keeps_neg_zero");
  report::MathOptions o;
  o.samples = 100;
  o.functions = {"abs"};
  o.dtypes = {DType::F64};
  const json r = report::math_section(o)["functions"][0];
  INFO(r.dump().substr(0, 800));
  CHECK(r["verdict"] == "FAIL");
  CHECK(r["backend_max_ulps"] == 0);
  CHECK(r["worst_input"] == "-0 (0x8000000000000000)");
  CHECK(r["reason"] == "1 of 112 inputs outside the contract (0 ulps): worst x = -0 (0x8000000000000000): got -0 "
                       "(0x8000000000000000), correctly rounded 0 (0x0000000000000000), 0 ulps, wrong sign of zero");
}

TEST_CASE("math: a build error saying 'not implemented' makes the row UNSUPPORTED, others FAIL", "[report]") {
  // The backend's messages (backends/cpu/construct/builder.cpp Builder::not_implemented, the serializer).
  CHECK(report::is_not_implemented("t.kir:3:5: error[backend]: not implemented: `foo` on the CPU backend"));
  CHECK(report::is_not_implemented("not implemented: math function `bar` on the CPU backend"));
  CHECK_FALSE(report::is_not_implemented("the C++ compiler failed (exit 1)"));
}

TEST_CASE("math: progress reports one line per finished row", "[report]") {
  report::MathOptions o = shared_options();
  o.functions = {"exp", "log", "sqrt", "abs", "lgamma", "i0"};
  std::vector<std::string> lines;
  o.progress = [&](const std::string& l) { lines.push_back(l); };
  o.dtypes = {DType::F64};
  o.samples = 20;
  report::math_section(o);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0].rfind("math exp f64: PASS, backend max 0 ulp, contract 1, glibc max ", 0) == 0);
  CHECK(lines[5].find("glibc max - (32 inputs") != std::string::npos);  // i0: no anchor
}

TEST_CASE("math: unknown functions and dtypes are rejected before anything runs", "[report]") {
  report::MathOptions o;
  o.functions = {"expp"};
  CHECK_THROWS_AS(report::math_section(o), std::invalid_argument);
  o.functions = {"exp"};
  o.dtypes = {DType::I32};
  CHECK_THROWS_AS(report::math_section(o), std::invalid_argument);
}
