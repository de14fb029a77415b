// `kir run --expect NAME=FILE.npy [--ulps N]`: compares an output view of a finished run with an
// array the user expects, element by element (floats within N ulps, NaN equal to NaN; other
// dtypes exactly), and prints the count and the worst elements with their coordinates.
#pragma once
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "interp/interpreter.h"

namespace kir::tools {

// Returns 0 when every expectation holds, 1 when an output differs (or a file does not fit the
// output), 2 for a malformed --expect or an unknown output name; messages go to `out`.
int check_expectations(const std::vector<std::string>& expects, uint64_t ulps, const Function& k,
                       const std::map<std::string, interp::KernelArg>& args, std::ostream& out);

}  // namespace kir::tools
