// The numerics contract table (see contract.h). Accuracy numbers come from the published
// accuracy of real backends (numerics reference §6: glibc libm-test-ulps, CUDA programming guide,
// PTX ISA, SLEEF), rounded up to a class every mainstream backend meets, so the oracle flags real
// bugs rather than ordinary libm behaviour. docs/numerics.md "Numerics contract" justifies each row.
#include "numerics/contract.h"

#include <array>
#include <cmath>
#include <vector>

#include "numerics/format.h"

namespace kir::num {
namespace {

constexpr std::array<std::string_view, kNumContractOps> kOpNames = {
    "exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos", "tanh", "floor",
    "erf", "erfc", "i0", "rsqrt", "sqrt", "sigmoid", "abs",
    "add", "sub", "mul", "div", "fdiv", "fma", "neg", "cast",
};

constexpr DType kFloats[] = {DType::F16, DType::BF16, DType::F32, DType::F64};

struct Row { ContractOp op; double f32_ulps, f64_ulps, f32_abs, f64_abs; std::string_view basis; };

// Default-mode transcendental accuracy for f32 / f64 (f16 / bf16 get 1 ulp, see below).
constexpr Row kTranscendental[] = {
    {ContractOp::Exp, 2, 1, 0, 0, "CUDA expf 2 / exp 1; glibc 1; SLEEF u10"},
    {ContractOp::Exp2, 2, 1, 0, 0, "CUDA exp2f 2 / exp2 1; glibc 1"},
    {ContractOp::Log, 1, 1, 0, 0, "CUDA logf 1 / log 1; glibc 1; SLEEF u10"},
    {ContractOp::Log1p, 1, 1, 0, 0, "CUDA log1pf 1 / log1p 1; glibc <= 1"},
    {ContractOp::Lgamma, 6, 4, 0x1p-20, 0x1p-49,
     "CUDA lgammaf 6 / lgamma 4 outside the negative-root region; absolute error there"},
    {ContractOp::Sin, 2, 2, 0, 0, "CUDA sinf 2 / sin 2; glibc 1"},
    {ContractOp::Asin, 2, 2, 0, 0, "CUDA asinf 2 / asin 2; glibc 1"},
    {ContractOp::Cos, 2, 2, 0, 0, "CUDA cosf 2 / cos 2; glibc 1"},
    {ContractOp::Tanh, 2, 2, 0, 0, "CUDA tanhf 2 / tanh 1; glibc 2"},
    {ContractOp::Erf, 2, 2, 0, 0, "CUDA erff 2 / erf 2; glibc <= 1"},
    {ContractOp::Erfc, 4, 5, 0, 0, "CUDA erfcf 4 / erfc 5; glibc double 5"},
    {ContractOp::I0, 6, 6, 0, 0, "CUDA cyl_bessel_i0f 6 / cyl_bessel_i0 6"},
    {ContractOp::Rsqrt, 2, 1, 0, 0, "CUDA rsqrtf 2 / rsqrt 1"},
    {ContractOp::Sigmoid, 4, 3, 0, 0, "composition 1/(1+exp(-x)): exp class + 2 roundings"},
};

constexpr ContractOp kExact[] = {ContractOp::Floor, ContractOp::Abs, ContractOp::Sqrt, ContractOp::Add,
                                 ContractOp::Sub, ContractOp::Mul, ContractOp::Div, ContractOp::Fdiv,
                                 ContractOp::Fma, ContractOp::Neg, ContractOp::Cast};

std::vector<Accuracy> build() {
  std::vector<Accuracy> t;
  for (DType d : kFloats) {
    const bool narrow = d == DType::F16 || d == DType::BF16;
    for (ContractOp op : kExact)
      t.push_back({op, d, MathMode::Default, 0, 0, 0, false,
                   "IEEE 754 correctly rounded (CUDA -prec-div/-prec-sqrt defaults, x86 SSE)"});
    for (const Row& r : kTranscendental) {
      if (narrow) {
        // evaluated in f32 (error <= 2^-20 relative) and rounded once: within 1 ulp
        const double abs = r.op == ContractOp::Lgamma ? 0x1p-19 : 0;
        t.push_back({r.op, d, MathMode::Default, 1, 0, abs, false,
                     "f32 evaluation rounded to the narrow format (<= 0.5 ulp + 2^-20 rel)"});
      } else {
        const bool f32 = d == DType::F32;
        t.push_back({r.op, d, MathMode::Default, f32 ? r.f32_ulps : r.f64_ulps, 0,
                     f32 ? r.f32_abs : r.f64_abs, false, r.basis});
      }
    }
  }
  // approximate=True (f32 only)
  t.push_back({ContractOp::Exp2, DType::F32, MathMode::Approximate, 2, 0, 0, false,
               "PTX ex2.approx.f32: 2 ulp over the full range"});
  t.push_back({ContractOp::Exp2, DType::F32, MathMode::ApproximateFtz, 2, 0, 0, true,
               "PTX ex2.approx.ftz.f32: 2 ulp, subnormals flushed"});
  t.push_back({ContractOp::Tanh, DType::F32, MathMode::Approximate, 2, 0x1p-11, 0, false,
               "PTX tanh.approx.f32: relative error 2^-11, subnormal results kept"});
  t.push_back({ContractOp::Fdiv, DType::F32, MathMode::Approximate, 2, 0, 0, false,
               "CUDA __fdividef: 2 ulp for 2^-126 <= |rhs| <= 2^126 (outside: unconstrained)"});
  t.push_back({ContractOp::Fdiv, DType::F32, MathMode::ApproximateFtz, 2, 0, 0, true,
               "CUDA __fdividef with -ftz: 2 ulp for 2^-126 <= |rhs| <= 2^126, subnormals flushed"});
  return t;
}

const std::vector<Accuracy>& table() {
  static const std::vector<Accuracy> t = build();
  return t;
}

bool is_zero(uint64_t b, DType d) { return classify(b, d) == FpClass::Zero; }

bool accepts_against(const Accuracy& a, uint64_t r, uint64_t c) {
  const DType d = a.dtype;
  if (is_nan(c, d)) return is_nan(r, d);
  if (is_nan(r, d)) return false;
  if (is_zero(c, d) && is_zero(r, d)) return sign_bit(r, d) == sign_bit(c, d);
  if (ulp_distance(r, c, d) <= uint64_t(a.max_ulps)) return true;
  if (!is_finite(r, d) || !is_finite(c, d)) return false;
  const double rv = to_double(r, d), cv = to_double(c, d);
  const double err = std::fabs(rv - cv), half_ulp = 0.5 * ulp_value(c, d);
  if (a.max_rel > 0 && err <= a.max_rel * std::fabs(cv) + half_ulp) return true;
  if (a.max_abs > 0 && err <= a.max_abs + half_ulp) return true;
  return false;
}

}  // namespace

ContractOp contract_op(MathFn f) { return static_cast<ContractOp>(static_cast<int>(f)); }

std::string_view name(ContractOp op) { return kOpNames[static_cast<int>(op)]; }

std::optional<ContractOp> parse_contract_op(std::string_view s) {
  for (int i = 0; i < kNumContractOps; ++i)
    if (kOpNames[i] == s) return static_cast<ContractOp>(i);
  return std::nullopt;
}

std::string_view name(MathMode m) {
  switch (m) {
    case MathMode::Default: return "default";
    case MathMode::Approximate: return "approximate";
    case MathMode::ApproximateFtz: return "approximate+ftz";
  }
  return "?";
}

bool mode_legal(ContractOp op, DType d, MathMode m) {
  if (m == MathMode::Default) return true;
  if (d != DType::F32) return false;
  if (op == ContractOp::Exp2 || op == ContractOp::Fdiv) return true;
  return op == ContractOp::Tanh && m == MathMode::Approximate;
}

std::optional<Accuracy> accuracy(ContractOp op, DType d, MathMode m) {
  if (!mode_legal(op, d, m)) return std::nullopt;
  for (const Accuracy& a : table())
    if (a.op == op && a.dtype == d && a.mode == m) return a;
  return std::nullopt;
}

std::span<const Accuracy> contract_table() { return table(); }

bool accepts(const Accuracy& a, uint64_t result_bits, uint64_t cr_bits) {
  if (accepts_against(a, result_bits, cr_bits)) return true;
  // FTZ: a flushed result (zero of either sign) stands for any subnormal correct result
  return a.ftz_allowed && classify(cr_bits, a.dtype) == FpClass::Subnormal && is_zero(result_bits, a.dtype);
}

std::optional<DType> default_sum_accumulator(DType s) {
  switch (s) {
    case DType::F16: case DType::BF16: case DType::E4M3: case DType::E5M2: case DType::E2M1:
    case DType::F32: return DType::F32;
    case DType::F64: return DType::F64;
    case DType::I8: case DType::I16: case DType::I32: return DType::I32;
    case DType::U8: case DType::U16: case DType::U32: return DType::U32;
    case DType::I64: return DType::I64;
    case DType::U64: return DType::U64;
    case DType::Index: return DType::Index;
    case DType::Bool: case DType::E8M0: return std::nullopt;
  }
  return std::nullopt;
}

std::string_view describe(AccumulationRule r) {
  switch (r) {
    case AccumulationRule::Contract:
      return "products exact or rounded once to acc (FMA allowed); sums in any order in acc; "
             "result within dot_envelope";
    case AccumulationRule::ScaledContract:
      return "element products exact, times the exact power-of-two scale product; sums in any "
             "order in acc; result within the envelope of the scaled products; NaN scale -> NaN";
    case AccumulationRule::SparseContract:
      return "ordinary contract over the metadata-selected positions only";
    case AccumulationRule::QuantizedDot:
      return "integer block sums exact; float combination in the fixed order of the quantized "
             "computation chapter; bitwise-defined";
  }
  return "?";
}

}  // namespace kir::num
