// f64 inputs that are hard to round correctly (tests/numerics/data/f64_hard_cases.txt: published
// worst cases of exp, exp2, log, sin, cos, tanh, erf, erfc, asin and rsqrt, each within about
// 2^-(53+45) of a rounding boundary), each evaluated by numerics (its fast path and its MPFR
// path) and compared with the tests' Boost reference, which escalates from 128 to 256 bits when
// 128 cannot decide. Also the negated input of the odd functions whose lists hold only x > 0.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "numerics/math.h"
#include "tests/numerics/math_reference.h"

using namespace kir;
using num::MathFn;

namespace {

struct Case {
  MathFn fn;
  double x;
  int line;
};

std::vector<Case> load_cases() {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/tests/numerics/data/f64_hard_cases.txt");
  REQUIRE(in);
  std::vector<Case> out;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream ss(text);
    std::string fn, hex;
    ss >> fn >> hex;
    const auto f = fn == "rsqrt" ? std::optional<MathFn>(MathFn::Rsqrt) : num::parse_math_fn(fn);
    INFO("f64_hard_cases.txt:" << line << ": " << text);
    REQUIRE(f);
    char* end = nullptr;
    const double x = std::strtod(hex.c_str(), &end);
    REQUIRE(end != hex.c_str());
    REQUIRE(*end == '\0');
    out.push_back({*f, x, line});
  }
  return out;
}

}  // namespace

TEST_CASE("[L4.3] f64 hard-to-round cases of the published worst-case lists round correctly", "[L4.3][numerics][hard-cases]") {
  const auto cases = load_cases();
  REQUIRE(cases.size() >= 300);
  std::map<MathFn, int> per_fn;
  int bad = 0, checked = 0;
  for (const Case& c : cases) {
    ++per_fn[c.fn];
    std::vector<double> xs = {c.x};
    const bool odd = c.fn == MathFn::Sin || c.fn == MathFn::Tanh || c.fn == MathFn::Erf || c.fn == MathFn::Asin;
    if (odd && c.x > 0) xs.push_back(-c.x);
    for (double x : xs) {
      const uint64_t b = std::bit_cast<uint64_t>(x);
      const uint64_t want = test::reference(c.fn, DType::F64, b);
      const uint64_t fast = num::eval(c.fn, DType::F64, b), slow = num::eval_reference(c.fn, DType::F64, b);
      ++checked;
      if ((fast != want || slow != want) && ++bad <= 10)
        FAIL_CHECK(num::name(c.fn) << "(" << std::hexfloat << x << ") (f64_hard_cases.txt:" << c.line << "): got "
                                   << std::bit_cast<double>(fast) << " (MPFR path " << std::bit_cast<double>(slow)
                                   << "), expected " << std::bit_cast<double>(want));
    }
  }
  INFO(checked << " inputs checked");
  CHECK(bad == 0);
  CHECK(per_fn.size() == 10);
}
