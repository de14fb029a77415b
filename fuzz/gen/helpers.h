// Helper functions (`fn`) of generated modules: generalizing call-site types to the helper's own
// extent symbols, the text of a helper, builtin-like combines (one add/mul/min/max/and/or/xor),
// user combines with random pure bodies and captures, and the (value, position) argmax combine.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "fuzz/gen/context.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

// Types with every non-constant extent renamed to a helper symbol P0, P1, ... (one per distinct
// extent); `atoms` gives the helper symbols' values at the call site.
struct Generalized {
  std::vector<VType> types;
  std::map<std::string, Ext> call_site;  // helper symbol -> the caller's extent
  std::map<std::string, int64_t> atoms;
  std::vector<Ext> symbols;
};
Generalized generalize(const FnBuilder& caller, const std::vector<VType>& types);

struct HelperParam {
  std::string name;  // with '%'
  std::string type;  // type text
  bool is_constexpr = false;
};
// Adds "fn NAME(params) -> results { lines return(values) }" to the module.
void add_helper(Ctx& c, const std::string& name, const std::vector<HelperParam>& params,
                const std::vector<std::string>& result_types, const std::vector<std::string>& body_lines,
                const std::vector<std::string>& returns);

// The combine ops a dtype has: add, mul, min, max (arithmetic), and, or, xor (bitwise).
std::vector<std::string> combine_kinds(DType d);
// fn(acc, acc) -> acc applying `kind`; reused for equal (type, kind).
std::string simple_combine(Ctx& c, const VType& acc, const std::string& kind);
// fn(acc, acc, captures...) -> acc with a random pure body starting from op(a, b).
// g.types = {acc, captures...} (generalized at the use).
std::string user_combine(Ctx& c, Rng& r, const Generalized& g);
// fn(tuple<T, index>, tuple<T, index>) -> tuple<T, index>: larger value, lower position on ties.
std::string argmax_combine(Ctx& c, const VType& value_acc);

}  // namespace kir::fuzz
