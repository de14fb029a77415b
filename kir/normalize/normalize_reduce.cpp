// reduce.sum / reduce.max / reduce.any / reduce.all -> generic reduce (seed 000 §7; L7.5, L7.6).
// The builtin fixes its combine (a generated pure helper applying add / max / or / and) and an
// explicit identity (0, the lowest value or -inf, false, true); an acc_dtype, or sum's default
// widening, becomes a `cast` of the source first: the generic reduce has no hidden accumulator.
#include "kir/normalize/axes.h"
#include "kir/normalize/combines.h"
#include "kir/normalize/families.h"
#include "kir/normalize/widening.h"

namespace kir::normalize {

// The accumulator dtype of a sum / max / cumsum / cummax given its source and optional acc_dtype.
std::optional<DType> builtin_accumulator(Rewriter& rw, bool is_sum, DType src, std::optional<DType> acc,
                                         const std::string& rule) {
  if (acc) return acc;
  std::string sname(name(src));
  if (is_sum) {
    if (src == DType::Bool) {
      rw.fail(rule, "cannot sum a bool source (no default accumulator); use reduce.any or give acc_dtype");
      return std::nullopt;
    }
    auto d = default_sum_accumulator(src);
    if (!d) rw.fail(rule, "source dtype " + sname + " has no default sum accumulator; give acc_dtype");
    return d;
  }
  if (src == DType::Bool) {
    rw.fail(rule, "maximum of a bool source; use reduce.any");
    return std::nullopt;
  }
  if (!is_arithmetic(src)) {
    rw.fail(rule, "source dtype " + sname + " is a storage format without arithmetic; give acc_dtype");
    return std::nullopt;
  }
  return src;
}

bool normalize_reduce(Rewriter& rw) {
  const std::string R = "L7.6";
  Operation& op = rw.op();
  std::string kind = op.name.substr(op.name.find('.') + 1);  // sum, max, any, all
  bool logical = kind == "any" || kind == "all";
  if (!arity(rw, 1, 1, R)) return false;
  if (logical ? !only_attrs(rw, {"axis"}, R) : !only_attrs(rw, {"axis", "acc_dtype"}, R)) return false;
  Value* x = op.operands[0];
  if (!x->type.is_tensor()) return rw.fail(R, "source must be a ranked tensor, got " + type_str(x->type));
  if (x->type.rank() == 0) return rw.fail(R, "source " + x->type.str() + " has no axis to reduce");
  auto axes = read_axes(rw, x->type.rank(), false, R);
  if (!axes) return false;
  DType src = x->type.dtype();
  DType acc_dt = src;
  if (logical) {
    if (src != DType::Bool)
      return rw.fail(R, "reduce." + kind + " needs a bool source, got " + std::string(name(src)));
  } else {
    std::optional<DType> given;
    if (!dtype_attr(rw, "acc_dtype", "L7.5", false, given)) return false;
    auto d = builtin_accumulator(rw, kind == "sum", src, given, R);
    if (!d) return false;
    acc_dt = *d;
  }
  Type acc = acc_type(acc_dt, remove_axes(x->type.shape(), *axes));
  if (!check_result(rw, 0, acc, R)) return false;

  Value* source = rw.cast(x, acc_dt, "src");
  Attribute idv = kind == "sum" ? zero_value(acc_dt)
                  : kind == "max" ? lowest_value(acc_dt)
                                  : Attribute::boolean(kind == "all");
  Value* identity = rw.splat(idv, acc, "id");
  const char* combine_op = kind == "sum" ? "add" : kind == "max" ? "max" : kind == "any" ? "or" : "and";
  std::string combine = pointwise_combine(rw, kind, combine_op, acc);
  Value* r = rw.value("reduce", {source, identity}, acc,
                      {{"axes", Attribute::int_list(to_ints(*axes))}, {"combine", Attribute::symbol(combine)}}, "r");
  rw.replace({r});
  return true;
}

// arg_reduce.max(x) {axis} -> reduce over the tuple (x, positions along the axis) with identity
// (lowest, 0) and the generated argmax combine; results (value, index) via tuple.get (L7.7).
bool normalize_arg_reduce(Rewriter& rw) {
  const std::string R = "L7.7";
  Operation& op = rw.op();
  if (!arity(rw, 1, 2, R) || !only_attrs(rw, {"axis"}, R)) return false;
  Value* x = op.operands[0];
  if (!x->type.is_tensor()) return rw.fail(R, "source must be a ranked tensor, got " + type_str(x->type));
  if (x->type.rank() == 0) return rw.fail(R, "source " + x->type.str() + " has no axis to reduce");
  auto axes = read_axes(rw, x->type.rank(), true, R);
  if (!axes) return false;
  DType dt = x->type.dtype();
  if (!is_arithmetic(dt))
    return rw.fail(R, "source dtype " + std::string(name(dt)) +
                          " has no ordered arithmetic (integer, index, f16, bf16, f32 or f64 expected)");
  size_t axis = (*axes)[0];
  std::vector<Extent> rest = remove_axes(x->type.shape(), *axes);
  Type vacc = acc_type(dt, rest);
  Type iacc = acc_type(DType::Index, rest);
  if (!check_result(rw, 0, vacc, R) || !check_result(rw, 1, iacc, R)) return false;

  const Extent& ext = x->type.shape()[axis];
  Value* zero = rw.constant(Attribute::integer(0), DType::Index, "zero");
  Value* n = rw.value("dim", {x}, Type::scalar(DType::Index), {{"axis", Attribute::integer(static_cast<int64_t>(axis))}},
                      "extent");
  Value* dom = rw.value("domain", {zero, n}, Type::domain(ext), {}, "dom");
  Value* pos = rw.value("indices", {dom}, Type::tensor(DType::Index, {ext}), {}, "pos");
  Value* posb = rw.broadcast(pos, x->type.with_dtype(DType::Index), {static_cast<int64_t>(axis)}, "posb");
  Type src_t = Type::tuple({x->type, posb->type});
  Value* src = rw.value("tuple", {x, posb}, src_t, {}, "src");
  Value* idv = rw.splat(lowest_value(dt), vacc, "idv");
  Value* idi = rw.splat(Attribute::integer(0), iacc, "idi");
  Type acc_t = Type::tuple({vacc, iacc});
  Value* id = rw.value("tuple", {idv, idi}, acc_t, {}, "id");
  std::string combine = argmax_combine(rw, vacc);
  Value* r = rw.value("reduce", {src, id}, acc_t,
                      {{"axes", Attribute::int_list({static_cast<int64_t>(axis)})},
                       {"combine", Attribute::symbol(combine)}},
                      "r");
  Value* v = rw.value("tuple.get", {r}, vacc, {{"index", Attribute::integer(0)}}, "value");
  Value* i = rw.value("tuple.get", {r}, iacc, {{"index", Attribute::integer(1)}}, "index");
  rw.replace({v, i});
  return true;
}

}  // namespace kir::normalize
