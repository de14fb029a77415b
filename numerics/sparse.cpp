// Structured-sparsity compress/expand with legality checks.
#include "numerics/sparse.h"

#include <string>

#include "numerics/format.h"

namespace kir::num {
namespace {

bool is_zero(Scalar v) {
  if (is_any_float(v.dtype)) return v.dtype != DType::E8M0 && classify(v.bits, v.dtype) == FpClass::Zero;
  return v.bits == 0;
}

std::string where(const SparseSchema& s, size_t g) {
  return std::string(s.name) + " group " + std::to_string(g);
}

}  // namespace

Result<bool> check_metadata(const SparseSchema& s, std::span<const uint8_t> metadata,
                            size_t dense_len) {
  if (dense_len % size_t(s.group))
    return make_error(Status::TypeMismatch, std::string(s.name) + ": dense length " +
                                                std::to_string(dense_len) +
                                                " is not a multiple of " + std::to_string(s.group));
  const size_t groups = dense_len / size_t(s.group);
  if (metadata.size() != groups * size_t(s.keep))
    return make_error(Status::TypeMismatch,
                      std::string(s.name) + ": metadata has " + std::to_string(metadata.size()) +
                          " entries, expected " + std::to_string(groups * size_t(s.keep)));
  for (size_t g = 0; g < groups; ++g) {
    for (int k = 0; k < s.keep; ++k) {
      const uint8_t p = metadata[g * size_t(s.keep) + size_t(k)];
      if (p >= s.group)
        return make_error(Status::TypeMismatch, where(s, g) + ": position " + std::to_string(p) +
                                                    " is outside [0, " + std::to_string(s.group) +
                                                    ")");
      if (k > 0 && p <= metadata[g * size_t(s.keep) + size_t(k) - 1])
        return make_error(Status::TypeMismatch,
                          where(s, g) + ": positions must be strictly increasing");
    }
  }
  return true;
}

Result<std::vector<Scalar>> expand(const SparseSchema& s, std::span<const Scalar> values,
                                   std::span<const uint8_t> metadata, size_t dense_len) {
  auto ok = check_metadata(s, metadata, dense_len);
  if (!ok) return ok.error();
  if (values.size() != metadata.size())
    return make_error(Status::TypeMismatch, std::string(s.name) + ": " +
                                                std::to_string(values.size()) + " values for " +
                                                std::to_string(metadata.size()) + " positions");
  if (values.empty()) return std::vector<Scalar>{};
  const DType d = values[0].dtype;
  if (d == DType::E8M0)
    return make_error(Status::TypeMismatch, std::string(s.name) + ": e8m0 has no zero");
  const Scalar zero{d, 0};  // +0 / integer 0 / false: all-zero bits in every other dtype
  std::vector<Scalar> dense(dense_len, zero);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].dtype != d)
      return make_error(Status::TypeMismatch, std::string(s.name) + ": mixed value dtypes");
    const size_t g = i / size_t(s.keep);
    dense[g * size_t(s.group) + metadata[i]] = values[i];
  }
  return dense;
}

Result<Compressed> compress(const SparseSchema& s, std::span<const Scalar> dense) {
  if (dense.size() % size_t(s.group))
    return make_error(Status::TypeMismatch, std::string(s.name) + ": dense length " +
                                                std::to_string(dense.size()) +
                                                " is not a multiple of " + std::to_string(s.group));
  Compressed out;
  const size_t groups = dense.size() / size_t(s.group);
  for (size_t g = 0; g < groups; ++g) {
    bool keep[8] = {};
    int count = 0;
    for (int p = 0; p < s.group; ++p)
      if (!is_zero(dense[g * size_t(s.group) + size_t(p)])) {
        keep[p] = true;
        ++count;
      }
    if (count > s.keep)
      return make_error(Status::TypeMismatch, where(s, g) + " has " + std::to_string(count) +
                                                  " non-zeros, at most " +
                                                  std::to_string(s.keep) + " allowed");
    for (int p = 0; p < s.group && count < s.keep; ++p)
      if (!keep[p]) {
        keep[p] = true;
        ++count;
      }
    for (int p = 0; p < s.group; ++p)
      if (keep[p]) {
        out.values.push_back(dense[g * size_t(s.group) + size_t(p)]);
        out.metadata.push_back(static_cast<uint8_t>(p));
      }
  }
  return out;
}

}  // namespace kir::num
