// kir_atomic.h — atomic access of one element for generated C++ (atomic.load/store/rmw/
// compare_exchange, scatter_reduce inside parallel). Real atomic instructions on the element's
// storage (GCC __atomic builtins, any element width 1/2/4/8): native fetch-ops where they compute
// the language's result (integer add/and/or/xor wrap), otherwise a compare-exchange loop whose
// new value is a kir_rt function of the old one (float add/min/max with the language's rounding,
// f16/bf16 on the 16-bit word, integer min/max). Compare-exchange compares bit patterns.
// Orders are __ATOMIC_* values; a failed exchange uses the derived failure order.
// Self-contained like kir_rt.h: compiled at run time from the artifact cache's include directory.
#ifndef KIR_ATOMIC_H
#define KIR_ATOMIC_H
#include <cstdint>

#include "kir_rt.h"

namespace kir_atomic {

constexpr int failure_order(int order) {
  return order == __ATOMIC_ACQ_REL ? __ATOMIC_ACQUIRE : order == __ATOMIC_RELEASE ? __ATOMIC_RELAXED : order;
}

template <class T>
inline T load(const T* p, int order) {
  T r;
  __atomic_load(const_cast<T*>(p), &r, order);
  return r;
}

template <class T>
inline void store(T* p, T v, int order) {
  __atomic_store(p, &v, order);
}

template <class T>
inline T exchange(T* p, T v, int order) {
  T r;
  __atomic_exchange(p, &v, &r, order);
  return r;
}

template <class T>
inline T fetch_add(T* p, T v, int order) {
  return __atomic_fetch_add(p, v, order);  // two's complement wrap (GCC defines it)
}
template <class T>
inline T fetch_and(T* p, T v, int order) {
  return __atomic_fetch_and(p, v, order);
}
template <class T>
inline T fetch_or(T* p, T v, int order) {
  return __atomic_fetch_or(p, v, order);
}
template <class T>
inline T fetch_xor(T* p, T v, int order) {
  return __atomic_fetch_xor(p, v, order);
}

// Bitwise compare-exchange: returns the old contents; *ok tells whether `desired` was stored.
template <class T>
inline T cas(T* p, T expected, T desired, int order, uint8_t* ok) {
  *ok = __atomic_compare_exchange(p, &expected, &desired, false, order, failure_order(order)) ? 1 : 0;
  return expected;  // on failure the builtin wrote the current contents here
}

// *p = f(*p) atomically; f may be evaluated several times (it must be pure). Returns the old value.
template <class T, class F>
inline T update(T* p, F&& f, int order) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T nw = f(old);
    if (__atomic_compare_exchange(p, &old, &nw, true, order, failure_order(order))) return old;
  }
}

}  // namespace kir_atomic

#endif  // KIR_ATOMIC_H
