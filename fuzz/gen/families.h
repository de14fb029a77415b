// The op families of the generator: each is a function that appends one well-typed piece of
// program (an op with the plumbing it needs) to a function under construction, or returns
// false when it does not apply here. The table gives each family its default weight and where
// it may appear (kernel body, loop/if bodies, parallel bodies, pure helpers).
#pragma once
#include <string>
#include <vector>

#include "fuzz/gen/context.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

using FamilyFn = bool (*)(Ctx&, FnBuilder&, Rng&);

enum Where : unsigned { kTop = 1, kRegion = 2, kParallel = 4, kHelper = 8, kAnywhere = 15 };

struct Family {
  const char* name;
  int weight;
  unsigned where;
  FamilyFn fn;
};

const std::vector<Family>& family_table();

// Where `fb` currently is (one Where bit).
unsigned where_of(const FnBuilder& fb);
// The families allowed at `where` and their weights under the case's options.
std::vector<const Family*> allowed_families(const Ctx& c, unsigned where, std::vector<int>& weights);
// Runs the family chosen by `choice` (a position in the cumulative weights) or, when it does
// not apply, a plain pointwise op; n random steps for nested bodies.
void run_family(Ctx& c, FnBuilder& fb, Rng& r, uint64_t choice);
void run_steps(Ctx& c, FnBuilder& fb, Rng& r, int n);

// A pointwise op (binary with a same-typed operand, or unary) applied to x; returns its result
// (x itself for the small storage formats). Loop, branch and parallel bodies start with it so
// that their results depend on their inputs.
std::string pointwise_on(Ctx& c, FnBuilder& fb, Rng& r, const PoolValue& x);

// Family implementations (fam_*.cpp).
bool fam_binary(Ctx&, FnBuilder&, Rng&);
bool fam_unary(Ctx&, FnBuilder&, Rng&);
bool fam_compare(Ctx&, FnBuilder&, Rng&);
bool fam_select(Ctx&, FnBuilder&, Rng&);
bool fam_cast(Ctx&, FnBuilder&, Rng&);
bool fam_bitcast(Ctx&, FnBuilder&, Rng&);
bool fam_const(Ctx&, FnBuilder&, Rng&);
bool fam_broadcast(Ctx&, FnBuilder&, Rng&);
bool fam_reshape(Ctx&, FnBuilder&, Rng&);
bool fam_transpose(Ctx&, FnBuilder&, Rng&);
bool fam_join(Ctx&, FnBuilder&, Rng&);
bool fam_aggregate(Ctx&, FnBuilder&, Rng&);
bool fam_gather(Ctx&, FnBuilder&, Rng&);
bool fam_view_load(Ctx&, FnBuilder&, Rng&);
bool fam_view_store(Ctx&, FnBuilder&, Rng&);
bool fam_buffer(Ctx&, FnBuilder&, Rng&);
bool fam_reduce(Ctx&, FnBuilder&, Rng&);
bool fam_reduce_user(Ctx&, FnBuilder&, Rng&);
bool fam_scan(Ctx&, FnBuilder&, Rng&);
bool fam_scan_user(Ctx&, FnBuilder&, Rng&);
bool fam_contract(Ctx&, FnBuilder&, Rng&);
bool fam_sparse_contract(Ctx&, FnBuilder&, Rng&);
bool fam_scaled_contract(Ctx&, FnBuilder&, Rng&);
bool fam_contract_epilogue(Ctx&, FnBuilder&, Rng&);  // fam_contract_epi.cpp
bool fam_quantize(Ctx&, FnBuilder&, Rng&);
bool fam_histogram(Ctx&, FnBuilder&, Rng&);
bool fam_for(Ctx&, FnBuilder&, Rng&);
bool fam_while(Ctx&, FnBuilder&, Rng&);
bool fam_if(Ctx&, FnBuilder&, Rng&);
bool fam_parallel(Ctx&, FnBuilder&, Rng&);
bool fam_atomic(Ctx&, FnBuilder&, Rng&);
bool fam_scatter(Ctx&, FnBuilder&, Rng&);
bool fam_call(Ctx&, FnBuilder&, Rng&);
bool fam_random(Ctx&, FnBuilder&, Rng&);
bool fam_region_fold(Ctx&, FnBuilder&, Rng&);
bool fam_region_scan(Ctx&, FnBuilder&, Rng&);
bool fam_faults(Ctx&, FnBuilder&, Rng&);

}  // namespace kir::fuzz
