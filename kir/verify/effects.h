// Effects analysis of helpers (seed 000 §1.5, L1.5, L7.2, L9.2): what executing a helper may do
// besides computing its results — read or write memory, perform atomics, draw random bits, or
// launch a kernel. It is transitive over `call` and over helpers referenced by symbol attributes
// (combine = @f, summarize = @g, ...), and cycle-safe (a recursive cycle is reported elsewhere,
// L1.3; here it simply contributes nothing new). Used by combine/summarize purity checks.
#pragma once
#include <string>

#include "kir/ir.h"

namespace kir::verify {

struct HelperEffects {
  bool reads = false;         // gather, view.load, buffer.load, atomic.load, ...
  bool writes = false;        // view.store, buffer.store, unique_store, scatter_reduce, buffer.alloc
  bool atomics = false;       // atomic.*
  bool random = false;        // random.bits, random.uniform
  bool calls_kernel = false;  // a `call` (or symbol attribute) naming a kernel
  Location first_offender;    // location of the first impure op found (in program order)
  std::string offender_op;    // its name, e.g. "view.store" (empty when pure)
  std::string offender_function;  // the helper containing it (may be a transitive callee)

  bool pure() const { return !reads && !writes && !atomics && !random && !calls_kernel; }
  // "helper @f is not pure: view.store in @g at file:3:5" (empty when pure).
  std::string describe(const std::string& helper_name) const;
};

// Effects of `f`, transitive over calls and symbol-attribute references to other functions.
HelperEffects helper_effects(const Module& m, const Function& f);

}  // namespace kir::verify
