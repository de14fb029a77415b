// glibc's libm as the anchor of the math section: the same inputs through the system's double
// functions (f64), float functions (f32), or float functions rounded once to the dtype (f16,
// bf16), so a reader can compare the backend's error with what a common C library achieves.
// Functions libm lacks are composed (rsqrt = 1/sqrt(x), sigmoid = 1/(1+exp(-x))); i0 has no
// glibc counterpart and no anchor.
#pragma once
#include <cstdint>
#include <string>

#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::report {

struct GlibcAnchor {
  std::string function;          // what is called: "expf", "1/(1+exp(-x))", "expf rounded to f16", ...
  bool available = false;        // false: no glibc function (i0); function says so
  uint64_t (*eval)(uint64_t bits) = nullptr;  // bits of dtype d in, bits of dtype d out
};

// The anchor of fn on d (f16, bf16, f32 or f64). libm is called through function pointers read
// from volatile variables, so the compiler can neither constant-fold nor substitute builtins.
// lgamma uses the reentrant lgamma_r / lgammaf_r (same algorithm, no write to the global signgam,
// so it is safe on worker threads).
GlibcAnchor glibc_anchor(num::MathFn fn, kir::DType d);

}  // namespace kir::report
