// kir_verify_f32 FN BEGIN END: checks num::eval(FN, f32, x) for every f32 encoding x in
// [BEGIN, END) (hex or decimal, END <= 2^32) against a reference independent of numerics/, and
// prints one result line (scripts/verify-f32-exhaustive.sh runs it in shards and collects them).
//
// The reference is a filter with an escalation. The filter evaluates the function in double with
// the C library (glibc's exp, log, sin, ..., Boost.Math's double i0; sigmoid and rsqrt composed
// of a few correctly rounded double operations), whose relative error is a few double ulps
// (< 2^-49; glibc's lgamma included, which since glibc 2.22 stays within a few ulps near the
// zeros of lgamma at negative x as well). When that value lies farther than 2^-45 (relative)
// from every f32 rounding boundary — the midpoints between adjacent f32 values, the overflow
// threshold — rounding it to f32 gives the correctly rounded result whatever the double's
// error. Otherwise, and for special inputs
// (NaN, ±Inf, ±0) and NaN results, the input escalates to the tests' Boost reference
// (tests/numerics/math_reference.h: cpp_bin_float at 128 bits, then 256).
//
// The approximate modes (FN exp2:approx, exp2:approx-ftz, tanh:approx) check two things per input:
// kir's value in that mode (num::eval with ftz for approx-ftz) against the reference with the
// mode's flushing done here (a subnormal input read as the zero of its sign, a subnormal result
// replaced by the zero of its sign), and the mode's bound in the numerics contract
// (num::accepts): the result itself is accepted, and on each side of it the farthest value
// the bound allows is accepted and the next one rejected. That edge is computed here from the
// bound's definition (ulps counted in the order of values, ±0 one point; the relative bound
// r·2^-11 + half an ulp of r, ulp = 2^(max(e, -126) - 23)), for edges that stay finite, nonzero
// and of the result's sign.
//
// Output: "FN BEGIN END checked=N mismatches=M escalated=E seconds=S" and, for the first ten
// mismatches, "mismatch 0xBITS got=0x.. want=0x..". Progress goes to stderr with --progress.
#include <boost/math/special_functions/bessel.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "numerics/contract.h"
#include "numerics/math.h"
#include "tests/numerics/math_reference.h"

using kir::DType;
using kir::num::MathFn;

namespace {

constexpr double kTrust = 0x1p-45;  // relative distance to a boundary the filter needs

// The function in double, or NaN when the filter does not apply to x (escalate).
double filter_value(MathFn f, float xf) {
  const double x = xf;
  switch (f) {
    case MathFn::Exp: return std::exp(x);
    case MathFn::Exp2: return std::exp2(x);
    case MathFn::Log: return std::log(x);
    case MathFn::Log1p: return std::log1p(x);
    case MathFn::Lgamma: return std::lgamma(x);
    case MathFn::Sin: return std::sin(x);
    case MathFn::Cos: return std::cos(x);
    case MathFn::Asin: return std::asin(x);
    case MathFn::Tanh: return std::tanh(x);
    case MathFn::Erf: return std::erf(x);
    case MathFn::Erfc: return std::erfc(x);
    case MathFn::I0: return std::fabs(x) < 700 ? boost::math::cyl_bessel_i(0, x) : NAN;
    case MathFn::Rsqrt: return 1.0 / std::sqrt(x);
    case MathFn::Sqrt: return std::sqrt(x);
    case MathFn::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case MathFn::Floor: return std::floor(x);
    case MathFn::Abs: return std::fabs(x);
  }
  return NAN;
}

// The f32 encoding y rounds to, when y is far enough from every f32 rounding boundary. A double
// that overflowed or underflowed to zero stands for a value far beyond f32's range (the inputs
// are finite and nonzero, so no exact infinity or zero of a function reaches here).
std::optional<uint32_t> decided(double y) {
  if (std::isnan(y)) return std::nullopt;
  if (std::isinf(y) || y == 0) return std::bit_cast<uint32_t>(static_cast<float>(y));
  constexpr double kOverflow = 0x1p128 - 0x1p103;  // the midpoint above the largest finite f32
  const float r = static_cast<float>(y);
  const double margin = kTrust * std::fabs(y);
  if (std::isinf(r)) {  // beyond the overflow threshold
    if (std::fabs(y) - kOverflow <= margin) return std::nullopt;
    return std::bit_cast<uint32_t>(r);
  }
  const float below = std::nextafter(r, -INFINITY), above = std::nextafter(r, INFINITY);
  const double bottom = std::isinf(below) ? -kOverflow : (static_cast<double>(r) + below) / 2;
  const double top = std::isinf(above) ? kOverflow : (static_cast<double>(r) + above) / 2;
  if (y - bottom <= margin || top - y <= margin) return std::nullopt;
  return std::bit_cast<uint32_t>(r);
}

// Position of an f32 encoding in the order of values, ±0 one point (NaN: not used here).
int64_t order_index(uint32_t b) { return b >> 31 ? -static_cast<int64_t>(b & 0x7fffffffu) : static_cast<int64_t>(b); }
uint32_t from_index(int64_t i) { return i >= 0 ? static_cast<uint32_t>(i) : 0x80000000u | static_cast<uint32_t>(-i); }

bool subnormal(uint32_t b) { return (b & 0x7f800000u) == 0 && (b & 0x7fffffu) != 0; }
uint32_t flush(uint32_t b) { return subnormal(b) ? b & 0x80000000u : b; }

// The mode's bound at the correctly rounded result `want`: mismatches found among the result
// itself and the edge candidates on each side (see the header).
int bound_mismatches(const kir::num::Accuracy& a, uint32_t want, std::vector<std::string>& first) {
  const float w = std::bit_cast<float>(want);
  if (!std::isfinite(w) || w == 0) return kir::num::accepts(a, want, want) ? 0 : 1;
  int bad = kir::num::accepts(a, want, want) ? 0 : 1;
  const int64_t k = order_index(want);
  const uint32_t ef = (want >> 23) & 0xff;
  const double half_ulp = 0.5 * std::ldexp(1.0, std::max(static_cast<int>(ef), 1) - 127 - 23);
  const double reach = a.max_rel * std::fabs(static_cast<double>(w)) + half_ulp;  // exact in double
  for (int side : {-1, 1}) {
    int64_t edge = k + side * static_cast<int64_t>(a.max_ulps);
    if (a.max_rel > 0) {  // the farthest f32 within reach on this side
      const double target = static_cast<double>(w) + side * reach;
      float v = static_cast<float>(target);
      if (side > 0 ? static_cast<double>(v) > target : static_cast<double>(v) < target)
        v = std::nextafter(v, side > 0 ? -INFINITY : INFINITY);
      const int64_t kv = order_index(std::bit_cast<uint32_t>(v));
      if (side * (kv - edge) > 0) edge = kv;
    }
    for (int64_t i : {edge, edge + side}) {
      const uint32_t c = from_index(i);
      const float cv = std::bit_cast<float>(c);
      if (!std::isfinite(cv) || cv == 0 || std::signbit(cv) != std::signbit(w) || c == want) continue;
      const bool expect = i == edge;
      if (kir::num::accepts(a, c, want) != expect) {
        ++bad;
        if (first.size() < 10) {
          char line[160];
          std::snprintf(line, sizeof line, "bound at want=0x%08" PRIx32 ": candidate 0x%08" PRIx32 " %s, expected %s", want, c,
                        expect ? "rejected" : "accepted", expect ? "accepted" : "rejected");
          first.push_back(line);
        }
      }
    }
  }
  return bad;
}

bool parse_u64(const char* s, uint64_t& out) {
  char* end = nullptr;
  out = std::strtoull(s, &end, 0);
  return end != s && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  bool progress = false;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--progress") progress = true;
    else args.push_back(argv[i]);
  }
  uint64_t begin = 0, end = 0;
  // FN or FN:approx / FN:approx-ftz (the approximate modes)
  std::string fn_name = args.empty() ? "" : args[0], mode_name;
  if (const auto colon = fn_name.find(':'); colon != std::string::npos) {
    mode_name = fn_name.substr(colon + 1);
    fn_name.resize(colon);
  }
  MathFn f{};
  bool known = false;
  if (const auto parsed = args.size() == 3 ? kir::num::parse_math_fn(fn_name) : std::nullopt) {
    f = *parsed;
    known = true;
  }
  const kir::num::MathMode mode = mode_name == "approx" ? kir::num::MathMode::Approximate
                                  : mode_name == "approx-ftz" ? kir::num::MathMode::ApproximateFtz
                                                              : kir::num::MathMode::Default;
  const bool ftz = mode == kir::num::MathMode::ApproximateFtz;
  const auto accuracy = known ? kir::num::accuracy(kir::num::contract_op(f), DType::F32, mode) : std::nullopt;
  if (known && (!accuracy || (!mode_name.empty() && mode == kir::num::MathMode::Default))) {
    std::fprintf(stderr, "kir_verify_f32: %s is not a mode of f32 %s (modes: exp2:approx, exp2:approx-ftz, tanh:approx)\n",
                 args[0].c_str(), fn_name.c_str());
    return 2;
  }
  if (!known || !parse_u64(args[1].c_str(), begin) || !parse_u64(args[2].c_str(), end) || begin > end ||
      end > (uint64_t{1} << 32)) {
    std::fprintf(stderr, "usage: kir_verify_f32 [--progress] FN BEGIN END   (0 <= BEGIN <= END <= 2^32; FN exp, log, ..., or exp2:approx, exp2:approx-ftz, tanh:approx)\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t mismatches = 0, escalated = 0;
  std::vector<std::string> first;
  for (uint64_t b = begin; b < end; ++b) {
    const uint32_t bits = static_cast<uint32_t>(b);
    const uint32_t in = ftz ? flush(bits) : bits;
    const float x = std::bit_cast<float>(in);
    std::optional<uint32_t> want;
    if (std::isfinite(x) && x != 0) want = decided(filter_value(f, x));
    if (!want) {
      ++escalated;
      want = static_cast<uint32_t>(kir::test::reference(f, DType::F32, in));
    }
    if (ftz) want = flush(*want);
    const uint64_t got = kir::num::eval(f, DType::F32, bits, ftz);
    if (mode != kir::num::MathMode::Default) mismatches += bound_mismatches(*accuracy, *want, first);
    if (got != *want) {
      if (++mismatches && first.size() < 10) {
        char line[128];
        std::snprintf(line, sizeof line, "mismatch 0x%08" PRIx32 " got=0x%08" PRIx64 " want=0x%08" PRIx32, bits, got, *want);
        first.push_back(line);
      }
    }
    if (progress && (b & 0xFFFFFF) == 0xFFFFFF)
      std::fprintf(stderr, "\r%s: %.1f%%", args[0].c_str(), 100.0 * static_cast<double>(b - begin + 1) / static_cast<double>(end - begin));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (progress) std::fprintf(stderr, "\n");
  std::printf("%s 0x%" PRIx64 " 0x%" PRIx64 " checked=%" PRIu64 " mismatches=%" PRIu64 " escalated=%" PRIu64 " seconds=%.1f\n",
              args[0].c_str(), begin, end, end - begin, mismatches, escalated, secs);
  for (const auto& l : first) std::printf("%s\n", l.c_str());
  return mismatches == 0 ? 0 : 1;
}
