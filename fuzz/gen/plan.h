// The plan of a case: the random choices a program is built from, generated (and shrunk) by
// RapidCheck. Each step names a family (by position in the cumulative weights) and seeds its
// own choice stream, so dropping a step or shrinking a number still gives a valid program.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "fuzz/gen/gen.h"

namespace kir::fuzz {

struct PlanStep {
  uint32_t family = 0;  // position in the cumulative family weights (shrinks to the first family)
  uint64_t seed = 0;    // the step's choice stream
};

struct Plan {
  int size = 100;               // generation size (bounds the extents)
  uint32_t symbols = 0;         // 1 + symbols % 3 extent symbols (M, N, K)
  std::vector<uint32_t> dims;   // per symbol: choice in the extent table
  uint64_t skeleton = 0;        // choices of the initial inputs
  uint64_t data = 0;            // input data seed
  std::vector<PlanStep> steps;  // top-level steps (at most GenOptions::max_ops are used)
};

rc::Gen<Plan> gen_plan(const GenOptions& o);
// The program and inputs a plan stands for (program.cpp).
GeneratedCase build_case(const Plan& p, const GenOptions& o);
// An extent value from a plan's choice: mostly small (0..9), sometimes around vector widths.
int64_t extent_value(uint32_t choice, int size, int64_t max_extent);

}  // namespace kir::fuzz
