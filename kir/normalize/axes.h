// Reading the `axis` attribute of the builtin reductions, prefixes and arg-reductions: an integer
// or (where allowed) a non-empty list of integers; negative axes count from the end (L7.6, L8.2).
#pragma once
#include <optional>
#include <vector>

#include "kir/normalize/rewriter.h"

namespace kir::normalize {

// Normalized, sorted, unique axes of `axis` for a source of rank `rank`; reports and returns
// nullopt when the attribute is missing, ill-formed, out of range or repeated. With
// `single`, only one axis is accepted (an integer, or a list of one integer).
std::optional<std::vector<size_t>> read_axes(Rewriter& rw, size_t rank, bool single, const std::string& rule);

// The shape without the given (sorted) axes.
std::vector<Extent> remove_axes(const std::vector<Extent>& shape, const std::vector<size_t>& axes);

std::vector<int64_t> to_ints(const std::vector<size_t>& v);

}  // namespace kir::normalize
