// Input data of a generated case: the storage bits of every In/InOut view and runtime scalar,
// drawn from the case's data seed. A share of the inputs (GenOptions::special_rate) mixes in, or
// consists of, special values of the dtype (numbers.h). Recipes then write the data a program
// needs to do what it was built for (a fault at one chosen element and nowhere else, a mask
// that skips it, an index scalar far outside every view, domain bounds at the int64 edges),
// each from a stream of the data seed of its own; an input a math function reads often gets
// values around that function's breakpoints (math_breakpoint_recipe).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/gen/gen.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

using Inputs = std::vector<GeneratedCase::Input>;
using Recipe = std::function<void(Inputs&, Rng&)>;

// Storage elements an input needs: row-major numel, or what its strides and offset reach.
int64_t storage_size(const GeneratedCase::Input& in);
void fill_inputs(Inputs& inputs, uint64_t seed, double special_rate, const std::vector<Recipe>& recipes = {});

// --- what recipes draw -----------------------------------------------------------------------
GeneratedCase::Input& input_named(Inputs& inputs, const std::string& name);  // name with or without '%'
// Element k of a rank-1 view's storage (its stride and offset applied), or the scalar's value.
uint64_t& element(GeneratedCase::Input& in, int64_t k);

// Where a fault goes among n >= 1 positions: the last, the middle, the first or any; never
// `avoid` when n >= 2.
int64_t fault_position(Rng& r, int64_t n, int64_t avoid = -1);

// The data of a rank-1 view that makes one op fault at element k only.
enum class FaultData {
  Divisor,      // of div/rem: small nonzero values (never -1), 0 at k
  ShiftAmount,  // of shl/shr: amounts in [0, width), out of range at k
  Coordinate,   // index coordinates in [0, bound), outside it at k
  CastSource,   // floats in [0, 100), at k NaN, ±inf or beyond the range of the integer dtype `to`
};
void write_fault_data(GeneratedCase::Input& in, FaultData what, int64_t k, Rng& r, int64_t bound = 0,
                      DType to = DType::I32);
// Random bools with false at k (a mask that skips the faulting element).
void write_mask_skipping(GeneratedCase::Input& in, int64_t k, Rng& r);
// Floats whose sum depends on the order of the additions: both signs, magnitudes 2^-24..2^24.
void write_order_sensitive(GeneratedCase::Input& in, Rng& r);

// --- inputs of math functions ---------------------------------------------------------------
// The input that `value` (an SSA name of the function whose op lines are `lines`) comes from:
// the value is a runtime scalar parameter, or it reaches an In/InOut view through at most eight
// of view.load, gather, cast, broadcast, reshape, transpose and neg (`negated`: an odd number of
// negs on the way); nullopt otherwise.
struct InputSource {
  std::string input;  // without '%'
  bool negated = false;
};
std::optional<InputSource> traced_input(const std::vector<std::string>& lines, const Inputs& inputs,
                                        const std::string& value);

// The data of an input whose values reach math function `fn` (traced_input): in four cases of
// five, a quarter, half or all of the elements the input's view reads become values at and
// around fn's breakpoints (numbers.h breakpoint_bits, negated where the function sees -x; the
// points in turn from a random one, so that enough elements reach all of them); the rest keep
// their ordinary data. fill_inputs applies these recipes before the others, each from
// a stream of its own, so that the recipes that build faults still have the last word and keep
// their streams. A float input only (others are left alone).
struct MathBreakpointFill {
  std::string input, fn;
  bool negated = false;
  void operator()(Inputs& inputs, Rng& r) const;
};
Recipe math_breakpoint_recipe(const std::string& input, const std::string& fn, bool negated);
// The storage positions of the elements an input's view reads (its shape, strides and offset;
// a scalar: 0).
std::vector<size_t> read_positions(const GeneratedCase::Input& in);

// An index value far beyond any view: 2^31 .. INT64_MAX.
int64_t huge_extent(Rng& r);
// Begin, end and step of a stepped domain at the int64 edges: end - begin + step - 1 or end -
// begin overflows int64, or the counter would step past INT64_MAX after the last point. At most
// four points.
std::array<int64_t, 3> edge_domain(Rng& r);

}  // namespace kir::fuzz
