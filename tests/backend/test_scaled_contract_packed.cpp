// The packed MX scaled_contract implementations (scaled_contract.packed.avx512 / avx2 / portable;
// C6, C7, C11): e2m1 / e4m3 / e5m2 elements with e8m0 scales into f32, decoded and prescaled into
// f32 panels for the packed contract's nest, under the declared order sequential-fused. Each
// result is checked bit for bit (NaN against NaN of any payload) against the interpreter under
// that order and against a computation written here: the formats decoded from their bit
// fields, each exact term a * b * 2^(sa + sb) in long double, and every step round(acc + term)
// done by hand as a long double TwoSum made round-to-odd, then rounded once to f32.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

// One row per implementation (and two avx512 micro-tiles); rows whose ISA this CPU lacks are skipped.
std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  if (cpu::rt::host_capabilities().avx2 && cpu::rt::host_capabilities().fma) rows.push_back("avx2-6x2");
  if (cpu::rt::host_capabilities().avx512f) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-8x3");
  }
  return rows;
}

// A kernel @mx: y = scaled_contract(l [M, G, CL], ls [M, G], r [G, CR, N], rs [N, G]) in f32.
std::string mx_kir(const std::string& lf, const std::string& rf, int64_t group) {
  const int64_t cl = lf == "e2m1" ? group / 2 : group, cr = rf == "e2m1" ? group / 2 : group;
  const std::string L = "[M, G, " + std::to_string(cl) + "]", R = "[G, " + std::to_string(cr) + ", N]";
  return "kernel @mx(%l: In<u8" + L + ">, %ls: In<e8m0[M, G]>, %r: In<u8" + R + ">, %rs: In<e8m0[N, G]>, %y: Out<f32[M, N]>) {\n" +
         R"(  %zero = const() {value = 0} : index
  %m = dim(%l) {axis = 0} : index
  %g = dim(%l) {axis = 1} : index
  %n = dim(%r) {axis = 2} : index
  %cl = const() {value = )" + std::to_string(cl) + R"(} : index
  %cr = const() {value = )" + std::to_string(cr) + R"(} : index
  %dm = domain(%zero, %m) : domain<M>
  %dg = domain(%zero, %g) : domain<G>
  %dn = domain(%zero, %n) : domain<N>
  %dcl = domain(%zero, %cl) : domain<)" + std::to_string(cl) + R"(>
  %dcr = domain(%zero, %cr) : domain<)" + std::to_string(cr) + R"(>
  %im = indices(%dm) : index[M]
  %ig = indices(%dg) : index[G]
  %in = indices(%dn) : index[N]
  %icl = indices(%dcl) : index[)" + std::to_string(cl) + R"(]
  %icr = indices(%dcr) : index[)" + std::to_string(cr) + R"(]
  %lm = broadcast(%im) {dims = [0]} : index)" + L + R"(
  %lg = broadcast(%ig) {dims = [1]} : index)" + L + R"(
  %lc = broadcast(%icl) {dims = [2]} : index)" + L + R"(
  %lrel = relation(%lm, %lg, %lc) : relation<3 -> )" + L + R"(>
  %lv = view.load(%l, %lrel) : u8)" + L + R"(
  %lsm = broadcast(%im) {dims = [0]} : index[M, G]
  %lsg = broadcast(%ig) {dims = [1]} : index[M, G]
  %lsrel = relation(%lsm, %lsg) : relation<2 -> [M, G]>
  %lsv = view.load(%ls, %lsrel) : e8m0[M, G]
  %rg = broadcast(%ig) {dims = [0]} : index)" + R + R"(
  %rc = broadcast(%icr) {dims = [1]} : index)" + R + R"(
  %rn = broadcast(%in) {dims = [2]} : index)" + R + R"(
  %rrel = relation(%rg, %rc, %rn) : relation<3 -> )" + R + R"(>
  %rv = view.load(%r, %rrel) : u8)" + R + R"(
  %rsn = broadcast(%in) {dims = [0]} : index[N, G]
  %rsg = broadcast(%ig) {dims = [1]} : index[N, G]
  %rsrel = relation(%rsn, %rsg) : relation<2 -> [N, G]>
  %rsv = view.load(%rs, %rsrel) : e8m0[N, G]
  %acc = scaled_contract(%lv, %lsv, %rv, %rsv) {batch = [], lhs_format = )" + lf + ", lhs_group_size = " +
         std::to_string(group) + ", reduce = [[1, 0], [2, 1]], rhs_format = " + rf + ", rhs_group_size = " +
         std::to_string(group) + R"(} : f32[M, N]
  %ym = broadcast(%im) {dims = [0]} : index[M, N]
  %yn = broadcast(%in) {dims = [1]} : index[M, N]
  %yrel = relation(%ym, %yn) : relation<2 -> [M, N]>
  view.store(%y, %yrel, %acc)
}
)";
}

// ---- the independent computation
using LD = long double;
const LD kNaN = std::numeric_limits<LD>::quiet_NaN();
const LD kInf = std::numeric_limits<LD>::infinity();

// The value of a format's code, from its bit fields (OCP MX v1.0).
LD decode(const std::string& fmt, unsigned c) {
  if (fmt == "e2m1") {
    const LD v = ((c >> 1) & 3) == 0 ? LD(c & 1) / 2 : std::ldexp(LD(2 + (c & 1)), int((c >> 1) & 3) - 2);
    return (c & 8) ? -v : v;
  }
  LD v;
  if (fmt == "e4m3") {
    const unsigned e = (c >> 3) & 15, m = c & 7;
    if (e == 15 && m == 7) return kNaN;
    v = e == 0 ? std::ldexp(LD(m), -9) : std::ldexp(LD(8 + m), int(e) - 10);
  } else {  // e5m2
    const unsigned e = (c >> 2) & 31, m = c & 3;
    if (e == 31) v = m ? kNaN : kInf;
    else v = e == 0 ? std::ldexp(LD(m), -16) : std::ldexp(LD(4 + m), int(e) - 17);
  }
  return (c & 0x80) ? -v : v;
}

// round_f32(acc + t), one rounding: t is exact in long double (at most 8 bits); the long double
// sum is made round-to-odd (64 >= 24 + 2 bits) before its one rounding to f32.
float fused_step(float acc, LD t) {
  const LD x = acc;
  LD s = x + t;
  if (!std::isfinite(s) || !std::isfinite(t)) return static_cast<float>(s);
  const LD bb = s - x, err = (x - (s - bb)) + (t - bb);
  if (err != 0) {
    uint64_t mant;
    std::memcpy(&mant, &s, 8);  // x87 extended: the 64-bit significand first
    if ((mant & 1) == 0) s = std::nextafter(s, err > 0 ? kInf : -kInf);
  }
  return static_cast<float>(s);
}

struct Mx {
  std::string lf, rf;
  int64_t group, M, N, G;
  std::vector<uint64_t> l, ls, r, rs;  // bytes as the kernel takes them
  int64_t cl() const { return lf == "e2m1" ? group / 2 : group; }
  int64_t cr() const { return rf == "e2m1" ? group / 2 : group; }
  unsigned lcode(int64_t m, int64_t g, int64_t e) const {
    const auto b = static_cast<unsigned>(l[static_cast<size_t>((m * G + g) * cl() + (lf == "e2m1" ? e / 2 : e))]);
    return lf == "e2m1" ? (e % 2 ? b >> 4 : b & 15) : b;
  }
  unsigned rcode(int64_t n, int64_t g, int64_t e) const {
    const auto b = static_cast<unsigned>(r[static_cast<size_t>((g * cr() + (rf == "e2m1" ? e / 2 : e)) * N + n)]);
    return rf == "e2m1" ? (e % 2 ? b >> 4 : b & 15) : b;
  }
  std::map<std::string, interp::KernelArg> args() const {
    return {{"l", interp::make_host_view(DType::U8, {M, G, cl()}, l)},
            {"ls", interp::make_host_view(DType::E8M0, {M, G}, ls)},
            {"r", interp::make_host_view(DType::U8, {G, cr(), N}, r)},
            {"rs", interp::make_host_view(DType::E8M0, {N, G}, rs)},
            {"y", btest::view(DType::F32, {M, N})}};
  }
  // The declared order, by hand: acc = -0; groups then elements; a NaN scale adds a NaN.
  std::vector<uint32_t> expected() const {
    std::vector<uint32_t> y(static_cast<size_t>(M * N));
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        float acc = -0.0f;
        for (int64_t g = 0; g < G; ++g) {
          const auto sl = ls[static_cast<size_t>(m * G + g)], sr = rs[static_cast<size_t>(n * G + g)];
          if (sl == 0xFF || sr == 0xFF) {
            acc = acc + std::numeric_limits<float>::quiet_NaN();
            continue;
          }
          for (int64_t e = 0; e < group; ++e) {
            const LD t = decode(lf, lcode(m, g, e)) * decode(rf, rcode(n, g, e));
            acc = fused_step(acc, std::ldexp(t, static_cast<int>(sl) + static_cast<int>(sr) - 254));
          }
        }
        y[static_cast<size_t>(m * N + n)] = G == 0 ? 0u : std::bit_cast<uint32_t>(acc);
      }
    return y;
  }
};

// Bitwise, a NaN matching a NaN of any payload (run() checks the payloads separately).
void check_bits(const std::vector<uint64_t>& got, const std::vector<uint32_t>& want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const auto g = static_cast<uint32_t>(got[i]);
    const bool gn = std::isnan(std::bit_cast<float>(g)), wn = std::isnan(std::bit_cast<float>(want[i]));
    if (gn && wn) continue;
    if (g != want[i]) {
      if (bad++ < 5) {
        INFO("element " << i << ": got " << std::bit_cast<float>(g) << " (0x" << std::hex << g << "), want "
                        << std::bit_cast<float>(want[i]) << " (0x" << want[i] << std::dec << ")");
        CHECK(false);
      }
    }
  }
  CHECK(bad == 0);
}

// Random codes of a format (every code of it, NaN/Inf ones excluded unless `specials`).
unsigned random_code(const std::string& fmt, std::mt19937& g, bool specials) {
  for (;;) {
    const unsigned c = fmt == "e2m1" ? g() & 15 : g() & 255;
    if (!specials && !std::isfinite(decode(fmt, c))) continue;
    return c;
  }
}

// Random operands; `compensate`: rs = 254 - ls of the same group index position (one side's
// scale undoes the other's), else both random in [lo, hi].
Mx random_mx(const std::string& lf, const std::string& rf, int64_t group, int64_t M, int64_t N, int64_t G, uint32_t seed,
             int lo = 100, int hi = 150) {
  std::mt19937 gen(seed);
  Mx x{lf, rf, group, M, N, G, {}, {}, {}, {}};
  auto bytes = [&](const std::string& fmt, int64_t count) {
    std::vector<uint64_t> v(static_cast<size_t>(count));
    for (auto& b : v)
      b = fmt == "e2m1" ? (random_code(fmt, gen, false) | (random_code(fmt, gen, false) << 4)) : random_code(fmt, gen, false);
    return v;
  };
  x.l = bytes(lf, M * G * x.cl());
  x.r = bytes(rf, G * x.cr() * N);
  std::uniform_int_distribution<int> sc(lo, hi);
  x.ls.resize(static_cast<size_t>(M * G));
  x.rs.resize(static_cast<size_t>(N * G));
  for (auto& s : x.ls) s = static_cast<uint64_t>(sc(gen));
  for (auto& s : x.rs) s = static_cast<uint64_t>(sc(gen));
  return x;
}

void run(const Module& m, const Mx& x, const std::string& row) {
  auto out = btest::differential(m, "mx", x.args(), row);
  check_bits(btest::out_view(out, "y").storage->bits, x.expected());
  btest::require_canonical_nans(btest::out_view(out, "y"));  // NaN scales, Inf - Inf, Inf x 0
}

const char* const kFormats[] = {"e2m1", "e4m3", "e5m2"};

}  // namespace

TEST_CASE("packed MX scaled_contract: every row and format pair is exact over all tails", "[C6][C7][C11][L11.1]") {
  // Micro-tiles 4x4 (portable: MC 64, NC 1024, KC 128), 6x16 (avx2: MC 96, KC 256), 12x32 and
  // 8x48 (avx512: MC 144 / 96, NC 4096, KC 512). K = 32 G.
  struct S {
    int64_t M, N, G;
    bool random_scales;
  };
  const std::vector<S> shapes = {{1, 1, 1, true},    {3, 5, 2, true},     {13, 33, 3, true},  {12, 32, 4, false},
                                 {25, 49, 5, true},  {145, 33, 17, false}, {97, 17, 9, false}, {2, 1030, 5, false},
                                 {1, 4100, 1, false}, {2, 3, 0, true}};
  // The tails live in the nest every format pair shares, the decoding in each side's packing: every
  // shape for the pairs of one format, three small ones for the mixed pairs.
  const std::vector<S> mixed = {shapes[0], shapes[2], shapes[4]};
  uint32_t seed = 1;
  for (const char* lf : kFormats)
    for (const char* rf : kFormats) {
      auto m = btest::load(mx_kir(lf, rf, 32));
      for (const auto& row : runnable_rows())
        for (const auto& s : std::string(lf) == rf ? shapes : mixed) {
          INFO(lf << " x " << rf << " row " << row << " M=" << s.M << " N=" << s.N << " G=" << s.G);
          // Random scales over a wide range where the product is small; otherwise scales that
          // cancel (sa + sb = 0: the interpreter's fast fused step) but still scale each side.
          Mx x = s.random_scales ? random_mx(lf, rf, 32, s.M, s.N, s.G, seed++, 60, 190)
                                 : random_mx(lf, rf, 32, s.M, s.N, s.G, seed++, 127, 127);
          if (!s.random_scales) {
            for (int64_t g = 0; g < s.G; ++g) {
              const uint64_t k = 110 + static_cast<uint64_t>(g % 30);
              for (int64_t i = 0; i < s.M; ++i) x.ls[static_cast<size_t>(i * s.G + g)] = k;
              for (int64_t j = 0; j < s.N; ++j) x.rs[static_cast<size_t>(j * s.G + g)] = 254 - k;
            }
          }
          run(*m, x, row);
        }
    }
}

TEST_CASE("packed MX scaled_contract: a small group (C = 2 elements, one e2m1 byte)", "[C6][C7][C11][L11.1]") {
  uint32_t seed = 500;
  for (auto [lf, rf] : {std::pair{"e2m1", "e4m3"}, std::pair{"e5m2", "e2m1"}, std::pair{"e4m3", "e4m3"}}) {
    auto m = btest::load(mx_kir(lf, rf, 2));
    for (const auto& row : runnable_rows())
      for (auto [M, N, G] : {std::tuple{1, 1, 1}, std::tuple{13, 33, 7}, std::tuple{15, 17, 257}}) {
        INFO(lf << " x " << rf << " group 2, row " << row << " M=" << M << " N=" << N << " G=" << G);
        run(*m, random_mx(lf, rf, 2, M, N, G, seed++, 90, 160), row);
      }
  }
}

TEST_CASE("packed MX scaled_contract: the overflow guard, both sides of its edge, and the exact scalar path",
          "[C6][C7][C11][L11.1]") {
  // The largest element times a scale that just fits (no overflow, the packed path) and one
  // that just overflows its prescaled factor (the exact scalar path): e4m3 448 = 1.75 * 2^8 fits
  // with 2^119 (byte 246), not with 2^120 (247); e5m2 57344 = 1.75 * 2^15 with 2^112 (239) / 2^113
  // (240); e2m1 6 = 1.5 * 2^2 with 2^125 (252) / 2^126 (253).
  struct Edge {
    const char* fmt;
    unsigned max_code;
    uint64_t fits;
  };
  for (const Edge& e : {Edge{"e4m3", 0x7E, 246}, Edge{"e5m2", 0x7B, 239}, Edge{"e2m1", 0x7, 252}}) {
    for (const char* other : kFormats) {
      for (int side = 0; side < 2; ++side) {
        const std::string lf = side ? other : e.fmt, rf = side ? e.fmt : other;
        auto m = btest::load(mx_kir(lf, rf, 32));
        for (uint64_t scale : {e.fits, e.fits + 1}) {
          Mx x = random_mx(lf, rf, 32, 5, 7, 3, static_cast<uint32_t>(scale * 7 + static_cast<uint64_t>(side)), 100, 120);
          // Row / column 1, group 1: every element the largest, its scale at the edge; the
          // other side's scales small enough that the sums stay finite (some overflow anyway).
          auto& big = side ? x.r : x.l;
          auto& bs = side ? x.rs : x.ls;
          const unsigned code = e.max_code | (std::string(e.fmt) == "e2m1" ? e.max_code << 4 : 0);
          if (side) {
            for (int64_t c = 0; c < x.cr(); ++c) big[static_cast<size_t>((1 * x.cr() + c) * x.N + 1)] = code;
            bs[static_cast<size_t>(1 * x.G + 1)] = scale;
          } else {
            for (int64_t c = 0; c < x.cl(); ++c) big[static_cast<size_t>((1 * x.G + 1) * x.cl() + c)] = code;
            bs[static_cast<size_t>(1 * x.G + 1)] = scale;
          }
          for (const auto& row : runnable_rows()) {
            INFO(lf << " x " << rf << " scale byte " << scale << " on side " << side << ", row " << row);
            run(*m, x, row);
          }
        }
      }
    }
  }
}

TEST_CASE("packed MX scaled_contract: NaN scales, Inf/NaN elements, signed zeros, subnormal scales",
          "[C6][C7][C11][L11.1]") {
  const auto rows = runnable_rows();
  SECTION("a NaN scale (0xFF) on either side: its group adds a NaN, other elements stay finite") {
    for (const char* f : kFormats) {
      auto m = btest::load(mx_kir(f, "e4m3", 32));
      Mx x = random_mx(f, "e4m3", 32, 13, 33, 3, 77);
      x.ls[static_cast<size_t>(2 * 3 + 1)] = 0xFF;   // row 2, group 1
      x.rs[static_cast<size_t>(31 * 3 + 2)] = 0xFF;  // column 31, group 2
      const auto want = x.expected();
      CHECK(std::isnan(std::bit_cast<float>(want[2 * 33 + 0])));
      CHECK(std::isnan(std::bit_cast<float>(want[0 * 33 + 31])));
      CHECK(!std::isnan(std::bit_cast<float>(want[0])));
      for (const auto& row : rows) {
        INFO(f << " row " << row);
        run(*m, x, row);
      }
    }
  }
  SECTION("e5m2 Inf and NaN elements: Inf, Inf - Inf and Inf x 0 terms") {
    auto m = btest::load(mx_kir("e5m2", "e5m2", 32));
    Mx x = random_mx("e5m2", "e5m2", 32, 6, 5, 2, 78);
    x.l[0] = 0x7C;                                   // +Inf at (0, 0, 0)
    x.l[static_cast<size_t>(1 * 2 * 32 + 3)] = 0xFC;  // -Inf at (1, 0, 3)
    x.l[static_cast<size_t>(1 * 2 * 32 + 4)] = 0x7C;  // and +Inf at (1, 0, 4): Inf - Inf
    x.l[static_cast<size_t>(2 * 2 * 32 + 33)] = 0x7E;  // NaN at (2, 1, 1)
    for (int64_t n = 0; n < 5; ++n) x.r[static_cast<size_t>(0 * 5 + n)] = n == 3 ? 0x80 : 0x3C;  // b(0, n); -0 at n = 3
    for (const auto& row : rows) {
      INFO("row " << row);
      run(*m, x, row);
    }
    const auto want = x.expected();
    CHECK(std::isinf(std::bit_cast<float>(want[0])));
    CHECK(std::isnan(std::bit_cast<float>(want[3])));  // Inf x -0
  }
  SECTION("zeros of both signs: -0 only when every term is -0") {
    for (const char* f : kFormats) {
      auto m = btest::load(mx_kir(f, f, 32));
      Mx x = random_mx(f, f, 32, 3, 3, 2, 79);
      const unsigned neg = std::string(f) == "e2m1" ? 0x88 : 0x80;
      // Row 0 all +0, row 1 all -0, row 2 +0 and -0 mixed; column 0 all +0, column 1 all -0.
      for (int64_t i = 0; i < static_cast<int64_t>(x.l.size()); ++i) {
        const int64_t row = i / (2 * x.cl());
        x.l[static_cast<size_t>(i)] = row == 0 ? 0 : row == 1 ? neg : (i % 2 ? neg : 0);
      }
      for (int64_t i = 0; i < static_cast<int64_t>(x.r.size()); ++i)
        if (i % 3 < 2) x.r[static_cast<size_t>(i)] = i % 3 == 0 ? 0 : neg;
      const auto want = x.expected();
      CHECK(want[1 * 3 + 0] == 0x80000000u);  // -0 x +0 terms only
      CHECK(want[0 * 3 + 1] == 0x80000000u);  // +0 x -0
      CHECK(want[1 * 3 + 1] == 0u);           // -0 x -0 = +0
      for (const auto& row : rows) {
        INFO(f << " row " << row);
        run(*m, x, row);
      }
    }
  }
  SECTION("subnormal-producing scales (2^-127) and sums that overflow") {
    for (const char* f : kFormats) {
      auto m = btest::load(mx_kir(f, "e4m3", 32));
      Mx x = random_mx(f, "e4m3", 32, 7, 9, 3, 80, 0, 3);  // products around 2^-254: f32 subnormals or zero
      for (int64_t n = 0; n < 9; ++n) x.rs[static_cast<size_t>(n * 3)] = 127 + static_cast<uint64_t>(n) * 14;  // up to 2^112
      Mx big = random_mx(f, "e4m3", 32, 7, 9, 3, 81, 190, 254);  // scale products beyond f32: Inf sums
      for (const auto& row : rows) {
        INFO(f << " row " << row);
        run(*m, x, row);
        run(*m, big, row);
      }
    }
  }
}

TEST_CASE("packed MX scaled_contract: its expansion is real CPU IR (golden)", "[C7][C11]") {
  std::string source;
  const std::string ir = btest::ir_after(*btest::load(mx_kir("e4m3", "e2m1", 32)), "mx", "portable-4x4", "expand", &source);
  const char* golden[] = {
      "scaled_contract.packed.portable {mr=4, nv=4, task_m=0, task_n=0, mc=64, nc=1024, kc=128}",
      // the guard: e4m3 (largest exponent 8) overflows from scale byte 247, e2m1 (2) from 253
      "assign %scale_risk = or.bool(%scale_risk, and.bool(ne.u8(%sb",
      ", 247:u8)))",
      ", 253:u8)))",
      "if %scale_risk {",
      // the exact scalar path: a NaN scale adds a NaN; the step made round-to-odd
      "if or.bool(eq.u8(%sl, 255:u8), eq.u8(%sr, 255:u8)) {",
      "let %odd = and.bool(and.bool(lt.f64(abs.f64(%s), ",
      // packing: the decoded element times its own side's scale, in f32
      "= mul.f32(cast.e4m3->f32(bitcast.u8->e4m3(load %lv",
      // packing: decoded element times its own side's scale, in f32
      "kernel gemm.f32.portable.4x4 ",
  };
  for (const char* g : golden) {
    INFO(g << "\n---\n" << ir);
    CHECK(ir.find(g) != std::string::npos);
  }
  CHECK(source.find("kir_uk::gemm_portable<float, 4, 4>(") != std::string::npos);
}

TEST_CASE("packed MX scaled_contract: a row without an implementation of the MX f32 kind is rejected", "[C11]") {
  btest::WithRows rows(
      "rows:\n  - name: sequential-only\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}\n"
      "    local: {mr: 4, nv: 4}\n    implementations: [contract.packed.portable, scaled_contract.sequential]\n");
  auto m = btest::load(mx_kir("e4m3", "e4m3", 32));
  try {
    cpu::compile_to_source(*m, "mx", btest::options());
    FAIL("compiled without an applicable implementation");
  } catch (const cpu::BackendError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("scaled_contract.sequential: an MX product into f32, the kind scaled_contract.packed.* realize") !=
          std::string::npos);
  }
}
