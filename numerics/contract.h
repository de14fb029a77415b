// The numerics contract: the ONE table the oracle reads to decide whether a compiled backend's
// result is acceptable. Per operation (each unary MathFn, + - * /, fdiv, fma, casts, reductions),
// dtype and mode (default / approximate / approximate+FTZ) it gives the accuracy a backend must
// reach measured against the interpreter's correctly rounded result, plus the NaN and signed-zero
// rules; and it fixes the default accumulator widening of reduce.sum / cumsum. The reassociation
// freedom of sums lives in numerics/envelope.h. docs/numerics.md "Numerics contract" explains every choice.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::num {

enum class ContractOp : uint8_t {
  // unary math, in MathFn order
  Exp, Exp2, Log, Log1p, Lgamma, Sin, Asin, Cos, Tanh, Floor,
  Erf, Erfc, I0, Rsqrt, Sqrt, Sigmoid, Abs,
  // elementwise arithmetic and conversions
  Add, Sub, Mul, Div, Fdiv, Fma, Neg, Cast,
};
inline constexpr int kNumContractOps = static_cast<int>(ContractOp::Cast) + 1;

ContractOp contract_op(MathFn f);
std::string_view name(ContractOp op);
std::optional<ContractOp> parse_contract_op(std::string_view s);  // math names, "add", "fdiv", ...

// Per-operation numerics options of seed 000 §4: approximate=True, flush_to_zero=True.
enum class MathMode : uint8_t { Default, Approximate, ApproximateFtz };
std::string_view name(MathMode m);

// How far a backend result may be from the interpreter's correctly rounded result `cr`.
// A finite result r is accepted if ulp_distance(r, cr) <= max_ulps, OR |r - exact| <= max_rel *
// |exact|, OR |r - exact| <= max_abs (the last two only where nonzero; `exact` is approximated by
// cr, which is within half an ulp). max_ulps == 0 means "correctly rounded".
struct Accuracy {
  ContractOp op;
  DType dtype;
  MathMode mode;
  double max_ulps;
  double max_rel;        // 0: not used
  double max_abs;        // 0: not used
  bool ftz_allowed;      // subnormal inputs may be read as zero and subnormal results flushed
  std::string_view basis;  // the published accuracy this entry is derived from
};

// Legality of a mode (seed 000 §4): non-default modes only for f32 exp2 / tanh / fdiv; FTZ only
// together with approximate, and tanh has no FTZ option.
bool mode_legal(ContractOp op, DType d, MathMode m);

// The table entry; nullopt if the op/dtype/mode combination is illegal or op is not defined on d
// (math on non-floats; casts are looked up with the destination dtype).
std::optional<Accuracy> accuracy(ContractOp op, DType d, MathMode m = MathMode::Default);
std::span<const Accuracy> contract_table();

// The NaN / signed-zero / infinity rules every entry shares (docs/numerics.md "Numerics contract / NaN"):
//  * the exact result is NaN  <=> the backend must return some NaN (any sign/payload);
//  * exact ±Inf must be returned exactly (same sign), except where FTZ/approximate entries say;
//  * exact ±0 must be returned with the correct sign (sin(-0) = -0, rsqrt(-0) = -Inf, ...),
//    except for sum-like reductions (see envelope.h) and FTZ-flushed values (either sign).
// accepts() applies the table entry and these rules to one result.
bool accepts(const Accuracy& a, uint64_t result_bits, uint64_t cr_bits);

// Default accumulator (and result) dtype of reduce.sum / cumsum when acc_dtype=None:
// f16, bf16, e4m3, e5m2, e2m1 -> f32; f32 -> f32; f64 -> f64; i8, i16 -> i32; u8, u16 -> u32;
// i32, i64, u32, u64, index keep their dtype (two's-complement wrap-around, which is
// associative, so integer sums are exact under any order). bool and e8m0: nullopt (not summable).
std::optional<DType> default_sum_accumulator(DType source);

// Accumulation rules of contract / scaled / sparse / quantized contractions, as enumerators the
// oracle can switch on (docs/numerics.md "Numerics contract / Accumulation rules").
enum class AccumulationRule : uint8_t {
  // float acc: every product exact or rounded once to acc (FMA allowed), sums in any order in
  // acc: envelope.h dot_envelope / ExactProducts. Integer acc: exact, wrap-around in acc.
  Contract,
  // scaled_contract: element products exact, multiplied by the exact power-of-two scale product,
  // summed in any order in acc (envelope over the scaled products; NaN scale -> NaN result).
  ScaledContract,
  // sparse_contract: identical to Contract over the kept (metadata-selected) positions only.
  SparseContract,
  // quantized_dot: integer block sums exact; the float combination follows its own fixed order
  // (quantized computation chapter), so the result is bitwise-defined, no envelope.
  QuantizedDot,
};
std::string_view describe(AccumulationRule r);

}  // namespace kir::num
