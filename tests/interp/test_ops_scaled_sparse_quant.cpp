// Scaled, quantized and sparse contracts at run time: scaled_matmul -> scaled_contract with
// e2m1/e4m3/e5m2 carriers and e8m0 scales (L11.1, hand-computed MX cases), packed INT4 decoded by
// the author into an ordinary contract (L11.2), quantize q8_K and quantized_dot q4_K x q8_K
// against the ggml known-answer vector and hand-built blocks (L11.3), sparse_contract
// two_of_four / one_of_two against the dense product of the decompressed matrix, and illegal
// metadata rejected with op, location and coordinates (L12.1).
#include <cmath>
#include <cstring>

#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

const char* kScaled = R"(
fn @e2m1_e4m3(%l: u8[M, G, 1], %ls: e8m0[M, G], %r: u8[G, 2, N], %rs: e8m0[N, G]) -> f32[M, N] {
  %c = scaled_matmul(%l, %ls, %r, %rs) {acc_dtype = f32, group_size = 2, lhs_format = e2m1, rhs_format = e4m3} : f32[M, N]
  return(%c)
}

fn @e5m2(%l: u8[M, G, 2], %ls: e8m0[M, G], %r: u8[G, 2, N], %rs: e8m0[N, G]) -> f32[M, N] {
  %c = scaled_matmul(%l, %ls, %r, %rs) {acc_dtype = f32, group_size = 2, lhs_format = e5m2, rhs_format = e5m2} : f32[M, N]
  return(%c)
}
)";

interp::Value u8t(const interp::Shape& s, std::vector<uint64_t> b) { return interp::Value(raw_tensor(DType::U8, s, std::move(b))); }
interp::Value e8m0t(const interp::Shape& s, std::vector<uint64_t> b) { return interp::Value(raw_tensor(DType::E8M0, s, std::move(b))); }

}  // namespace

TEST_CASE("[L11.1] scaled_matmul e2m1 x e4m3 with e8m0 group scales (hand-computed)", "[interp][L11.1]") {
  auto m = load_surface(kScaled);
  CHECK(has_op(*m, "scaled_contract"));
  // lhs (M=1, G=2, group 2, e2m1 packed low nibble first):
  //   group 0 byte 0xD2: element 0 = 0x2 = 1.0, element 1 = 0xD = -3.0; scale 2^(128-127) = 2
  //   group 1 byte 0x17: element 0 = 0x7 = 6.0, element 1 = 0x1 = 0.5;  scale 2^(126-127) = 0.5
  // rhs (G=2, C=2, N=1, e4m3): group 0 = [0x3C = 1.5, 0x40 = 2.0], scale 2^0
  //                             group 1 = [0xB8 = -1.0, 0x48 = 4.0], scale 2^2
  // result = 2*1 * (1*1.5 - 3*2) + 0.5*4 * (6*-1 + 0.5*4) = -9 - 8 = -17
  auto r = interp::Interpreter(*m).call_helper(
      "e2m1_e4m3", {u8t({1, 2, 1}, {0xD2, 0x17}), e8m0t({1, 2}, {128, 126}), u8t({2, 2, 1}, {0x3C, 0x40, 0xB8, 0x48}),
                    e8m0t({1, 2}, {127, 129})});
  CHECK(tvalues(r[0]) == std::vector<double>{-17});
}

TEST_CASE("[L11.1] scaled_matmul e5m2 x e5m2; a NaN scale (0xFF) makes the result NaN", "[interp][L11.1]") {
  auto m = load_surface(kScaled);
  interp::Interpreter it(*m);
  // e5m2: 0x3E = 1.5, 0x40 = 2.0, 0xB8 = -0.5. lhs [1.5, 2.0] * 2^3, rhs [2.0, -0.5] * 2^0:
  // 8 * (1.5*2 - 2*0.5) = 16
  auto r = it.call_helper("e5m2", {u8t({1, 1, 2}, {0x3E, 0x40}), e8m0t({1, 1}, {130}), u8t({1, 2, 1}, {0x40, 0xB8}), e8m0t({1, 1}, {127})});
  CHECK(tvalues(r[0]) == std::vector<double>{16});
  auto n = it.call_helper("e5m2", {u8t({1, 1, 2}, {0x3E, 0x40}), e8m0t({1, 1}, {0xFF}), u8t({1, 2, 1}, {0x40, 0xB8}), e8m0t({1, 1}, {127})});
  CHECK(std::isnan(tvalues(n[0])[0]));
}

TEST_CASE("[L11.2] packed INT4 is decoded by the author and fed to an ordinary contract", "[interp][L11.2]") {
  auto m = load(R"(
fn @f(%p: u8[H], %w: i32[2*H]) -> i32[] {
  %c15 = const() {value = 15} : u8
  %c4 = const() {value = 4} : u8
  %m = broadcast(%c15) {dims = []} : u8[H]
  %s = broadcast(%c4) {dims = []} : u8[H]
  %lo = and(%p, %m) : u8[H]
  %hi = shr(%p, %s) : u8[H]
  %lo32 = cast(%lo) : i32[H]
  %hi32 = cast(%hi) : i32[H]
  %c8 = const() {value = 8} : i32
  %e8 = broadcast(%c8) {dims = []} : i32[H]
  %lx = xor(%lo32, %e8) : i32[H]
  %lv = sub(%lx, %e8) : i32[H]
  %hx = xor(%hi32, %e8) : i32[H]
  %hv = sub(%hx, %e8) : i32[H]
  %j = join(%lv, %hv) : i32[H, 2]
  %v = reshape(%j) : i32[2*H]
  %c = contract(%v, %w) {batch = [], reduce = [[0, 0]]} : i32[]
  return(%c)
}
)");
  // bytes 0xF1 -> (low 1, high 0xF = -1), 0x73 -> (3, 7): values [1, -1, 3, 7] (sign extension
  // (n ^ 8) - 8); dot with [1, 2, 3, 4] = 1 - 2 + 9 + 28 = 36
  auto r = interp::Interpreter(*m).call_helper("f", {u8t({2}, {0xF1, 0x73}), interp::Value(tensor(DType::I32, {4}, {1, 2, 3, 4}))});
  CHECK(tvalues(r[0]) == std::vector<double>{36});
}

namespace {

const char* kQuant = R"(
fn @q(%y: f32[1, 512]) -> record<d: f32[1, 2], qs: i8[1, 512], bsums: i16[1, 32]> {
  %q = quantize(%y) {format = q8_k} : record<d: f32[1, 2], qs: i8[1, 512], bsums: i16[1, 32]>
  return(%q)
}

fn @qd(%l: record<d: f16[1, 2], dmin: f16[1, 2], scales: u8[1, 2, 12], qs: u8[1, 2, 128]>, %y: f32[1, 512]) -> f32[1, 1] {
  %q = quantize(%y) {format = q8_k} : record<d: f32[1, 2], qs: i8[1, 512], bsums: i16[1, 32]>
  %r = quantized_dot(%l, %q) {lhs_format = q4_k, rhs_format = q8_k} : f32[1, 1]
  return(%r)
}

fn @dot1(%l: record<d: f16[1], dmin: f16[1], scales: u8[1, 12], qs: u8[1, 128]>, %r: record<d: f32[1], qs: i8[256], bsums: i16[16]>) -> f32[] {
  %v = quantized_dot(%l, %r) {lhs_format = q4_k, rhs_format = q8_k} : f32[]
  return(%v)
}
)";

// The ggml known-answer inputs (tests/numerics/test_kquant.cpp): v[i] = ((i*mul + add) >> 24) - 128) / div.
std::vector<double> kat_x(uint32_t mul, uint32_t add, float div) {
  std::vector<double> v(512);
  for (uint32_t i = 0; i < 512; ++i) v[i] = static_cast<float>(static_cast<int>((i * mul + add) >> 24) - 128) / div;
  return v;
}

// The q4_K byte images produced by ggml for kat_x(2654435761, 0, 64) (2 blocks of 144 bytes:
// d, dmin as little-endian f16, scales[12], qs[128]).
const char* kQ4Hex[2] = {
    "3a1c1b28fffefefcfdfdfdfcadedbeffc06903ad47d17b15be58f39c36c06a14ad48e28b25cf69f39d37d17a15"
    "be58e258f39c36d06a04ae48e28b25cf69f39d37d17a14be58f28c26c06a04ad47e18be18b25cf69f39c36d07a"
    "14be58f28b25cf6903ad47e18b25be58f29c36d07a147a14ae58e28b25cf6903ad47d17a14be58f29c36c07a14"
    "ad47e18b25bf69f39c",
    "2b1c2e28fdfffefefbfafcfacdadfebdf39d37d17b15af58e28c26c06a04ae48d17b15bf59f39d37c06a14ae48"
    "e28c268c26c06a04ad47d17b15bf59f39d37d06a04ae48e28c26cf69f39d37d17b15bf15bf59f39d37d06a04ae"
    "48e28c26cf69f39d37d17b15bf59f28c26c06a04ae48ae48e28c26cf6af39d37d17b15bf59f38c26c06a04ae48"
    "e28b15bf59f39d37d1"};

interp::Value q4_record_from_hex() {
  std::vector<uint64_t> d, dmin, scales, qs;
  for (const char* hex : kQ4Hex) {
    std::vector<uint64_t> b;
    for (size_t i = 0; i + 1 < std::strlen(hex); i += 2) b.push_back(std::stoul(std::string(hex + i, 2), nullptr, 16));
    REQUIRE(b.size() == 144);
    d.push_back(b[0] | (b[1] << 8));
    dmin.push_back(b[2] | (b[3] << 8));
    scales.insert(scales.end(), b.begin() + 4, b.begin() + 16);
    qs.insert(qs.end(), b.begin() + 16, b.end());
  }
  interp::RecordV r;
  r.names = {"d", "dmin", "scales", "qs"};
  r.elems = {interp::Value(raw_tensor(DType::F16, {1, 2}, d)), interp::Value(raw_tensor(DType::F16, {1, 2}, dmin)),
             interp::Value(raw_tensor(DType::U8, {1, 2, 12}, scales)), interp::Value(raw_tensor(DType::U8, {1, 2, 128}, qs))};
  return interp::Value(std::move(r));
}

}  // namespace

TEST_CASE("[L11.3] quantize q8_K reproduces the ggml known-answer vector", "[interp][L11.3]") {
  auto m = load(kQuant);
  auto r = interp::Interpreter(*m).call_helper("q", {interp::Value(tensor(DType::F32, {1, 512}, kat_x(2246822519u, 12345, 32.f)))});
  const auto& rec = r[0].record();
  CHECK(rec.elems[0].tensor().bits == std::vector<uint64_t>{0x3d010204u, 0x3d010204u});
  const auto qs = tvalues(rec.elems[1]);
  const double qs0[8] = {-127, 5, -116, 17, -104, 29, -92, 41}, qs1[8] = {106, -15, 118, -3, -124, 9, -112, 21};
  for (int i = 0; i < 8; ++i) {
    CHECK(qs[static_cast<size_t>(i)] == qs0[i]);
    CHECK(qs[static_cast<size_t>(256 + i)] == qs1[i]);
  }
  const auto bs = tvalues(rec.elems[2]);
  const double bs0[4] = {-319, -84, 148, 130}, bs1[4] = {-130, 101, 337, -192};
  for (int i = 0; i < 4; ++i) {
    CHECK(bs[static_cast<size_t>(i)] == bs0[i]);
    CHECK(bs[static_cast<size_t>(16 + i)] == bs1[i]);
  }
}

TEST_CASE("[L11.3] quantize q8_K of a hand-built row", "[interp][L11.3]") {
  auto m = load(kQuant);
  // Row of ones except y[5] = -2 (first block); the max-magnitude value -2 gives iscale = -127/-2
  // = 63.5, d = 1/63.5; y = 1 -> nearest_int(63.5) = 64 (ties to even), y[5] -> -127.
  std::vector<double> y(512, 1.0);
  y[5] = -2.0;
  auto r = interp::Interpreter(*m).call_helper("q", {interp::Value(tensor(DType::F32, {1, 512}, y))});
  const auto& rec = r[0].record();
  CHECK(tvalues(rec.elems[0])[0] == static_cast<double>(1.f / 63.5f));
  const auto qs = tvalues(rec.elems[1]);
  CHECK(qs[0] == 64);
  CHECK(qs[5] == -127);
  const auto bs = tvalues(rec.elems[2]);
  CHECK(bs[0] == 15 * 64 - 127);
  CHECK(bs[1] == 16 * 64);
}

TEST_CASE("[L11.3] quantized_dot q4_K x q8_K reproduces the ggml known answer", "[interp][L11.3]") {
  auto m = load(kQuant);
  auto r = interp::Interpreter(*m).call_helper("qd", {q4_record_from_hex(), interp::Value(tensor(DType::F32, {1, 512}, kat_x(2246822519u, 12345, 32.f)))});
  CHECK(r[0].tensor().shape == interp::Shape{1, 1});
  CHECK(r[0].tensor().bits == std::vector<uint64_t>{0x422c2730u});
}

TEST_CASE("[L11.3] quantized_dot of hand-built blocks: sub-block scales and mins", "[interp][L11.3]") {
  auto m = load(kQuant);
  // q4_K: d = 1.0 (f16 0x3C00), dmin = 0.5 (0x3800); every sub-block scale 1 and min 1:
  // scales[0..3] = 1, scales[4..7] = 1, scales[8..11] = 0x11; every nibble 1 -> weight
  // 1*1*1 - 0.5*1 = 0.5. q8_K: d = 0.5, qs = 2 (value 1.0), bsums = 16*2 = 32.
  // dot = 256 * 0.5 * 1.0 = 128 (ggml: d*sum(sc*q4*q8)*d8 - dmin*d8*sum(min*bsums) = 256 - 128).
  std::vector<uint64_t> scales = {1, 1, 1, 1, 1, 1, 1, 1, 0x11, 0x11, 0x11, 0x11};
  interp::RecordV l;
  l.names = {"d", "dmin", "scales", "qs"};
  l.elems = {interp::Value(raw_tensor(DType::F16, {1}, {0x3C00})), interp::Value(raw_tensor(DType::F16, {1}, {0x3800})),
             interp::Value(raw_tensor(DType::U8, {1, 12}, scales)), interp::Value(raw_tensor(DType::U8, {1, 128}, std::vector<uint64_t>(128, 0x11)))};
  interp::RecordV q;
  q.names = {"d", "qs", "bsums"};
  q.elems = {interp::Value(tensor(DType::F32, {1}, {0.5})), interp::Value(tensor(DType::I8, {256}, std::vector<double>(256, 2))),
             interp::Value(tensor(DType::I16, {16}, std::vector<double>(16, 32)))};
  auto r = interp::Interpreter(*m).call_helper("dot1", {interp::Value(std::move(l)), interp::Value(std::move(q))});
  CHECK(tvalues(r[0]) == std::vector<double>{128});
}

namespace {
const char* kSparse = R"(
fn @s24(%c: f32[M, 4], %meta: u8[M, 4], %rhs: f32[8, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = two_of_four} : f32[M, N]
  return(%y)
}

fn @s12(%c: f32[M, 4], %meta: u8[M, 4], %rhs: f32[8, N]) -> f32[M, N] {
  %y = sparse_matmul(%c, %meta, %rhs) {acc_dtype = f32, format = one_of_two} : f32[M, N]
  return(%y)
}
)";

// rhs [8, 2]: column 0 = 1..8, column 1 = all ones.
interp::Value sparse_rhs() { return interp::Value(tensor(DType::F32, {8, 2}, {1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6, 1, 7, 1, 8, 1})); }
}  // namespace

TEST_CASE("[L12.1] sparse_matmul two_of_four equals the dense product of the decompressed row", "[interp][L12.1]") {
  auto m = load_surface(kSparse);
  CHECK(has_op(*m, "sparse_contract"));
  // values [2, 5 | -1, 4] at positions [1, 3 | 0, 2]: dense row [0, 2, 0, 5, -1, 0, 4, 0]
  // column 0: 2*2 + 5*4 - 1*5 + 4*7 = 47; column 1: 2 + 5 - 1 + 4 = 10
  auto r = interp::Interpreter(*m).call_helper(
      "s24", {interp::Value(tensor(DType::F32, {1, 4}, {2, 5, -1, 4})), interp::Value(tensor(DType::U8, {1, 4}, {1, 3, 0, 2})), sparse_rhs()});
  CHECK(tvalues(r[0]) == std::vector<double>{47, 10});
}

TEST_CASE("[L12.1] sparse_matmul one_of_two equals the dense product of the decompressed row", "[interp][L12.1]") {
  auto m = load_surface(kSparse);
  // values [3, -2, 1, 2] at positions [1, 0, 0, 1] of groups of two: dense [0, 3, -2, 0, 1, 0, 0, 2]
  // column 0: 3*2 - 2*3 + 1*5 + 2*8 = 21; column 1: 3 - 2 + 1 + 2 = 4
  auto r = interp::Interpreter(*m).call_helper(
      "s12", {interp::Value(tensor(DType::F32, {1, 4}, {3, -2, 1, 2})), interp::Value(tensor(DType::U8, {1, 4}, {1, 0, 0, 1})), sparse_rhs()});
  CHECK(tvalues(r[0]) == std::vector<double>{21, 4});
}

TEST_CASE("[L12.1] illegal sparse metadata is a run-time error naming op, location and coordinates", "[interp][L12.1]") {
  auto m = load_surface(kSparse);
  auto c = interp::Value(tensor(DType::F32, {2, 4}, {1, 1, 1, 1, 1, 1, 1, 1}));
  auto check_bad = [&](const char* fn, std::vector<double> meta, const std::string& coords) {
    INFO(fn << " coords " << coords);
    try {
      interp::Interpreter(*m).call_helper(fn, {c, interp::Value(tensor(DType::U8, {2, 4}, meta)), sparse_rhs()});
      FAIL("expected an error");
    } catch (const interp::RuntimeError& e) {
      INFO(e.what());
      CHECK(e.kind() == interp::ErrorKind::InvalidValue);
      CHECK(e.op() == "sparse_contract");
      CHECK(e.location().find("t.kir:") != std::string::npos);
      CHECK(std::string(e.what()).find(coords) != std::string::npos);
    }
  };
  check_bad("s24", {0, 1, 2, 3, 0, 1, 1, 1}, "(1, 3)");  // position 1 repeated in row 1's second group
  check_bad("s24", {0, 4, 0, 1, 0, 1, 0, 1}, "(0, 1)");  // position 4 outside the group of four
  check_bad("s12", {0, 1, 0, 2, 0, 0, 0, 0}, "(0, 3)");  // position 2 outside the group of two
}
