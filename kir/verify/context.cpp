// Context helpers shared by all op verifiers.
#include "kir/verify/context.h"

namespace kir::verify {

void Context::error(const Operation& op, const std::string& rule, const std::string& message) {
  diags.error(op.loc, rule, "op '" + op.name + "': " + message);
}
void Context::error(const Location& loc, const std::string& rule, const std::string& message) {
  diags.error(loc, rule, message);
}

static std::string plural(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

bool Context::operands(const Operation& op, size_t n, const std::string& rule) {
  if (op.operands.size() == n) return true;
  error(op, rule, "expects " + plural(n, "operand") + ", got " + std::to_string(op.operands.size()));
  return false;
}
bool Context::operands_between(const Operation& op, size_t lo, size_t hi, const std::string& rule) {
  if (op.operands.size() >= lo && op.operands.size() <= hi) return true;
  error(op, rule, "expects " + std::to_string(lo) + " to " + std::to_string(hi) + " operands, got " +
                      std::to_string(op.operands.size()));
  return false;
}
bool Context::results(const Operation& op, size_t n, const std::string& rule) {
  if (op.results.size() == n) return true;
  error(op, rule, "expects " + plural(n, "result") + ", got " + std::to_string(op.results.size()));
  return false;
}
bool Context::regions(const Operation& op, size_t n, const std::string& rule) {
  if (op.regions.size() == n) return true;
  error(op, rule, "expects " + plural(n, "region") + ", got " + std::to_string(op.regions.size()));
  return false;
}

static const char* kind_name(Attribute::Kind k) {
  switch (k) {
    case Attribute::Kind::Bool: return "a bool";
    case Attribute::Kind::Int: return "an integer";
    case Attribute::Kind::Float: return "a float";
    case Attribute::Kind::String: return "a string";
    case Attribute::Kind::Keyword: return "a keyword";
    case Attribute::Kind::Symbol: return "a @symbol";
    case Attribute::Kind::EnumMember: return "an enum member";
    case Attribute::Kind::List: return "a list";
  }
  return "?";
}

const Attribute* Context::attr(const Operation& op, const std::string& key, Attribute::Kind kind,
                               const std::string& rule, bool required) {
  const Attribute* a = op.attr(key);
  if (!a) {
    if (required) error(op, rule, "missing attribute '" + key + "'");
    return nullptr;
  }
  if (a->kind != kind) {
    error(op, rule, "attribute '" + key + "' must be " + kind_name(kind) + ", got " + a->str());
    return nullptr;
  }
  return a;
}

std::optional<std::vector<int64_t>> Context::int_list_attr(const Operation& op, const std::string& key,
                                                           const std::string& rule, bool required) {
  const Attribute* a = op.attr(key);
  if (!a) {
    if (required) error(op, rule, "missing attribute '" + key + "'");
    return std::nullopt;
  }
  if (!a->is_int_list()) {
    error(op, rule, "attribute '" + key + "' must be a list of integers, got " + a->str());
    return std::nullopt;
  }
  return a->ints();
}

std::optional<std::vector<std::pair<int64_t, int64_t>>> Context::pairs_attr(const Operation& op, const std::string& key,
                                                                            const std::string& rule, bool required) {
  const Attribute* a = op.attr(key);
  if (!a) {
    if (required) error(op, rule, "missing attribute '" + key + "'");
    return std::nullopt;
  }
  if (!a->is_int_pair_list()) {
    error(op, rule, "attribute '" + key + "' must be a list of [lhs_axis, rhs_axis] pairs, got " + a->str());
    return std::nullopt;
  }
  return a->int_pairs();
}

std::optional<bool> Context::bool_attr(const Operation& op, const std::string& key, const std::string& rule, bool dflt) {
  const Attribute* a = op.attr(key);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::Bool) {
    error(op, rule, "attribute '" + key + "' must be true or false, got " + a->str());
    return std::nullopt;
  }
  return a->b;
}

void Context::only_attrs(const Operation& op, std::initializer_list<const char*> allowed, const std::string& rule) {
  for (const auto& [k, v] : op.attrs) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) error(op, rule, "unknown attribute '" + k + "'");
  }
}

Extent Context::extent_of(const Value* v) {
  auto it = extent_cache_.find(v);
  if (it != extent_cache_.end()) return it->second;
  Extent e = Extent::symbol("%" + v->name);
  const Operation* d = v->def;
  if (d && v->type.is_scalar() && is_integer(v->type.dtype())) {
    if (d->name == "const") {
      const Attribute* a = d->attr("value");
      if (a && a->is_int() && a->i <= (static_cast<int128>(1) << 62) && a->i >= -(static_cast<int128>(1) << 62))
        e = Extent::constant(static_cast<int64_t>(a->i));
    } else if (d->name == "dim" && d->operands.size() == 1) {
      const Attribute* a = d->attr("axis");
      const Type& t = d->operands[0]->type;
      if (a && a->is_int() && (t.is_tensor() || t.is(TypeKind::View) || t.is(TypeKind::Buffer)) && a->i >= 0 &&
          a->i < static_cast<int128>(t.rank()))
        e = t.shape()[static_cast<size_t>(a->i)];
    } else if ((d->name == "add" || d->name == "sub" || d->name == "mul") && d->operands.size() == 2) {
      try {
        Extent a = extent_of(d->operands[0]);
        Extent b = extent_of(d->operands[1]);
        e = d->name == "add" ? a + b : d->name == "sub" ? a - b : a * b;
      } catch (const ExtentOverflow&) {
      }
    }
  }
  extent_cache_[v] = e;
  return e;
}

const Function* Context::callee(const Operation& op, const std::string& key, const std::string& rule) {
  const Attribute* a = attr(op, key, Attribute::Kind::Symbol, rule);
  if (!a) return nullptr;
  const Function* f = module.find_function(a->s);
  if (!f) {
    error(op, rule, "attribute '" + key + "' names @" + a->s + ", which is not defined");
    return nullptr;
  }
  if (f->is_kernel()) {
    error(op, "L1.3", "attribute '" + key + "' names kernel @" + a->s + "; only helpers (fn) can be called");
    return nullptr;
  }
  return f;
}

static bool unify_extent(const Extent& declared, const Extent& actual, std::map<std::string, Extent>& binding,
                         std::string& why) {
  if (declared.is_symbol() && declared.symbol_name()[0] != '%') {
    auto [it, inserted] = binding.emplace(declared.symbol_name(), actual);
    if (inserted || it->second == actual) return true;
    why = "extent " + declared.str() + " is bound to " + it->second.str() + " and to " + actual.str();
    return false;
  }
  Extent d = declared.substitute(binding);
  if (d == actual) return true;
  why = "extent " + declared.str() + " does not match " + actual.str();
  return false;
}

bool Context::unify(const Type& declared, const Type& actual, std::map<std::string, Extent>& binding, std::string& why) {
  if (!declared || !actual) {
    why = "missing type";
    return false;
  }
  auto mismatch = [&] {
    why = "expected " + declared.str() + ", got " + actual.str();
    return false;
  };
  if (declared.kind() != actual.kind()) return mismatch();
  switch (declared.kind()) {
    case TypeKind::Scalar:
      return declared.dtype() == actual.dtype() ? true : mismatch();
    case TypeKind::Tensor:
    case TypeKind::Relation:
      if (declared.is_tensor() && declared.dtype() != actual.dtype()) return mismatch();
      if (declared.is(TypeKind::Relation) &&
          (declared.source_rank() != actual.source_rank() || declared.masked() != actual.masked()))
        return mismatch();
      if (declared.rank() != actual.rank()) return mismatch();
      for (size_t i = 0; i < declared.rank(); ++i)
        if (!unify_extent(declared.shape()[i], actual.shape()[i], binding, why)) {
          why = "in " + actual.str() + ": " + why;
          return false;
        }
      return true;
    case TypeKind::Tuple:
      if (declared.elements().size() != actual.elements().size()) return mismatch();
      for (size_t i = 0; i < declared.elements().size(); ++i)
        if (!unify(declared.elements()[i], actual.elements()[i], binding, why)) return false;
      return true;
    case TypeKind::Record:
      if (declared.fields().size() != actual.fields().size()) return mismatch();
      for (size_t i = 0; i < declared.fields().size(); ++i) {
        if (declared.fields()[i].first != actual.fields()[i].first) return mismatch();
        if (!unify(declared.fields()[i].second, actual.fields()[i].second, binding, why)) return false;
      }
      return true;
    case TypeKind::Enum:
      return declared == actual ? true : mismatch();
    case TypeKind::Domain:
    case TypeKind::Subregion:
      return unify_extent(declared.extent(), actual.extent(), binding, why);
    case TypeKind::View:
      if (declared.access() != actual.access()) return mismatch();
      return unify(declared.tensor_type(), actual.tensor_type(), binding, why);
    case TypeKind::Buffer:
      return unify(declared.tensor_type(), actual.tensor_type(), binding, why);
  }
  return mismatch();
}

bool Context::all_components(const Type& t, const std::function<bool(const Type&)>& pred) {
  if (t.is(TypeKind::Tuple)) {
    for (const auto& e : t.elements())
      if (!all_components(e, pred)) return false;
    return true;
  }
  if (t.is(TypeKind::Record)) {
    for (const auto& f : t.fields())
      if (!all_components(f.second, pred)) return false;
    return true;
  }
  return pred(t);
}

}  // namespace kir::verify
