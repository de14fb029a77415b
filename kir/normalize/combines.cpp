// Builders of the generated combine helpers.
#include "kir/normalize/combines.h"

namespace kir::normalize {

static std::string suffix(const Type& acc) {
  return std::string(name(acc.dtype())) + "_r" + std::to_string(acc.is_tensor() ? acc.rank() : 0);
}

std::string pointwise_combine(Rewriter& rw, const std::string& kind, const std::string& op, const Type& acc) {
  Type g = generic_type(acc);
  return rw.helper(std::string(kGeneratedPrefix) + kind + "_" + suffix(acc), {g, g}, {"a", "b"}, {g},
                   [&](Builder& b, const std::vector<Value*>& p) {
                     b.set_next_name("r");
                     Value* r = b.value(op, {p[0], p[1]}, g);
                     b.effect("return", {r});
                   });
}

std::string argmax_combine(Rewriter& rw, const Type& value_acc) {
  Type gv = generic_type(value_acc);
  Type gi = gv.with_dtype(DType::Index);
  Type gb = gv.with_dtype(DType::Bool);
  Type tup = Type::tuple({gv, gi});
  bool floating = is_float(value_acc.dtype());
  return rw.helper(
      std::string(kGeneratedPrefix) + "argmax_" + suffix(value_acc), {tup, tup}, {"a", "b"}, {tup},
      [&](Builder& b, const std::vector<Value*>& p) {
        auto v = [&](const char* n, const std::string& opname, std::vector<Value*> args, const Type& t,
                     AttrMap attrs = {}) {
          b.set_next_name(n);
          return b.value(opname, std::move(args), t, std::move(attrs));
        };
        auto get = [](int64_t i) { return AttrMap{{"index", Attribute::integer(i)}}; };
        auto pred = [](const char* k) { return AttrMap{{"pred", Attribute::keyword(k)}}; };
        Value* av = v("av", "tuple.get", {p[0]}, gv, get(0));
        Value* ai = v("ai", "tuple.get", {p[0]}, gi, get(1));
        Value* bv = v("bv", "tuple.get", {p[1]}, gv, get(0));
        Value* bi = v("bi", "tuple.get", {p[1]}, gi, get(1));
        Value* gt = v("gt", "cmp", {bv, av}, gb, pred("gt"));
        Value* eq = v("eq", "cmp", {bv, av}, gb, pred("eq"));
        Value* lower = v("lower", "cmp", {bi, ai}, gb, pred("lt"));
        Value* tie = v("tie", "and", {eq, lower}, gb);
        Value* take = v("take", "or", {gt, tie}, gb);
        if (floating) {
          // b wins when it is NaN and a is not, or both are NaN and b has the lower index.
          Value* bnan = v("bnan", "cmp", {bv, bv}, gb, pred("ne"));
          Value* anan = v("anan", "cmp", {av, av}, gb, pred("ne"));
          Value* anum = v("anum", "not", {anan}, gb);
          Value* nanwin = v("nanwin", "or", {anum, lower}, gb);
          Value* bwins = v("bwins", "and", {bnan, nanwin}, gb);
          take = v("take_nan", "or", {take, bwins}, gb);
        }
        Value* rv = v("rv", "select", {take, bv, av}, gv);
        Value* ri = v("ri", "select", {take, bi, ai}, gi);
        Value* r = v("r", "tuple", {rv, ri}, tup);
        b.effect("return", {r});
      });
}

}  // namespace kir::normalize
