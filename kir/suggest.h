// "Did you mean ...?" for a misspelled name among known ones (parameters, extents, options,
// manifest keys): the closest candidate by edit distance, when it is close enough to be a typo.
#pragma once
#include <string>
#include <vector>

namespace kir {

// " (did you mean X?)" for a candidate equal to `name` but for case, or (for names of three or
// more characters) within edit distance len/3 of it; else "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
// "a, b, c" (or "none").
std::string join_names(const std::vector<std::string>& names, const std::string& prefix = "");

}  // namespace kir
