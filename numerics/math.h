// Correctly rounded unary math of the Intent language (seed 000 §4): exp, exp2, log, log1p,
// lgamma, sin, asin, cos, tanh, floor, erf, erfc, i0, rsqrt, sqrt, sigmoid, abs on f16, bf16, f32
// and f64. Every result is the exact mathematical value rounded once (RNE) into the dtype, with
// the special-value table of docs/numerics.md "Math functions". The reference interpreter and the oracle use
// this; compiled backends are judged against it through numerics/contract.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "numerics/dtype.h"

namespace kir::num {

enum class MathFn : uint8_t {
  Exp, Exp2, Log, Log1p, Lgamma, Sin, Asin, Cos, Tanh, Floor,
  Erf, Erfc, I0, Rsqrt, Sqrt, Sigmoid, Abs,
};
inline constexpr int kNumMathFns = static_cast<int>(MathFn::Abs) + 1;

std::optional<MathFn> parse_math_fn(std::string_view s);  // "exp", "lgamma", "i0", ...
std::string_view name(MathFn f);

// Correctly rounded f(x) for x = bits in dtype d (f16, bf16, f32 or f64; anything else throws
// std::invalid_argument). NaN results are d's canonical quiet NaN. ftz=true flushes a subnormal
// input to a zero of the same sign before evaluating and a subnormal result to a signed zero.
uint64_t eval(MathFn f, DType d, uint64_t bits, bool ftz = false);

// eval on n values at once (out[i] = eval(f, d, in[i], ftz)); the dispatch happens once per
// call, which is what brings the f32 kernels' cost per value close to the C library's.
void eval_n(MathFn f, DType d, const uint64_t* in, uint64_t* out, size_t n, bool ftz = false);

// The same function evaluated without the double-precision fast path (MPFR / Ziv only). Exists
// so tests and benchmarks can compare the two paths; results are identical by construction.
uint64_t eval_reference(MathFn f, DType d, uint64_t bits, bool ftz = false);

// CLI entry (`kir numerics eval`): nullopt if `func` is not a unary math function or d is not
// one of f16/bf16/f32/f64.
std::optional<uint64_t> eval_unary(std::string_view func, DType d, uint64_t bits);

}  // namespace kir::num
