// Input data of a generated case: the storage bits of every In/InOut view and runtime scalar,
// drawn from the case's data seed. A share of the inputs (GenOptions::special_rate) mixes in, or
// consists of, special values of the dtype (numbers.h).
#pragma once
#include <cstdint>
#include <vector>

#include "fuzz/gen/gen.h"

namespace kir::fuzz {

// Storage elements an input needs: row-major numel, or what its strides and offset reach.
int64_t storage_size(const GeneratedCase::Input& in);
void fill_inputs(std::vector<GeneratedCase::Input>& inputs, uint64_t seed, double special_rate);

}  // namespace kir::fuzz
