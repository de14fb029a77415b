// dot / matvec / vecmat / matmul -> contract (seed 000 §10.1; L10.1, L10.2).
// Core axes are the last two axes of a matrix and the last axis of a vector; the leading axes are
// batch axes, right-aligned with size-one broadcast. K must match exactly (never broadcast).
// Transposes only choose which core axis is K: the contract pairs that axis, so no transpose op is
// ever needed and the result is [batch..., M, N] (lhs free axes, then rhs free axes).
// Batch axes: an operand whose batch shape differs from the broadcast batch shape is explicitly
// broadcast to it, and the batch axes are paired (`batch`); except that an operand without batch
// axes is left as is when the contract's result order already puts the other operand's batch
// axes first (the rhs always; the lhs of vecmat, which has no free core axis).
#include <algorithm>

#include "kir/normalize/families.h"

namespace kir::normalize {
namespace {

struct Side {
  Value* v;
  size_t core;  // 2 for a matrix, 1 for a vector
  size_t k;     // position of K within the core axes
  const char* what;
};

std::string ext_str(const Extent& e) { return e.str(); }

bool contract_shorthand(Rewriter& rw, Side l, Side r, bool rank_exact) {
  const std::string R = "L10.1";
  const Type& lt = l.v->type;
  const Type& rt = r.v->type;
  for (const Side* s : {&l, &r}) {
    const Type& t = s->v->type;
    if (!t.is_tensor()) return rw.fail(R, std::string(s->what) + " must be a ranked tensor, got " + type_str(t));
    if (rank_exact ? t.rank() != s->core : t.rank() < s->core)
      return rw.fail(R, std::string(s->what) + " " + t.str() + " must have rank " + (rank_exact ? "" : "at least ") +
                            std::to_string(s->core));
  }
  if (lt.dtype() != rt.dtype())
    return rw.fail("L10.2", "operands have different dtypes " + std::string(name(lt.dtype())) + " and " +
                                std::string(name(rt.dtype())) + "; cast one of them explicitly");
  if (!is_arithmetic(lt.dtype()))
    return rw.fail("L10.2", "operand dtype " + std::string(name(lt.dtype())) +
                                " is not a numeric compute dtype (cast storage formats first)");
  std::optional<DType> acc;
  if (!dtype_attr(rw, "acc_dtype", "L10.2", true, acc)) return false;
  DType acc_dt = *acc;

  size_t lb = lt.rank() - l.core, rb = rt.rank() - r.core;
  const Extent& lk = lt.shape()[lb + l.k];
  const Extent& rk = rt.shape()[rb + r.k];
  if (lk != rk)
    return rw.fail(R, "K extents differ: " + std::string(l.what) + " K = " + ext_str(lk) + " (axis " +
                          std::to_string(lb + l.k) + "), " + r.what + " K = " + ext_str(rk) + " (axis " +
                          std::to_string(rb + r.k) + "); K is never broadcast");

  // Right-aligned batch broadcast.
  size_t nb = std::max(lb, rb);
  std::vector<Extent> batch(nb);
  for (size_t j = 0; j < nb; ++j) {
    std::optional<Extent> le, re;
    if (j + lb >= nb) le = lt.shape()[j + lb - nb];
    if (j + rb >= nb) re = rt.shape()[j + rb - nb];
    if (le && re && *le != *re) {
      if (le->constant_value() == 1) le.reset();
      else if (re->constant_value() == 1) re.reset();
      else {
        bool dynamic = !le->is_constant() || !re->is_constant();
        return rw.fail(R, "batch axis " + std::to_string(j) + ": extents " + ext_str(*le) + " and " + ext_str(*re) +
                              " are not broadcast-compatible" +
                              (dynamic ? " (dynamic extents are compatible only when provably equal, L4.2)" : ""));
      }
    }
    batch[j] = le ? *le : *re;
  }

  auto core_free = [](const Type& t, const Side& s) {
    std::vector<Extent> out;
    for (size_t c = 0; c < s.core; ++c)
      if (c != s.k) out.push_back(t.shape()[t.rank() - s.core + c]);
    return out;
  };
  std::vector<Extent> lfree = core_free(lt, l), rfree = core_free(rt, r);
  bool r_alone = nb > 0 && rb == 0;
  bool l_alone = nb > 0 && lb == 0 && lfree.empty() && !r_alone;

  std::vector<Extent> res = batch;
  res.insert(res.end(), lfree.begin(), lfree.end());
  res.insert(res.end(), rfree.begin(), rfree.end());
  Type result = Type::tensor(acc_dt, res);
  // dot has no free axes: its result is the rank-0 tensor acc[] (not a scalar).
  if (!check_result(rw, 0, result, R)) return false;

  auto widen = [&](const Side& s, size_t b, bool alone, const char* suffix) {
    if (alone) return s.v;
    const Type& t = s.v->type;
    std::vector<Extent> shape = batch;
    for (size_t c = 0; c < s.core; ++c) shape.push_back(t.shape()[b + c]);
    std::vector<int64_t> dims;
    for (size_t i = 0; i < t.rank(); ++i) dims.push_back(static_cast<int64_t>(i + nb - b));
    return rw.broadcast(s.v, Type::tensor(t.dtype(), shape), dims, suffix);
  };
  Value* lv = widen(l, lb, l_alone, "lhs");
  Value* rv = widen(r, rb, r_alone, "rhs");
  size_t lbase = l_alone ? 0 : nb, rbase = r_alone ? 0 : nb;
  std::vector<Attribute> reduce = {Attribute::int_list(
      {static_cast<int64_t>(lbase + l.k), static_cast<int64_t>(rbase + r.k)})};
  std::vector<Attribute> pairs;
  if (!l_alone && !r_alone)
    for (size_t j = 0; j < nb; ++j) pairs.push_back(Attribute::int_list({static_cast<int64_t>(j), static_cast<int64_t>(j)}));
  Value* c = rw.value("contract", {lv, rv}, result,
                      {{"reduce", Attribute::make_list(reduce)}, {"batch", Attribute::make_list(pairs)}}, "r");
  rw.replace({c});
  return true;
}

}  // namespace

bool normalize_contract(Rewriter& rw) {
  const std::string R = "L10.1";
  Operation& op = rw.op();
  if (!arity(rw, 2, 1, R)) return false;
  Value* a = op.operands[0];
  Value* b = op.operands[1];
  if (op.name == "dot") {
    if (!only_attrs(rw, {"acc_dtype"}, R)) return false;
    return contract_shorthand(rw, {a, 1, 0, "lhs"}, {b, 1, 0, "rhs"}, true);
  }
  if (op.name == "matmul") {
    if (!only_attrs(rw, {"acc_dtype", "transpose_lhs", "transpose_rhs"}, R)) return false;
    auto tl = bool_attr(rw, "transpose_lhs", false, R);
    auto tr = bool_attr(rw, "transpose_rhs", false, R);
    if (!tl || !tr) return false;
    return contract_shorthand(rw, {a, 2, *tl ? 0u : 1u, "lhs"}, {b, 2, *tr ? 1u : 0u, "rhs"}, false);
  }
  if (!only_attrs(rw, {"acc_dtype", "transpose"}, R)) return false;
  auto t = bool_attr(rw, "transpose", false, R);
  if (!t) return false;
  if (op.name == "matvec")
    return contract_shorthand(rw, {a, 2, *t ? 0u : 1u, "matrix"}, {b, 1, 0, "vector"}, false);
  // vecmat
  return contract_shorthand(rw, {a, 1, 0, "vector"}, {b, 2, *t ? 1u : 0u, "matrix"}, false);
}

// outer(a, b) : T[M, N] -> broadcast a along N, b along M, then mul; input dtype kept (L10.3).
bool normalize_outer(Rewriter& rw) {
  const std::string R = "L10.3";
  Operation& op = rw.op();
  if (!arity(rw, 2, 1, R) || !only_attrs(rw, {}, R)) return false;
  Value* a = op.operands[0];
  Value* b = op.operands[1];
  for (Value* v : {a, b})
    if (!v->type.is_tensor() || v->type.rank() != 1)
      return rw.fail(R, std::string(v == a ? "lhs" : "rhs") + " must be a rank-1 tensor, got " + type_str(v->type));
  if (a->type.dtype() != b->type.dtype())
    return rw.fail("L10.2", "operands have different dtypes " + std::string(name(a->type.dtype())) + " and " +
                                std::string(name(b->type.dtype())) + "; cast one of them explicitly");
  if (!is_arithmetic(a->type.dtype()))
    return rw.fail(R, "operand dtype " + std::string(name(a->type.dtype())) + " has no multiplication");
  Type result = Type::tensor(a->type.dtype(), {a->type.shape()[0], b->type.shape()[0]});
  if (!check_result(rw, 0, result, R)) return false;
  Value* ab = rw.broadcast(a, result, {0}, "lhs");
  Value* bb = rw.broadcast(b, result, {1}, "rhs");
  rw.replace({rw.value("mul", {ab, bb}, result, {}, "r")});
  return true;
}

}  // namespace kir::normalize
