// Process-wide allocator tuning for interpreter runs (docs/design.md "Interpreter speed").
#pragma once

namespace kir::interp {

// Keeps freed tensor memory in the process for reuse instead of returning it to the kernel
// (glibc: large blocks from the heap, not mmap; no trimming). Every interpreter op writes a
// fresh multi-megabyte tensor; returned memory comes back zero-filled page by page, and those
// first-touch page faults were most of the time of a pointwise kernel. Call once, early, from
// a program's main (the `kir` CLI, the benchmark); a no-op on other C libraries.
void keep_freed_memory();

}  // namespace kir::interp
