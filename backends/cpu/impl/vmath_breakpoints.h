// The breakpoints of the vector math kernels (rt/kir_vmath.h, and kir_rt::sqrt_f32) as data:
// impl/vmath_breakpoints.yaml, embedded in the library. Per f32 function, every threshold and
// constant its code compares the input with, the true mathematical limits near them, the edges of
// the argument reduction and the inputs set "by input", each with a short name and a reason.
// tests/backend/test_vmath_breakpoints.cpp checks every f32 within 4096 ulps of each point; the
// program generator fills inputs of math functions with values around them.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kir::cpu {

struct MathBreakpoint {
  std::string function;  // the numerics name: "exp", "tanh", ... (num::parse_math_fn)
  std::string name;      // short, unique within the function; "-NAME" for a mirrored point
  std::string why;
  float x;               // the point (finite, or +-Inf)
};

struct BreakpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every point of the built-in catalogue, in file order; a function with `symmetry: odd` or
// `even` has each point's negative right after it. Parsed once; throws BreakpointError (naming
// file:line:col) if the data is malformed.
const std::vector<MathBreakpoint>& vmath_breakpoints();

// The points of one function (empty if it has none).
std::vector<MathBreakpoint> vmath_breakpoints_of(std::string_view function);

// The functions the catalogue may describe: those with a vector kernel, and that kernel as the
// generated C++ calls it ("kir_vmath::exp_f32", "kir_rt::sqrt_f32"); nullptr for other names.
const char* vmath_kernel_name(std::string_view function);

// Parses and checks catalogue text: known keys, functions that parse as num::MathFn and have a
// vector kernel (the `kernel` given must be it), each listed once, points with a unique name, a
// reason and a number x (decimal or hex-float; rounded to the nearest f32, which must be finite
// unless x is inf or -inf), `bits` equal to x's f32 bits where given. Errors name file:line:col.
std::vector<MathBreakpoint> parse_vmath_breakpoints(const std::string& text, const std::string& file);

std::string_view vmath_breakpoints_text();  // generated from impl/vmath_breakpoints.yaml

}  // namespace kir::cpu
