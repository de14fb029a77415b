// Shared machinery of the structured-op verifiers (seed 000 §7–§13): aggregate leaves and
// accumulator schemas (source less the reduced axes), substitution of a helper's extent symbols,
// binding a helper referenced by a symbol attribute (`combine = @f`) to the types it is used at,
// helper purity (through kir/verify/effects.h) and the "may not observe the segment extent"
// analysis of region_fold/region_scan helpers (L9.2).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kir/verify/context.h"

namespace kir::verify::structured {

// The type of operand/result i, or a null type when it is absent (malformed input).
Type operand_type(const Operation& op, size_t i);
Type result_type(const Operation& op, size_t i);

// Attribute `key` as one canonical axis: a non-negative integer (negative axes are surface
// syntax, normalized against the rank by `kir normalize`). Range is checked by the caller.
std::optional<size_t> axis_attr(Context& cx, const Operation& op, const std::string& key, const std::string& rule);
// Attribute `key` as a non-empty list of unique non-negative axes, returned sorted.
std::optional<std::vector<int64_t>> axes_attr(Context& cx, const Operation& op, const std::string& key,
                                              const std::string& rule);

// The leaves of a type: itself, or the components of a tuple/record, recursively.
std::vector<Type> leaves(const Type& t);
// Pairs up the leaves of two types of the same tuple/record structure; false if it differs.
bool zip_leaves(const Type& a, const Type& b, std::vector<std::pair<Type, Type>>& out);
// True if every leaf is a scalar or a tensor (a value schema: with_dtype/remove_axes apply).
bool value_schema(const Type& t);

// Every leaf must be a tensor having each of `axes`; returns "" or a description of the first
// leaf that is not ("component 1 is f32 (a scalar)", "component 0 f32[M] has no axis 1").
std::string missing_axes(const Type& t, const std::vector<int64_t>& axes);
// Leaves (tensors having `axes`) must agree on the extent of each of `axes`; returns "" or
// "<noun> 1 has extent N on axis 0 but <noun> 0 has M".
std::string axis_extent_conflict(const std::vector<Type>& ls, const std::vector<int64_t>& axes,
                                 const std::string& noun);
// Each leaf tensor less `axes` (sorted, in range); a leaf that loses every axis becomes a scalar.
Type remove_axes(const Type& t, const std::vector<int64_t>& axes);
// Each leaf tensor with extent `axis` replaced by `e` (axis in range for every leaf).
Type with_axis_extent(const Type& t, size_t axis, const Extent& e);

// The type with extent symbols replaced per `binding` (throws ExtentOverflow on overflow).
Type substitute(const Type& t, const std::map<std::string, Extent>& binding);
// Every extent symbol the type mentions.
std::set<std::string> type_symbols(const Type& t);
bool mentions(const Extent& e, const std::set<std::string>& symbols);
// True if a != b but they are equal once element dtypes are ignored (L7.5 hidden dtype).
bool differs_only_in_dtype(const Type& a, const Type& b);

// A helper referenced by a symbol attribute of `op`, named in diagnostics as "<key> @<name>".
struct HelperUse {
  const Function* fn = nullptr;
  std::string key;                       // "combine", "summarize", ...
  std::map<std::string, Extent> binding;  // the helper's extent symbols -> the op's extents
  std::string what() const { return key + " @" + (fn ? fn->name : std::string("?")); }
};

// Resolves attribute `key` to a helper (reported under `rule` if missing or a kernel).
bool resolve_helper(Context& cx, const Operation& op, const std::string& key, const std::string& rule, HelperUse& h);
// The helper takes `n` parameters and returns `m` results (m = SIZE_MAX: any number >= 1).
bool helper_arity(Context& cx, const Operation& op, const HelperUse& h, size_t n_params, size_t n_results,
                  const std::string& rule);
// Parameter `i` unifies with `actual` (binding the helper's symbols); `role` names the argument
// ("accumulator", "capture 0"). A mismatch only in element dtypes is reported under `dtype_rule`.
bool bind_param(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& actual, const std::string& role,
                const std::string& rule, const std::string& dtype_rule);
// Result `i` unifies with `expected`, continuing the binding.
bool bind_result(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& expected,
                 const std::string& role, const std::string& rule, const std::string& dtype_rule);
// The helper is pure, transitively: no read, write, atomic, RNG or kernel launch (L7.2, L9.2).
bool check_pure(Context& cx, const Operation& op, const HelperUse& h, const std::string& rule);

// Region helpers: parameter `i` is the slice of `source` along `axis`. Its axis extent must be one
// extent symbol of the helper's own (not a constant, not an expression), the same for every slice
// (`slice_symbol`, empty before the first slice); its other extents unify with the source's.
bool bind_slice(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& source, size_t axis,
                std::string& slice_symbol, const std::string& rule, const std::string& observe_rule);
// After all parameters are bound: the slice symbol is fresh (no other argument binds it), and
// neither the helper nor a helper it calls reads it (`dim`) or builds a chunk-relative
// domain/subregion from it.
bool check_slice_unobservable(Context& cx, const Operation& op, const HelperUse& h, const std::string& slice_symbol,
                              const std::string& rule);

}  // namespace kir::verify::structured
