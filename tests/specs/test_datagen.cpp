// Input data generation: seeded and reproducible, values by dtype, special-value injection,
// generated metadata verbatim, and the .npy format.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <set>
#include <tuple>

#include "numerics/format.h"
#include "specs/src/datagen.h"
#include "specs/src/dtypes.h"
#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {
struct Fixture {
  Manifest m;
  std::vector<Call> calls;
  const OpSpec* op = nullptr;
  Fixture(const std::string& name, const std::string& label) {
    SpecDiags d;
    load_paths({std::string(KIR_SOURCE_DIR) + "/specs"}, m, d);
    op = m.op(name);
    InstantiateOptions o;
    o.only_label = label;
    calls = instantiate_op(*op, m, d, o);
  }
};
}  // namespace

TEST_CASE("data is reproducible per op, tensor and case", "[M14]") {
  Fixture f("ClampFwdOp", "lower");
  REQUIRE(f.calls.size() == 1);
  auto a = generate_inputs(*f.op, f.calls[0], {});
  auto b = generate_inputs(*f.op, f.calls[0], {});
  REQUIRE(a.size() == 2);  // input and min; max absent
  CHECK(a[0].bytes == b[0].bytes);
  CHECK(a[0].bytes != a[1].bytes);
  CHECK(a[0].bytes.size() == 4 * 256 * 2);
}

TEST_CASE("metadata tensors carry exactly their generated values", "[M14]") {
  Fixture f("GroupedGemmFwdOp", "uneven-tn");
  auto data = generate_inputs(*f.op, f.calls[0], {});
  const TensorData* sizes = nullptr;
  for (const auto& t : data)
    if (t.name == "batch_sizes") sizes = &t;
  REQUIRE(sizes);
  int32_t v[3];
  std::memcpy(v, sizes->bytes.data(), sizeof v);
  CHECK(v[0] == 7);  // balanced_sizes(20, 3) = 7, 7, 6
  CHECK(v[1] == 7);
  CHECK(v[2] == 6);
}

TEST_CASE("integer inputs reach the whole dtype range and small values", "[M14]") {
  // Each element is, with equal odds, a draw over every bit of the dtype or a value in [0, 8).
  Fixture f("LongRoPEFwdOp", "plain");
  size_t huge = 0, small = 0, negative = 0;
  for (const auto& t : generate_inputs(*f.op, f.calls[0], {}))
    if (t.name == "positions") {
      for (size_t k = 0; k < t.bytes.size(); k += 8) {
        int64_t x;
        std::memcpy(&x, t.bytes.data() + k, 8);
        huge += x >= (int64_t{1} << 32) || x < -(int64_t{1} << 32);
        small += x >= 0 && x < 8;
        negative += x < 0;
      }
    }
  CHECK(huge > 0);
  CHECK(small > 0);
  CHECK(negative > 0);
}

TEST_CASE("packed int4 and q4_K bytes set their high bits", "[M14][M17]") {
  for (const auto& [op, label, tensor] : {std::tuple{"GemmW4A16FwdOp", "", "packed_weight"}, std::tuple{"GemvQ4KFwdOp", "", "w_qs"},
                                          std::tuple{"GemvQ4KFwdOp", "", "w_scales"}}) {
    Fixture f(op, label);
    REQUIRE(!f.calls.empty());
    size_t high_nibble = 0, top_bit = 0;
    for (const auto& t : generate_inputs(*f.op, f.calls[0], {}))
      if (t.name == tensor)
        for (uint8_t b : t.bytes) {
          high_nibble += (b >> 4) != 0;
          top_bit += (b & 0x80) != 0;
        }
    INFO(op << " " << tensor);
    CHECK(high_nibble > 0);
    CHECK(top_bit > 0);
  }
}

TEST_CASE("special-value injection puts specials into float inputs", "[M14]") {
  Fixture f("SoftmaxFwdOp", "mid-axis");
  auto plain = generate_inputs(*f.op, f.calls[0], {});
  DataOptions o;
  o.inject_special = true;
  auto special = generate_inputs(*f.op, f.calls[0], o);
  size_t nonfinite = 0, plain_nonfinite = 0;
  for (size_t k = 0; k < special[0].bytes.size(); k += 2) {
    uint64_t bits = special[0].bytes[k] | (special[0].bytes[k + 1] << 8);
    uint64_t pbits = plain[0].bytes[k] | (plain[0].bytes[k + 1] << 8);
    nonfinite += !kir::num::is_finite(bits, kir::DType::F16);
    plain_nonfinite += !kir::num::is_finite(pbits, kir::DType::F16);
  }
  CHECK(nonfinite > 0);
  CHECK(plain_nonfinite == 0);
}

TEST_CASE("the .npy header is a format 1.0 header aligned to 64 bytes", "[M14]") {
  TensorData t{"x", "float32", {2, 3}, std::vector<uint8_t>(24, 0), "<f4"};
  std::string path = std::filesystem::temp_directory_path().string() + "/kir_specs_test.npy";
  std::string err;
  REQUIRE(write_npy(t, path, err));
  std::string text = spec_test::read_text(path);
  CHECK(text.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  size_t hl = static_cast<unsigned char>(text[8]) | (static_cast<unsigned char>(text[9]) << 8);
  CHECK((10 + hl) % 64 == 0);
  CHECK(text.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") == 10);
  CHECK(text.size() == 10 + hl + 24);
}

namespace {
Call one_tensor_call(const std::string& dtype, long n) {
  Call c;
  c.case_id = "x";
  TensorCall t;
  t.name = "x";
  t.dtype = dtype;
  t.shape = {n};
  c.tensors.push_back(t);
  return c;
}
}  // namespace

TEST_CASE("integer inputs are Python's draws: getrandbits or randrange(8), by a coin", "[M14]") {
  // python3: r = random.Random(1235 ^ zlib.crc32(b"XFwdOp:x:x"))
  //          [r.getrandbits(bits) if r.randrange(2) == 0 else r.randrange(8) for _ in range(n)]
  OpSpec op;
  op.name = "XFwdOp";
  auto u8 = generate_inputs(op, one_tensor_call("uint8", 16), {});
  CHECK(u8[0].bytes == std::vector<uint8_t>{0x55, 0x06, 0x07, 0x45, 0x03, 0x07, 0x05, 0xec, 0x7f, 0x05, 0x7e, 0x02, 0x58, 0x70, 0x85, 0xe0});
  auto i8 = generate_inputs(op, one_tensor_call("int8", 16), {});
  CHECK(i8[0].bytes == u8[0].bytes);  // the same bits, read as -20, -123, -32 where the top bit is set
  auto i64 = generate_inputs(op, one_tensor_call("int64", 6), {});
  std::vector<int64_t> v(6);
  std::memcpy(v.data(), i64[0].bytes.data(), 48);
  CHECK(v == std::vector<int64_t>{7641572945085541225, 7, 0, 7, -7712803256826783832, 5});
  auto b = generate_inputs(op, one_tensor_call("bool", 64), {});
  for (uint8_t x : b[0].bytes) CHECK(x <= 1);
}

TEST_CASE("float8_e4m3 inputs are gauss draws rounded to nearest even like the other float8s", "[M14]") {
  // The same draws as the fnuz test below, encoded by a brute-force nearest-code search over the
  // decoded values of the IEEE-style e4m3 (bias 7, Inf at 0x78) with exact fractions.
  OpSpec op;
  op.name = "XFwdOp";
  auto e4 = generate_inputs(op, one_tensor_call("float8_e4m3", 8), {});
  REQUIRE(e4.size() == 1);
  CHECK(e4[0].npy_descr == "|u1");
  CHECK(e4[0].bytes == std::vector<uint8_t>{0x38, 0x22, 0xa8, 0x0c, 0xb1, 0xab, 0xb7, 0xb0});
  DataOptions o;
  o.inject_special = true;
  auto sp = generate_inputs(op, one_tensor_call("float8_e4m3", 512), o);
  std::set<uint8_t> seen(sp[0].bytes.begin(), sp[0].bytes.end());
  for (uint8_t code : {0x00, 0x80, 0x7C, 0x77, 0xF7, 0x78, 0xF8}) {  // ±0, NaN, ±240, ±Inf
    INFO(int(code));
    CHECK(seen.count(code));
  }
}

TEST_CASE("fnuz float8 inputs are Python gauss draws rounded to nearest even", "[M14]") {
  // python3: r = random.Random(1235 ^ zlib.crc32(b"XFwdOp:x:x")); xs = [r.gauss() for _ in range(8)]
  // (1.0231, 0.1519, -0.2559, 0.0236, -0.5701, -0.3499, -0.936, -0.5291), each encoded by a
  // brute-force nearest-code search over the 255 decoded values with exact fractions.
  OpSpec op;
  op.name = "XFwdOp";
  auto e4 = generate_inputs(op, one_tensor_call("float8_e4m3fnuz", 8), {});
  auto e5 = generate_inputs(op, one_tensor_call("float8_e5m2fnuz", 8), {});
  REQUIRE(e4.size() == 1);
  CHECK(e4[0].npy_descr == "|u1");
  CHECK(e4[0].bytes == std::vector<uint8_t>{0x40, 0x2a, 0xb0, 0x14, 0xb9, 0xb3, 0xbf, 0xb8});
  CHECK(e5[0].bytes == std::vector<uint8_t>{0x40, 0x35, 0xb8, 0x2a, 0xbd, 0xba, 0xbf, 0xbc});
}

TEST_CASE("special values for fnuz formats: NaN 0x80 and +-max, no -0 or inf", "[M14]") {
  OpSpec op;
  op.name = "XFwdOp";
  DataOptions o;
  o.inject_special = true;
  for (const char* dt : {"float8_e4m3fnuz", "float8_e5m2fnuz"}) {
    INFO(dt);
    auto plain = generate_inputs(op, one_tensor_call(dt, 4096), {});
    auto special = generate_inputs(op, one_tensor_call(dt, 4096), o);
    size_t nan = 0, pmax = 0, nmax = 0, plain_nan = 0;
    for (uint8_t b : special[0].bytes) {
      nan += b == 0x80;
      pmax += b == 0x7F;
      nmax += b == 0xFF;
    }
    for (uint8_t b : plain[0].bytes) plain_nan += b == 0x80;
    CHECK(nan > 0);
    CHECK(pmax > 0);
    CHECK(nmax > 0);
    CHECK(plain_nan == 0);  // |gauss| draws stay far below 240
  }
}

TEST_CASE("float4_e2m1fn_x2 packs two gauss draws rounded to e2m1, the first in the low nibble", "[M14][M17]") {
  // The draws of the fnuz test above, in pairs, rounded by hand to the e2m1 magnitudes
  // {0, 0.5, 1, 1.5, 2, 3, 4, 6} (code = sign << 3 | index):
  // (1.0231 -> 1 = 0x2, 0.1519 -> 0 = 0x0) = 0x02; (-0.2559 -> -0.5 = 0x9, 0.0236 -> 0) = 0x09;
  // (-0.5701 -> -0.5, -0.3499 -> -0.5) = 0x99; (-0.936 -> -1 = 0xA, -0.5291 -> -0.5 = 0x9) = 0x9A.
  OpSpec op;
  op.name = "XFwdOp";
  auto d = generate_inputs(op, one_tensor_call("float4_e2m1fn_x2", 4), {});
  REQUIRE(d.size() == 1);
  CHECK(d[0].npy_descr == "|u1");
  CHECK(d[0].bytes == std::vector<uint8_t>{0x02, 0x09, 0x99, 0x9A});
}

TEST_CASE("float8_e8m0fnu scales are powers of two in [2^-3, 2^3]", "[M14]") {
  // python3: r = random.Random(1235 ^ zlib.crc32(b"XFwdOp:x:x")); [124 + r.randrange(7) for _ in range(8)]
  OpSpec op;
  op.name = "XFwdOp";
  auto d = generate_inputs(op, one_tensor_call("float8_e8m0fnu", 8), {});
  REQUIRE(d.size() == 1);
  CHECK(d[0].bytes == std::vector<uint8_t>{124, 126, 127, 127, 127, 127, 124, 126});
}

TEST_CASE("the MX carriers have KIR spellings for kernels", "[M16]") {
  CHECK(kir_dtype_name("float8_e8m0fnu") == "e8m0");
  CHECK(manifest_dtype_name("e8m0") == "float8_e8m0fnu");
  CHECK(kir_dtype_name("float4_e2m1fn_x2") == "u8");
  CHECK(manifest_dtype_name("u8") == "uint8");  // the carrier reads back as plain bytes
}
