// scaled_matmul -> scaled_contract (seed 000 §11; L11.1) and sparse_matmul /
// sparse_contract_2to4 -> sparse_contract (§12; L12.1). The shorthands only fill in the fixed
// parts of the closed schemas (reduce pairs, empty batch, equal group sizes, the two_of_four
// format); carrier dtypes, C extents and metadata shapes are checked by the canonical verifier.
#include <algorithm>

#include "kir/normalize/families.h"

namespace kir::normalize {
namespace {

Attribute pair_list(const std::vector<std::pair<int64_t, int64_t>>& ps) {
  std::vector<Attribute> l;
  for (auto [a, b] : ps) l.push_back(Attribute::int_list({a, b}));
  return Attribute::make_list(l);
}

bool keyword_in(Rewriter& rw, const std::string& key, std::initializer_list<const char*> allowed,
                const std::string& rule) {
  const Attribute* a = rw.op().attr(key);
  if (!a) return rw.fail(rule, "missing attribute '" + key + "'");
  std::string list;
  for (const char* k : allowed) {
    if (a->kind == Attribute::Kind::Keyword && a->s == k) return true;
    list += (list.empty() ? "" : ", ") + std::string(k);
  }
  return rw.fail(rule, "attribute '" + key + "' must be one of " + list + ", got " + a->str());
}

bool tensor_rank(Rewriter& rw, Value* v, size_t rank, const char* what, const std::string& rule) {
  if (v->type.is_tensor() && v->type.rank() == rank) return true;
  return rw.fail(rule, std::string(what) + " must be a rank-" + std::to_string(rank) + " tensor, got " +
                           type_str(v->type));
}

bool same_extent(Rewriter& rw, const Extent& a, const Extent& b, const std::string& what, const std::string& rule) {
  if (a == b) return true;
  return rw.fail(rule, what + ": " + a.str() + " vs " + b.str());
}

bool scaled_matmul(Rewriter& rw) {
  const std::string R = "L11.1";
  Operation& op = rw.op();
  if (!arity(rw, 4, 1, R) || !only_attrs(rw, {"lhs_format", "rhs_format", "group_size", "acc_dtype"}, R)) return false;
  Value *l = op.operands[0], *ls = op.operands[1], *r = op.operands[2], *rs = op.operands[3];
  if (!tensor_rank(rw, l, 3, "lhs [M, G, C_lhs]", R) || !tensor_rank(rw, ls, 2, "lhs_scale [M, G]", R) ||
      !tensor_rank(rw, r, 3, "rhs [G, C_rhs, N]", R) || !tensor_rank(rw, rs, 2, "rhs_scale [N, G]", R))
    return false;
  const auto &L = l->type.shape(), &LS = ls->type.shape(), &RR = r->type.shape(), &RS = rs->type.shape();
  if (!same_extent(rw, L[0], LS[0], "M of lhs and lhs_scale differ", R) ||
      !same_extent(rw, L[1], LS[1], "G of lhs and lhs_scale differ", R) ||
      !same_extent(rw, L[1], RR[0], "G of lhs and rhs differ", R) ||
      !same_extent(rw, RR[2], RS[0], "N of rhs and rhs_scale differ", R) ||
      !same_extent(rw, RR[0], RS[1], "G of rhs and rhs_scale differ", R))
    return false;
  if (!keyword_in(rw, "lhs_format", {"e2m1", "e4m3", "e5m2"}, R) ||
      !keyword_in(rw, "rhs_format", {"e2m1", "e4m3", "e5m2"}, R))
    return false;
  const Attribute* g = op.attr("group_size");
  if (!g) return rw.fail(R, "missing attribute 'group_size'");
  if (!g->is_int() || g->i <= 0 || g->i > INT64_MAX)
    return rw.fail(R, "attribute 'group_size' must be a positive integer, got " + g->str());
  std::optional<DType> acc;
  if (!dtype_attr(rw, "acc_dtype", R, true, acc)) return false;
  Type result = Type::tensor(*acc, {L[0], RR[2]});
  if (!check_result(rw, 0, result, R)) return false;
  Value* c = rw.value("scaled_contract", {l, ls, r, rs}, result,
                      {{"lhs_format", *op.attr("lhs_format")},
                       {"rhs_format", *op.attr("rhs_format")},
                       {"lhs_group_size", *g},
                       {"rhs_group_size", *g},
                       {"reduce", pair_list({{1, 0}, {2, 1}})},
                       {"batch", pair_list({})}},
                      "r");
  rw.replace({c});
  return true;
}

// Pairs of a sparse_contract_2to4 attribute, checked against the ranks.
std::optional<std::vector<std::pair<int64_t, int64_t>>> pairs(Rewriter& rw, const std::string& key, size_t lrank,
                                                              size_t rrank, const std::string& rule) {
  const Attribute* a = rw.op().attr(key);
  if (!a) {
    rw.fail(rule, "missing attribute '" + key + "'");
    return std::nullopt;
  }
  if (!a->is_int_pair_list()) {
    rw.fail(rule, "attribute '" + key + "' must be a list of [lhs_axis, rhs_axis] pairs, got " + a->str());
    return std::nullopt;
  }
  auto ps = a->int_pairs();
  for (auto [x, y] : ps)
    if (x < 0 || y < 0 || static_cast<size_t>(x) >= lrank || static_cast<size_t>(y) >= rrank) {
      rw.fail(rule, "pair [" + std::to_string(x) + ", " + std::to_string(y) + "] of '" + key +
                        "' is out of range for ranks " + std::to_string(lrank) + " and " + std::to_string(rrank));
      return std::nullopt;
    }
  return ps;
}

bool sparse(Rewriter& rw) {
  const std::string R = "L12.1";
  Operation& op = rw.op();
  bool matmul = op.name == "sparse_matmul";
  if (!arity(rw, 3, 1, R)) return false;
  if (matmul ? !only_attrs(rw, {"format", "acc_dtype"}, R) : !only_attrs(rw, {"reduce", "batch", "acc_dtype"}, R))
    return false;
  Value *c = op.operands[0], *meta = op.operands[1], *rhs = op.operands[2];
  std::vector<std::pair<int64_t, int64_t>> red, bat;
  Attribute format = Attribute::keyword("two_of_four");
  if (matmul) {
    if (!tensor_rank(rw, c, 2, "compressed lhs", R) || !tensor_rank(rw, rhs, 2, "rhs", R)) return false;
    if (!keyword_in(rw, "format", {"two_of_four", "one_of_two"}, R)) return false;
    format = *op.attr("format");
    red = {{1, 0}};
  } else {
    if (!c->type.is_tensor() || !rhs->type.is_tensor())
      return rw.fail(R, "compressed lhs and rhs must be ranked tensors, got " + type_str(c->type) + " and " +
                            type_str(rhs->type));
    auto r = pairs(rw, "reduce", c->type.rank(), rhs->type.rank(), R);
    if (!r) return false;
    auto b = pairs(rw, "batch", c->type.rank(), rhs->type.rank(), R);
    if (!b) return false;
    red = *r;
    bat = *b;
    if (red.empty()) return rw.fail(R, "attribute 'reduce' must not be empty");
    std::vector<int64_t> ls, rs;
    for (const auto* list : {&red, &bat})
      for (auto [x, y] : *list) {
        if (std::count(ls.begin(), ls.end(), x) || std::count(rs.begin(), rs.end(), y))
          return rw.fail(R, "axis pair [" + std::to_string(x) + ", " + std::to_string(y) +
                                "] reuses an axis already paired in reduce or batch");
        ls.push_back(x);
        rs.push_back(y);
      }
    for (auto [x, y] : bat)
      if (!same_extent(rw, c->type.shape()[static_cast<size_t>(x)], rhs->type.shape()[static_cast<size_t>(y)],
                       "batch pair [" + std::to_string(x) + ", " + std::to_string(y) + "] has different extents", R))
        return false;
  }
  std::optional<DType> acc;
  if (!dtype_attr(rw, "acc_dtype", R, true, acc)) return false;
  auto in = [](const std::vector<std::pair<int64_t, int64_t>>& ps, size_t axis, bool lhs) {
    for (auto [x, y] : ps)
      if (static_cast<size_t>(lhs ? x : y) == axis) return true;
    return false;
  };
  std::vector<Extent> res;
  for (size_t i = 0; i < c->type.rank(); ++i)
    if (!in(red, i, true)) res.push_back(c->type.shape()[i]);
  for (size_t i = 0; i < rhs->type.rank(); ++i)
    if (!in(red, i, false) && !in(bat, i, false)) res.push_back(rhs->type.shape()[i]);
  Type result = Type::tensor(*acc, res);
  if (!check_result(rw, 0, result, R)) return false;
  Value* v = rw.value("sparse_contract", {c, meta, rhs}, result,
                      {{"format", format}, {"reduce", pair_list(red)}, {"batch", pair_list(bat)}}, "r");
  rw.replace({v});
  return true;
}

}  // namespace

bool normalize_scaled_sparse(Rewriter& rw) {
  return rw.op().name == "scaled_matmul" ? scaled_matmul(rw) : sparse(rw);
}

}  // namespace kir::normalize
