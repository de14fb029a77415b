// The host services handed to generated kernels (kir_env, rt/kir_abi.h): the global worker
// pool, the numerics library's correctly rounded math and exact casts, and aligned scratch
// allocation. Kernels reach nothing else of the host (rule C14).
#pragma once
#include <cstdint>

#include "backends/cpu/rt/kir_abi.h"

namespace kir::cpu::rt {

// The process-wide environment (built once, thread-safe): abi_version KIR_ABI_VERSION, pool =
// WorkerPool::global(), run_tasks = pool_run_tasks and the services below.
const kir_env* default_env();

// kir_env::math: kir::num::eval(fn, dtype, bits). An fn or dtype eval does not take is a
// provider bug that no fault code describes: it aborts with a message rather than return a value.
uint64_t env_math(int32_t fn, int32_t dtype, uint64_t bits) noexcept;
// kir_env::cast: kir::num::cast. Returns 0 and stores the result bits in *out, or returns the
// nonzero kir::num::Status (InvalidCast, TypeMismatch for an unknown dtype, ...). Bits above
// the source dtype's width are ignored.
int32_t env_cast(int32_t from_dtype, int32_t to_dtype, uint64_t bits, uint64_t* out) noexcept;
// kir_env::alloc/free: `bytes` (0 allowed) aligned to `align` (a power of two; smaller than
// alignof(max_align_t) is raised to it). nullptr on failure or an invalid request.
void* env_alloc(int64_t bytes, int64_t align) noexcept;
void env_free(void* p) noexcept;

}  // namespace kir::cpu::rt
