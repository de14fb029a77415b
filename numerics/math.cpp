// Dispatch of the unary math functions: names, decoding, the special-value table, then the
// fast paths (own f32 kernels; glibc double for f16/bf16/f32; long double for f64) with the
// MPFR/Ziv path as the fallback.
#include "numerics/math.h"

#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "numerics/format.h"
#include "numerics/math_detail.h"

namespace kir::num {
namespace {

constexpr std::array<std::string_view, kNumMathFns> kNames = {
    "exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos", "tanh",
    "floor", "erf", "erfc", "i0", "rsqrt", "sqrt", "sigmoid", "abs",
};

bool supported(DType d) {
  return d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::F64;
}

uint64_t encode(DType d, double v) {
  if (std::isnan(v)) return float_format(d).canonical_nan;
  return from_double(v, d);  // exact: v is a value of d
}

uint64_t evaluate(MathFn f, DType d, uint64_t bits, bool ftz, bool fast) {
  if (fast && d == DType::F32 && !ftz) {  // the common case first: finite nonzero f32
    const auto x = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (const detail::F32Kernel k = detail::kF32Kernels[static_cast<int>(f)]; k && std::isfinite(x) && x != 0)
      if (const uint64_t r = k(x); r != detail::kUndecided) return r;
  }
  if (!supported(d))
    throw std::invalid_argument("unary math '" + std::string(name(f)) + "' is not defined for dtype " +
                                std::string(kir::name(d)));
  if (ftz) bits = flush_subnormal(bits, d);
  const double x = to_double(bits, d);
  uint64_t out;
  if (auto s = detail::math_special(f, x)) {
    out = encode(d, *s);
  } else if (auto r = !fast ? std::nullopt : d == DType::F64 ? detail::math_fast_f64(f, x) : detail::math_fast(f, d, x)) {
    out = *r;
  } else {
    out = encode(d, detail::math_mpfr(f, d, x));
  }
  return ftz ? flush_subnormal(out, d) : out;
}

}  // namespace

std::optional<MathFn> parse_math_fn(std::string_view s) {
  for (int i = 0; i < kNumMathFns; ++i)
    if (kNames[i] == s) return static_cast<MathFn>(i);
  return std::nullopt;
}

std::string_view name(MathFn f) { return kNames[static_cast<int>(f)]; }

uint64_t eval(MathFn f, DType d, uint64_t bits, bool ftz) { return evaluate(f, d, bits, ftz, true); }

void eval_n(MathFn f, DType d, const uint64_t* in, uint64_t* out, size_t n, bool ftz) {
  if (d == DType::F32 && !ftz && detail::f32_batch(f, in, out, n)) return;
  for (size_t i = 0; i < n; ++i) out[i] = evaluate(f, d, in[i], ftz, true);
}

uint64_t detail::eval_after_kernel(MathFn f, DType d, uint64_t bits) { return evaluate(f, d, bits, false, true); }

uint64_t eval_reference(MathFn f, DType d, uint64_t bits, bool ftz) {
  return evaluate(f, d, bits, ftz, false);
}

std::optional<uint64_t> eval_unary(std::string_view func, DType d, uint64_t bits) {
  auto f = parse_math_fn(func);
  if (!f || !supported(d)) return std::nullopt;
  return eval(*f, d, bits);
}

}  // namespace kir::num
