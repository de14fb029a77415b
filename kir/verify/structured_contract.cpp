// Verifier rules of generic contract (seed 000 §10.2: L10.2, L10.4) and sparse contract
// (§12: L12.1): paired reduce/batch axes with provably equal extents (K never broadcasts, L4.2),
// the result axis order, operand dtypes and the explicit accumulator dtype of the result.
#include <algorithm>

#include "kir/verify/structured_checks.h"
#include "kir/verify/structured_schema.h"

namespace kir::verify::structured {

namespace {

using Pairs = std::vector<std::pair<int64_t, int64_t>>;

// Attributes beyond the schema: contract has fixed multiply and add (no fake multiply=/combine=,
// alpha/beta, conjugate, TF32, accumulator initial value).
void no_extra_attrs(Context& cx, const Operation& op, std::initializer_list<const char*> allowed,
                    const std::string& rule) {
  for (const auto& [k, v] : op.attrs) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok)
      cx.error(op, rule, "attribute '" + k + "' is not part of " + op.name +
                             ": multiply and add are fixed; there is no alpha/beta, conjugate, TF32, "
                             "multiply=/combine= or mutable initial accumulator");
  }
}

// A ranked tensor of an arithmetic dtype: integers or f16/bf16/f32/f64 (not bool, not the small
// storage formats).
bool compute_dtype(DType d) { return d != DType::Bool && !is_small_float(d); }

bool check_operand_dtypes(Context& cx, const Operation& op, const Type& lhs, const Type& rhs, const char* lname,
                          const char* rname, const std::string& shape_rule, const std::string& dtype_rule) {
  if (!lhs.is_tensor() || !rhs.is_tensor()) {
    cx.error(op, shape_rule, std::string("operands must be ranked tensors, got ") + lname + " " +
                                 (lhs ? lhs.str() : "<none>") + " and " + rname + " " + (rhs ? rhs.str() : "<none>"));
    return false;
  }
  if (lhs.dtype() != rhs.dtype()) {
    cx.error(op, dtype_rule, std::string(lname) + " has dtype " + std::string(name(lhs.dtype())) + " but " + rname +
                                 " has " + std::string(name(rhs.dtype())) +
                                 "; both sides must have the same numeric dtype (cast explicitly)");
    return false;
  }
  if (!compute_dtype(lhs.dtype())) {
    cx.error(op, dtype_rule, "operand dtype " + std::string(name(lhs.dtype())) +
                                 " is not a numeric compute dtype (bool and the small float storage formats are "
                                 "not multiplied; cast first or use scaled_contract)");
    return false;
  }
  return true;
}

std::string pair_str(const std::pair<int64_t, int64_t>& p) {
  return "[" + std::to_string(p.first) + ", " + std::to_string(p.second) + "]";
}

// reduce/batch pairs against lhs/rhs extents (lhs given as its logical shape); on success the
// result shape: lhs axes not reduced, in order, then rhs axes neither reduced nor batch members.
bool check_pairs(Context& cx, const Operation& op, const std::vector<Extent>& lhs, const std::vector<Extent>& rhs,
                 const Pairs& reduce, const Pairs& batch, const std::string& rule, std::vector<Extent>& result) {
  if (reduce.empty()) {
    cx.error(op, rule, "attribute 'reduce' must hold at least one [lhs_axis, rhs_axis] pair (a product without "
                       "reduction is an explicit broadcast multiply)");
    return false;
  }
  std::vector<int64_t> lused, rused;
  auto check = [&](const char* kind, size_t i, const std::pair<int64_t, int64_t>& p) {
    std::string where = std::string(kind) + " pair " + std::to_string(i) + " " + pair_str(p);
    if (p.first < 0 || p.first >= static_cast<int64_t>(lhs.size())) {
      cx.error(op, rule, where + ": lhs axis " + std::to_string(p.first) + " is out of range for rank " +
                             std::to_string(lhs.size()));
      return false;
    }
    if (p.second < 0 || p.second >= static_cast<int64_t>(rhs.size())) {
      cx.error(op, rule, where + ": rhs axis " + std::to_string(p.second) + " is out of range for rank " +
                             std::to_string(rhs.size()));
      return false;
    }
    for (int side = 0; side < 2; ++side) {
      const auto& used = side == 0 ? lused : rused;
      int64_t axis = side == 0 ? p.first : p.second;
      auto at = std::find(used.begin(), used.end(), axis);
      if (at == used.end()) continue;
      bool overlap = std::string(kind) == "batch" && static_cast<size_t>(at - used.begin()) < reduce.size();
      cx.error(op, rule, where + (overlap ? " overlaps reduce: " : " repeats ") + (side == 0 ? "lhs" : "rhs") +
                             " axis " + std::to_string(axis) +
                             (overlap ? " is already reduced" : " (each axis is paired at most once)"));
      return false;
    }
    lused.push_back(p.first);
    rused.push_back(p.second);
    const Extent& a = lhs[static_cast<size_t>(p.first)];
    const Extent& b = rhs[static_cast<size_t>(p.second)];
    if (a != b) {
      cx.error(op, rule, where + " pairs extent " + a.str() + " with " + b.str() +
                             "; paired extents must be provably equal (they never broadcast)");
      return false;
    }
    return true;
  };
  for (size_t i = 0; i < reduce.size(); ++i)
    if (!check("reduce", i, reduce[i])) return false;
  for (size_t i = 0; i < batch.size(); ++i)
    if (!check("batch", i, batch[i])) return false;
  auto reduced_l = [&](int64_t a) {
    return std::any_of(reduce.begin(), reduce.end(), [&](const auto& p) { return p.first == a; });
  };
  auto dropped_r = [&](int64_t a) { return std::find(rused.begin(), rused.end(), a) != rused.end(); };
  result.clear();
  for (size_t i = 0; i < lhs.size(); ++i)
    if (!reduced_l(static_cast<int64_t>(i))) result.push_back(lhs[i]);
  for (size_t i = 0; i < rhs.size(); ++i)
    if (!dropped_r(static_cast<int64_t>(i))) result.push_back(rhs[i]);
  return true;
}

// The result: a tensor of an explicit numeric accumulator dtype with the contraction's shape.
void check_result(Context& cx, const Operation& op, const std::vector<Extent>& shape, const std::string& shape_rule,
                  const std::string& dtype_rule) {
  Type res = result_type(op, 0);
  if (!res.is_tensor() || !compute_dtype(res.dtype())) {
    cx.error(op, dtype_rule, "result type " + (res ? res.str() : std::string("<none>")) +
                                 " must be a tensor of an explicit numeric accumulator dtype");
    return;
  }
  if (res.shape() != shape)
    cx.error(op, shape_rule, "result has shape " + shape_str(res.shape()) + " but the contraction gives " +
                                 shape_str(shape) + " (lhs free and batch axes, then rhs free axes)");
}

}  // namespace

void check_contract(const Operation& op, Context& cx) {
  no_extra_attrs(cx, op, {"reduce", "batch"}, "L10.2");
  if (!cx.operands(op, 2, "L10.4") || !cx.results(op, 1, "L10.4")) return;
  Type lhs = operand_type(op, 0), rhs = operand_type(op, 1);
  if (!check_operand_dtypes(cx, op, lhs, rhs, "lhs", "rhs", "L10.4", "L10.2")) return;
  auto reduce = cx.pairs_attr(op, "reduce", "L10.4");
  auto batch = cx.pairs_attr(op, "batch", "L10.4");
  if (!reduce || !batch) return;
  std::vector<Extent> shape;
  if (!check_pairs(cx, op, lhs.shape(), rhs.shape(), *reduce, *batch, "L10.4", shape)) return;
  check_result(cx, op, shape, "L10.4", "L10.2");
}

void check_sparse_contract(const Operation& op, Context& cx) {
  const std::string R = "L12.1";
  no_extra_attrs(cx, op, {"format", "reduce", "batch"}, R);
  if (!cx.operands(op, 3, R) || !cx.results(op, 1, R)) return;
  const Attribute* fmt = cx.attr(op, "format", Attribute::Kind::Keyword, R);
  if (!fmt) return;
  int64_t group = 0;  // both formats keep half of each group
  if (fmt->s == "two_of_four") group = 4;
  else if (fmt->s == "one_of_two") group = 2;
  else {
    cx.error(op, R, "format '" + fmt->s + "' is not a sparse format of the language (two_of_four, one_of_two)");
    return;
  }
  Type comp = operand_type(op, 0), meta = operand_type(op, 1), rhs = operand_type(op, 2);
  if (!check_operand_dtypes(cx, op, comp, rhs, "compressed", "rhs", R, R)) return;
  if (!meta.is_tensor() || !is_integer(meta.dtype()) || meta.shape() != comp.shape()) {
    cx.error(op, R, "metadata " + (meta ? meta.str() : std::string("<none>")) +
                        " must be an integer tensor of the compressed operand's shape " + shape_str(comp.shape()));
    return;
  }
  auto reduce = cx.pairs_attr(op, "reduce", R);
  auto batch = cx.pairs_attr(op, "batch", R);
  if (!reduce || !batch) return;
  if (reduce->empty()) {
    cx.error(op, R, "attribute 'reduce' must hold at least one [lhs_axis, rhs_axis] pair; the first pair names "
                    "the compression axis");
    return;
  }
  auto [ca, ra] = reduce->front();
  if (ca < 0 || ca >= static_cast<int64_t>(comp.rank()) || ra < 0 || ra >= static_cast<int64_t>(rhs.rank())) {
    cx.error(op, R, "reduce pair 0 " + pair_str(reduce->front()) + " is out of range for compressed " + comp.str() +
                        " and rhs " + rhs.str());
    return;
  }
  const Extent& kc = comp.shape()[static_cast<size_t>(ca)];
  const Extent& k = rhs.shape()[static_cast<size_t>(ra)];
  if (kc * Extent::constant(2) != k) {
    cx.error(op, R, "compressed extent " + kc.str() + " on compression axis " + std::to_string(ca) + " keeps half of " +
                        "the logical reduction extent (" + fmt->s + "), so 2*" + kc.str() +
                        " must equal the paired rhs extent " + k.str());
    return;
  }
  if (auto kv = k.constant_value(); kv && *kv % group != 0) {
    cx.error(op, R, "logical reduction extent " + std::to_string(*kv) + " is not a multiple of the " + fmt->s +
                        " group size " + std::to_string(group));
    return;
  }
  std::vector<Extent> logical = comp.shape();
  logical[static_cast<size_t>(ca)] = k;
  std::vector<Extent> shape;
  if (!check_pairs(cx, op, logical, rhs.shape(), *reduce, *batch, R, shape)) return;
  check_result(cx, op, shape, R, R);
}

}  // namespace kir::verify::structured
