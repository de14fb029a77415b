// Verifier rules of region_fold (seed 000 §9.1: L9.1–L9.3) and region_scan (§9.2: L9.5).
// Sources are cut along one axis at compiler-chosen boundaries; helpers see each slice with the
// axis extent as a fresh extent symbol of their own, which they may not observe (L9.2).
#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

namespace {

struct RegionOperands {
  size_t n_sources = 0, n_operands = 0;
  size_t axis = 0;
  std::vector<Type> sources;
  Extent axis_extent;  // the sources' common extent along the axis
};

// segments = [n_sources, 1, (1,) n_operands] (`singles` ones in the middle) partitions the
// operands; axis in range of every source component; the components agree on the axis extent.
bool check_region_operands(Context& cx, const Operation& op, size_t singles, const std::string& rule,
                           RegionOperands& r) {
  auto seg = cx.int_list_attr(op, "segments", rule);
  if (!seg) return false;
  std::string shape = singles == 1 ? "[n_sources, 1, n_operands]" : "[n_sources, 1, 1, n_operands]";
  bool ok = seg->size() == singles + 2 && (*seg)[0] >= 1 && seg->back() >= 0;
  for (size_t i = 1; ok && i <= singles; ++i) ok = (*seg)[i] == 1;
  if (ok) {
    int64_t total = (*seg)[0] + static_cast<int64_t>(singles) + seg->back();
    ok = total == static_cast<int64_t>(op.operands.size());
  }
  if (!ok) {
    cx.error(op, rule, "attribute 'segments' = " + op.attr("segments")->str() + " must be " + shape +
                           " with at least one source, summing to the " + std::to_string(op.operands.size()) +
                           " operands");
    return false;
  }
  r.n_sources = static_cast<size_t>((*seg)[0]);
  r.n_operands = static_cast<size_t>(seg->back());
  auto axis = axis_attr(cx, op, "axis", rule);
  if (!axis) return false;
  r.axis = *axis;
  std::vector<Type> all;
  std::vector<int64_t> axes{static_cast<int64_t>(r.axis)};
  for (size_t i = 0; i < r.n_sources; ++i) {
    Type t = operand_type(op, i);
    std::string miss = missing_axes(t, axes);
    if (!miss.empty()) {
      cx.error(op, rule, "source " + std::to_string(i) + " cannot be sliced along axis " + std::to_string(r.axis) +
                             ": " + miss);
      return false;
    }
    r.sources.push_back(t);
    for (auto& l : leaves(t)) all.push_back(l);
  }
  std::string conflict = axis_extent_conflict(all, axes, "source component");
  if (!conflict.empty()) {
    cx.error(op, rule, "all source components must have the same extent on the sliced axis: " + conflict);
    return false;
  }
  r.axis_extent = all[0].shape()[r.axis];
  return true;
}

// A helper taking (slices..., [middle...], operands...): binds the slices and operands; returns the
// slice symbol through `symbol`. `middle` are extra typed arguments between them (emit's state).
bool bind_region_helper(Context& cx, const Operation& op, HelperUse& h, const RegionOperands& r,
                        const std::vector<std::pair<Type, std::string>>& middle, size_t first_operand,
                        const std::string& rule, const std::string& observe_rule, std::string& symbol) {
  for (size_t i = 0; i < r.n_sources; ++i)
    if (!bind_slice(cx, op, h, i, r.sources[i], r.axis, symbol, rule, observe_rule)) return false;
  for (size_t m = 0; m < middle.size(); ++m)
    if (!bind_param(cx, op, h, r.n_sources + m, middle[m].first, middle[m].second, rule, rule)) return false;
  for (size_t k = 0; k < r.n_operands; ++k)
    if (!bind_param(cx, op, h, r.n_sources + middle.size() + k, operand_type(op, first_operand + k),
                    "operand " + std::to_string(k), rule, rule))
      return false;
  return check_slice_unobservable(cx, op, h, symbol, observe_rule);
}

// summarize = @f: fn(slices..., operands...) -> Summary; returns Summary in the op's extents.
std::optional<Type> check_summarize(Context& cx, const Operation& op, const RegionOperands& r, size_t first_operand,
                                    const std::string& rule, const std::string& observe_rule,
                                    const std::string& purity_rule) {
  HelperUse h;
  if (!resolve_helper(cx, op, "summarize", rule, h)) return std::nullopt;
  check_pure(cx, op, h, purity_rule);
  if (!helper_arity(cx, op, h, r.n_sources + r.n_operands, 1, rule)) return std::nullopt;
  std::string symbol;
  if (!bind_region_helper(cx, op, h, r, {}, first_operand, rule, observe_rule, symbol)) return std::nullopt;
  const Type& summary = h.fn->result_types[0];
  if (type_symbols(summary).count(symbol)) {
    cx.error(op, observe_rule, h.what() + " returns " + summary.str() + ", which depends on the slice extent " +
                                   symbol + "; the summary schema may not observe the segment extent");
    return std::nullopt;
  }
  return substitute(summary, h.binding);
}

// A helper fn(args...) -> result over fixed types (combine, apply).
void check_fixed_helper(Context& cx, const Operation& op, const std::string& key,
                        const std::vector<std::pair<Type, std::string>>& args, const Type& result,
                        const std::string& result_role, const std::string& rule, const std::string& purity_rule) {
  HelperUse h;
  if (!resolve_helper(cx, op, key, rule, h)) return;
  check_pure(cx, op, h, purity_rule);
  if (!helper_arity(cx, op, h, args.size(), 1, rule)) return;
  for (size_t i = 0; i < args.size(); ++i)
    if (!bind_param(cx, op, h, i, args[i].first, args[i].second, rule, rule)) return;
  bind_result(cx, op, h, 0, result, result_role, rule, rule);
}

void expect(Context& cx, const Operation& op, const std::string& what, const Type& got, const Type& want,
            const std::string& want_desc, const std::string& rule) {
  if (got == want) return;
  cx.error(op, rule, what + " has type " + (got ? got.str() : std::string("<none>")) + " but " + want_desc + " is " +
                         want.str());
}

}  // namespace

void check_region_fold(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"axis", "summarize", "combine", "segments"}, "L9.1");
  if (!cx.results(op, 1, "L9.1")) return;
  RegionOperands r;
  if (!check_region_operands(cx, op, 1, "L9.1", r)) return;
  Type identity = operand_type(op, r.n_sources);
  auto summary = check_summarize(cx, op, r, r.n_sources + 1, "L9.1", "L9.2", "L9.2");
  std::string desc = "the summary type of summarize";
  Type s = summary ? *summary : identity;  // without a summary schema, check the rest against the identity's
  if (summary) expect(cx, op, "identity", identity, s, desc, "L9.3");
  expect(cx, op, "result", result_type(op, 0), s, summary ? desc : "the identity", "L9.3");
  check_fixed_helper(cx, op, "combine", {{s, "the summary"}, {s, "the summary"}}, s, "the summary", "L9.3", "L9.2");
}

void check_region_scan(const Operation& op, Context& cx) {
  const std::string R = "L9.5";
  cx.only_attrs(op, {"axis", "summarize", "combine", "apply", "emit", "segments"}, R);
  RegionOperands r;
  if (!check_region_operands(cx, op, 2, R, r)) return;
  Type identity = operand_type(op, r.n_sources);
  Type state = operand_type(op, r.n_sources + 1);
  size_t first_operand = r.n_sources + 2;
  auto summary = check_summarize(cx, op, r, first_operand, R, R, R);
  Type t = summary ? *summary : identity;
  if (summary) expect(cx, op, "identity", identity, t, "the transition type of summarize", R);
  check_fixed_helper(cx, op, "combine", {{t, "the transition"}, {t, "the transition"}}, t, "the transition", R, R);
  check_fixed_helper(cx, op, "apply", {{t, "the transition"}, {state, "the state"}}, state, "the state", R, R);

  // emit = @e: fn(slices..., State, operands...) -> output slices along the axis.
  HelperUse h;
  if (!resolve_helper(cx, op, "emit", R, h)) return;
  check_pure(cx, op, h, R);
  if (!helper_arity(cx, op, h, r.n_sources + 1 + r.n_operands, SIZE_MAX, R)) return;
  std::string symbol;
  if (!bind_region_helper(cx, op, h, r, {{state, "the state"}}, first_operand, R, R, symbol)) return;
  size_t k = h.fn->result_types.size();
  if (!cx.results(op, k + 1, R)) return;
  auto full = h.binding;
  full[symbol] = r.axis_extent;
  for (size_t i = 0; i < k; ++i) {
    const Type& out = h.fn->result_types[i];
    for (const auto& l : leaves(out)) {
      bool sliced = l.is_tensor() && r.axis < l.rank() && l.shape()[r.axis] == Extent::symbol(symbol);
      for (size_t j = 0; sliced && j < l.rank(); ++j)
        sliced = j == r.axis || !mentions(l.shape()[j], {symbol});
      if (!sliced) {
        cx.error(op, R, h.what() + " returns " + out.str() + "; each output component must be a slice with extent " +
                            symbol + " on axis " + std::to_string(r.axis) + " (and nowhere else)");
        return;
      }
    }
    expect(cx, op, "result " + std::to_string(i), result_type(op, i), substitute(out, full),
           "the output of " + h.what() + " over the whole source", R);
  }
  expect(cx, op, "result " + std::to_string(k) + " (the final state)", result_type(op, k), state,
         "the initial state", R);
}

}  // namespace kir::verify::structured
