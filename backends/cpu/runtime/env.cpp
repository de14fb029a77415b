// default_env() and the kir_env services (env.h). Everything here is called from generated C++
// through function pointers, so nothing may throw across the boundary. env_binary is the
// numerics library's pow and float rem (numerics/float_extra.h), the same code the interpreter
// runs.
#include "backends/cpu/runtime/env.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "backends/cpu/runtime/worker_pool.h"
#include "numerics/cast.h"
#include "numerics/float_extra.h"
#include "numerics/format.h"
#include "numerics/math.h"

namespace kir::cpu::rt {
namespace {

[[noreturn]] void fatal(const char* what, int32_t fn, int32_t dtype, const char* detail) {
  std::fprintf(stderr, "kir runtime: %s (fn %d, dtype %d)%s%s\n", what, static_cast<int>(fn),
               static_cast<int>(dtype), detail[0] ? ": " : "", detail);
  std::abort();
}

bool valid_dtype(int32_t d) { return d >= 0 && d < kNumDTypes; }

// kir_env::binary: the numerics library's pow (rounded once) and exact fmod.
uint64_t env_binary(int32_t op, int32_t dtype, uint64_t a, uint64_t b) noexcept {
  if (!valid_dtype(dtype) || !is_any_float(static_cast<DType>(dtype)) || (op != KIR_BINARY_POW && op != KIR_BINARY_REM))
    fatal("binary called with an unknown op or a non-float dtype", op, dtype, "");
  const DType d = static_cast<DType>(dtype);
  try {
    const num::Scalar x{d, a & num::width_mask(d)}, y{d, b & num::width_mask(d)};
    return (op == KIR_BINARY_POW ? num::float_pow(x, y) : num::float_fmod(x, y)).bits;
  } catch (const std::exception& e) {
    fatal("binary failed", op, dtype, e.what());
  }
}

}  // namespace

uint64_t env_math(int32_t fn, int32_t dtype, uint64_t bits) noexcept {
  if (fn < 0 || fn >= num::kNumMathFns || !valid_dtype(dtype))
    fatal("math called with an unknown function or dtype", fn, dtype, "");
  try {
    return num::eval(static_cast<num::MathFn>(fn), static_cast<DType>(dtype), bits);
  } catch (const std::exception& e) {
    fatal("math failed", fn, dtype, e.what());
  }
}

int32_t env_cast(int32_t from_dtype, int32_t to_dtype, uint64_t bits, uint64_t* out) noexcept {
  if (!valid_dtype(from_dtype) || !valid_dtype(to_dtype))
    return static_cast<int32_t>(num::Status::TypeMismatch);
  const DType from = static_cast<DType>(from_dtype);
  try {
    const num::Result<num::Scalar> r =
        num::cast(num::Scalar{from, bits & num::width_mask(from)}, static_cast<DType>(to_dtype));
    if (!r) return static_cast<int32_t>(r.status());
    *out = r->bits;
    return 0;
  } catch (const std::exception&) {  // only allocation of the error message can throw
    return static_cast<int32_t>(num::Status::NotImplemented);
  }
}

void* env_alloc(int64_t bytes, int64_t align) noexcept {
  if (bytes < 0 || align <= 0 || (align & (align - 1)) != 0) return nullptr;
  const int64_t a = std::max<int64_t>(align, alignof(std::max_align_t));
  // aligned_alloc wants a nonzero multiple of the alignment.
  if (bytes > INT64_MAX - a) return nullptr;
  const int64_t size = std::max<int64_t>((bytes + a - 1) / a * a, a);
  return std::aligned_alloc(static_cast<size_t>(a), static_cast<size_t>(size));
}

void env_free(void* p) noexcept { std::free(p); }

const kir_env* default_env() {
  static const kir_env env = [] {
    kir_env e{};
    e.abi_version = KIR_ABI_VERSION;
    e.pool = &WorkerPool::global();
    e.run_tasks = &pool_run_tasks;
    e.math = &env_math;
    e.cast = &env_cast;
    e.alloc = &env_alloc;
    e.free = &env_free;
    e.binary = &env_binary;
    return e;
  }();
  return &env;
}

}  // namespace kir::cpu::rt
