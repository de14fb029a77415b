// Getting values of a wanted type into a function under construction: constants and splats,
// index plumbing (extents as index values, domains, index vectors, identity relations), new
// kernel inputs, guarded casts, and `get`, which returns a value of exactly the asked type from
// the pool or makes one (cast, broadcast, new input, constant). Everything a family needs to
// stay valid by construction goes through here.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "fuzz/gen/context.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

// --- constants -------------------------------------------------------------------------------
std::string const_scalar(FnBuilder& fb, DType d, uint64_t bits);  // cached per scope
std::string const_index(FnBuilder& fb, int64_t v);
std::string splat(FnBuilder& fb, const VType& t, uint64_t bits);  // const broadcast to t

// --- extents and indices ---------------------------------------------------------------------
std::string ext_value(Ctx& c, FnBuilder& fb, const Ext& e);   // an index scalar with extent e
std::string domain_of(Ctx& c, FnBuilder& fb, const Ext& e);   // domain<e> from 0
std::string iota(Ctx& c, FnBuilder& fb, const Ext& e);        // index[e]: 0, 1, ..., e-1
// Index vector `idx` (index[s[axis]]) broadcast along `axis` of shape s.
std::string along(FnBuilder& fb, const std::string& idx, const Shape& s, int axis);
std::string ident_relation(Ctx& c, FnBuilder& fb, const Shape& s);  // relation<rank -> s>
std::string relation_type(int source_rank, const Shape& s, bool masked);

// --- choosing --------------------------------------------------------------------------------
using Pred = std::function<bool(const VType&)>;
std::optional<PoolValue> pick(FnBuilder& fb, Rng& r, const Pred& p);  // recent-biased; marks use
DType random_dtype(const Ctx& c, Rng& r, const std::function<bool(DType)>& ok);
Ext random_ext(Ctx& c, FnBuilder& fb, Rng& r);
Shape random_shape(Ctx& c, FnBuilder& fb, Rng& r, int rank);
VType random_tensor_type(Ctx& c, FnBuilder& fb, Rng& r, const std::function<bool(DType)>& ok, int max_rank = 2);

// --- values ----------------------------------------------------------------------------------
// A value of exactly type t (pool, cast, broadcast, new input, constant).
std::string get(Ctx& c, FnBuilder& fb, Rng& r, const VType& t);
// Kernel only: a new In view (or runtime scalar) parameter of type t, loaded whole.
std::string new_input(Ctx& c, FnBuilder& fb, Rng& r, const VType& t);
// Kernel only: a new Out (or InOut) view parameter of tensor type t; returns its name.
std::string new_view(Ctx& c, const VType& t, Access access, Rng* layout = nullptr);
// x (of type `from`) converted to dtype `to` without run-time faults: NaN and out-of-range
// floats are replaced/clamped before a float->integer cast, NaN before a cast to e2m1, small
// formats go through f32 first where needed.
std::string cast_to(Ctx& c, FnBuilder& fb, const std::string& x, const VType& from, DType to);
// Stores value `v` of type t into a new Out view through the identity relation (a scalar
// into element 0 of a [1] view); returns the view.
std::string store_out(Ctx& c, FnBuilder& fb, Rng& r, const std::string& v, const VType& t);

}  // namespace kir::fuzz
