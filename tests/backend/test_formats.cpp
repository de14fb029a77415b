// The format-carrying structured ops on the CPU backend (C6, C7): quantize q8_K and
// quantized_dot q4_K x q8_K (L11.3), scaled_contract MX (L11.1), sparse_contract 2:4 (L12.1) and
// histogram (L13.1). Each runs natively and through the interpreter (sequential accumulation)
// with bitwise agreement, against at least one hand-computed or known-answer value, and the
// bundled kernels using these ops compile (and run where inputs are built here).
#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>

#include "backend_test.h"

using namespace kir;

namespace {

std::string read_text(const std::string& rel) {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

interp::HostView raw(DType d, const interp::Shape& s, std::vector<uint64_t> bits) {
  return interp::make_host_view(d, s, std::move(bits));
}

const std::vector<uint64_t>& bits_of(const std::map<std::string, interp::KernelArg>& a, const std::string& n) {
  return btest::out_view(a, n).storage->bits;
}

// A deterministic byte stream.
struct Lcg {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s >> 33;
  }
};

// The ggml known-answer inputs (tests/interp/test_ops_scaled_sparse_quant.cpp).
std::vector<double> kat_x(uint32_t mul, uint32_t add, float div) {
  std::vector<double> v(512);
  for (uint32_t i = 0; i < 512; ++i) v[i] = static_cast<float>(static_cast<int>((i * mul + add) >> 24) - 128) / div;
  return v;
}

const char* kQ4Hex[2] = {
    "3a1c1b28fffefefcfdfdfdfcadedbeffc06903ad47d17b15be58f39c36c06a14ad48e28b25cf69f39d37d17a15"
    "be58e258f39c36d06a04ae48e28b25cf69f39d37d17a14be58f28c26c06a04ad47e18be18b25cf69f39c36d07a"
    "14be58f28b25cf6903ad47e18b25be58f29c36d07a147a14ae58e28b25cf6903ad47d17a14be58f29c36c07a14"
    "ad47e18b25bf69f39c",
    "2b1c2e28fdfffefefbfafcfacdadfebdf39d37d17b15af58e28c26c06a04ae48d17b15bf59f39d37c06a14ae48"
    "e28c268c26c06a04ad47d17b15bf59f39d37d06a04ae48e28c26cf69f39d37d17b15bf15bf59f39d37d06a04ae"
    "48e28c26cf69f39d37d17b15bf59f28c26c06a04ae48ae48e28c26cf6af39d37d17b15bf59f38c26c06a04ae48"
    "e28b15bf59f39d37d1"};

const char* kQuantize = R"(
kernel @q(%x: In<f32[R, 512]>, %d: Out<f32[R, 2]>, %qs: Out<i8[R, 512]>, %bs: Out<i16[R, 32]>) {
  %zero = const() {value = 0} : index
  %r = dim(%x) {axis = 0} : index
  %c512 = const() {value = 512} : index
  %c2 = const() {value = 2} : index
  %c32 = const() {value = 32} : index
  %dr = domain(%zero, %r) : domain<R>
  %dk = domain(%zero, %c512) : domain<512>
  %db = domain(%zero, %c2) : domain<2>
  %ds = domain(%zero, %c32) : domain<32>
  %ir = indices(%dr) : index[R]
  %ik = indices(%dk) : index[512]
  %ib = indices(%db) : index[2]
  %is = indices(%ds) : index[32]
  %xr = broadcast(%ir) {dims = [0]} : index[R, 512]
  %xk = broadcast(%ik) {dims = [1]} : index[R, 512]
  %xrel = relation(%xr, %xk) : relation<2 -> [R, 512]>
  %xv = view.load(%x, %xrel) : f32[R, 512]
  %q = quantize(%xv) {format = q8_k} : record<d: f32[R, 2], qs: i8[R, 512], bsums: i16[R, 32]>
  %qd = record.get(%q) {field = d} : f32[R, 2]
  %qq = record.get(%q) {field = qs} : i8[R, 512]
  %qb = record.get(%q) {field = bsums} : i16[R, 32]
  %dr2 = broadcast(%ir) {dims = [0]} : index[R, 2]
  %db2 = broadcast(%ib) {dims = [1]} : index[R, 2]
  %drel = relation(%dr2, %db2) : relation<2 -> [R, 2]>
  view.store(%d, %drel, %qd)
  view.store(%qs, %xrel, %qq)
  %sr = broadcast(%ir) {dims = [0]} : index[R, 32]
  %ss = broadcast(%is) {dims = [1]} : index[R, 32]
  %srel = relation(%sr, %ss) : relation<2 -> [R, 32]>
  view.store(%bs, %srel, %qb)
}
)";

}  // namespace

// ------------------------------------------------------------------------------------ q8_K / q4_K

TEST_CASE("quantize q8_K runs natively bit for bit (known answer, hand-built, zero and special rows)", "[C6][C7][L11.3]") {
  auto m = btest::load(kQuantize);
  std::vector<double> x = kat_x(2246822519u, 12345, 32.f);  // row 0: ggml's known answer
  std::vector<double> hand(512, 1.0);                       // row 1: ones, y[5] = -2
  hand[5] = -2.0;
  x.insert(x.end(), hand.begin(), hand.end());
  std::vector<double> zeros(512, 0.0);  // row 2: all zero (d = 0, qs = bsums = 0)
  x.insert(x.end(), zeros.begin(), zeros.end());
  std::vector<double> special(512, 0.25);  // row 3: NaN, infinities, ties, negative zero
  special[3] = std::nan("");
  special[7] = -0.0;
  special[300] = std::numeric_limits<double>::infinity();
  special[301] = -1e30;
  for (int i = 0; i < 256; i += 17) special[static_cast<size_t>(i)] = -i / 7.0;
  x.insert(x.end(), special.begin(), special.end());
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {4, 512}, x)},
                                                  {"d", btest::view(DType::F32, {4, 2})},
                                                  {"qs", btest::view(DType::I8, {4, 512})},
                                                  {"bs", btest::view(DType::I16, {4, 32})}};
  auto out = btest::differential(*m, "q", args);
  const auto& d = bits_of(out, "d");
  CHECK(d[0] == 0x3d010204u);
  CHECK(d[1] == 0x3d010204u);
  CHECK(d[2] == std::bit_cast<uint32_t>(1.f / 63.5f));
  CHECK(d[4] == 0u);
  const auto qs = btest::values(btest::out_view(out, "qs"));
  const double qs0[8] = {-127, 5, -116, 17, -104, 29, -92, 41}, qs1[8] = {106, -15, 118, -3, -124, 9, -112, 21};
  for (int i = 0; i < 8; ++i) {
    CHECK(qs[static_cast<size_t>(i)] == qs0[i]);
    CHECK(qs[static_cast<size_t>(256 + i)] == qs1[i]);
  }
  CHECK(qs[512] == 64);
  CHECK(qs[517] == -127);
  CHECK(qs[1024] == 0);
  const auto bs = btest::values(btest::out_view(out, "bs"));
  const double bs0[4] = {-319, -84, 148, 130}, bs1[4] = {-130, 101, 337, -192};
  for (int i = 0; i < 4; ++i) {
    CHECK(bs[static_cast<size_t>(i)] == bs0[i]);
    CHECK(bs[static_cast<size_t>(16 + i)] == bs1[i]);
  }
  CHECK(bs[32] == 15 * 64 - 127);
  CHECK(bs[33] == 16 * 64);
  CHECK(bs[64] == 0);
}

namespace {

// GemvQ4KFwdOp's inputs: the ggml q4_K byte images of kQ4Hex for row 0, LCG blocks for the rest.
std::map<std::string, interp::KernelArg> gemv_q4k_args(int64_t N, const std::vector<double>& x) {
  const int64_t NB = static_cast<int64_t>(x.size()) / 256;
  std::vector<uint64_t> d, dmin, scales, qs;
  Lcg g{7};
  for (int64_t n = 0; n < N; ++n)
    for (int64_t b = 0; b < NB; ++b) {
      std::vector<uint64_t> blk;
      if (n == 0 && b < 2) {
        const char* hex = kQ4Hex[b];
        for (size_t i = 0; i + 1 < std::strlen(hex); i += 2) blk.push_back(std::stoul(std::string(hex + i, 2), nullptr, 16));
      } else {
        for (int i = 0; i < 144; ++i) blk.push_back(g.next() & 0xff);
        blk[1] = 0x1c + (blk[1] & 3);  // d, dmin: modest positive f16 values
        blk[3] = 0x1c + (blk[3] & 3);
      }
      d.push_back(blk[0] | (blk[1] << 8));
      dmin.push_back(blk[2] | (blk[3] << 8));
      scales.insert(scales.end(), blk.begin() + 4, blk.begin() + 16);
      qs.insert(qs.end(), blk.begin() + 16, blk.end());
    }
  return {{"x", btest::view(DType::F32, {static_cast<int64_t>(x.size())}, x)},
          {"w_d", raw(DType::F16, {N, NB}, d)},
          {"w_dmin", raw(DType::F16, {N, NB}, dmin)},
          {"w_scales", raw(DType::U8, {N, NB, 12}, scales)},
          {"w_qs", raw(DType::U8, {N, NB, 128}, qs)},
          {"y", btest::view(DType::F32, {N})}};
}

}  // namespace

TEST_CASE("GemvQ4KFwdOp (quantize + quantized_dot) runs natively: the ggml known answer, bit for bit", "[C6][C7][L11.3]") {
  auto m = btest::load(read_text("specs/kernels/GemvQ4KFwdOp.kir"));
  auto out = btest::differential(*m, "GemvQ4KFwdOp", gemv_q4k_args(3, kat_x(2246822519u, 12345, 32.f)));
  CHECK(bits_of(out, "y")[0] == 0x422c2730u);  // vec_dot_q4_K_q8_K known answer
  // More blocks and rows (K = 1024), LCG weights.
  std::vector<double> x2 = kat_x(2654435761u, 99, 16.f);
  auto x3 = kat_x(40503u, 7, 8.f);
  x2.insert(x2.end(), x3.begin(), x3.end());
  btest::differential(*m, "GemvQ4KFwdOp", gemv_q4k_args(5, x2));
}

TEST_CASE("quantized_dot of hand-built q4_K / q8_K blocks: sub-block scales and mins", "[C6][C7][L11.3]") {
  // d = 1.0, dmin = 0.5, every scale and min 1, every nibble 1: weights 0.5; x = 1 gives
  // q8 = -127 with d8 = 1/-127, so dot = 256 * 0.5 * 1 up to the f32 roundings of ggml's order,
  // replayed below: sums[l] = d * -4064, sumf = 0 - dmin * -32512, then sumf += sums[l] eight times.
  auto m = btest::load(read_text("specs/kernels/GemvQ4KFwdOp.kir"));
  std::vector<uint64_t> scales = {1, 1, 1, 1, 1, 1, 1, 1, 0x11, 0x11, 0x11, 0x11};
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {256}, std::vector<double>(256, 1.0))},
                                                  {"w_d", raw(DType::F16, {1, 1}, {0x3C00})},
                                                  {"w_dmin", raw(DType::F16, {1, 1}, {0x3800})},
                                                  {"w_scales", raw(DType::U8, {1, 1, 12}, scales)},
                                                  {"w_qs", raw(DType::U8, {1, 1, 128}, std::vector<uint64_t>(128, 0x11))},
                                                  {"y", btest::view(DType::F32, {1})}};
  auto out = btest::differential(*m, "GemvQ4KFwdOp", args);
  const float d8 = 1.f / (-127.f / 1.f);
  const float dd = 1.f * d8, dm = 0.5f * d8;
  float sums = dd * -4064.f, sumf = 0.f - dm * -32512.f;
  for (int l = 0; l < 8; ++l) sumf += sums;
  CHECK(bits_of(out, "y")[0] == std::bit_cast<uint32_t>(sumf));
  CHECK(std::fabs(btest::values(btest::out_view(out, "y"))[0] - 128.0) < 1e-3);
}

// ------------------------------------------------------------------------------------ MX

namespace {

std::map<std::string, interp::KernelArg> mxfp4_args(int64_t M, int64_t N, int64_t K, uint64_t seed) {
  Lcg g{seed};
  std::vector<uint64_t> x, xs, w, ws;
  for (int64_t i = 0; i < M * K; ++i) x.push_back(g.next() & 0x77 ? g.next() & 0xf7 : 0);  // no e4m3 NaN codes
  for (int64_t i = 0; i < M * K / 32; ++i) xs.push_back(120 + g.next() % 14);
  for (int64_t i = 0; i < N * K / 2; ++i) w.push_back(g.next() & 0xff);
  for (int64_t i = 0; i < N * K / 32; ++i) ws.push_back(120 + g.next() % 14);
  return {{"x", raw(DType::E4M3, {M, K}, x)},
          {"x_scale", raw(DType::E8M0, {M, K / 32}, xs)},
          {"weight", raw(DType::U8, {N, K / 2}, w)},
          {"weight_scale", raw(DType::E8M0, {N, K / 32}, ws)}};
}

}  // namespace

TEST_CASE("GemmMxfp4FwdOp (scaled_contract e4m3 x e2m1, e8m0 scales) runs natively, sequential order", "[C6][C7][L11.1]") {
  auto m = btest::load(read_text("specs/kernels/GemmMxfp4FwdOp.kir"));
  SECTION("hand-computed: 32 products 1.0 x 1.0 (e2m1 0x2 both nibbles) with scales 2^0 and 2^1") {
    std::map<std::string, interp::KernelArg> args = {{"x", raw(DType::E4M3, {1, 32}, std::vector<uint64_t>(32, 0x38))},
                                                    {"x_scale", raw(DType::E8M0, {1, 1}, {127})},
                                                    {"weight", raw(DType::U8, {2, 16}, std::vector<uint64_t>(32, 0x22))},
                                                    {"weight_scale", raw(DType::E8M0, {2, 1}, {128, 126})},
                                                    {"y", btest::view(DType::F32, {1, 2})}};
    // column 1: nibble 0xA = -1.0 in the low half of the first byte -> 31 * 0.5 - 0.5 = 15
    std::get<interp::HostView>(args["weight"]).storage->bits[16] = 0x2A;
    auto out = btest::differential(*m, "GemmMxfp4FwdOp__u8__f32", args);
    CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{64, 15});
  }
  SECTION("a NaN scale makes its element NaN") {
    auto args = mxfp4_args(2, 3, 64, 5);
    std::get<interp::HostView>(args["x_scale"]).storage->bits[1] = 0xFF;
    args["y"] = btest::view(DType::F32, {2, 3});
    auto out = btest::differential(*m, "GemmMxfp4FwdOp__u8__f32", args);
    auto y = btest::values(btest::out_view(out, "y"));
    CHECK(std::isnan(y[0]));
    CHECK(!std::isnan(y[3]));
  }
  SECTION("random blocks, f32 and bf16 outputs") {
    auto args = mxfp4_args(3, 5, 128, 11);
    args["y"] = btest::view(DType::F32, {3, 5});
    btest::differential(*m, "GemmMxfp4FwdOp__u8__f32", args);
    args["y"] = btest::view(DType::BF16, {3, 5});
    btest::differential(*m, "GemmMxfp4FwdOp__u8__bf16", args);
  }
}

// ------------------------------------------------------------------------------------ 2:4 sparse

TEST_CASE("GemmSparse24FwdOp (sparse_contract two_of_four) runs natively, sequential order", "[C6][C7][L12.1]") {
  auto m = btest::load(read_text("specs/kernels/GemmSparse24FwdOp.kir"));
  SECTION("hand-computed: values [2, 5] at positions (0, 3) of code 2") {
    std::map<std::string, interp::KernelArg> args = {{"a_values", btest::view(DType::F16, {1, 2}, {2, 5})},
                                                    {"a_meta", btest::view(DType::I32, {1, 1}, {2})},
                                                    {"b", btest::view(DType::F16, {4, 1}, {1, 2, 3, 4})},
                                                    {"c", btest::view(DType::F16, {1, 1})}};
    auto out = btest::differential(*m, "GemmSparse24FwdOp__f16", args);
    CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>{22});  // 2*1 + 5*4
  }
  SECTION("random, f16 and bf16") {
    const int64_t M = 3, K = 32, N = 4;
    Lcg g{3};
    std::vector<double> a, meta, b;
    for (int64_t i = 0; i < M * K / 2; ++i) a.push_back(static_cast<double>(static_cast<int64_t>(g.next() % 2001) - 1000) / 64.0);
    for (int64_t i = 0; i < M * K / 4; ++i) meta.push_back(static_cast<double>(g.next() % 6));
    for (int64_t i = 0; i < K * N; ++i) b.push_back(static_cast<double>(static_cast<int64_t>(g.next() % 2001) - 1000) / 128.0);
    for (DType d : {DType::F16, DType::BF16}) {
      std::map<std::string, interp::KernelArg> args = {{"a_values", btest::view(d, {M, K / 2}, a)},
                                                      {"a_meta", btest::view(DType::I32, {M, K / 4}, meta)},
                                                      {"b", btest::view(d, {K, N}, b)},
                                                      {"c", btest::view(d, {M, N})}};
      btest::differential(*m, d == DType::F16 ? "GemmSparse24FwdOp__f16" : "GemmSparse24FwdOp__bf16", args);
    }
  }
}

// ------------------------------------------------------------------------------------ histogram

TEST_CASE("histogram runs natively: masked counts, out-of-range active values fault", "[C6][C7][L13.1]") {
  auto m = btest::load(read_text("examples/histogram.kir"));
  std::vector<double> ids, mask;
  for (int i = 0; i < 64; ++i) {
    ids.push_back(i % 16 == 3 ? 3 : (i * 7) % 16);
    mask.push_back(i % 4 != 1);
  }
  std::map<std::string, interp::KernelArg> args = {{"ids", btest::view(DType::I32, {64}, ids)},
                                                  {"mask", btest::view(DType::Bool, {64}, mask)},
                                                  {"counts", btest::view(DType::U32, {16})}};
  auto out = btest::differential(*m, "token_histogram", args);
  std::vector<double> want(16, 0);
  for (int i = 0; i < 64; ++i)
    if (mask[static_cast<size_t>(i)]) want[static_cast<size_t>(ids[static_cast<size_t>(i)])] += 1;
  CHECK(btest::values(btest::out_view(out, "counts")) == want);
  // An active value out of range is a fault on both (a masked one is not even read).
  ids[10] = 16;
  mask[10] = 0;
  args["ids"] = btest::view(DType::I32, {64}, ids);
  args["mask"] = btest::view(DType::Bool, {64}, mask);
  btest::differential(*m, "token_histogram", args);
  mask[10] = 1;
  args["mask"] = btest::view(DType::Bool, {64}, mask);
  auto d = oracle::run_differential(*m, "token_histogram", args, nullptr, btest::options());
  INFO(d.str());
  CHECK(d.interp_error.find("t.kir:12:3") != std::string::npos);  // both fault at the histogram
  CHECK(d.backend_error.find("t.kir:12:3") != std::string::npos);
  CHECK_THROWS(interp::Interpreter(*m).run_kernel("token_histogram", args));
  CHECK_THROWS_WITH(oracle::run_on_backend(*m, "token_histogram", args, btest::options()),
                    Catch::Contains("histogram") && Catch::Contains("(kir explain histogram-range)"));
}

TEST_CASE("HistogramFwdOp kernels run natively", "[C6][C7][L13.1]") {
  auto m = btest::load(read_text("specs/kernels/HistogramFwdOp.kir"));
  std::vector<double> v;
  for (int i = 0; i < 40; ++i) v.push_back((i * 5) % 11 - 1);  // -1 and 9 fall outside 9 bins
  std::map<std::string, interp::KernelArg> args = {{"values", btest::view(DType::I64, {40}, v)},
                                                  {"mask", btest::view(DType::Bool, {40}, std::vector<double>(40, 1))},
                                                  {"counts", btest::view(DType::I64, {9})},
                                                  {"num_bins", num::Scalar{DType::I64, 9}}};
  auto out = btest::differential(*m, "HistogramFwdOp__i64", args);
  std::vector<double> want(9, 0);
  for (double x : v)
    if (x >= 0 && x < 9) want[static_cast<size_t>(x)] += 1;
  CHECK(btest::values(btest::out_view(out, "counts")) == want);
  args["values"] = btest::view(DType::I32, {40}, v);
  args["counts"] = btest::view(DType::I32, {9});
  btest::differential(*m, "HistogramFwdOp__i32", args);
}

TEST_CASE("every bundled kernel using the format ops compiles to C++", "[C6][C7]") {
  for (const char* f : {"specs/kernels/GemmMxfp4FwdOp.kir", "specs/kernels/GemmSparse24FwdOp.kir", "specs/kernels/GemvQ4KFwdOp.kir",
                        "specs/kernels/GemmW4A16FwdOp.kir", "specs/kernels/HistogramFwdOp.kir", "examples/histogram.kir"}) {
    INFO(f);
    auto m = btest::load(read_text(f));
    for (const auto& fn : m->functions) {
      if (!fn->is_kernel()) continue;
      INFO(fn->name);
      CHECK_NOTHROW(cpu::compile_to_source(*m, fn->name, btest::options()));
    }
  }
}
