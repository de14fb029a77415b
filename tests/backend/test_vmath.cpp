// The vectorizable math of generated kernels (rt/kir_vmath.h: exp, exp2, erf, tanh) is correctly rounded: bit for bit
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

#include <mpfr.h>

#include "backend_test.h"
#include "backends/cpu/rt/kir_vmath.h"
#include "numerics/math.h"

using namespace kir;

namespace {

// A vector function and the numerics library's correctly rounded one.
struct Fn {
  const char* name;
  num::MathFn ref;
  float (*vec)(float);
  uint32_t expected(uint32_t x) const { return static_cast<uint32_t>(num::eval(ref, DType::F32, x)); }
  uint32_t got(uint32_t x) const { return std::bit_cast<uint32_t>(vec(std::bit_cast<float>(x))); }
};
const Fn kExpFn{"exp", num::MathFn::Exp, kir_vmath::exp_f32};
const Fn kExp2Fn{"exp2", num::MathFn::Exp2, kir_vmath::exp2_f32};
const Fn kErfFn{"erf", num::MathFn::Erf, kir_vmath::erf_f32};
const Fn kTanhFn{"tanh", num::MathFn::Tanh, kir_vmath::tanh_f32};

// The f32 bit patterns [lo, hi) with `step`, split over two threads; returns the mismatches
// (the first few reported).
uint64_t check_range(const Fn& f, uint64_t lo, uint64_t hi, uint64_t step) {
  std::atomic<uint64_t> bad{0};
  std::mutex report;
  auto part = [&](uint64_t first) {
    for (uint64_t b = first; b < hi; b += 2 * step) {
      const auto u = static_cast<uint32_t>(b);
      if (f.got(u) == f.expected(u)) continue;
      if (bad++ < 5) {
        std::lock_guard<std::mutex> g(report);
        UNSCOPED_INFO(f.name << "(" << std::bit_cast<float>(u) << ") bits " << std::hex << u << ": got " << f.got(u)
                             << ", expected " << f.expected(u));
      }
    }
  };
  std::thread t([&] {
    part(lo + step);
    mpfr_free_cache();  // MPFR keeps per-thread constant caches; free them before the thread ends
  });
  part(lo);
  t.join();
  return bad.load();
}

uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }

// @v<fn>: z = fn(x) element by element, for fn in exp, exp2, erf, tanh.
std::string pointwise_kernels() {
  std::string text;
  for (const char* fn : {"exp", "exp2", "erf", "tanh"})
    text += std::string("kernel @v") + fn + R"((%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %e = )" + fn + R"((%a) : f32[N]
  view.store(%z, %rel, %e)
}

)";
  return text;
}

}  // namespace

TEST_CASE("vector exp/exp2 f32: special values and the edges of their ranges are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Fn* f : {&kExpFn, &kExp2Fn})
    for (float x : {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 0x1p-25f, -0x1p-25f, 0x1p-149f, 1e30f, -1e30f,
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                    // exp: e^x just above the largest f32, near 2^-150, the smallest normal
                    0x1.62e43p6f, 0x1.62e42ep6f, 89.0f, 0x1.64p6f, -0x1.9fe368p6f, -104.0f, -0x1.a2p6f, -87.33654f,
                    // exp2: 2^128, the subnormal range, 2^-150 (a tie to even: +0), 2^-149, -151
                    128.0f, 0x1.fffffep6f, 129.0f, -126.0f, -149.0f, -149.5f, -150.0f, -0x1.2bfffep7f, -151.0f, -152.0f,
                    0.5f, -0.5f, 0x1.000002p-1f}) {
      INFO(f->name << "(" << x << ")");
      CHECK(f->got(bits(x)) == f->expected(bits(x)));
    }
  // A signaling NaN input gives the canonical quiet NaN.
  for (const Fn* f : {&kExpFn, &kExp2Fn, &kErfFn, &kTanhFn}) {
    CHECK(f->got(0x7f800001u) == 0x7fc00000u);
    CHECK(f->got(0xff800001u) == 0x7fc00000u);
  }
}

TEST_CASE("vector erf/tanh f32: special values, the interval edges and saturation are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Fn* f : {&kErfFn, &kTanhFn})
    for (float x : {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 0x1p-149f, -0x1p-149f, 0x1p-126f, 0x1p-60f, 1e-10f,
                    // erf: its series/Taylor switch at 1/8, interval edges, 4 (erf rounds to 1 from 3.92)
                    0.125f, 0x1.fffffep-4f, 0.25f, 0.375f, 3.875f, 0x1.fffffep1f, 4.0f, 3.9192f, 3.92f, -3.92f,
                    // tanh: its series switch at 1/32, 9.1 (tanh rounds to 1 from 9.01)
                    0.03125f, 0x1.fffffep-6f, 9.0f, 9.0109f, 9.02f, 9.1f, 0x1.233332p3f, -9.1f, 20.0f, 1e30f, -1e30f,
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
      INFO(f->name << "(" << x << ")");
      CHECK(f->got(bits(x)) == f->expected(bits(x)));
    }
  // Known values: erf(1) = 0.8427007929497149 -> 0x3f57bb3d; tanh(1) = 0.7615941559557649 -> 0x3f42f7d6;
  // erf(x) = 2x/sqrt(pi) (1 - x^2/3) for tiny x: erf(2^-60) = 1.1283791670955126 * 2^-60 -> 0x21906ebb.
  CHECK(kErfFn.got(bits(1.0f)) == 0x3f57bb3du);
  CHECK(kTanhFn.got(bits(1.0f)) == 0x3f42f7d6u);
  CHECK(kErfFn.got(bits(0x1p-60f)) == 0x21906ebbu);
  CHECK(kTanhFn.got(bits(0x1p-60f)) == bits(0x1p-60f));
  CHECK(kErfFn.got(bits(-5.0f)) == bits(-1.0f));
  CHECK(kTanhFn.got(bits(-10.0f)) == bits(-1.0f));
  // The hard case erf handles by input: erf(0x1.0874eap-1) = 0.5348941981792437459..., 2.1e-8 ulp below the
  // midpoint of 0x3f08eed3 and 0x3f08eed4 (MPFR at 300 bits).
  CHECK(kErfFn.got(0x3f043a75u) == 0x3f08eed3u);
  CHECK(kErfFn.got(0xbf043a75u) == 0xbf08eed3u);
}

TEST_CASE("vector erf/tanh f32: every 4099th f32 input, and dense ranges, are correctly rounded", "[C6][L4.3]") {
  for (const Fn* f : {&kErfFn, &kTanhFn}) {
    INFO(f->name);
    CHECK(check_range(*f, 0, uint64_t{1} << 32, 4099) == 0);
    CHECK(check_range(*f, bits(0.0625f), bits(0.0625f) + 300000, 1) == 0);
    CHECK(check_range(*f, bits(-1.0f), bits(-1.0f) + 300000, 1) == 0);
  }
  CHECK(check_range(kErfFn, bits(3.5f), bits(4.25f), 1) == 0);
  CHECK(check_range(kTanhFn, bits(8.75f), bits(9.25f), 1) == 0);
}

TEST_CASE("vector exp/exp2 f32: every 4099th f32 input, and dense ranges, are correctly rounded", "[C6][L4.3]") {
  for (const Fn* f : {&kExpFn, &kExp2Fn}) {
    INFO(f->name);
    CHECK(check_range(*f, 0, uint64_t{1} << 32, 4099) == 0);
    CHECK(check_range(*f, bits(1.0f), bits(1.0f) + 300000, 1) == 0);
    CHECK(check_range(*f, bits(-1.0f), bits(-1.0f) + 300000, 1) == 0);
  }
  // Densely where the result leaves the finite range or enters the subnormal one.
  CHECK(check_range(kExpFn, bits(0x1.6p6f), bits(89.5f), 1) == 0);
  CHECK(check_range(kExpFn, bits(-0x1.9ep6f), bits(-104.5f), 1) == 0);
  CHECK(check_range(kExp2Fn, bits(127.5f), bits(129.5f), 1) == 0);
  CHECK(check_range(kExp2Fn, bits(-125.5f), bits(-151.5f), 1) == 0);
}

TEST_CASE("vector exp/exp2 f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kExpFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kExp2Fn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector erf/tanh f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kErfFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kTanhFn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector math f32: a generated kernel's vectorized loop agrees with the interpreter", "[C6][C7]") {
  auto m = btest::load(pointwise_kernels());
  std::vector<double> xs;
  for (int i = -1600; i <= 1600; ++i) xs.push_back(i / 10.0 + i * 1e-4);
  for (double v : {0.0, -0.0, 88.72283935546875, 89.0, -103.97207708, -104.0, 128.0, -149.5, -150.0, 1e30, -1e30})
    xs.push_back(v);
  xs.push_back(std::numeric_limits<double>::infinity());
  xs.push_back(-std::numeric_limits<double>::infinity());
  xs.push_back(std::nan(""));
  const auto n = static_cast<int64_t>(xs.size());
  for (const char* k : {"vexp", "vexp2", "verf", "vtanh"}) {
    INFO(k);
    auto out = btest::differential(*m, k, {{"x", btest::view(DType::F32, {n}, xs)}, {"z", btest::view(DType::F32, {n})}});
    CHECK(btest::values(btest::out_view(out, "z"))[1600] == (k[1] == 'e' && k[2] == 'x' ? 1.0 : 0.0));
    auto src = cpu::compile_to_source(*m, k, btest::options());
    CHECK(src.source.find(std::string("kir_vmath::") + (k + 1) + "_f32(") != std::string::npos);
  }
}
