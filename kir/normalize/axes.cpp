// Axis attribute parsing for the builtin reductions and prefixes.
#include "kir/normalize/axes.h"

#include <algorithm>

namespace kir::normalize {

std::optional<std::vector<size_t>> read_axes(Rewriter& rw, size_t rank, bool single, const std::string& rule) {
  const Attribute* a = rw.op().attr("axis");
  if (!a) {
    rw.fail(rule, "missing attribute 'axis'");
    return std::nullopt;
  }
  std::vector<int64_t> raw;
  if (a->is_int() && a->i >= INT64_MIN && a->i <= INT64_MAX) {
    raw.push_back(static_cast<int64_t>(a->i));
  } else if (a->is_int_list() && !a->list.empty()) {
    raw = a->ints();
  } else {
    rw.fail(rule, std::string("attribute 'axis' must be ") +
                      (single ? "one integer axis" : "an integer or a non-empty list of integers") + ", got " +
                      a->str());
    return std::nullopt;
  }
  if (single && raw.size() != 1) {
    rw.fail(rule, "takes exactly one axis, got " + a->str());
    return std::nullopt;
  }
  std::vector<size_t> out;
  for (int64_t x : raw) {
    auto n = norm_axis(x, rank);
    if (!n) {
      rw.fail(rule, "axis " + std::to_string(x) + " is out of range for a source of rank " + std::to_string(rank));
      return std::nullopt;
    }
    if (std::find(out.begin(), out.end(), *n) != out.end()) {
      rw.fail(rule, "axis " + std::to_string(*n) + " is listed more than once");
      return std::nullopt;
    }
    out.push_back(*n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Extent> remove_axes(const std::vector<Extent>& shape, const std::vector<size_t>& axes) {
  std::vector<Extent> out;
  for (size_t i = 0; i < shape.size(); ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(shape[i]);
  return out;
}

std::vector<int64_t> to_ints(const std::vector<size_t>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

}  // namespace kir::normalize
