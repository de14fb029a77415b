// The vectorized q4_K x q8_K decode-dot (quantized_dot.q4k_q8k.avx512 / .avx2, the scalar
// quantized_dot.q4k_q8k on the portable row; C6, C7, C11). Every result is checked bit for bit
// against the interpreter and against numerics::vec_dot_q4_K_q8_K called here on blocks built
// from the same bytes (a path independent of the generated code), over random raw blocks with
// extreme scales and f16 d/dmin that are subnormal, Inf or NaN, blocks quantized by the numerics
// library from random f32 data, 0..several super-blocks, several rows on both sides, strided
// fields; plus the golden CPU IR expansion and the rejection of a row lacking an implementation.
#include <bit>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"
#include "numerics/kquant.h"

using namespace kir;

namespace {

// One row per quantized_dot implementation (portable: the scalar expansion); rows whose ISA this
// CPU lacks are skipped.
std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  const auto& h = cpu::rt::host_capabilities();
  if (h.avx2 && h.fma) rows.push_back("avx2-6x2");
  if (h.avx512_vnni && h.avx512bw) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-8x3");
  }
  return rows;
}

// A kernel taking every q4_K and q8_K field as a view: lhs fields [L..., NB(, 12 | 128)], rhs
// fields [R..., NB], [R..., 256*NB], [R..., 16*NB], result y[L..., R...].
std::string qdot_kir(const std::vector<std::string>& lhs_lead, const std::vector<std::string>& rhs_lead) {
  struct Field {
    std::string name, dtype;
    std::vector<std::string> shape;
  };
  auto with = [](std::vector<std::string> v, std::initializer_list<std::string> tail) {
    v.insert(v.end(), tail);
    return v;
  };
  const std::vector<Field> fields = {{"w_d", "f16", with(lhs_lead, {"NB"})},
                                     {"w_dmin", "f16", with(lhs_lead, {"NB"})},
                                     {"w_scales", "u8", with(lhs_lead, {"NB", "12"})},
                                     {"w_qs", "u8", with(lhs_lead, {"NB", "128"})},
                                     {"x_d", "f32", with(rhs_lead, {"NB"})},
                                     {"x_qs", "i8", with(rhs_lead, {"256*NB"})},
                                     {"x_bsums", "i16", with(rhs_lead, {"16*NB"})}};
  std::vector<std::string> yshape = lhs_lead;
  yshape.insert(yshape.end(), rhs_lead.begin(), rhs_lead.end());
  const Field y{"y", "f32", yshape};
  auto list = [](const std::vector<std::string>& s) {
    std::string o;
    for (const auto& e : s) o += (o.empty() ? "" : ", ") + e;
    return o;
  };
  auto ty = [&](const Field& f) { return f.dtype + "[" + list(f.shape) + "]"; };
  std::ostringstream k;
  k << "kernel @qdot(";
  for (const auto& f : fields) k << "%" << f.name << ": In<" << ty(f) << ">, ";
  k << "%y: Out<" << ty(y) << ">) {\n  %zero = const() {value = 0} : index\n";
  std::map<std::string, std::string> index_of;  // extent -> its indices value
  int n = 0;
  for (const Field* f : {&fields[0], &fields[1], &fields[2], &fields[3], &fields[4], &fields[5], &fields[6], &y})
    for (size_t a = 0; a < f->shape.size(); ++a) {
      const std::string& e = f->shape[a];
      if (index_of.count(e)) continue;
      const std::string v = "e" + std::to_string(n++);
      k << "  %n" << v << " = dim(%" << f->name << ") {axis = " << a << "} : index\n";
      k << "  %d" << v << " = domain(%zero, %n" << v << ") : domain<" << e << ">\n";
      k << "  %i" << v << " = indices(%d" << v << ") : index[" << e << "]\n";
      index_of[e] = "%i" + v;
    }
  auto relation = [&](const Field& f) {
    std::string rel;
    for (size_t a = 0; a < f.shape.size(); ++a) {
      const std::string b = "%" + f.name + "_b" + std::to_string(a);
      k << "  " << b << " = broadcast(" << index_of[f.shape[a]] << ") {dims = [" << a << "]} : index[" << list(f.shape)
        << "]\n";
      rel += (rel.empty() ? "" : ", ") + b;
    }
    k << "  %" << f.name << "_rel = relation(" << rel << ") : relation<" << f.shape.size() << " -> [" << list(f.shape)
      << "]>\n";
  };
  for (const auto& f : fields) {
    relation(f);
    k << "  %" << f.name << "_v = view.load(%" << f.name << ", %" << f.name << "_rel) : " << ty(f) << "\n";
  }
  k << "  %w = record(%w_d_v, %w_dmin_v, %w_scales_v, %w_qs_v) : record<d: " << ty(fields[0]) << ", dmin: "
    << ty(fields[1]) << ", scales: " << ty(fields[2]) << ", qs: " << ty(fields[3]) << ">\n";
  k << "  %x = record(%x_d_v, %x_qs_v, %x_bsums_v) : record<d: " << ty(fields[4]) << ", qs: " << ty(fields[5])
    << ", bsums: " << ty(fields[6]) << ">\n";
  k << "  %dot = quantized_dot(%w, %x) {lhs_format = q4_k, rhs_format = q8_k} : " << ty(y) << "\n";
  relation(y);
  k << "  view.store(%y, %y_rel, %dot)\n}\n";
  return k.str();
}

// The blocks of one operand side, rows of nb blocks each.
struct Q4Rows {
  int64_t rows = 0, nb = 0;
  std::vector<num::BlockQ4K> blocks;  // row-major: row r, block b at r * nb + b
};
struct Q8Rows {
  int64_t rows = 0, nb = 0;
  std::vector<num::BlockQ8K> blocks;
};

// The views of the q4_K fields ([rows..., NB], [..., NB, 12], [..., NB, 128]) with lead shape `lead`.
void q4_views(const Q4Rows& w, const interp::Shape& lead, std::map<std::string, interp::KernelArg>& args) {
  std::vector<uint64_t> d, dmin, sc, qs;
  for (const auto& b : w.blocks) {
    d.push_back(b.d);
    dmin.push_back(b.dmin);
    sc.insert(sc.end(), b.scales.begin(), b.scales.end());
    qs.insert(qs.end(), b.qs.begin(), b.qs.end());
  }
  auto shape = [&](std::initializer_list<int64_t> tail) {
    interp::Shape s = lead;
    s.insert(s.end(), tail);
    return s;
  };
  args["w_d"] = interp::make_host_view(DType::F16, shape({w.nb}), d);
  args["w_dmin"] = interp::make_host_view(DType::F16, shape({w.nb}), dmin);
  args["w_scales"] = interp::make_host_view(DType::U8, shape({w.nb, 12}), sc);
  args["w_qs"] = interp::make_host_view(DType::U8, shape({w.nb, 128}), qs);
}

void q8_views(const Q8Rows& x, const interp::Shape& lead, std::map<std::string, interp::KernelArg>& args) {
  std::vector<uint64_t> d, qs, bs;
  for (const auto& b : x.blocks) {
    d.push_back(std::bit_cast<uint32_t>(b.d));
    for (int8_t q : b.qs) qs.push_back(static_cast<uint8_t>(q));
    for (int16_t s : b.bsums) bs.push_back(static_cast<uint16_t>(s));
  }
  auto shape = [&](int64_t last) {
    interp::Shape s = lead;
    s.push_back(last);
    return s;
  };
  args["x_d"] = interp::make_host_view(DType::F32, shape(x.nb), d);
  args["x_qs"] = interp::make_host_view(DType::I8, shape(256 * x.nb), qs);
  args["x_bsums"] = interp::make_host_view(DType::I16, shape(16 * x.nb), bs);
}

// y[i, j] = numerics' vec_dot of lhs row i and rhs row j, as f32 bits.
std::vector<uint32_t> expected(const Q4Rows& w, const Q8Rows& x) {
  std::vector<uint32_t> y;
  for (int64_t i = 0; i < w.rows; ++i)
    for (int64_t j = 0; j < x.rows; ++j) {
      std::span<const num::BlockQ4K> a(w.blocks.data() + i * w.nb, static_cast<size_t>(w.nb));
      std::span<const num::BlockQ8K> b(x.blocks.data() + j * x.nb, static_cast<size_t>(x.nb));
      auto r = num::vec_dot_q4_K_q8_K(a, b);
      REQUIRE(r);
      y.push_back(std::bit_cast<uint32_t>(*r));
    }
  return y;
}

// Bitwise equality, a NaN matching a NaN of any payload (the oracle's rule).
void check_bits(const std::vector<uint64_t>& got, const std::vector<uint32_t>& want) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const uint32_t g = static_cast<uint32_t>(got[i]);
    const bool nan_g = (g & 0x7FFFFFFFu) > 0x7F800000u, nan_w = (want[i] & 0x7FFFFFFFu) > 0x7F800000u;
    if (!(g == want[i] || (nan_g && nan_w))) {
      if (bad++ < 3) {
        INFO("element " << i << ": got 0x" << std::hex << g << ", numerics 0x" << want[i]);
        CHECK(false);
      }
    }
  }
  CHECK(bad == 0);
}

// Random raw bytes, then extreme values planted: f16 d/dmin subnormal, max, Inf, NaN, zeros;
// scales 0xFF (every 6-bit scale and min 63); q8 -128 and 127; bsums at the i16 limits; f32 d
// subnormal, huge, Inf, NaN (canonical, with a payload, negative), -0.
Q4Rows random_q4(int64_t rows, int64_t nb, std::mt19937& g, bool extreme) {
  Q4Rows w{rows, nb, std::vector<num::BlockQ4K>(static_cast<size_t>(rows * nb))};
  const uint16_t specials[] = {0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0000, 0x8000, 0x8001};
  for (auto& b : w.blocks) {
    b.d = static_cast<uint16_t>(0x1000 + g() % 0x2800);  // modest magnitudes: 2^-11 .. 2^9
    b.dmin = static_cast<uint16_t>(0x1000 + g() % 0x2800);
    for (auto& s : b.scales) s = static_cast<uint8_t>(g());
    for (auto& q : b.qs) q = static_cast<uint8_t>(g());
    if (extreme) {
      const unsigned pick = g() % 8;
      if (pick == 0) b.d = specials[g() % std::size(specials)];
      if (pick == 1) b.dmin = specials[g() % std::size(specials)];
      if (pick == 2) b.scales.fill(0xFF);
      if (pick == 3) b.qs.fill(0xFF);
      if (pick == 4) b.d = static_cast<uint16_t>(g());  // any bits
      if (pick == 5) b.dmin = static_cast<uint16_t>(g());
    }
  }
  return w;
}

Q8Rows random_q8(int64_t rows, int64_t nb, std::mt19937& g, bool extreme) {
  Q8Rows x{rows, nb, std::vector<num::BlockQ8K>(static_cast<size_t>(rows * nb))};
  const uint32_t specials[] = {0x00000001u, 0x007FFFFFu, 0x7F7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7FC00001u, 0xFFC12345u, 0x80000000u, 0u};
  for (auto& b : x.blocks) {
    b.d = std::uniform_real_distribution<float>(-0.05f, 0.05f)(g);
    for (auto& q : b.qs) q = static_cast<int8_t>(g());
    for (auto& s : b.bsums) s = static_cast<int16_t>(g());
    if (extreme) {
      const unsigned pick = g() % 6;
      if (pick == 0) b.d = std::bit_cast<float>(specials[g() % std::size(specials)]);
      if (pick == 1) b.qs.fill(-128);
      if (pick == 2) b.qs.fill(127);
      if (pick == 3)
        for (size_t j = 0; j < 16; ++j) b.bsums[j] = j % 2 ? int16_t{32767} : int16_t{-32768};
      if (pick == 4) b.d = std::bit_cast<float>(static_cast<uint32_t>(g()));
    }
  }
  return x;
}

std::vector<float> random_f32(size_t n, std::mt19937& g, float scale) {
  std::normal_distribution<float> nd(0.f, scale);
  std::vector<float> v(n);
  for (auto& x : v) x = nd(g);
  return v;
}

}  // namespace

TEST_CASE("q4_K x q8_K decode-dot: every row is the numerics library's dot, bit for bit, on random raw blocks",
          "[C6][C7][C11][L11.3]") {
  auto m = btest::load(qdot_kir({"N"}, {"T"}));
  struct Shape {
    int64_t n, t, nb;
  };
  // 0, 1 and several super-blocks; one and several rows on both sides (task tails included).
  const std::vector<Shape> shapes = {{1, 1, 1}, {2, 1, 0}, {3, 2, 2}, {5, 1, 7}, {17, 3, 4}, {70, 2, 3}};
  std::mt19937 g(20261203);
  size_t nans = 0;
  for (const bool extreme : {false, true})
    for (const auto& s : shapes) {
      const Q4Rows w = random_q4(s.n, s.nb, g, extreme);
      const Q8Rows x = random_q8(s.t, s.nb, g, extreme);
      std::map<std::string, interp::KernelArg> args;
      q4_views(w, {s.n}, args);
      q8_views(x, {s.t}, args);
      args["y"] = btest::view(DType::F32, {s.n, s.t});
      const auto want = expected(w, x);
      for (const auto& row : runnable_rows()) {
        INFO("row " << row << " N=" << s.n << " T=" << s.t << " NB=" << s.nb << (extreme ? " extreme" : ""));
        auto out = btest::differential(*m, "qdot", args, row);
        check_bits(btest::out_view(out, "y").storage->bits, want);
        // f16/f32 NaN scales with payloads, Inf - Inf: the language's NaN is the canonical one.
        nans += btest::require_canonical_nans(btest::out_view(out, "y"));
      }
    }
  CHECK(nans > 0);
}

TEST_CASE("q4_K x q8_K decode-dot: blocks quantized from random f32 data, and GemvQ4KFwdOp", "[C6][C7][L11.3]") {
  std::mt19937 g(77);
  SECTION("the fields as views: N x NB q4_K rows by T x NB q8_K rows") {
    auto m = btest::load(qdot_kir({"N"}, {"T"}));
    for (const int64_t nb : {1, 3, 16}) {
      const int64_t N = 9, T = 2;
      auto wf = random_f32(static_cast<size_t>(N * nb * 256), g, 0.7f);
      auto xf = random_f32(static_cast<size_t>(T * nb * 256), g, 3.f);
      Q4Rows w{N, nb, *num::quantize_row_q4_K_ref(wf)};
      Q8Rows x{T, nb, *num::quantize_row_q8_K(xf)};
      std::map<std::string, interp::KernelArg> args;
      q4_views(w, {N}, args);
      q8_views(x, {T}, args);
      args["y"] = btest::view(DType::F32, {N, T});
      const auto want = expected(w, x);
      for (const auto& row : runnable_rows()) {
        INFO("row " << row << " NB=" << nb);
        auto out = btest::differential(*m, "qdot", args, row);
        check_bits(btest::out_view(out, "y").storage->bits, want);
      }
    }
  }
  SECTION("GemvQ4KFwdOp: x quantized to q8_K inside the kernel") {
    std::ifstream in(std::string(KIR_SOURCE_DIR) + "/specs/kernels/GemvQ4KFwdOp.kir");
    std::stringstream text;
    text << in.rdbuf();
    auto m = btest::load(text.str());
    const int64_t N = 21, nb = 4;
    auto wf = random_f32(static_cast<size_t>(N * nb * 256), g, 1.f);
    auto xf = random_f32(static_cast<size_t>(nb * 256), g, 2.f);
    Q4Rows w{N, nb, *num::quantize_row_q4_K_ref(wf)};
    Q8Rows x{1, nb, *num::quantize_row_q8_K(xf)};
    std::map<std::string, interp::KernelArg> args;
    q4_views(w, {N}, args);
    args["x"] = btest::view(DType::F32, {nb * 256}, std::vector<double>(xf.begin(), xf.end()));
    args["y"] = btest::view(DType::F32, {N});
    const auto want = expected(w, x);
    for (const auto& row : runnable_rows()) {
      INFO("row " << row);
      auto out = btest::differential(*m, "GemvQ4KFwdOp", args, row);
      check_bits(btest::out_view(out, "y").storage->bits, want);
    }
  }
}

TEST_CASE("q4_K x q8_K decode-dot: strided fields, two rhs lead axes, a matvec", "[C6][C7][C8][L11.3]") {
  std::mt19937 g(5);
  SECTION("every field strided or offset, the result strided") {
    auto m = btest::load(qdot_kir({"N"}, {"T"}));
    const int64_t N = 6, T = 3, nb = 2;
    const Q4Rows w = random_q4(N, nb, g, true);
    const Q8Rows x = random_q8(T, nb, g, true);
    std::map<std::string, interp::KernelArg> args;
    q4_views(w, {N}, args);
    q8_views(x, {T}, args);
    // Each view becomes every other element of its last axis of a twice wider buffer, from
    // element 1 (a stride within the block, so the kernels gather the block first).
    for (const char* name : {"w_d", "w_dmin", "w_scales", "w_qs", "x_d", "x_qs", "x_bsums"}) {
      auto& v = std::get<interp::HostView>(args[name]);
      const interp::Shape shape = v.shape;
      const int64_t last = shape.back();
      interp::Shape wide = shape;
      wide.back() = 2 * last + 1;
      int64_t outer = 1;
      for (size_t a = 0; a + 1 < shape.size(); ++a) outer *= shape[a];
      std::vector<uint64_t> bits(static_cast<size_t>(outer * (2 * last + 1)), 0xA5);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t e = 0; e < last; ++e)
          bits[static_cast<size_t>(o * (2 * last + 1) + 1 + 2 * e)] = v.storage->bits[static_cast<size_t>(o * last + e)];
      const DType dt = v.storage->dtype;
      interp::HostView s = interp::make_host_view(dt, wide, bits);
      s.shape = shape;
      s.strides.assign(shape.size(), 1);
      for (size_t a = shape.size() - 1; a-- > 0;) s.strides[a] = s.strides[a + 1] * wide[a + 1];
      s.strides.back() = 2;
      s.offset = 1;
      v = s;
    }
    interp::HostView y = btest::view(DType::F32, {N, 2 * T});
    y.shape = {N, T};
    y.strides = {2 * T, 2};
    args["y"] = y;
    const auto want = expected(w, x);
    for (const auto& row : runnable_rows()) {
      INFO("row " << row);
      auto out = btest::differential(*m, "qdot", args, row);
      const auto& bits = btest::out_view(out, "y").storage->bits;
      std::vector<uint64_t> got;
      for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < T; ++j) got.push_back(bits[static_cast<size_t>(i * 2 * T + 2 * j)]);
      check_bits(got, want);
    }
  }
  SECTION("rhs rows over two axes: y[N, T, U]") {
    auto m = btest::load(qdot_kir({"N"}, {"T", "U"}));
    const int64_t N = 4, T = 2, U = 3, nb = 3;
    const Q4Rows w = random_q4(N, nb, g, false);
    const Q8Rows x = random_q8(T * U, nb, g, false);
    std::map<std::string, interp::KernelArg> args;
    q4_views(w, {N}, args);
    q8_views(x, {T, U}, args);
    args["y"] = btest::view(DType::F32, {N, T, U});
    const auto want = expected(w, x);
    for (const auto& row : runnable_rows()) {
      INFO("row " << row);
      auto out = btest::differential(*m, "qdot", args, row);
      check_bits(btest::out_view(out, "y").storage->bits, want);
    }
  }
  SECTION("a matvec: no rhs lead axis, y[N]") {
    auto m = btest::load(qdot_kir({"N"}, {}));
    const int64_t N = 33, nb = 5;
    const Q4Rows w = random_q4(N, nb, g, true);
    const Q8Rows x = random_q8(1, nb, g, false);
    std::map<std::string, interp::KernelArg> args;
    q4_views(w, {N}, args);
    q8_views(x, {}, args);
    args["y"] = btest::view(DType::F32, {N});
    const auto want = expected(w, x);
    for (const auto& row : runnable_rows()) {
      INFO("row " << row);
      auto out = btest::differential(*m, "qdot", args, row);
      check_bits(btest::out_view(out, "y").storage->bits, want);
    }
  }
}

TEST_CASE("q4_K x q8_K decode-dot: its expansion is real CPU IR (golden)", "[C7][C11]") {
  std::string source;
  auto m = btest::load(qdot_kir({"N"}, {"T"}));
  const std::string ir = btest::ir_after(*m, "qdot", "avx2-6x2", "expand", &source);
  const std::string late = btest::ir_after(*m, "qdot", "avx2-6x2", "lifetime");
  struct Golden {
    const std::string* ir;
    const char* text;
  };
  const Golden golden[] = {
      {&ir, "binding op 53 quantized_dot.q4k_q8k.avx2 {}"},
      // One kernel call per result element over the result's axes, each reading the block-0
      // element of its row's fields (the same NB on both sides: no check needed).
      {&ir, "    block {\n      loop %i0 = 0 to %N step 1 {\n        loop %i1 = 0 to %T step 1 {\n"
            "          kernel qdot.q4k_q8k.avx2 %dot#38[%i0, %i1] (load %w_d_v#17[%i0, 0], load %w_dmin_v#20[%i0, 0], "
            "load %w_scales_v#24[%i0, 0, 0], load %w_qs_v#28[%i0, 0, 0], load %x_d_v#31[%i1, 0], load %x_qs_v#34[%i1, "
            "0], load %x_bsums_v#37[%i1, 0], %NB)"},
      // After the passes: the rows split into tasks, the q4_K fields read in place from the
      // views (their loads proved in bounds: plain copies), the result written into %y.
      {&late, "captures(%w_d#0, %w_dmin#1, %w_scales#2, %w_qs#3, %x_d#4, %x_qs_v#34, %x_bsums_v#37) outputs(%y#7) "
              "unique-writes {"},
      {&late, "kernel qdot.q4k_q8k.avx2 %y#7[%i0, %i1] (load %w_d#0[%i0, 0], load %w_dmin#1[%i0, 0], load "
              "%w_scales#2[%i0, 0, 0], load %w_qs#3[%i0, 0, 0], load %x_d#4[%i1, 0], load %x_qs_v#34[%i1, 0], load "
              "%x_bsums_v#37[%i1, 0], %NB)"},
  };
  for (const auto& g : golden) {
    INFO(g.text << "\n---\n" << *g.ir);
    CHECK(g.ir->find(g.text) != std::string::npos);
  }
  // Each field's block and element strides: [N, NB, 128] gives its last two axes' strides, the
  // flat [T, 256*NB] 256 times its last one.
  CHECK(source.find("kir_uk::qdot_q4k_q8k_avx2(&b7[") != std::string::npos);
  CHECK(source.find("* b3_s2], b3_s1, b3_s2, &b4[") != std::string::npos);
  CHECK(source.find("(int64_t(0x0ull))], 256 * b34_s1, b34_s1, &b37[") != std::string::npos);
  CHECK(source.find("(int64_t(0x0ull))], 16 * b37_s1, b37_s1, v1);") != std::string::npos);
}

TEST_CASE("q4_K x q8_K decode-dot: a row without an implementation of quantized_dot is rejected", "[C11]") {
  auto m = btest::load(qdot_kir({"N"}, {"T"}));
  {
    btest::WithRows rows(
        "rows:\n  - name: no-qdot\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}\n"
        "    local: {mr: 4, nv: 4}\n    implementations: [contract.sequential]\n");
    try {
      cpu::compile_to_source(*m, "qdot", btest::options());
      FAIL("compiled without an implementation of quantized_dot");
    } catch (const cpu::BackendError& e) {
      const std::string w = e.what();
      INFO(w);
      CHECK(w.find("no member of its implementation set realizes this quantized_dot") != std::string::npos);
    }
  }
  if (cpu::rt::host_capabilities().avx2) {
    // Two members of the same kind: rejected, never a priority list.
    btest::WithRows rows(
        "rows:\n  - name: both\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 1024, kc: 128}\n"
        "    local: {mr: 4, nv: 4}\n    implementations: [quantized_dot.q4k_q8k, quantized_dot.q4k_q8k.avx2]\n");
    try {
      cpu::compile_to_source(*m, "qdot", btest::options());
      FAIL("compiled with two implementations of quantized_dot");
    } catch (const cpu::BackendError& e) {
      const std::string w = e.what();
      INFO(w);
      CHECK(w.find("several members of its implementation set apply to this quantized_dot") != std::string::npos);
    }
  }
}
