// The math accuracy section of `kir report` (docs/report-schema.json, $defs/math): for every unary
// math function of KIR on f16, bf16, f32 and f64, the CPU backend's largest error in ulps against
// the correctly rounded result, the numerics contract's bound for it, and glibc's libm on the same
// inputs as an anchor. The backend is measured by compiling and running real KIR kernels; the
// reference is the numerics library's correctly rounded evaluation (numerics/math.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "numerics/dtype.h"
#include "numerics/math.h"

namespace kir::report {

struct MathOptions {
  uint64_t samples = 1'000'000;   // random inputs per 32/64-bit function; 16-bit dtypes are exhaustive (all 65536 patterns)
  uint64_t seed = 20261202;
  std::vector<std::string> functions;  // empty: all (num::MathFn names); an unknown name throws std::invalid_argument
  std::vector<kir::DType> dtypes;      // empty: f16, bf16, f32, f64; another dtype throws std::invalid_argument
  int threads = 0;                     // 0: hardware concurrency
  std::function<void(const std::string&)> progress;  // optional, one line per finished row
};

// The schema's "math" object: {"samples", "seed", "functions": [math_row...]}, rows in dtype order,
// then function order. Never throws for a function the backend cannot compile or run (verdict
// UNSUPPORTED or FAIL with the message as reason); throws std::invalid_argument for bad options.
nlohmann::json math_section(const MathOptions& o);

}  // namespace kir::report
