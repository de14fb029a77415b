// The vectorizable math of generated kernels (rt/kir_vmath.h: exp, exp2, erf, tanh, log, log1p, sin,
// cos, rsqrt; and sqrt, the hardware's in rt/kir_rt.h) is correctly rounded: bit for bit
// the numerics library's result (an independent evaluation: a double-precision fast path with a
// proved error bound, MPFR when the bound cannot decide). The default run checks the special
// values, the range edges and an evenly spread sample of every 4099th f32 bit pattern, directly
// and through a generated kernel whose loop the C++ compiler vectorizes; the hidden tests
// "[.exhaustive]" check all 2^32 inputs (3 to 10 minutes per pair of functions on two cores; run
// the one of a function after changing it: `backend_tests "vector sin/cos f32: all 2^32*"`).
// Note that a tag filter such as "[C6]" selects them too; "[C6]~[exhaustive]" does not.
#include <bit>
#include <cmath>
#include <atomic>
#include <limits>
#include <mutex>
#include <thread>

#include <mpfr.h>

#include "backend_test.h"
#include "backends/cpu/rt/kir_rt.h"
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
const Fn kLogFn{"log", num::MathFn::Log, kir_vmath::log_f32};
const Fn kLog1pFn{"log1p", num::MathFn::Log1p, kir_vmath::log1p_f32};
const Fn kSinFn{"sin", num::MathFn::Sin, kir_vmath::sin_f32};
const Fn kCosFn{"cos", num::MathFn::Cos, kir_vmath::cos_f32};
const Fn kSqrtFn{"sqrt", num::MathFn::Sqrt, kir_rt::sqrt_f32};
const Fn kRsqrtFn{"rsqrt", num::MathFn::Rsqrt, kir_vmath::rsqrt_f32};

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

// @v<fn>: z = fn(x) element by element, for every fn of rt/kir_vmath.h and sqrt (a plain unary op
// of the CPU IR: kir_rt::sqrt_f32).
constexpr const char* kVectorFns[] = {"exp", "exp2", "erf", "tanh", "log", "log1p", "sin", "cos", "sqrt", "rsqrt"};

std::string pointwise_kernels() {
  std::string text;
  for (const char* fn : kVectorFns)
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
  for (const Fn* f : {&kExpFn, &kExp2Fn, &kErfFn, &kTanhFn, &kLogFn, &kLog1pFn, &kSinFn, &kCosFn, &kSqrtFn,
                        &kRsqrtFn}) {
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

TEST_CASE("vector sqrt/rsqrt f32: special values, subnormals and the extremes are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Fn* f : {&kSqrtFn, &kRsqrtFn})
    for (float x : {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 2.0f, 4.0f, 0.25f, 3.0f, 0x1.fffffep-1f,
                    0x1.000002p0f, 0x1.fffffep1f, 0x1p-149f, 0x1p-148f, 0x1.fffffcp-127f, 0x1p-126f, -0x1p-149f,
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 1e-40f, 1e30f}) {
      INFO(f->name << "(" << x << ")");
      CHECK(f->got(bits(x)) == f->expected(bits(x)));
    }
  // Known values: sqrt(2) = 1.4142135623730951 -> 0x3fb504f3; rsqrt(2) = 0.7071067811865476 -> 0x3f3504f3;
  // rsqrt(2^-149) = 2^74.5 = 2.6671e22 -> 0x64b504f3.
  CHECK(kSqrtFn.got(bits(2.0f)) == 0x3fb504f3u);
  CHECK(kRsqrtFn.got(bits(2.0f)) == 0x3f3504f3u);
  CHECK(kRsqrtFn.got(0x00000001u) == 0x64b504f3u);
  CHECK(kRsqrtFn.got(bits(4.0f)) == bits(0.5f));
  CHECK(kSqrtFn.got(bits(-0.0f)) == 0x80000000u);
  CHECK(kRsqrtFn.got(bits(-0.0f)) == 0xff800000u);
  CHECK(kRsqrtFn.got(bits(0.0f)) == 0x7f800000u);
  CHECK(kRsqrtFn.got(bits(inf)) == 0u);
  CHECK(kSqrtFn.got(bits(-1.0f)) == 0x7fc00000u);
  CHECK(kRsqrtFn.got(bits(-inf)) == 0x7fc00000u);
}

TEST_CASE("vector sqrt/rsqrt f32: every 4099th f32 input, and dense ranges, are correctly rounded", "[C6][L4.3]") {
  for (const Fn* f : {&kSqrtFn, &kRsqrtFn}) {
    INFO(f->name);
    CHECK(check_range(*f, 0, uint64_t{1} << 32, 4099) == 0);
    CHECK(check_range(*f, bits(1.0f), bits(1.0f) + 300000, 1) == 0);
    CHECK(check_range(*f, bits(4.0f) - 300000, bits(4.0f), 1) == 0);
    CHECK(check_range(*f, 0, 300000, 1) == 0);  // subnormals
  }
}

TEST_CASE("vector log/log1p f32: special values, the reduction's edges and tiny inputs are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Fn* f : {&kLogFn, &kLog1pFn})
    for (float x : {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 2.0f, 0.5f, 0x1.fffffep-1f, 0x1.000002p0f,
                    0x1p-149f, -0x1p-149f, 0x1p-126f, 0x1.fffffcp-127f, 0x1p-60f, -0x1p-60f, 1e-10f, -1e-10f,
                    // log: m's interval edges sqrt(1/2) and sqrt(2)
                    0x1.6a09e6p-1f, 0x1.6a09e8p-1f, 0x1.6a09e6p0f, 0x1.6a09e8p0f, 0x1.6a09e6p-101f, 0x1.6a09e8p100f,
                    // log1p: the same edges for 1 + x, -1 and below, 1 + x no longer exact in double (2^29)
                    -0x1.2bec34p-2f, -0x1.2bec32p-2f, 0x1.a82798p-2f, 0x1.a8279ap-2f, -0x1.fffffep-1f, -0x1.000002p0f,
                    -2.0f, 0x1p29f, 0x1.000002p29f, 0x1.fffffep28f, 2.718282f, 1e30f, std::numeric_limits<float>::max(),
                    -std::numeric_limits<float>::max()}) {
      INFO(f->name << "(" << x << ")");
      CHECK(f->got(bits(x)) == f->expected(bits(x)));
    }
  // Known values: log(2) = 0.6931471805599453 -> 0x3f317218; log(2^-149) = -103.27892990343185 -> 0xc2ce8ed0;
  // log1p(x) rounds to x for tiny x (x^2/2 is far below half an ulp).
  CHECK(kLogFn.got(bits(2.0f)) == 0x3f317218u);
  CHECK(kLogFn.got(0x00000001u) == 0xc2ce8ed0u);
  CHECK(kLogFn.got(bits(1.0f)) == 0u);
  CHECK(kLogFn.got(bits(-0.0f)) == 0xff800000u);
  CHECK(kLogFn.got(bits(-1.0f)) == 0x7fc00000u);
  CHECK(kLog1pFn.got(bits(-1.0f)) == 0xff800000u);
  CHECK(kLog1pFn.got(bits(-0.0f)) == 0x80000000u);
  CHECK(kLog1pFn.got(bits(-2.0f)) == 0x7fc00000u);
  CHECK(kLog1pFn.got(bits(0x1p-60f)) == bits(0x1p-60f));
  CHECK(kLog1pFn.got(0x80000001u) == 0x80000001u);
  // The hard cases log handles by input (each within 10^-9 ulp of a midpoint, MPFR at 200 bits), e.g.
  // log(0x1.827a74p-7) = -4.44013190269 -> 0xc08e158f.
  for (uint32_t u : {0x3c413d3au, 0x41178febu, 0x4c5d65a5u, 0x65d890d3u, 0x6f31a8ecu}) {
    INFO("log bits " << std::hex << u);
    CHECK(kLogFn.got(u) == kLogFn.expected(u));
  }
  CHECK(kLogFn.got(0x3c413d3au) == 0xc08e158fu);
  // And those log1p handles by input, e.g. log1p(0x1.800006p-21) = 7.152556520395592e-7, a hair above
  // the midpoint of 0x353ffffe and 0x353fffff.
  for (uint32_t u : {0x35400003u, 0x3710001bu, 0x41078febu, 0x65d890d3u, 0x6f31a8ecu, 0xb53ffffdu, 0xb70fffe5u, 0xbb0ec8c4u}) {
    INFO("log1p bits " << std::hex << u);
    CHECK(kLog1pFn.got(u) == kLog1pFn.expected(u));
  }
  CHECK(kLog1pFn.got(0x35400003u) == 0x353fffffu);
}

TEST_CASE("vector log/log1p f32: every 4099th f32 input, and dense ranges, are correctly rounded", "[C6][L4.3]") {
  for (const Fn* f : {&kLogFn, &kLog1pFn}) {
    INFO(f->name);
    CHECK(check_range(*f, 0, uint64_t{1} << 32, 4099) == 0);
    CHECK(check_range(*f, bits(1.0f), bits(1.0f) + 300000, 1) == 0);
    CHECK(check_range(*f, bits(1.0f) - 300000, bits(1.0f), 1) == 0);
  }
  CHECK(check_range(kLogFn, 0, 300000, 1) == 0);                            // subnormals
  CHECK(check_range(kLog1pFn, bits(-1.0f) - 300000, bits(-1.0f), 1) == 0);  // near -1
  CHECK(check_range(kLog1pFn, bits(0x1p-20f), bits(0x1p-20f) + 300000, 1) == 0);
}

TEST_CASE("vector sin/cos f32: special values, inputs near multiples of pi/2 and huge inputs are correctly rounded", "[C6][L4.3]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Fn* f : {&kSinFn, &kCosFn})
    for (float x : {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f, 0.5f, 0x1p-149f, -0x1p-149f, 0x1p-126f, 0x1p-60f,
                    0x1p-12f, 0x1.8p-11f, -0x1p-12f, 0x1p-11f,
                    // pi/2, pi, 3pi/2, 2pi rounded (the reduced argument is tiny) and their neighbours
                    0x1.921fb6p0f, 0x1.921fb4p0f, 0x1.921fb6p1f, -0x1.921fb6p1f, 0x1.2d97c8p2f, 0x1.921fb6p2f,
                    0x1.921fb4p2f, 0.785398f, 0x1.921fb6p-1f, 0x1.921fb4p-1f, 2.356194f, -2.356194f,
                    // large inputs: every bit of 2/pi the reduction keeps matters somewhere
                    1e4f, 1e10f, 0x1p24f, 0x1.fffffep23f, 0x1p54f, 0x1.921fb6p100f, 1e30f, -1e30f, 0x1p127f,
                    std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
      INFO(f->name << "(" << x << ")");
      CHECK(f->got(bits(x)) == f->expected(bits(x)));
    }
  // Known values: sin(1) = 0.8414709848078965 -> 0x3f576aa4, cos(1) = 0.5403023058681398 -> 0x3f0a5140;
  // sin(pi/2 rounded) = 1, cos(pi/2 rounded to 0x1.921fb6p0) = -4.371139000186241e-08 -> 0xb33bbd2e.
  CHECK(kSinFn.got(bits(1.0f)) == 0x3f576aa4u);
  CHECK(kCosFn.got(bits(1.0f)) == 0x3f0a5140u);
  CHECK(kSinFn.got(bits(0x1.921fb6p0f)) == bits(1.0f));
  CHECK(kCosFn.got(bits(0x1.921fb6p0f)) == 0xb33bbd2eu);
  CHECK(kSinFn.got(bits(-0.0f)) == 0x80000000u);
  CHECK(kCosFn.got(bits(-0.0f)) == bits(1.0f));
  CHECK(kSinFn.got(0x80000001u) == 0x80000001u);
  CHECK(kSinFn.got(bits(inf)) == 0x7fc00000u);
  CHECK(kCosFn.got(bits(-inf)) == 0x7fc00000u);
  // The hard case sin handles by input: sin(0x1.33333p+13) = -0.347613260149956..., 6.6e-10 ulp inside
  // the midpoint of 0xbeb1fa5d and 0xbeb1fa5e (MPFR at 300 bits).
  CHECK(kSinFn.got(0x46199998u) == 0xbeb1fa5du);
  CHECK(kSinFn.got(0xc6199998u) == 0x3eb1fa5du);
  // And those cos handles by input (x and -x), e.g. cos(0x1.4555p+51) -> 0x3f08aebf.
  for (uint32_t u : {0x5922aa80u, 0x5f18b878u, 0x6115cb11u, 0xd922aa80u, 0xdf18b878u, 0xe115cb11u}) {
    INFO("cos bits " << std::hex << u);
    CHECK(kCosFn.got(u) == kCosFn.expected(u));
  }
  CHECK(kCosFn.got(0x5922aa80u) == 0x3f08aebfu);
}

TEST_CASE("vector sin/cos f32: every 4099th f32 input, and dense ranges, are correctly rounded", "[C6][L4.3]") {
  for (const Fn* f : {&kSinFn, &kCosFn}) {
    INFO(f->name);
    CHECK(check_range(*f, 0, uint64_t{1} << 32, 4099) == 0);
    CHECK(check_range(*f, bits(1.5f), bits(1.5f) + 300000, 1) == 0);        // around pi/2
    CHECK(check_range(*f, bits(0x1p-13f), bits(0x1p-13f) + 300000, 1) == 0);  // tiny: x, 1 - x^2/2
    CHECK(check_range(*f, bits(1e30f), bits(1e30f) + 100000, 1) == 0);
  }
}

TEST_CASE("vector exp/exp2 f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kExpFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kExp2Fn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector erf/tanh f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kErfFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kTanhFn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector sqrt/rsqrt f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kSqrtFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kRsqrtFn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector log/log1p f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kLogFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kLog1pFn, 0, uint64_t{1} << 32, 1) == 0);
}

TEST_CASE("vector sin/cos f32: all 2^32 inputs are correctly rounded", "[.exhaustive][C6]") {
  CHECK(check_range(kSinFn, 0, uint64_t{1} << 32, 1) == 0);
  CHECK(check_range(kCosFn, 0, uint64_t{1} << 32, 1) == 0);
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
  for (const char* fn : kVectorFns) {
    const std::string k = std::string("v") + fn, f = fn;
    INFO(k);
    auto out = btest::differential(*m, k, {{"x", btest::view(DType::F32, {n}, xs)}, {"z", btest::view(DType::F32, {n})}});
    // f(0): 1 for exp/exp2/cos, -Inf for log, +Inf for rsqrt, else 0.
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(btest::values(btest::out_view(out, "z"))[1600] ==
          (f == "exp" || f == "exp2" || f == "cos" ? 1.0 : f == "log" ? -inf : f == "rsqrt" ? inf : 0.0));
    auto src = cpu::compile_to_source(*m, k, btest::options());
    CHECK(src.source.find((f == "sqrt" ? "kir_rt::" : "kir_vmath::") + f + "_f32(") != std::string::npos);
  }
}
