// `kir numerics format DTYPE` (issue 15 item 8): the encoding of a dtype and what casts into it do,
// checked against the formats' published facts (OCP FP8/MX: e4m3 max 448 = 0x7E, no Inf; e2m1
// saturates at 6; e8m0 is 2^(e-127) with no zero; IEEE bf16 is 1/8/7).
#include <catch2/catch.hpp>
#include <string>

#include "tests/run_tool.h"

TEST_CASE("kir numerics format prints encodings, ranges, special values and cast rules", "[cli][numerics]") {
  auto r = kir::test::run_kir("numerics format e4m3");
  CHECK(r.code == 0);
  CHECK(r.out.find("sign/exponent/mantissa bits: 1/4/3, bias 7") != std::string::npos);
  CHECK(r.out.find("max finite: 448 (0x7e)") != std::string::npos);
  CHECK(r.out.find("min subnormal: 0.001953125 (0x01)") != std::string::npos);
  CHECK(r.out.find("infinity: none") != std::string::npos);
  CHECK(r.out.find("a value too large becomes NaN") != std::string::npos);
  r = kir::test::run_kir("numerics format e2m1");
  CHECK(r.out.find("max finite: 6 (0x7)") != std::string::npos);
  CHECK(r.out.find("+-max finite (saturates)") != std::string::npos);
  CHECK(r.out.find("NaN becomes an invalid-cast error") != std::string::npos);
  r = kir::test::run_kir("numerics format e8m0");
  CHECK(r.out.find("min normal: 5.877471754111438e-39 (0x00)") != std::string::npos);
  CHECK(r.out.find("zero: none") != std::string::npos);
  r = kir::test::run_kir("numerics format bf16");
  CHECK(r.out.find("1/8/7, bias 127, precision 8 bits") != std::string::npos);
  CHECK(r.out.find("infinity: inf (0x7f80)") != std::string::npos);
  r = kir::test::run_kir("numerics format i8");
  CHECK(r.out.find("range [-128, 127]") != std::string::npos);
  r = kir::test::run_kir("numerics format u64");
  CHECK(r.out.find("range [0, 18446744073709551615]") != std::string::npos);
  r = kir::test::run_kir("numerics format f33");
  CHECK(r.code == 2);
  CHECK(r.out.find("unknown dtype 'f33' (did you mean f32?)") != std::string::npos);
}

TEST_CASE("kir numerics eval computes every pointwise function kir run does, inputs shown rounded", "[cli][numerics]") {
  auto r = kir::test::run_kir("numerics eval pow f32 2 0.5");
  CHECK(r.code == 0);
  // sqrt(2) rounded to f32 is 0x3fb504f3
  CHECK(r.out.find("pow(f32 0x40000000 2, f32 0x3f000000 0.5) -> f32 0x3fb504f3") != std::string::npos);
  // 0.1 and 0.2 in f16 are 0x2e66 and 0x3266; their sum rounds to 0x34cc (0.2998046875)
  r = kir::test::run_kir("numerics eval add f16 0.1 0.2");
  CHECK(r.out.find("add(f16 0x2e66 0.0999755859375, f16 0x3266 0.199951171875) -> f16 0x34cc 0.2998046875") !=
        std::string::npos);
  r = kir::test::run_kir("numerics eval rem f32 5.5 2");  // fmod: 1.5
  CHECK(r.out.find("-> f32 0x3fc00000 1.5") != std::string::npos);
  r = kir::test::run_kir("numerics eval sinn f32 1");
  CHECK(r.code == 2);
  CHECK(r.out.find("unknown function 'sinn' (did you mean sin?)") != std::string::npos);
}

TEST_CASE("kir numerics philox --key --ctr prints one raw Philox4x32-10 block", "[cli][numerics][L17.1]") {
  // Random123's known-answer vectors for philox4x32-10.
  auto zero = kir::test::run_kir("numerics philox --key 0,0 --ctr 0,0,0,0");
  CHECK(zero.code == 0);
  CHECK(zero.out == "0x6627e8d5 0xe169c58d 0xbc57ac4c 0x9b00dbd8\n");
  auto pi = kir::test::run_kir("numerics philox --key 0xa4093822,0x299f31d0 --ctr 0x243f6a88,0x85a308d3,0x13198a2e,0x03707344");
  CHECK(pi.code == 0);
  CHECK(pi.out == "0xd16cfe09 0x94fdcceb 0x5001e420 0x24126ea1\n");
  auto few = kir::test::run_kir("numerics philox --key 1 --ctr 0,0,0,0");
  CHECK(few.code == 2);
  CHECK(few.out.find("--key takes 2 words and --ctr 4") != std::string::npos);
  auto bad = kir::test::run_kir("numerics philox --key 1,x --ctr 0,0,0,0");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("--key word 1: 'x' is not an unsigned 32-bit word") != std::string::npos);
  auto none = kir::test::run_kir("numerics philox");
  CHECK(none.code == 2);
  CHECK(none.out.find("SEED and COUNTER are required") != std::string::npos);
}

TEST_CASE("kir numerics --json prints the same results as one JSON document", "[cli][numerics]") {
  auto cast = kir::test::run_kir("numerics cast f32 f16 --json 1.0 70000");
  CHECK(cast.code == 0);
  CHECK(cast.out.find("\"bits\": \"0x3c00\"") != std::string::npos);  // 1.0 in f16
  CHECK(cast.out.find("\"value\": \"inf\"") != std::string::npos);    // 70000 overflows f16 to +inf
  auto eval = kir::test::run_kir("numerics eval add f16 --json 1 0.0004");
  CHECK(eval.code == 0);
  CHECK(eval.out.find("\"function\": \"add\"") != std::string::npos);
  CHECK(eval.out.find("\"output\"") != std::string::npos);
  auto ulp = kir::test::run_kir("numerics ulp f32 --json 1 1.0000002");
  CHECK(ulp.code == 0);
  CHECK(ulp.out.find("\"ulps\": 2") != std::string::npos);  // 1 + 2^-22 is two f32 steps above 1
  auto philox = kir::test::run_kir("numerics philox --json --key 0,0 --ctr 0,0,0,0");
  CHECK(philox.out.find("\"0x6627e8d5\"") != std::string::npos);
  auto format = kir::test::run_kir("numerics format e4m3 --json");
  CHECK(format.code == 0);
  CHECK(format.out.find("\"max_finite\"") != std::string::npos);
  CHECK(format.out.find("\"value\": \"448\"") != std::string::npos);
  CHECK(format.out.find("\"infinity\": null") != std::string::npos);
  CHECK(format.out.find("\"cast_overflow\": \"nan\"") != std::string::npos);
}

TEST_CASE("kir spec validate --json lists every diagnostic with its place and rule", "[cli]") {
  auto ok = kir::test::run_kir("spec validate --json " + std::string(KIR_SOURCE_DIR) + "/specs");
  CHECK(ok.code == 0);
  CHECK(ok.out.find("\"errors\": 0") != std::string::npos);
  CHECK(ok.out.find("\"ops\": 48") != std::string::npos);
  auto bad = kir::test::run_kir("spec validate --json " + std::string(KIR_SOURCE_DIR) + "/tests/specs/data/invalid/broken.yaml");
  CHECK(bad.code == 1);
  CHECK(bad.out.find("\"diagnostics\": [") != std::string::npos);
  CHECK(bad.out.find("\"line\": ") != std::string::npos);
  CHECK(bad.out.find("\"rule\": \"") != std::string::npos);
}

TEST_CASE("kir numerics cast says why a value became NaN, infinite, saturated or zero", "[cli][numerics]") {
  // e4m3 (max 448, no infinity) does not saturate: beyond the midpoint 464 a cast gives NaN; the
  // midpoint itself rounds to 448 (ties to even), which is plain rounding and needs no note.
  auto e4m3 = kir::test::run_kir("numerics cast f32 e4m3 465 464");
  CHECK(e4m3.out.find("465 -> e4m3 0x7f nan (|x| is beyond e4m3's largest finite value 448, and a cast into e4m3 does not "
                      "saturate: NaN)") != std::string::npos);
  CHECK(e4m3.out.find("464 -> e4m3 0x7e 448\n") != std::string::npos);
  // e2m1 saturates at 6; 7 is the midpoint to 8, where ties-to-even would leave 6's odd encoding.
  auto e2m1 = kir::test::run_kir("numerics cast f32 e2m1 7 6.5");
  CHECK(e2m1.out.find("7 -> e2m1 0x7 6 (|x| is beyond e2m1's largest finite value 6, and a cast into e2m1 saturates there)") !=
        std::string::npos);
  CHECK(e2m1.out.find("6.5 -> e2m1 0x7 6\n") != std::string::npos);
  auto f16 = kir::test::run_kir("numerics cast f32 f16 70000 1e-9");
  CHECK(f16.out.find("(|x| is beyond f16's largest finite value 65504: overflow to infinity)") != std::string::npos);
  CHECK(f16.out.find("(|x| is below half of f16's smallest value: underflow to zero)") != std::string::npos);
}
