// The backend side of the math section: one KIR kernel per (function, dtype) that applies the
// function elementwise to an In<dtype[N]> view and stores into an Out<dtype[N]> view, all of them
// compiled by the CPU backend into ONE shared object (cpu::build_kernels; the artifact cache makes
// reruns cheap), then run on the section's inputs. A kernel the backend cannot compile is reported
// with the backend's message instead of failing the batch.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "kir/ir.h"
#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::report {

std::string math_kernel_name(num::MathFn fn, kir::DType d);  // "math_exp_f32"
std::string math_kernel_text(num::MathFn fn, kir::DType d);   // the KIR text of that kernel

struct MathKernels {
  std::unique_ptr<Module> module;
  std::map<std::string, std::shared_ptr<cpu::NativeKernel>> built;  // by kernel name
  std::map<std::string, std::string> errors;  // kernels that did not compile: the backend's message
};

// Parses, verifies and compiles the kernels of `rows` as one batch (when the batch does not build,
// each kernel is built alone so the failing ones are isolated). Throws std::logic_error only when
// the generated KIR text itself is invalid.
MathKernels build_math_kernels(const std::vector<std::pair<num::MathFn, kir::DType>>& rows);

// True when a build error says the backend does not implement something (verdict UNSUPPORTED).
bool is_not_implemented(const std::string& message);

// Runs kernel `name` of `k` (applying a function on dtype d) on `inputs`; returns the outputs' bits.
// Throws std::runtime_error with the backend's located message on a native fault.
std::vector<uint64_t> run_math_kernel(const MathKernels& k, const std::string& name, kir::DType d,
                                      const std::vector<uint64_t>& inputs);

}  // namespace kir::report
