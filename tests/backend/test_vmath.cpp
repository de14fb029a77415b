// The vectorizable math of generated kernels (rt/kir_vmath.h) is correctly rounded: bit for bit
// the numerics library's result (an independent evaluation: a double-precision fast path with a
// proved error bound, MPFR when the bound cannot decide). The default run checks the special
// values, the range edges and an evenly spread sample of every 4099th f32 bit pattern, directly
// and through a generated kernel whose loop the C++ compiler vectorizes; the hidden test
// "[.exhaustive]" checks all 2^32 inputs (about 3 minutes on two cores; run it after changing
// the function: `backend_tests "[.exhaustive]"`).
#include <bit>
#include <cmath>
#include <atomic>
#include <limits>
#include <mutex>
#include <thread>

#include "backend_test.h"
#include "backends/cpu/rt/kir_vmath.h"
#include "numerics/math.h"

using namespace kir;

namespace {

uint32_t reference_exp(uint32_t x) { return static_cast<uint32_t>(num::eval(num::MathFn::Exp, DType::F32, x)); }
uint32_t vexp(uint32_t x) { return std::bit_cast<uint32_t>(kir_vmath::exp_f32(std::bit_cast<float>(x))); }

// The f32 bit patterns [lo, hi) with `step`, split over two threads; returns the mismatches
// (the first few reported).
uint64_t check_range(uint64_t lo, uint64_t hi, uint64_t step) {
  std::atomic<uint64_t> bad{0};
  std::mutex report;
  auto part = [&](uint64_t first) {
    for (uint64_t b = first; b < hi; b += 2 * step) {
      const auto u = static_cast<uint32_t>(b);
      if (vexp(u) == reference_exp(u)) continue;
      if (bad++ < 5) {
        std::lock_guard<std::mutex> g(report);
        UNSCOPED_INFO("exp(" << std::bit_cast<float>(u) << ") bits " << std::hex << u << ": got " << vexp(u) << ", expected "
                             << reference_exp(u));
      }
    }
  };
  std::thread t(part, lo + step);
  part(lo);
  t.join();
  return bad.load();
}

const char* kExp = R"(
kernel @vexp(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = exp(%a) : f32[N]
  view.store(%z, %rel, %e)
}
)";

}  // namespace

TEST_CASE("vector exp f32: special values and the edges of its range are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                  1.0f, -1.0f, 0x1.62e43p6f /* 88.72284, e^x just above the largest f32 */, 0x1.62e42ep6f, 89.0f,
                  0x1.64p6f, -0x1.9fe368p6f /* -103.97, e^x near 2^-150 */, -104.0f, -0x1.a2p6f, -0x1.5d589ep6f,
                  -87.33654f /* the smallest normal */, 0x1p-25f, -0x1p-25f, 0x1p-149f, 1e30f, -1e30f,
                  std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
    const auto u = std::bit_cast<uint32_t>(x);
    INFO("x = " << x);
    CHECK(vexp(u) == reference_exp(u));
  }
  // A signaling NaN input gives the canonical quiet NaN.
  CHECK(vexp(0x7f800001u) == 0x7fc00000u);
  CHECK(vexp(0xff800001u) == 0x7fc00000u);
}

TEST_CASE("vector exp f32: every 4099th f32 input is correctly rounded", "[C6][L4.3]") {
  CHECK(check_range(0, uint64_t{1} << 32, 4099) == 0);
  // Densely where e^x is finite and nonzero, and around 0.
  CHECK(check_range(std::bit_cast<uint32_t>(0x1.6p6f), std::bit_cast<uint32_t>(89.5f), 1) == 0);
  CHECK(check_range(std::bit_cast<uint32_t>(-0x1.9ep6f), std::bit_cast<uint32_t>(-104.5f), 1) == 0);
  CHECK(check_range(std::bit_cast<uint32_t>(1.0f), std::bit_cast<uint32_t>(1.0f) + 300000, 1) == 0);
}

TEST_CASE("vector exp f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector exp f32: a generated kernel's vectorized loop agrees with the interpreter", "[C6][C7]") {
  auto m = btest::load(kExp);
  std::vector<double> xs;
  for (int i = -1100; i <= 1100; ++i) xs.push_back(i / 10.0 + i * 1e-4);
  for (double v : {0.0, -0.0, 88.72283935546875, 89.0, -103.97207708, -104.0, 1e30, -1e30}) xs.push_back(v);
  xs.push_back(std::numeric_limits<double>::infinity());
  xs.push_back(-std::numeric_limits<double>::infinity());
  xs.push_back(std::nan(""));
  const auto n = static_cast<int64_t>(xs.size());
  auto out = btest::differential(*m, "vexp", {{"x", btest::view(DType::F32, {n}, xs)}, {"z", btest::view(DType::F32, {n})}});
  CHECK(btest::values(btest::out_view(out, "z"))[1100] == 1.0);
  auto src = cpu::compile_to_source(*m, "vexp", btest::options());
  CHECK(src.source.find("kir_vmath::exp_f32(") != std::string::npos);
}
