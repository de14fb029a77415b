// Input data generation: seeded and reproducible, values by dtype, special-value injection,
// generated metadata verbatim, and the .npy format.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "numerics/format.h"
#include "specs/src/datagen.h"
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
  CHECK(v[0] == 334);
  CHECK(v[1] == 333);
  CHECK(v[2] == 333);
}

TEST_CASE("integer inputs are uniform in [0, 8)", "[M14]") {
  Fixture f("LongRoPEFwdOp", "plain");
  for (const auto& t : generate_inputs(*f.op, f.calls[0], {}))
    if (t.name == "positions") {
      for (size_t k = 0; k < t.bytes.size(); k += 8) {
        int64_t x;
        std::memcpy(&x, t.bytes.data() + k, 8);
        CHECK((x >= 0 && x < 8));
      }
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

TEST_CASE("fp8 formats kir numerics lacks fail loudly", "[M14]") {
  Call c;
  c.case_id = "x";
  TensorCall t;
  t.name = "x";
  t.dtype = "float8_e4m3fnuz";
  t.shape = {2};
  c.tensors.push_back(t);
  OpSpec op;
  op.name = "XFwdOp";
  CHECK_THROWS_WITH(generate_inputs(op, c, {}), Catch::Contains("not implemented: data generation for float8_e4m3fnuz"));
}
