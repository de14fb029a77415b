// Instantiation never outruns validation (issue 16, item 2): `kir spec instantiate` refuses an
// op `kir spec validate` rejects, naming the op and its first broken rule, and `--force` proceeds
// under a loud warning; the JSON keeps inf, -inf and nan apart from None. The CLI cases run the
// kir binary named by $KIR_BIN (set by CTest) and are skipped with a warning when it is unset.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "specs/src/call_json.h"
#include "tests/specs/spec_test_util.h"

using namespace kir::specs;

namespace {

const std::string kData = std::string(KIR_SOURCE_DIR) + "/tests/specs/data";

struct Run {
  int rc = -1;
  std::string out, err;
};

Run run_kir(const std::string& args) {
  Run r;
  auto dir = std::filesystem::temp_directory_path() / ("kir-gate-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string o = (dir / "out").string(), e = (dir / "err").string();
  int rc = std::system((std::string(std::getenv("KIR_BIN")) + " " + args + " > " + o + " 2> " + e).c_str());
  r.rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = spec_test::read_text(o);
  r.err = spec_test::read_text(e);
  std::filesystem::remove_all(dir);
  return r;
}

const std::string kInvalid = kData + "/invalid/moe_gated_axes.yaml";
const std::string kFirst = kInvalid +
                           ":10:22: [signature] GatedProjectFwdOp: index 'C' cannot be solved from the inputs (at "
                           "activation=None, present(activation)=False) [C41, M4] (kir explain C41)";

}  // namespace

TEST_CASE("validate_op holds the op's errors and every loader error", "[M5]") {
  Manifest m;
  SpecDiags loaded;
  load_types_text(spec_test::types_text(), "types.yaml", m, loaded);
  load_family_text(spec_test::read_text(kInvalid), "moe_gated_axes.yaml", m, loaded);
  auto d = validate_op(m, loaded, "GatedProjectFwdOp");
  CHECK(d.error_count() == 2);
  CHECK(d.contains("index 'C' cannot be solved from the inputs"));
  CHECK(validate_op(m, loaded, "NopeFwdOp").contains("no op named 'NopeFwdOp' in the manifests [L6]"));
  Manifest ok;
  SpecDiags okd;
  load_types_text(spec_test::types_text(), "types.yaml", ok, okd);
  load_family_text(spec_test::kGemm, "gemm.yaml", ok, okd);
  CHECK_FALSE(validate_op(ok, okd, "GemmFwdOp").has_errors());
}

TEST_CASE("JSON: non-finite floats are tagged objects, None is null", "[M5]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(value_json(Value::real(inf)).dump() == R"({"float":"inf"})");
  CHECK(value_json(Value::real(-inf)).dump() == R"({"float":"-inf"})");
  CHECK(value_json(Value::real(std::numeric_limits<double>::quiet_NaN())).dump() == R"({"float":"nan"})");
  CHECK(value_json(Value::real(-std::numeric_limits<double>::quiet_NaN())).dump() == R"({"float":"nan"})");
  CHECK(value_json(Value::none()).dump() == "null");
  CHECK(value_json(Value::real(-1.5)).dump() == "-1.5");
  CHECK(value_json(Value::real(-0.0)).dump() == "-0.0");
  CHECK(value_json(Value::str("inf")).dump() == R"("inf")");
  CHECK(value_json(Value::sequence({Value::real(inf), Value::none()})).dump() == R"([{"float":"inf"},null])");
  CHECK(value_json(Value::integer(mpz_class("123456789012345678901234567890"))).dump() == R"("123456789012345678901234567890")");
}

TEST_CASE("JSON of instantiated calls: inf, -inf, nan and None stay apart", "[M5]") {
  Manifest m;
  SpecDiags d;
  load_types_text(spec_test::types_text(), "types.yaml", m, d);
  load_family_text(spec_test::read_text(kData + "/valid/elementwise_bounds.yaml"), "elementwise_bounds.yaml", m, d);
  auto calls = instantiate_op(*m.op("ClipFillFwdOp"), m, d);
  INFO(d.render());
  REQUIRE(calls.size() == 2);
  CHECK(call_json(calls[0])["params"].dump() == R"({"cap":null,"fill":{"float":"nan"},"hi":{"float":"inf"},"lo":{"float":"-inf"}})");
  CHECK(call_json(calls[1])["params"].dump() == R"({"cap":{"float":"inf"},"fill":0.25,"hi":null,"lo":-1.5})");
  CHECK(call_json(calls[0])["ix"]["lo"].dump() == R"({"float":"-inf"})");
}

TEST_CASE("kir spec instantiate refuses an op validate rejects", "[M5][M4]") {
  if (!std::getenv("KIR_BIN")) {
    WARN("KIR_BIN is not set; run through ctest");
    return;
  }
  auto r = run_kir("spec instantiate " + kInvalid + " --op GatedProjectFwdOp");
  CHECK(r.rc == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find(kFirst + "\n") == 0);
  CHECK(r.err.find("kir spec instantiate: op 'GatedProjectFwdOp' does not validate (2 error(s)); first broken rule C41, M4: " +
                   kFirst + "\nkir spec instantiate: refusing to instantiate an invalid manifest (--force proceeds anyway)\n") !=
        std::string::npos);
}

TEST_CASE("kir spec instantiate --force proceeds on an invalid manifest, loudly", "[M5][M4]") {
  if (!std::getenv("KIR_BIN")) {
    WARN("KIR_BIN is not set; run through ctest");
    return;
  }
  auto r = run_kir("spec instantiate " + kInvalid + " --op GatedProjectFwdOp --force");
  CHECK(r.rc == 0);
  CHECK(r.err ==
        "kir spec instantiate: WARNING: --force: op 'GatedProjectFwdOp' does not validate (2 error(s)); first broken rule C41, M4: " +
            kFirst + "\nkir spec instantiate: WARNING: --force: proceeding on an INVALID manifest; the calls below may be wrong\n");
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["case_id"] == "plain-float16");
  CHECK(j[0]["invalid_manifest"] == kFirst);
}

TEST_CASE("kir spec instantiate of a valid op: no warning, no invalid_manifest, specials encoded", "[M5]") {
  if (!std::getenv("KIR_BIN")) {
    WARN("KIR_BIN is not set; run through ctest");
    return;
  }
  auto r = run_kir("spec instantiate " + kData + "/valid/elementwise_bounds.yaml --op ClipFillFwdOp");
  CHECK(r.rc == 0);
  CHECK(r.err.empty());
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 2);
  CHECK_FALSE(j[0].contains("invalid_manifest"));
  CHECK(j[0]["params"]["hi"] == nlohmann::json{{"float", "inf"}});
  CHECK(j[0]["params"]["cap"].is_null());
  auto b = run_kir("spec instantiate " + std::string(KIR_SOURCE_DIR) + "/specs/ops/gemm.yaml --op GemmFwdOp --force");
  CHECK(b.rc == 0);
  CHECK(b.err.empty());
}
