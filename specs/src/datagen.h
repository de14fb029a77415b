// Input data for instantiated calls (reference §7.3): generated metadata tensors get exactly
// their generated values; float and complex tensors standard-normal values (Python's
// Random.gauss) rounded once to the dtype (kir numerics' correctly rounded conversion; the fnuz
// float8s through numerics/fnuz.h, float8_e4m3 through float8_e4m3.h); integer tensors, with
// equal odds, over the dtype's whole range (every bit random) or in [0, 8); bool in [0, 2). Drawn
// from random.Random(1235 ^ crc32("<Op>:<tensor>:<case id>")) (py_random.h), so a call's data is
// reproducible (not torch.randn's values). float4_e2m1fn_x2 bytes hold two such draws rounded to
// e2m1 (the first in the low nibble); float8_e8m0fnu scales are 2^(randrange(7) - 3), a sane
// range for block scales (with special injection: gauss draws rounded to e8m0, so NaN 0xFF too). On request, special values (±0 where the format has
// -0, ±inf where it has inf, NaN, ±max finite) are injected into float inputs (1 in 8). Data is returned as raw little-endian bytes (the C++ API the
// interpreter consumes) or written as .npy files.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "specs/src/generators.h"
#include "specs/src/instantiate.h"
#include "specs/src/model.h"

namespace kir::specs {

struct DataOptions {
  bool inject_special = false;
  // Base seed of the draws (the reference's 1235; campaigns vary it for fresh inputs of a call).
  // Generated metadata contents come from instantiation and do not depend on it.
  uint32_t seed = kWorkloadSeed;
};

struct TensorData {
  std::string name;
  std::string dtype;
  std::vector<long> shape;
  std::vector<uint8_t> bytes;  // little-endian storage, row-major
  std::string npy_descr;       // numpy dtype descr; bfloat16/float8 as their raw bits (<u2, |u1)
};

// Data for every present input and construction-time tensor of `call`. Throws EvalError
// ("not implemented: data generation for <dtype>") for a dtype without a layout.
std::vector<TensorData> generate_inputs(const OpSpec& op, const Call& call, const DataOptions& opts);

// Writes NumPy .npy (format 1.0). Returns false with `err` set on failure.
bool write_npy(const TensorData& t, const std::string& path, std::string& err);

// Generates and writes `<dir>/<case_id>.<tensor>.npy` for each input; returns the paths.
std::vector<std::string> write_inputs_npy(const OpSpec& op, const Call& call, const std::string& dir,
                                          const DataOptions& opts, std::string& err);

}  // namespace kir::specs
