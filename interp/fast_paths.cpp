// Tight loops of fast_paths.h. Why each is bit-identical to the numerics library:
//  * f32/f64 + - * /: numerics/arith.cpp computes these with the hardware operation of the same
//    format (IEEE-754 RNE, SSE2, no FTZ/DAZ, no contraction) and canonicalizes a NaN result; the
//    loops below do exactly that, without the Scalar/Result round trip per element.
//  * min/max: the numerics rule (any NaN -> canonical NaN; equal values -> the negative zero for
//    min, the positive one for max, otherwise either; else the smaller/larger) spelled out.
//  * integers: two's-complement wrap in uint64 masked to the width, signed order by sign
//    extension — the same arithmetic as numerics/integer.cpp for the ops that cannot fail.
//  * dot_f32: see the comment at the function.
#include "interp/fast_paths.h"

#include <bit>
#include <cmath>

#include "numerics/format.h"
#include "numerics/scalar.h"

namespace kir::interp::fast {
namespace {

using num::BinaryOp;
using num::CompareOp;

constexpr uint64_t kNaN32 = 0x7fc00000u;
constexpr uint64_t kNaN64 = 0x7ff8000000000000ull;

inline float f32(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t bits32(float x) { return x != x ? kNaN32 : std::bit_cast<uint32_t>(x); }
inline uint64_t bits64(double x) { return x != x ? kNaN64 : std::bit_cast<uint64_t>(x); }

template <class T>
inline uint64_t min_max(bool is_min, uint64_t a, uint64_t b, T x, T y, uint64_t nan) {
  if (x != x || y != y) return nan;
  if (x == y) return is_min == std::signbit(x) ? a : b;
  return is_min == (x < y) ? a : b;
}

// Sign extension of a `w`-bit integer held in the low bits (w = 64: unchanged).
inline int64_t sext(uint64_t v, int w) {
  return w >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - w)) >> (64 - w);
}

// The element function of (op, d), or nullptr-equivalent via `ok = false`. Called per element
// from the loops below; small enough to inline.
struct Elem {
  BinaryOp op;
  DType d;
  uint64_t mask;
  int width;
  bool sgn;
  uint64_t operator()(uint64_t a, uint64_t b) const {
    switch (d) {
      case DType::F32: {
        const float x = f32(a), y = f32(b);
        switch (op) {
          case BinaryOp::Add: return bits32(x + y);
          case BinaryOp::Sub: return bits32(x - y);
          case BinaryOp::Mul: return bits32(x * y);
          case BinaryOp::Div: return bits32(x / y);
          case BinaryOp::Min: return min_max(true, a, b, x, y, kNaN32);
          default: return min_max(false, a, b, x, y, kNaN32);
        }
      }
      case DType::F64: {
        const double x = f64(a), y = f64(b);
        switch (op) {
          case BinaryOp::Add: return bits64(x + y);
          case BinaryOp::Sub: return bits64(x - y);
          case BinaryOp::Mul: return bits64(x * y);
          case BinaryOp::Div: return bits64(x / y);
          case BinaryOp::Min: return min_max(true, a, b, x, y, kNaN64);
          default: return min_max(false, a, b, x, y, kNaN64);
        }
      }
      default:
        switch (op) {
          case BinaryOp::Add: return (a + b) & mask;
          case BinaryOp::Sub: return (a - b) & mask;
          case BinaryOp::Mul: return (a * b) & mask;
          case BinaryOp::And: return a & b;
          case BinaryOp::Or: return a | b;
          case BinaryOp::Xor: return a ^ b;
          case BinaryOp::Min:
          case BinaryOp::Max: {
            const bool lt = sgn ? sext(a, width) < sext(b, width) : a < b;
            return (op == BinaryOp::Min) == lt ? a : b;
          }
          default: return 0;  // excluded by binary_supported
        }
    }
  }
};

Elem elem_of(BinaryOp op, DType d) {
  const int w = d == DType::Bool ? 1 : info(d).bits;
  return Elem{op, d, num::width_mask(d), w, is_signed_integer(d)};
}

// The loops are instantiated per (dtype, op) through these lambdas so the switch above folds away.
template <DType D, BinaryOp O>
uint64_t apply(uint64_t a, uint64_t b, const Elem& e) {
  Elem k{O, D, e.mask, e.width, e.sgn};
  return k(a, b);
}

template <DType D, BinaryOp O>
void loop(const Elem& e, const uint64_t* a, int64_t sa, const uint64_t* b, int64_t sb, uint64_t* out, int64_t n) {
  if (sa == 1 && sb == 1)
    for (int64_t i = 0; i < n; ++i) out[i] = apply<D, O>(a[i], b[i], e);
  else
    for (int64_t i = 0; i < n; ++i) out[i] = apply<D, O>(a[i * sa], b[i * sb], e);
}

template <DType D, BinaryOp O>
uint64_t fold_loop(const Elem& e, uint64_t acc, const uint64_t* x, int64_t stride, const int64_t* offs, int64_t n) {
  if (offs)
    for (int64_t k = 0; k < n; ++k) acc = apply<D, O>(acc, x[offs[k]], e);
  else
    for (int64_t k = 0; k < n; ++k) acc = apply<D, O>(acc, x[k * stride], e);
  return acc;
}

// f32 add: the accumulator stays a float between steps (a NaN payload cannot change a later
// sum's NaN-ness, and the result is canonicalized once at the end) so the fold is one addss per
// element like a native loop.
uint64_t fold_f32_add(uint64_t acc, const uint64_t* x, int64_t stride, const int64_t* offs, int64_t n) {
  float s = f32(acc);
  if (offs)
    for (int64_t k = 0; k < n; ++k) s += f32(x[offs[k]]);
  else if (stride == 1)
    for (int64_t k = 0; k < n; ++k) s += f32(x[k]);
  else
    for (int64_t k = 0; k < n; ++k) s += f32(x[k * stride]);
  return bits32(s);
}

#define KIR_FAST_DISPATCH(FN, ...)                                                     \
  switch (d) {                                                                         \
    case DType::F32: KIR_FAST_OPS(DType::F32, FN, __VA_ARGS__) break;                  \
    case DType::F64: KIR_FAST_OPS(DType::F64, FN, __VA_ARGS__) break;                  \
    default: KIR_FAST_OPS(DType::I64, FN, __VA_ARGS__) break;                          \
  }
#define KIR_FAST_OPS(D, FN, ...)                                        \
  switch (op) {                                                         \
    case BinaryOp::Add: return FN<D, BinaryOp::Add>(__VA_ARGS__);       \
    case BinaryOp::Sub: return FN<D, BinaryOp::Sub>(__VA_ARGS__);       \
    case BinaryOp::Mul: return FN<D, BinaryOp::Mul>(__VA_ARGS__);       \
    case BinaryOp::Div: return FN<D, BinaryOp::Div>(__VA_ARGS__);       \
    case BinaryOp::Min: return FN<D, BinaryOp::Min>(__VA_ARGS__);       \
    case BinaryOp::Max: return FN<D, BinaryOp::Max>(__VA_ARGS__);       \
    case BinaryOp::And: return FN<D, BinaryOp::And>(__VA_ARGS__);       \
    case BinaryOp::Or: return FN<D, BinaryOp::Or>(__VA_ARGS__);         \
    case BinaryOp::Xor: return FN<D, BinaryOp::Xor>(__VA_ARGS__);       \
    default: break;                                                     \
  }

}  // namespace

bool binary_supported(BinaryOp op, DType d) {
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul: return d == DType::F32 || d == DType::F64 || is_integer(d);
    case BinaryOp::Div: return d == DType::F32 || d == DType::F64;
    case BinaryOp::Min:
    case BinaryOp::Max: return d == DType::F32 || d == DType::F64 || is_integer(d) || d == DType::Bool;
    case BinaryOp::And:
    case BinaryOp::Or:
    case BinaryOp::Xor: return is_integer(d) || d == DType::Bool;
    default: return false;
  }
}

// Integer dtypes share the I64 instantiation: Elem carries the real width, mask and signedness.
void binary(BinaryOp op, DType d, const uint64_t* a, int64_t sa, const uint64_t* b, int64_t sb, uint64_t* out,
            int64_t n) {
  const Elem e = elem_of(op, d);
  KIR_FAST_DISPATCH(loop, e, a, sa, b, sb, out, n)
}

uint64_t fold(BinaryOp op, DType d, uint64_t acc, const uint64_t* x, int64_t stride, const int64_t* offs, int64_t n) {
  if (d == DType::F32 && op == BinaryOp::Add) return fold_f32_add(acc, x, stride, offs, n);
  const Elem e = elem_of(op, d);
  KIR_FAST_DISPATCH(fold_loop, e, acc, x, stride, offs, n)
  return acc;
}

bool compare_supported(DType d) { return d == DType::F32 || d == DType::F64 || is_integer(d) || d == DType::Bool; }

void compare(CompareOp pred, DType d, const uint64_t* a, int64_t sa, const uint64_t* b, int64_t sb, uint64_t* out,
             int64_t n) {
  auto run = [&](auto lt, auto eq) {
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t x = a[i * sa], y = b[i * sb];
      bool r = false;
      switch (pred) {
        case CompareOp::Eq: r = eq(x, y); break;
        case CompareOp::Ne: r = !eq(x, y); break;
        case CompareOp::Lt: r = lt(x, y); break;
        case CompareOp::Le: r = lt(x, y) || eq(x, y); break;
        case CompareOp::Gt: r = lt(y, x); break;
        case CompareOp::Ge: r = lt(y, x) || eq(x, y); break;
      }
      out[i] = r ? 1 : 0;
    }
  };
  // Floats: IEEE comparisons (false with a NaN, except ne), as numerics' float_compare.
  if (d == DType::F32) {
    run([](uint64_t x, uint64_t y) { return f32(x) < f32(y); }, [](uint64_t x, uint64_t y) { return f32(x) == f32(y); });
  } else if (d == DType::F64) {
    run([](uint64_t x, uint64_t y) { return f64(x) < f64(y); }, [](uint64_t x, uint64_t y) { return f64(x) == f64(y); });
  } else {
    // Integers: equality of representations, order signed or unsigned (numerics' int_compare).
    const int w = d == DType::Bool ? 1 : info(d).bits;
    if (is_signed_integer(d))
      run([w](uint64_t x, uint64_t y) { return sext(x, w) < sext(y, w); }, [](uint64_t x, uint64_t y) { return x == y; });
    else
      run([](uint64_t x, uint64_t y) { return x < y; }, [](uint64_t x, uint64_t y) { return x == y; });
  }
}

// Correctly rounded f32 dot product from a double-double evaluation (Ogita-Rump-Oishi Sum2 with
// a rigorous a-posteriori bound, then a rounding-boundary test):
//  * every product p_k is exact in double (two 24-bit significands; exponents within
//    [-298, 256], far from double's limits), and TwoSum gives s_k + e_k = s_{k-1} + p_k exactly,
//    so the exact sum is S = s_n + sum(e_k);
//  * c = fl(sum e_k) by recursive summation: |c - sum e_k| <= gamma_{n-1} sum|e_k| (Higham 4.4,
//    valid with gradual underflow since additions of doubles are exact in the subnormal range),
//    and sum|e_k| <= E (1 + gamma) with E = fl(sum |e_k|); B below is twice that, plus 2^-1000
//    for any underflow in forming B;
//  * TwoSum(s_n, c) = t + e2 exactly, so |S - t| <= B + |e2|;
//  * f = RN_f32(t). If f is a normal f32 below 2^127, every real strictly between the midpoints
//    m_lo, m_hi of f and its neighbours (exact in double: 25 bits) rounds to f, and t - m_lo,
//    m_hi - t are exact (Sterbenz). If the error bound is smaller than both distances, RN_f32(S)
//    = f. Otherwise the caller falls back to the exact accumulator.
bool dot_f32(const double* a, const int64_t* ao, const double* b, const int64_t* bo, int64_t n, uint32_t& result) {
  double s = 0, c = 0, eabs = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double p = a[ao[k]] * b[bo[k]];
    const double t = s + p, bp = t - s;
    const double e = (s - (t - bp)) + (p - bp);
    s = t;
    c += e;
    eabs += std::fabs(e);
  }
  if (!std::isfinite(s) || !std::isfinite(c) || !std::isfinite(eabs)) return false;
  const double t = s + c, bp = t - s;
  const double e2 = (s - (t - bp)) + (c - bp);
  const double bound = 2 * (eabs * (static_cast<double>(n + 4) * 0x1p-52) + 0x1p-1000 + std::fabs(e2));
  const float f = static_cast<float>(t);
  const float af = std::fabs(f);
  if (!std::isnormal(f) || af >= 0x1p127f) return false;
  const double at = std::fabs(t), fd = af;
  const double m_hi = (fd + static_cast<double>(std::nextafter(af, INFINITY))) / 2;
  const double m_lo = (fd + static_cast<double>(std::nextafter(af, 0.0f))) / 2;
  if (!(at > m_lo && at < m_hi)) return false;
  if (!(bound < at - m_lo && bound < m_hi - at)) return false;
  result = std::bit_cast<uint32_t>(f);
  return true;
}

}  // namespace kir::interp::fast
