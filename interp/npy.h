// NumPy .npy files in and out (issue 4 item 4): format v1.0 headers (v2.0 also read),
// little-endian, C order. Every dtype of the language maps to one NumPy descr; the small formats
// travel as their carriers: e4m3, e5m2, e8m0 and e2m1 as uint8 (one element per byte; e2m1 in the
// low nibble), bf16 as uint16 bit patterns, index as int64. Reading accepts the dtype's own
// descr or its carrier's; a size beyond the interpreter's element cap is an error.
#pragma once
#include <string>
#include <vector>

#include "interp/value.h"

namespace kir::interp {

struct NpyArray {
  std::string descr;  // e.g. "<f4"
  Shape shape;
  std::vector<uint8_t> data;  // raw little-endian element bytes
};

// NumPy descr used to write dtype d ("<f4", "|u1" for e4m3, "<u2" for bf16, ...).
std::string npy_descr(DType d);
// Reads a file; throws std::runtime_error with a clear message on a malformed or unsupported file.
NpyArray read_npy(const std::string& path);
// Converts to element bit patterns of dtype d (the descr must be d's or its carrier's).
Tensor npy_to_tensor(const NpyArray& a, DType d);
void write_npy(const std::string& path, DType d, const Shape& shape, const std::vector<uint64_t>& bits);

}  // namespace kir::interp
