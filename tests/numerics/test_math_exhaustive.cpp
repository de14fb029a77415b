// Exhaustive check of every unary math function on all 65,536 f16 and bf16 encodings against
// the independent Boost.Multiprecision reference (tests/numerics/math_reference.h).
#include <catch2/catch.hpp>

#include <cstdio>

#include "numerics/math.h"
#include "tests/numerics/math_reference.h"

using namespace kir;

namespace {

void exhaustive(DType d) {
  for (int fi = 0; fi < num::kNumMathFns; ++fi) {
    const auto fn = static_cast<num::MathFn>(fi);
    long mismatches = 0;
    for (uint32_t b = 0; b < 65536; ++b) {
      const uint64_t want = test::reference(fn, d, b);
      const uint64_t got = num::eval(fn, d, b);
      if (want != got && mismatches++ < 5)
        UNSCOPED_INFO(num::name(fn) << "(" << kir::name(d) << " 0x" << std::hex << b << ") = 0x" << got
                                    << ", expected 0x" << want << std::dec);
    }
    INFO(num::name(fn) << " on " << kir::name(d));
    CHECK(mismatches == 0);
  }
}

}  // namespace

TEST_CASE("unary math is correctly rounded on every f16 input", "[L4.3][numerics]") {
  exhaustive(DType::F16);
}

TEST_CASE("unary math is correctly rounded on every bf16 input", "[L4.3][numerics]") {
  exhaustive(DType::BF16);
}
