// The glibc anchor functions (see math_glibc.h): a table of libm entry points per MathFn, called
// through volatile function pointers, and bit-level adapters per dtype. f16/bf16 results are the
// float result rounded once by the numerics library (num::from_double; a float is exact in double).
#include "report/math/math_glibc.h"

#include <bit>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "numerics/format.h"

namespace kir::report {
namespace {

using D = double (*)(double);
using F = float (*)(float);

// libm entry points; volatile so that every call goes through the pointer to the library.
D volatile d_exp = &::exp, d_exp2 = &::exp2, d_log = &::log, d_log1p = &::log1p, d_sin = &::sin, d_asin = &::asin,
           d_cos = &::cos, d_tanh = &::tanh, d_floor = &::floor, d_erf = &::erf, d_erfc = &::erfc, d_sqrt = &::sqrt,
           d_fabs = &::fabs;
F volatile f_exp = &::expf, f_exp2 = &::exp2f, f_log = &::logf, f_log1p = &::log1pf, f_sin = &::sinf, f_asin = &::asinf,
           f_cos = &::cosf, f_tanh = &::tanhf, f_floor = &::floorf, f_erf = &::erff, f_erfc = &::erfcf, f_sqrt = &::sqrtf,
           f_fabs = &::fabsf;
double (*volatile d_lgamma_r)(double, int*) = &::lgamma_r;
float (*volatile f_lgamma_r)(float, int*) = &::lgammaf_r;

double d_lgamma(double x) {
  int sign = 0;
  return d_lgamma_r(x, &sign);
}
float f_lgamma(float x) {
  int sign = 0;
  return f_lgamma_r(x, &sign);
}
double d_rsqrt(double x) { return 1.0 / d_sqrt(x); }
float f_rsqrt(float x) { return 1.0f / f_sqrt(x); }
double d_sigmoid(double x) { return 1.0 / (1.0 + d_exp(-x)); }
float f_sigmoid(float x) { return 1.0f / (1.0f + f_exp(-x)); }

// One function as double and float versions with their display names.
struct Entry {
  const char* dname;
  const char* fname;
  D (*dfn)();
  F (*ffn)();
};

template <D volatile* P>
D load_d() { return *P; }
template <F volatile* P>
F load_f() { return *P; }
D wrap_d(double (*f)(double)) { return f; }

Entry entry(num::MathFn fn) {
  using M = num::MathFn;
  switch (fn) {
    case M::Exp: return {"exp", "expf", load_d<&d_exp>, load_f<&f_exp>};
    case M::Exp2: return {"exp2", "exp2f", load_d<&d_exp2>, load_f<&f_exp2>};
    case M::Log: return {"log", "logf", load_d<&d_log>, load_f<&f_log>};
    case M::Log1p: return {"log1p", "log1pf", load_d<&d_log1p>, load_f<&f_log1p>};
    case M::Lgamma: return {"lgamma_r", "lgammaf_r", [] { return wrap_d(d_lgamma); }, [] { return F(f_lgamma); }};
    case M::Sin: return {"sin", "sinf", load_d<&d_sin>, load_f<&f_sin>};
    case M::Asin: return {"asin", "asinf", load_d<&d_asin>, load_f<&f_asin>};
    case M::Cos: return {"cos", "cosf", load_d<&d_cos>, load_f<&f_cos>};
    case M::Tanh: return {"tanh", "tanhf", load_d<&d_tanh>, load_f<&f_tanh>};
    case M::Floor: return {"floor", "floorf", load_d<&d_floor>, load_f<&f_floor>};
    case M::Erf: return {"erf", "erff", load_d<&d_erf>, load_f<&f_erf>};
    case M::Erfc: return {"erfc", "erfcf", load_d<&d_erfc>, load_f<&f_erfc>};
    case M::Rsqrt: return {"1/sqrt(x)", "1/sqrtf(x)", [] { return wrap_d(d_rsqrt); }, [] { return F(f_rsqrt); }};
    case M::Sqrt: return {"sqrt", "sqrtf", load_d<&d_sqrt>, load_f<&f_sqrt>};
    case M::Sigmoid:
      return {"1/(1+exp(-x))", "1/(1+expf(-x))", [] { return wrap_d(d_sigmoid); }, [] { return F(f_sigmoid); }};
    case M::Abs: return {"fabs", "fabsf", load_d<&d_fabs>, load_f<&f_fabs>};
    case M::I0: break;
  }
  return {nullptr, nullptr, nullptr, nullptr};
}

// Bit adapters, one instantiation per (function, dtype), so each anchor is a plain function pointer.
template <num::MathFn Fn>
uint64_t eval_f64(uint64_t bits) {
  return std::bit_cast<uint64_t>(entry(Fn).dfn()(std::bit_cast<double>(bits)));
}
template <num::MathFn Fn>
uint64_t eval_f32(uint64_t bits) {
  return std::bit_cast<uint32_t>(entry(Fn).ffn()(std::bit_cast<float>(static_cast<uint32_t>(bits))));
}
template <num::MathFn Fn, kir::DType Dt>
uint64_t eval_narrow(uint64_t bits) {
  const float x = static_cast<float>(num::to_double(bits, Dt));  // exact: f16/bf16 values are floats
  return num::from_double(static_cast<double>(entry(Fn).ffn()(x)), Dt);
}

template <num::MathFn Fn>
uint64_t (*adapter(kir::DType d))(uint64_t) {
  switch (d) {
    case kir::DType::F64: return eval_f64<Fn>;
    case kir::DType::F32: return eval_f32<Fn>;
    case kir::DType::F16: return eval_narrow<Fn, kir::DType::F16>;
    case kir::DType::BF16: return eval_narrow<Fn, kir::DType::BF16>;
    default: return nullptr;
  }
}

template <int... I>
uint64_t (*pick(num::MathFn fn, kir::DType d, std::integer_sequence<int, I...>))(uint64_t) {
  uint64_t (*out)(uint64_t) = nullptr;
  ((static_cast<int>(fn) == I ? (out = adapter<static_cast<num::MathFn>(I)>(d), 0) : 0), ...);
  return out;
}

}  // namespace

GlibcAnchor glibc_anchor(num::MathFn fn, kir::DType d) {
  if (d != kir::DType::F16 && d != kir::DType::BF16 && d != kir::DType::F32 && d != kir::DType::F64)
    throw std::invalid_argument("glibc anchor: dtype " + std::string(kir::name(d)) + " is not f16, bf16, f32 or f64");
  GlibcAnchor a;
  const Entry e = entry(fn);
  if (!e.dname) {
    a.function = "none (glibc has no " + std::string(num::name(fn)) + ")";
    return a;
  }
  a.available = true;
  if (d == kir::DType::F64) a.function = e.dname;
  else if (d == kir::DType::F32) a.function = e.fname;
  else a.function = std::string(e.fname) + " rounded to " + std::string(kir::name(d));
  a.eval = pick(fn, d, std::make_integer_sequence<int, num::kNumMathFns>{});
  return a;
}

}  // namespace kir::report
