// kir_gen.h — the support the provider's generated C++ spells besides the scalar rules of
// kir_rt.h: per-call resources (Buf, owned by the call or a task and released at scope exit),
// task dispatch through the host's pool, located faults, checked indices, and the numerics
// library's correctly rounded math reached through the host environment. Self-contained like
// kir_rt.h: it is compiled at run time from the artifact cache's include directory.
#ifndef KIR_GEN_H
#define KIR_GEN_H
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "kir_abi.h"
#include "kir_rt.h"
#include "kir_random.h"
#include "kir_uk.h"
#include "kir_uk_qdot.h"
#include "kir_vmath.h"

namespace kir_gen {

// A fault status word: (op id << 8) | kir_fault_code; 0 = none.
using Status = int64_t;

// The order of a fault raised outside an ordered partition: the first in time wins, and every
// task stops.
inline constexpr int64_t kUnordered = INT64_MIN;

// Records a fault of the call with the coordinates of the element being computed. `order` is
// the task of an ordered partition (a loop the language runs in order, split into tasks of
// consecutive blocks) that raised it: the fault of the lowest task wins, as the interpreter's
// sequential order reaches it first. Any other fault (`kUnordered`) wins if it is the first.
inline void fault(kir_call* call, Status st, std::initializer_list<int64_t> coords, int64_t order = kUnordered) {
  while (__atomic_exchange_n(&call->fault_lock, 1, __ATOMIC_ACQUIRE) != 0) {
  }
  const bool first = __atomic_load_n(&call->faulted, __ATOMIC_RELAXED) == 0;
  if (first || (order != kUnordered && call->fault_order != kUnordered && order < call->fault_order)) {
    call->fault->code = static_cast<int32_t>(st & 0xFF);
    call->fault->op = static_cast<int32_t>(st >> 8);
    int64_t r = 0;
    for (int64_t c : coords)
      if (r < KIR_MAX_RANK) call->fault->coord[r++] = c;
    call->fault->rank = r;
    __atomic_store_n(&call->fault_order, order, __ATOMIC_RELAXED);
    __atomic_store_n(&call->faulted, 1, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&call->fault_lock, 0, __ATOMIC_RELEASE);
}

// Whether a fault ends the work of task `order` (kUnordered faults end every task; a fault of
// an ordered partition's task t ends the tasks from t on). Generated code asks at the start of
// every task and of every loop that holds more loops or a fault, so a call stops within a
// bounded amount of work after its first fault.
inline bool stopped(const kir_call* call, int64_t order = INT64_MAX) {
  return __atomic_load_n(&call->faulted, __ATOMIC_ACQUIRE) != 0 &&
         __atomic_load_n(&call->fault_order, __ATOMIC_RELAXED) <= order;
}

// Counts one reach of coverage cell `cell` (a Cover statement; the caller checked call->cover).
inline void cover(kir_call* call, int64_t cell) {
  if (cell >= 0 && cell < call->ncover) __atomic_fetch_add(&call->cover[cell], uint64_t{1}, __ATOMIC_RELAXED);
}

inline void note(Status& st, int32_t op, int32_t code) {
  if (code != 0 && st == 0) st = (static_cast<Status>(op) << 8) | code;
}

// The value of a fallible kir_rt operation `f(T* out) -> code`, noting its fault.
template <class T, class F>
inline T fl(Status& st, int32_t op, F&& f) {
  T out{};
  int32_t c = f(&out);
  if (__builtin_expect(c != 0, 0)) note(st, op, c);
  return out;
}

inline bool inb(int64_t i, int64_t n) { return static_cast<uint64_t>(i) < static_cast<uint64_t>(n); }

// A KIR select whose operands can fault: both are evaluated (they are the call's arguments), so
// a fault in the operand not chosen is noted, as in the interpreter.
template <class T>
inline T sel(uint8_t c, T a, T b) { return c ? a : b; }

// The value of an out-of-bounds read: notes the fault and reads nothing.
template <class T>
inline T oob(Status& st, int32_t op) {
  note(st, op, KIR_FAULT_OUT_OF_BOUNDS);
  return T{};
}

// Floor division of index values (extents; a zero divisor yields 0, guarded by the verifier).
inline int64_t floordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// A resource of the call (or of one task): `n` elements, 64-byte aligned, freed at scope exit.
template <class T>
class Buf {
 public:
  Buf(kir_call* call, int64_t n) : call_(call) {
    if (n < 0) n = 0;
    // Beyond 2^40 bytes no allocation can succeed; refuse before the size arithmetic overflows.
    if (n <= (int64_t{1} << 40) / static_cast<int64_t>(sizeof(T)))
      p_ = static_cast<T*>(call->env->alloc(n * static_cast<int64_t>(sizeof(T)) + 64, 64));
    if (!p_) fault(call, (static_cast<Status>(-1) * 256) | KIR_FAULT_ALLOCATION, {n});  // no op: a resource
  }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  ~Buf() { reset(); }
  void reset() {
    if (p_) call_->env->free(p_);
    p_ = nullptr;
  }
  T* data() const { return p_; }
  T& operator[](int64_t i) const { return p_[i]; }

 private:
  kir_call* call_;
  T* p_ = nullptr;
};

// Buf's interface over a small array of a constant size on the stack (scratch such as lane
// accumulators): nothing to allocate, so nothing can fail.
template <class T, int64_t N>
class StackBuf {
 public:
  void reset() {}
  T* data() { return p_; }
  T& operator[](int64_t i) { return p_[i]; }

 private:
  alignas(64) T p_[N > 0 ? N : 1];
};

template <class F>
inline void run_tasks(kir_call* call, int64_t n, F& body) {
  if (n <= 0) return;
  call->env->run_tasks(call->env->pool, n, [](void* ctx, int64_t t) { (*static_cast<F*>(ctx))(t); }, &body);
}

template <class T>
inline void copy(T* dst, const T* src, int64_t n) {
  if (n > 0 && dst != src) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
}

// Correctly rounded math of the numerics library: fn is kir::num::MathFn, dt kir::DType.
template <class T>
inline T math(kir_call* call, int32_t fn, int32_t dt, T x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(T));
  uint64_t r = call->env->math(fn, dt, bits);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

// flush_to_zero (f32 only in the language): a subnormal reads as the zero of the same sign.
inline float ftz(float x) {
  uint32_t b = kir_rt::f32_bits(x);
  return ((b & 0x7F800000u) == 0) ? kir_rt::f32_from_bits(b & 0x80000000u) : x;
}

// A runtime scalar parameter from its bit pattern.
template <class T>
inline T scalar(uint64_t bits) {
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

}  // namespace kir_gen

#endif  // KIR_GEN_H
