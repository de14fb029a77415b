// Builder implementation.
#include "kir/builder.h"

#include <stdexcept>

namespace kir {

Function& Builder::kernel(const std::string& name) {
  auto f = std::make_unique<Function>();
  f->kind = FunctionKind::Kernel;
  f->name = name;
  f->loc = loc_;
  module_.functions.push_back(std::move(f));
  insert_ = {&module_.functions.back()->body};
  return *module_.functions.back();
}

Function& Builder::helper(const std::string& name, std::vector<Type> results) {
  Function& f = kernel(name);
  f.kind = FunctionKind::Helper;
  f.result_types = std::move(results);
  return f;
}

Value* Builder::param(Type t, const std::string& name, bool is_constexpr) {
  if (module_.functions.empty()) throw std::logic_error("Builder::param before kernel/helper");
  Value* v = module_.functions.back()->body.add_arg(std::move(t), name);
  v->is_constexpr = is_constexpr;
  v->loc = loc_;
  return v;
}

void Builder::add_enum(const std::string& name, std::vector<std::pair<std::string, int64_t>> members) {
  module_.enums.push_back(EnumDecl{name, std::move(members), loc_});
}

Operation& Builder::op(const std::string& name, std::vector<Value*> operands, std::vector<Type> result_types,
                       AttrMap attrs) {
  if (insert_.empty()) throw std::logic_error("Builder::op without an insertion point");
  auto o = std::make_unique<Operation>();
  o->name = name;
  o->operands = std::move(operands);
  o->attrs = std::move(attrs);
  o->loc = loc_;
  for (size_t i = 0; i < result_types.size(); ++i) {
    std::string n;
    if (!next_name_.empty()) n = i == 0 ? next_name_ : next_name_ + "_" + std::to_string(i);
    o->add_result(std::move(result_types[i]), n);
  }
  next_name_.clear();
  return *insert_.back()->append(std::move(o));
}

Value* Builder::value(const std::string& name, std::vector<Value*> operands, Type result, AttrMap attrs) {
  return op(name, std::move(operands), {std::move(result)}, std::move(attrs)).result(0);
}

void Builder::effect(const std::string& name, std::vector<Value*> operands, AttrMap attrs) {
  op(name, std::move(operands), {}, std::move(attrs));
}

Value* Builder::const_int(int64_t v, DType d) {
  return value("const", {}, Type::scalar(d), {{"value", Attribute::integer(v)}});
}
Value* Builder::const_float(double v, DType d) {
  return value("const", {}, Type::scalar(d), {{"value", Attribute::floating(v)}});
}
Value* Builder::const_bool(bool v) {
  return value("const", {}, Type::scalar(DType::Bool), {{"value", Attribute::boolean(v)}});
}

Region& Builder::region(Operation& o, std::vector<Type> arg_types, std::vector<std::string> arg_names) {
  Region* r = o.add_region();
  for (size_t i = 0; i < arg_types.size(); ++i)
    r->add_arg(std::move(arg_types[i]), i < arg_names.size() ? arg_names[i] : "");
  insert_.push_back(r);
  return *r;
}

void Builder::end_region() {
  if (insert_.size() <= 1) throw std::logic_error("Builder::end_region without a region");
  insert_.pop_back();
}

}  // namespace kir
