// Structured-sparsity schemas two_of_four (group 4, keep 2) and one_of_two (group 2, keep 1):
// compressed values are the kept values in increasing logical position; logical metadata holds,
// for each kept value, its position in [0, group), strictly increasing within a group.
// docs/numerics.md "Sparse schemas".
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "numerics/result.h"
#include "numerics/scalar.h"

namespace kir::num {

struct SparseSchema {
  int group;
  int keep;
  std::string_view name;
};
inline constexpr SparseSchema kTwoOfFour{4, 2, "two_of_four"};
inline constexpr SparseSchema kOneOfTwo{2, 1, "one_of_two"};

struct Compressed {
  std::vector<Scalar> values;     // dense_len / group * keep
  std::vector<uint8_t> metadata;  // same length, positions within each group
};

// Legality of metadata for a dense row of dense_len elements (multiple of group): length,
// range, strictly increasing within each group. The error names the offending group.
Result<bool> check_metadata(const SparseSchema& s, std::span<const uint8_t> metadata,
                            size_t dense_len);
// Dense row from compressed values + metadata; unkept positions are the zero of the values'
// dtype (e8m0 has no zero: TypeMismatch).
Result<std::vector<Scalar>> expand(const SparseSchema& s, std::span<const Scalar> values,
                                   std::span<const uint8_t> metadata, size_t dense_len);
// Compress a dense row. A value is non-zero unless it is ±0 (NaN counts as non-zero). A group
// with more than `keep` non-zeros is an error naming the group; a group with fewer is padded
// with its lowest unused positions (their stored values are the dense values there, i.e. zeros).
Result<Compressed> compress(const SparseSchema& s, std::span<const Scalar> dense);

}  // namespace kir::num
