// The breakpoint sweep of the vector math kernels: for every point of the catalogue
// (backends/cpu/impl/vmath_breakpoints.yaml: each kernel's thresholds and constants, the true
// limits of its results, the edges of its argument reduction, the inputs it sets by input, and
// their negatives for odd and even functions), every f32 within 4096 ulps of it — stepping
// through the bit patterns in value order, across both zeros, skipping NaN patterns — must give
// the numerics library's correctly rounded result bit for bit. test_vmath.cpp's sample of every
// 4099th input can miss a band a few thousand ulps wide next to a threshold (tanh saturating from
// 8.7 instead of 9.1 was such a band); this sweep cannot. Runs in about a second.
#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "backend_test.h"
#include "backends/cpu/impl/vmath_breakpoints.h"
#include "backends/cpu/rt/kir_rt.h"
#include "backends/cpu/rt/kir_vmath.h"
#include "numerics/math.h"

using namespace kir;

namespace {

constexpr int64_t kUlps = 4096;

// The kernel each catalogue function names (vmath_kernel_name), called directly.
using Kernel = float (*)(float);
const std::map<std::string, Kernel>& kernels() {
  static const std::map<std::string, Kernel> k = {
      {"exp", kir_vmath::exp_f32},     {"exp2", kir_vmath::exp2_f32},   {"erf", kir_vmath::erf_f32},
      {"tanh", kir_vmath::tanh_f32},   {"log", kir_vmath::log_f32},     {"log1p", kir_vmath::log1p_f32},
      {"sin", kir_vmath::sin_f32},     {"cos", kir_vmath::cos_f32},     {"rsqrt", kir_vmath::rsqrt_f32},
      {"sqrt", kir_rt::sqrt_f32},
  };
  return k;
}

// f32 bit patterns in value order: 0, 1, ... for +0 and up (NaN patterns past +Inf), -1 for -0,
// -2 for the smallest negative subnormal, ...
int64_t ordinal(uint32_t u) { return u >> 31 ? -1 - static_cast<int64_t>(u & 0x7fffffffu) : static_cast<int64_t>(u); }
uint32_t from_ordinal(int64_t o) {
  return o >= 0 ? static_cast<uint32_t>(o) : 0x80000000u | static_cast<uint32_t>(-1 - o);
}

// Every non-NaN f32 within `ulps` of x, in value order.
std::vector<uint32_t> around(float x, int64_t ulps) {
  std::vector<uint32_t> v;
  const int64_t o = ordinal(std::bit_cast<uint32_t>(x)), top = 0x7f800000, bottom = -1 - 0x7f800000;
  for (int64_t k = std::max(o - ulps, bottom); k <= std::min(o + ulps, top); ++k) v.push_back(from_ordinal(k));
  return v;
}

struct Sweep {
  uint64_t checked = 0;          // (point, input) pairs
  uint64_t distinct_inputs = 0;  // distinct inputs per function, summed
  uint64_t mismatches = 0;
  std::map<std::string, uint64_t> bad_per_point;  // "tanh.saturation_true" -> inputs misrounded
  std::vector<std::string> examples;              // the first three of each point
};

Sweep sweep(const std::vector<cpu::MathBreakpoint>& points, int64_t ulps) {
  Sweep s;
  std::map<std::string, std::set<uint32_t>> seen;
  for (const auto& p : points) {
    const auto fn = num::parse_math_fn(p.function);
    const auto k = kernels().find(p.function);
    if (!fn || k == kernels().end()) {
      s.bad_per_point[p.function + "." + p.name + " (no kernel)"] = 1;
      ++s.mismatches;
      continue;
    }
    const std::vector<uint32_t> xs = around(p.x, ulps);
    std::vector<uint64_t> in(xs.begin(), xs.end()), want(xs.size());
    num::eval_n(*fn, DType::F32, in.data(), want.data(), in.size());
    uint64_t bad = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const uint32_t got = std::bit_cast<uint32_t>(k->second(std::bit_cast<float>(xs[i])));
      if (got == static_cast<uint32_t>(want[i])) continue;
      if (bad++ < 3) {
        std::ostringstream e;
        e << p.function << " near " << p.name << " (" << p.x << "): " << p.function << "(" << std::bit_cast<float>(xs[i])
          << ") bits " << std::hex << xs[i] << ": got " << got << ", expected " << want[i];
        s.examples.push_back(e.str());
      }
    }
    s.checked += xs.size();
    seen[p.function].insert(xs.begin(), xs.end());
    if (bad) s.bad_per_point[p.function + "." + p.name] = bad;
    s.mismatches += bad;
  }
  for (const auto& [f, set] : seen) s.distinct_inputs += set.size();
  return s;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("vector math f32: every input within 4096 ulps of every catalogued breakpoint is correctly rounded", "[C6][L4.3]") {
  const auto& points = cpu::vmath_breakpoints();
  REQUIRE(points.size() > 100);
  const auto t0 = std::chrono::steady_clock::now();
  const Sweep s = sweep(points, kUlps);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "vmath breakpoint sweep: " << points.size() << " points, " << s.checked << " inputs checked ("
            << s.distinct_inputs << " distinct per function), " << s.mismatches << " mismatches, " << secs << " s\n";
  for (const auto& [p, n] : s.bad_per_point) {
    std::cout << "  " << p << ": " << n << " inputs misrounded\n";
    UNSCOPED_INFO(p << ": " << n << " inputs misrounded");
  }
  for (const auto& e : s.examples) UNSCOPED_INFO(e);
  CHECK(s.mismatches == 0);
}

TEST_CASE("vector math f32: the breakpoint sweep steps across zero and skips NaN patterns", "[C6][L4.3]") {
  const auto z = around(0.0f, 2);  // -0 is one step below +0, the smallest negative subnormal two
  CHECK(z == std::vector<uint32_t>{0x80000001u, 0x80000000u, 0u, 1u, 2u});
  const auto top = around(std::numeric_limits<float>::max(), 3);  // stops at +Inf
  CHECK(top == std::vector<uint32_t>{0x7f7ffffcu, 0x7f7ffffdu, 0x7f7ffffeu, 0x7f7fffffu, 0x7f800000u});
  const auto bottom = around(-std::numeric_limits<float>::infinity(), 2);  // -Inf and two below it in magnitude
  CHECK(bottom == std::vector<uint32_t>{0xff800000u, 0xff7fffffu, 0xff7ffffeu});
  CHECK(around(1.0f, kUlps).size() == 2 * kUlps + 1);
}

TEST_CASE("vector math f32: the breakpoint catalogue covers every vector function test_vmath.cpp checks", "[C6][L4.3]") {
  std::set<std::string> catalogued;
  for (const auto& p : cpu::vmath_breakpoints()) catalogued.insert(p.function);
  // The functions test_vmath.cpp pairs with the numerics library (its `Fn kXxxFn{"name", ...}`
  // table) and the ones its generated kernels apply (kVectorFns).
  const std::string src = read_file(std::string(KIR_SOURCE_DIR) + "/tests/backend/test_vmath.cpp");
  REQUIRE(!src.empty());
  std::set<std::string> tested;
  const std::regex fn_entry(R"re(const Fn k\w+\{"(\w+)")re");
  for (std::sregex_iterator m(src.begin(), src.end(), fn_entry), end; m != end; ++m) tested.insert((*m)[1].str());
  const auto list_at = src.find("kVectorFns[] = {");
  REQUIRE(list_at != std::string::npos);
  const std::string list = src.substr(list_at, src.find('}', list_at) - list_at);
  const std::regex quoted(R"re("(\w+)")re");
  for (std::sregex_iterator m(list.begin(), list.end(), quoted), end; m != end; ++m) tested.insert((*m)[1].str());
  REQUIRE(tested.size() >= 10);
  for (const auto& f : tested) {
    INFO("function " << f << " (checked by test_vmath.cpp)");
    CHECK(catalogued.count(f) == 1);
  }
  // And every catalogued function is one the backend emits a vector kernel for: the catalogue's
  // kernel name appears in the generated C++ of an f32 kernel applying it.
  std::string text;
  for (const auto& f : catalogued) {
    INFO("function " << f);
    REQUIRE(kernels().count(f) == 1);
    REQUIRE(cpu::vmath_kernel_name(f) != nullptr);
    text += "kernel @v" + f + R"((%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = )" + f + R"((%a) : f32[N]
  view.store(%z, %rel, %e)
}

)";
  }
  auto m = btest::load(text);
  for (const auto& f : catalogued) {
    INFO("function " << f);
    const auto src_f = cpu::compile_to_source(*m, "v" + f, btest::options());
    CHECK(src_f.source.find(std::string(cpu::vmath_kernel_name(f)) + "(") != std::string::npos);
  }
}

TEST_CASE("vector math f32: the breakpoint catalogue holds the code's thresholds, the true limits and the set inputs", "[C6][L4.3]") {
  auto has = [](const std::string& f, const std::string& name, float x) {
    for (const auto& p : cpu::vmath_breakpoints())
      if (p.function == f && p.name == name) return std::bit_cast<uint32_t>(p.x) == std::bit_cast<uint32_t>(x);
    return false;
  };
  CHECK(has("tanh", "code_saturation", 9.1f));
  CHECK(has("tanh", "-code_saturation", -9.1f));
  CHECK(has("tanh", "saturation_true", 0x1.205968p3f));
  CHECK(has("tanh", "series_switch", 0.03125f));
  CHECK(has("exp", "code_underflow", -104.0f));
  CHECK(has("exp", "code_overflow", 89.0f));
  CHECK(has("exp", "overflow_true", 0x1.62e43p6f));
  CHECK(has("exp2", "zero_tie", -150.0f));
  CHECK(has("erf", "saturation_true", 0x1.f5a88ap1f));
  CHECK(has("erf", "-by_input", -0x1.0874eap-1f));
  CHECK(has("log", "split_e_0", 0x1.6a09e6p-1f));
  CHECK(has("log1p", "minus_one", -1.0f));
  CHECK(has("sin", "reduce_limit", 0x1p54f));
  CHECK(has("cos", "-by_input_1", -0x1.4555p51f));
  CHECK(has("rsqrt", "smallest_subnormal", 0x1p-149f));
  // Every input a kernel sets by input (a blend on the input's bits in kir_vmath.h) is a point.
  const std::string vm = read_file(std::string(KIR_SOURCE_DIR) + "/backends/cpu/rt/kir_vmath.h");
  REQUIRE(!vm.empty());
  std::set<uint32_t> points;
  for (const auto& p : cpu::vmath_breakpoints()) points.insert(std::bit_cast<uint32_t>(p.x));
  // `u == BITS` sets one input, `mag == BITS` the input and its negative.
  const std::regex by_input(R"re(\b(u|mag) == 0x([0-9a-f]{8})u\)\);\s*// \|?x\|? = )re");
  int n = 0;
  for (std::sregex_iterator m(vm.begin(), vm.end(), by_input), end; m != end; ++m, ++n) {
    const uint32_t u = static_cast<uint32_t>(std::stoul((*m)[2].str(), nullptr, 16));
    INFO("kir_vmath.h sets input 0x" << std::hex << u << " by input");
    CHECK(points.count(u) == 1);
    if ((*m)[1].str() == "mag") CHECK(points.count(u | 0x80000000u) == 1);
  }
  CHECK(n == 2 + 1 + 5 + 8 + 1 + 3);  // exp2, erf, log, log1p, sin, cos
}

TEST_CASE("vector math f32: a malformed breakpoint catalogue is rejected naming file:line", "[C6]") {
  auto err = [](const std::string& text) {
    try {
      cpu::parse_vmath_breakpoints(text, "bp.yaml");
    } catch (const cpu::BreakpointError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string head = "functions:\n  - function: tanh\n    kernel: kir_vmath::tanh_f32\n    symmetry: odd\n    points:\n";
  CHECK(err(head + "      - {name: a, x: 9.1, why: w}\n") == "(accepted)");
  CHECK(err(head + "      - {name: a, x: nine, why: w}\n").rfind("bp.yaml:6:", 0) == 0);
  CHECK(err(head + "      - {name: a, x: 9.1, why: w}\n      - {name: a, x: 1, why: w}\n").rfind("bp.yaml:7:", 0) == 0);
  CHECK(err(head + "      - {name: a, x: 9.1}\n").find("needs `why`") != std::string::npos);
  CHECK(err(head + "      - {name: a, x: 1e39, why: w}\n").find("beyond the f32 range") != std::string::npos);
  CHECK(err(head + "      - {name: a, x: 1.0, bits: 0x3f800001, why: w}\n").rfind("bp.yaml:6:", 0) == 0);
  CHECK(err("functions:\n  - function: sigmoid\n    kernel: x\n    symmetry: none\n    points: []\n").find("no vector kernel") !=
        std::string::npos);
  CHECK(err("functions:\n  - function: tanhh\n").rfind("bp.yaml:2:", 0) == 0);
  CHECK(err("functions:\n  - function: tanh\n    kernel: kir_vmath::exp_f32\n").find("its vector kernel is kir_vmath::tanh_f32") !=
        std::string::npos);
  CHECK(err("functions: [\n").rfind("bp.yaml:", 0) == 0);
  // The mirrored points of an odd function follow each point.
  const auto pts = cpu::parse_vmath_breakpoints(head + "      - {name: a, x: 9.1, why: w}\n      - {name: z, x: 0, why: w}\n", "bp.yaml");
  REQUIRE(pts.size() == 3);
  CHECK(pts[1].name == "-a");
  CHECK(pts[1].x == -9.1f);
}
