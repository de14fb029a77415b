// Which generated integer inputs index something, and how far (kir run, kir campaign and
// kir report on kernel files): an integer In view whose loaded values reach a coordinate of a
// relation — directly or through ops that keep values (broadcast, cast, reshape, transpose,
// select's value operands) — that a load, store or atomic applies to a view, tensor or buffer must
// hold values in [0, extent of that axis). Generated values are drawn there instead of a fixed
// [0, 8), so gathers, scatters, embeddings and paged tables run on valid indices.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "kir/extent.h"
#include "kir/ir.h"

namespace kir::tools {

// Per integer In view parameter (name without '%'), the extents of every axis its values index.
std::map<std::string, std::vector<Extent>> index_extents(const Function& k);

}  // namespace kir::tools
