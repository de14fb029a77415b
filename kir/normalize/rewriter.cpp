// Rewriter implementation and the small validation helpers shared by the normalization families.
#include "kir/normalize/rewriter.h"

#include <algorithm>

namespace kir::normalize {

static void collect_names(const Region& r, std::set<std::string>& out) {
  for (const auto& a : r.args)
    if (!a->name.empty()) out.insert(a->name);
  for (const auto& op : r.ops) {
    for (const auto& res : op->results)
      if (!res->name.empty()) out.insert(res->name);
    for (const auto& sub : op->regions) collect_names(*sub, out);
  }
}

Rewriter::Rewriter(Module& m, Function& f, Diagnostics& d) : module_(m), function_(f), diags_(d) {
  collect_names(f.body, names_);
}

void Rewriter::begin(Operation& op) {
  op_ = &op;
  pending_.clear();
  created_.clear();
  base_ = !op.results.empty() && !op.results[0]->name.empty() ? op.results[0]->name : "n";
}

bool Rewriter::fail(const std::string& rule, const std::string& message) {
  diags_.error(op_->loc, rule, "op '" + op_->name + "': " + message);
  return false;
}

std::string Rewriter::fresh(const std::string& suffix) {
  std::string n = base_ + "." + suffix;
  for (int i = 1; names_.count(n); ++i) n = base_ + "." + suffix + std::to_string(i);
  names_.insert(n);
  return n;
}

Operation& Rewriter::emit(const std::string& name, std::vector<Value*> operands, std::vector<Type> types,
                          AttrMap attrs, const std::string& suffix) {
  auto o = std::make_unique<Operation>();
  o->name = name;
  o->operands = std::move(operands);
  o->attrs = std::move(attrs);
  o->loc = op_->loc;
  for (size_t i = 0; i < types.size(); ++i)
    created_.insert(o->add_result(std::move(types[i]), fresh(types.size() == 1 ? suffix : suffix + std::to_string(i))));
  pending_.push_back(std::move(o));
  return *pending_.back();
}

Value* Rewriter::value(const std::string& name, std::vector<Value*> operands, Type type, AttrMap attrs,
                       const std::string& suffix) {
  return emit(name, std::move(operands), {std::move(type)}, std::move(attrs), suffix).result(0);
}

Value* Rewriter::constant(const Attribute& v, DType d, const std::string& suffix) {
  return value("const", {}, Type::scalar(d), {{"value", v}}, suffix);
}

Value* Rewriter::splat(const Attribute& v, const Type& t, const std::string& suffix) {
  Value* c = constant(v, t.dtype(), t.is_tensor() ? suffix + "0" : suffix);
  if (!t.is_tensor()) return c;
  return value("full", {c}, t, {}, suffix);
}

Value* Rewriter::broadcast(Value* x, const Type& target, const std::vector<int64_t>& dims, const std::string& suffix) {
  if (x->type == target) return x;
  return value("broadcast", {x}, target, {{"dims", Attribute::int_list(dims)}}, suffix);
}

Value* Rewriter::cast(Value* x, DType d, const std::string& suffix) {
  if (x->type.dtype() == d) return x;
  return value("cast", {x}, x->type.with_dtype(d), {}, suffix);
}

size_t Rewriter::insert_pending() {
  Region* r = op_->parent;
  size_t pos = 0;
  while (pos < r->ops.size() && r->ops[pos].get() != op_) ++pos;
  size_t n = pending_.size();
  for (auto& p : pending_) r->insert(pos++, std::move(p));
  pending_.clear();
  return n;
}

size_t Rewriter::commit_keep() { return insert_pending(); }

size_t Rewriter::replace(const std::vector<Value*>& values) {
  size_t n = insert_pending();
  for (size_t i = 0; i < op_->results.size() && i < values.size(); ++i) {
    Value* old = op_->results[i].get();
    replace_all_uses(function_.body, old, values[i]);
    // The replacement takes the surface result's name (the name the author wrote).
    if (created_.count(values[i]) && !old->name.empty()) {
      names_.erase(values[i]->name);
      values[i]->name = old->name;
    }
  }
  Region* r = op_->parent;
  auto it = std::find_if(r->ops.begin(), r->ops.end(), [&](const auto& p) { return p.get() == op_; });
  if (it != r->ops.end()) r->ops.erase(it);
  op_ = nullptr;
  return n;
}

const std::string& Rewriter::helper(const std::string& name, const std::vector<Type>& params,
                                    const std::vector<std::string>& param_names, const std::vector<Type>& results,
                                    const HelperBody& build) {
  if (Function* f = module_.find_function(name)) return f->name;
  Builder b(module_);
  // The helper and its ops point at the surface op that first needed it: a trace line or a
  // run-time error inside a generated combine names the author's line, never <unknown>.
  if (op_) b.set_location(op_->loc);
  Function& f = b.helper(name, results);
  std::vector<Value*> ps;
  for (size_t i = 0; i < params.size(); ++i) ps.push_back(b.param(params[i], param_names.at(i)));
  build(b, ps);
  return f.name;
}

std::string type_str(const Type& t) { return t ? t.str() : "<none>"; }

Type acc_type(DType d, const std::vector<Extent>& shape) {
  return shape.empty() ? Type::scalar(d) : Type::tensor(d, shape);
}

Type generic_type(const Type& t) {
  if (t.is_tensor()) {
    std::vector<Extent> s;
    for (size_t i = 0; i < t.rank(); ++i) s.push_back(Extent::symbol("A" + std::to_string(i)));
    return Type::tensor(t.dtype(), s);
  }
  if (t.is(TypeKind::Tuple)) {
    std::vector<Type> es;
    for (const auto& e : t.elements()) es.push_back(generic_type(e));
    return Type::tuple(es);
  }
  return t;
}

bool dtype_attr(Rewriter& rw, const std::string& key, const std::string& rule, bool required,
                std::optional<DType>& out) {
  out.reset();
  const Attribute* a = rw.op().attr(key);
  if (!a) {
    if (required) return rw.fail(rule, "missing attribute '" + key + "' (the accumulator dtype is always explicit)");
    return true;
  }
  std::optional<DType> d;
  if (a->kind == Attribute::Kind::Keyword) d = parse_dtype(a->s);
  if (!d) return rw.fail(rule, "attribute '" + key + "' must be a dtype, got " + a->str());
  if (!is_arithmetic(*d))
    return rw.fail(rule, "attribute '" + key + "' = " + std::string(name(*d)) +
                             " is not an arithmetic dtype (integer, index, f16, bf16, f32 or f64)");
  out = d;
  return true;
}

std::optional<size_t> norm_axis(int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) return std::nullopt;
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

std::optional<bool> bool_attr(Rewriter& rw, const std::string& key, bool dflt, const std::string& rule) {
  const Attribute* a = rw.op().attr(key);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::Bool) {
    rw.fail(rule, "attribute '" + key + "' must be true or false, got " + a->str());
    return std::nullopt;
  }
  return a->b;
}

bool only_attrs(Rewriter& rw, std::initializer_list<const char*> allowed, const std::string& rule) {
  bool ok = true;
  for (const auto& kv : rw.op().attrs) {
    bool known = false;
    for (const char* a : allowed) known = known || kv.first == a;
    if (!known) ok = rw.fail(rule, "unknown attribute '" + kv.first + "'");
  }
  return ok;
}

bool arity(Rewriter& rw, size_t operands, size_t results, const std::string& rule) {
  Operation& op = rw.op();
  auto plural = [](size_t n, const char* w) { return std::to_string(n) + " " + w + (n == 1 ? "" : "s"); };
  if (op.operands.size() != operands)
    return rw.fail(rule, "expects " + plural(operands, "operand") + ", got " + std::to_string(op.operands.size()));
  if (op.results.size() != results)
    return rw.fail(rule, "expects " + plural(results, "result") + ", got " + std::to_string(op.results.size()));
  if (!op.regions.empty()) return rw.fail(rule, "takes no regions");
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (!op.operands[i] || !op.operands[i]->type) return rw.fail(rule, "operand " + std::to_string(i) + " has no type");
  for (const auto& r : op.results)
    if (!r->type) return rw.fail(rule, "result has no type");
  return true;
}

bool check_result(Rewriter& rw, size_t i, const Type& produced, const std::string& rule) {
  const Type& declared = rw.op().results.at(i)->type;
  if (declared == produced) return true;
  std::string which = rw.op().results.size() == 1 ? "result" : "result " + std::to_string(i);
  return rw.fail(rule, which + " is declared " + type_str(declared) + " but the shorthand produces " +
                           type_str(produced));
}

bool is_arithmetic(DType d) { return is_integer(d) || is_float(d); }

}  // namespace kir::normalize
