// glibc malloc tuning behind keep_freed_memory() (see allocator.h).
#include "interp/allocator.h"

#include <cstdlib>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kir::interp {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Blocks below 32 MiB (the largest threshold glibc accepts on 64-bit; 4M elements) come from
  // the heap instead of mmap, and the top of the heap is never given back to the kernel.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace kir::interp
