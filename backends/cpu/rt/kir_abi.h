// The native call boundary between kir (the host) and a generated kernel (a shared object built
// from C++ the provider wrote). C-compatible and self-contained: generated source includes it,
// and so does the host. One entry point per compiled program:
//     extern "C" int kir_entry_<KEY>(kir_call* call);   // 0: ok; otherwise call->fault is set
// The host binds the declared resources (views, runtime scalars, extents) and the runtime
// services (worker pool, math, faults); the kernel only computes (no allocation of outputs, no
// hidden invocation of anything else).
#ifndef KIR_ABI_H
#define KIR_ABI_H
#include <stdint.h>

#define KIR_ABI_VERSION 3
#define KIR_MAX_RANK 8

#ifdef __cplusplus
extern "C" {
#endif

// An external view: storage base pointer, element offset and per-axis strides in elements, and
// the logical extents. Element (c0..cr-1) lives at data[offset + sum ck * strides[k]]. Element
// storage per dtype: bool/i8/u8/e4m3/e5m2/e2m1/e8m0 one byte, f16/bf16/i16/u16 two bytes,
// f32/i32/u32 four, f64/i64/u64/index eight (little-endian bit patterns of the format).
typedef struct kir_view {
  void* data;
  int64_t offset;
  int64_t rank;
  int64_t shape[KIR_MAX_RANK];
  int64_t strides[KIR_MAX_RANK];
} kir_view;

// A task body: runs task `task` (a coordinate of the task workset, not a thread id).
typedef void (*kir_task_fn)(void* ctx, int64_t task);

// A fault raised by generated code (integer division by zero, invalid cast, out-of-bounds
// access, ...): the op (index into the program's op table, which names its source location),
// the kind and up to KIR_MAX_RANK coordinates of the element. The fault the language's order
// reaches first wins (kir_gen::fault), and the call stops soon after it.
typedef struct kir_fault {
  int32_t code;   // 0 none; otherwise a kir_fault_code
  int32_t op;     // op id (the generated program's op table gives location and name)
  int64_t rank;
  int64_t coord[KIR_MAX_RANK];
  int64_t detail[2];  // e.g. the index and the extent of an out-of-bounds access
} kir_fault;

enum kir_fault_code {
  KIR_FAULT_NONE = 0,
  KIR_FAULT_DIVIDE_BY_ZERO = 1,
  KIR_FAULT_INT_OVERFLOW = 2,
  KIR_FAULT_SHIFT_OUT_OF_RANGE = 3,
  KIR_FAULT_INVALID_CAST = 4,
  KIR_FAULT_OUT_OF_BOUNDS = 5,
  KIR_FAULT_INVALID_VALUE = 6,
  KIR_FAULT_SHAPE_MISMATCH = 7,
  KIR_FAULT_BUDGET = 8,
  KIR_FAULT_ALLOCATION = 9,
  KIR_FAULT_UNDEFINED_READ = 10,
  KIR_FAULT_CONFLICT = 11,
  KIR_FAULT_HISTOGRAM_RANGE = 12,  // an active histogram value outside [0, bins)
  KIR_FAULT_BINDING = 13,          // a view's extent at the call is not the one its type declares
  KIR_FAULT_EXTENT_RANGE = 14      // an extent or point count beyond the 64-bit index range
};

// Services of the host runtime. `math` is the numerics library's correctly rounded function
// (fn: kir::num::MathFn, dtype: kir::DType, bits in the dtype's layout); `cast` the exact cast
// (returns nonzero on an invalid cast). Both are pure and thread-safe.
typedef struct kir_env {
  int32_t abi_version;
  void* pool;
  void (*run_tasks)(void* pool, int64_t ntasks, kir_task_fn fn, void* ctx);  // joins before returning
  uint64_t (*math)(int32_t fn, int32_t dtype, uint64_t bits);
  int32_t (*cast)(int32_t from_dtype, int32_t to_dtype, uint64_t bits, uint64_t* out);
  void* (*alloc)(int64_t bytes, int64_t align);  // scratch and materialized values of a call
  void (*free)(void* p);
  // A float binary op the language rounds once (pure, thread-safe): op KIR_BINARY_POW (IEEE pow,
  // C99 Annex F special cases) or KIR_BINARY_REM (fmod: exact, the dividend's sign), dtype a
  // float kir::DType, operands and result bits in the dtype's layout.
  uint64_t (*binary)(int32_t op, int32_t dtype, uint64_t a, uint64_t b);
} kir_env;

enum kir_binary_op { KIR_BINARY_POW = 0, KIR_BINARY_REM = 1 };

typedef struct kir_call {
  const kir_env* env;
  kir_view* views;          // the kernel's view parameters, in parameter order
  int64_t nviews;
  const uint64_t* scalars;  // runtime scalar parameters (bit patterns), in parameter order
  int64_t nscalars;
  const int64_t* extents;   // values of the program's extent symbols, in its symbol table order
  int64_t nextents;
  kir_fault* fault;
  int32_t faulted;          // set (atomically) once a fault is recorded
  int32_t fault_lock;       // guards *fault while a fault is recorded (kir_gen::fault)
  int64_t fault_order;      // the recorded fault's place in the language's order (kir_gen::fault)
  // Coverage (null: not asked for): one counter per cell of the program's coverage table,
  // counted by its Cover statements (kir_gen::cover; relaxed atomic adds).
  uint64_t* cover;
  int64_t ncover;
} kir_call;

#ifdef __cplusplus
}
#endif
#endif  // KIR_ABI_H
