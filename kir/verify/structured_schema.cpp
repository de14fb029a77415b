// Shared machinery of the structured-op verifiers: schemas, helper binding, purity, and the
// segment-extent observation analysis (see structured_schema.h).
#include "kir/verify/structured_schema.h"

#include <algorithm>

#include "kir/verify/effects.h"

namespace kir::verify::structured {

Type operand_type(const Operation& op, size_t i) {
  return i < op.operands.size() && op.operands[i] ? op.operands[i]->type : Type();
}
Type result_type(const Operation& op, size_t i) {
  return i < op.results.size() && op.results[i] ? op.results[i]->type : Type();
}

std::optional<size_t> axis_attr(Context& cx, const Operation& op, const std::string& key, const std::string& rule) {
  const Attribute* a = cx.attr(op, key, Attribute::Kind::Int, rule);
  if (!a) return std::nullopt;
  if (a->i < 0) {
    cx.error(op, rule, "axis " + int128_str(a->i) + " is negative; negative axes are surface syntax, the canonical "
                       "axis is in [0, rank)");
    return std::nullopt;
  }
  if (a->i > (static_cast<int128>(1) << 31)) {
    cx.error(op, rule, "axis " + int128_str(a->i) + " is out of range");
    return std::nullopt;
  }
  return static_cast<size_t>(a->i);
}

std::optional<std::vector<int64_t>> axes_attr(Context& cx, const Operation& op, const std::string& key,
                                              const std::string& rule) {
  auto axes = cx.int_list_attr(op, key, rule);
  if (!axes) return std::nullopt;
  if (axes->empty()) {
    cx.error(op, rule, "attribute '" + key + "' must name at least one axis");
    return std::nullopt;
  }
  std::vector<int64_t> sorted;
  for (int64_t a : *axes) {
    if (a < 0) {
      cx.error(op, rule, "axis " + std::to_string(a) + " is negative; negative axes are surface syntax, the "
                         "canonical axis is in [0, rank)");
      return std::nullopt;
    }
    if (std::find(sorted.begin(), sorted.end(), a) != sorted.end()) {
      cx.error(op, rule, "axis " + std::to_string(a) + " is repeated in '" + key + "'");
      return std::nullopt;
    }
    sorted.push_back(a);
  }
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

static void collect_leaves(const Type& t, std::vector<Type>& out) {
  if (t.is(TypeKind::Tuple)) {
    for (const auto& e : t.elements()) collect_leaves(e, out);
  } else if (t.is(TypeKind::Record)) {
    for (const auto& f : t.fields()) collect_leaves(f.second, out);
  } else {
    out.push_back(t);
  }
}

std::vector<Type> leaves(const Type& t) {
  std::vector<Type> out;
  collect_leaves(t, out);
  return out;
}

bool zip_leaves(const Type& a, const Type& b, std::vector<std::pair<Type, Type>>& out) {
  if (a.is(TypeKind::Tuple) || b.is(TypeKind::Tuple)) {
    if (!a.is(TypeKind::Tuple) || !b.is(TypeKind::Tuple) || a.elements().size() != b.elements().size()) return false;
    for (size_t i = 0; i < a.elements().size(); ++i)
      if (!zip_leaves(a.elements()[i], b.elements()[i], out)) return false;
    return true;
  }
  if (a.is(TypeKind::Record) || b.is(TypeKind::Record)) {
    if (!a.is(TypeKind::Record) || !b.is(TypeKind::Record) || a.fields().size() != b.fields().size()) return false;
    for (size_t i = 0; i < a.fields().size(); ++i) {
      if (a.fields()[i].first != b.fields()[i].first) return false;
      if (!zip_leaves(a.fields()[i].second, b.fields()[i].second, out)) return false;
    }
    return true;
  }
  out.emplace_back(a, b);
  return true;
}

bool value_schema(const Type& t) {
  for (const auto& l : leaves(t))
    if (!l.is_shaped_or_scalar()) return false;
  return true;
}

std::string missing_axes(const Type& t, const std::vector<int64_t>& axes) {
  auto ls = leaves(t);
  bool aggregate = t.is(TypeKind::Tuple) || t.is(TypeKind::Record);
  int64_t top = axes.empty() ? -1 : *std::max_element(axes.begin(), axes.end());
  for (size_t k = 0; k < ls.size(); ++k) {
    std::string who = aggregate ? "source component " + std::to_string(k) : std::string("the source");
    const Type& l = ls[k];
    if (!l) return who + " has no type";
    if (!l.is_tensor()) return who + " has type " + l.str() + ", which is not a ranked tensor";
    if (top >= static_cast<int64_t>(l.rank()))
      return who + " has type " + l.str() + ", which has no axis " + std::to_string(top);
  }
  if (ls.empty()) return "the source has no components";
  return "";
}

std::string axis_extent_conflict(const std::vector<Type>& ls, const std::vector<int64_t>& axes,
                                 const std::string& noun) {
  for (size_t k = 1; k < ls.size(); ++k)
    for (int64_t a : axes) {
      const Extent& first = ls[0].shape()[static_cast<size_t>(a)];
      const Extent& here = ls[k].shape()[static_cast<size_t>(a)];
      if (first != here)
        return noun + " " + std::to_string(k) + " has extent " + here.str() + " on axis " + std::to_string(a) +
               " but " + noun + " 0 has " + first.str();
    }
  return "";
}

Type remove_axes(const Type& t, const std::vector<int64_t>& axes) {
  if (t.is(TypeKind::Tuple)) {
    std::vector<Type> es;
    for (const auto& e : t.elements()) es.push_back(remove_axes(e, axes));
    return Type::tuple(es);
  }
  if (t.is(TypeKind::Record)) {
    auto fs = t.fields();
    for (auto& f : fs) f.second = remove_axes(f.second, axes);
    return Type::record(fs);
  }
  if (!t.is_tensor()) return t;
  std::vector<Extent> shape;
  for (size_t i = 0; i < t.rank(); ++i)
    if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) == axes.end()) shape.push_back(t.shape()[i]);
  if (shape.empty()) return Type::scalar(t.dtype());
  return Type::tensor(t.dtype(), shape);
}

Type with_axis_extent(const Type& t, size_t axis, const Extent& e) {
  if (t.is(TypeKind::Tuple)) {
    std::vector<Type> es;
    for (const auto& x : t.elements()) es.push_back(with_axis_extent(x, axis, e));
    return Type::tuple(es);
  }
  if (t.is(TypeKind::Record)) {
    auto fs = t.fields();
    for (auto& f : fs) f.second = with_axis_extent(f.second, axis, e);
    return Type::record(fs);
  }
  if (!t.is_tensor() || axis >= t.rank()) return t;
  auto shape = t.shape();
  shape[axis] = e;
  return Type::tensor(t.dtype(), shape);
}

static std::vector<Extent> substitute_all(const std::vector<Extent>& xs, const std::map<std::string, Extent>& b) {
  std::vector<Extent> out;
  for (const auto& x : xs) out.push_back(x.substitute(b));
  return out;
}

Type substitute(const Type& t, const std::map<std::string, Extent>& b) {
  if (!t) return t;
  switch (t.kind()) {
    case TypeKind::Scalar:
    case TypeKind::Enum:
      return t;
    case TypeKind::Tensor:
      return Type::tensor(t.dtype(), substitute_all(t.shape(), b));
    case TypeKind::Tuple: {
      std::vector<Type> es;
      for (const auto& e : t.elements()) es.push_back(substitute(e, b));
      return Type::tuple(es);
    }
    case TypeKind::Record: {
      auto fs = t.fields();
      for (auto& f : fs) f.second = substitute(f.second, b);
      return Type::record(fs);
    }
    case TypeKind::Domain: return Type::domain(t.extent().substitute(b));
    case TypeKind::Subregion: return Type::subregion(t.extent().substitute(b));
    case TypeKind::Relation: return Type::relation(t.source_rank(), substitute_all(t.shape(), b), t.masked());
    case TypeKind::View: {
      std::optional<std::vector<Extent>> strides;
      if (t.strides()) strides = substitute_all(*t.strides(), b);
      std::optional<Extent> offset;
      if (t.offset()) offset = t.offset()->substitute(b);
      return Type::view(t.access(), substitute(t.tensor_type(), b), strides, offset);
    }
    case TypeKind::Buffer: return Type::buffer(substitute(t.tensor_type(), b));
  }
  return t;
}

static void add_symbols(const Extent& e, std::set<std::string>& out) {
  for (auto& s : e.symbols()) out.insert(s);
}

static void collect_symbols(const Type& t, std::set<std::string>& out) {
  if (!t) return;
  switch (t.kind()) {
    case TypeKind::Scalar:
    case TypeKind::Enum:
      return;
    case TypeKind::Tensor:
    case TypeKind::Relation:
      for (const auto& e : t.shape()) add_symbols(e, out);
      return;
    case TypeKind::Tuple:
      for (const auto& e : t.elements()) collect_symbols(e, out);
      return;
    case TypeKind::Record:
      for (const auto& f : t.fields()) collect_symbols(f.second, out);
      return;
    case TypeKind::Domain:
    case TypeKind::Subregion:
      add_symbols(t.extent(), out);
      return;
    case TypeKind::View:
      collect_symbols(t.tensor_type(), out);
      if (t.strides())
        for (const auto& e : *t.strides()) add_symbols(e, out);
      if (t.offset()) add_symbols(*t.offset(), out);
      return;
    case TypeKind::Buffer:
      collect_symbols(t.tensor_type(), out);
      return;
  }
}

std::set<std::string> type_symbols(const Type& t) {
  std::set<std::string> out;
  collect_symbols(t, out);
  return out;
}

bool mentions(const Extent& e, const std::set<std::string>& symbols) {
  for (const auto& s : e.symbols())
    if (symbols.count(s)) return true;
  return false;
}

bool differs_only_in_dtype(const Type& a, const Type& b) {
  if (!a || !b || a == b || !value_schema(a) || !value_schema(b)) return false;
  return a.with_dtype(DType::Bool) == b.with_dtype(DType::Bool);
}

// ---- helpers referenced by symbol attributes ----

bool resolve_helper(Context& cx, const Operation& op, const std::string& key, const std::string& rule, HelperUse& h) {
  h.key = key;
  h.fn = cx.callee(op, key, rule);
  return h.fn != nullptr;
}

static std::string count_str(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

bool helper_arity(Context& cx, const Operation& op, const HelperUse& h, size_t n_params, size_t n_results,
                  const std::string& rule) {
  size_t np = h.fn->body.args.size();
  if (np != n_params) {
    cx.error(op, rule, h.what() + " must take " + count_str(n_params, "parameter") + ", it takes " + std::to_string(np));
    return false;
  }
  size_t nr = h.fn->result_types.size();
  if (n_results == SIZE_MAX ? nr == 0 : nr != n_results) {
    std::string want = n_results == SIZE_MAX ? std::string("at least one result") : count_str(n_results, "result");
    cx.error(op, rule, h.what() + " must return " + want + ", it returns " + std::to_string(nr));
    return false;
  }
  return true;
}

// Unifies `declared` (the helper's) with `actual` (the op's); on failure reports "<what> <thing> has
// type X but <role> is Y", under dtype_rule when only element dtypes differ.
static bool bind_type(Context& cx, const Operation& op, HelperUse& h, const Type& declared, const Type& actual,
                      const std::string& thing, const std::string& role, const std::string& rule,
                      const std::string& dtype_rule) {
  std::string why;
  auto saved = h.binding;
  if (cx.unify(declared, actual, h.binding, why)) return true;
  bool dtype_only = false;
  if (declared && actual && value_schema(declared) && value_schema(actual)) {
    std::string ignored;
    auto b = saved;
    dtype_only = cx.unify(declared.with_dtype(DType::Bool), actual.with_dtype(DType::Bool), b, ignored);
  }
  std::string d = declared ? declared.str() : std::string("<none>");
  std::string a = actual ? actual.str() : std::string("<none>");
  if (dtype_only) {
    cx.error(op, dtype_rule, h.what() + " " + thing + " has type " + d + " but " + role + " is " + a +
                                 ": no hidden accumulator dtype; the element dtypes must be the source's");
  } else {
    cx.error(op, rule, h.what() + " " + thing + " has type " + d + " but " + role + " is " + a + " (" + why + ")");
  }
  return false;
}

bool bind_param(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& actual, const std::string& role,
                const std::string& rule, const std::string& dtype_rule) {
  const Value* p = i < h.fn->body.args.size() ? h.fn->body.args[i].get() : nullptr;
  if (!p) return false;
  return bind_type(cx, op, h, p->type, actual, "parameter %" + p->name, role, rule, dtype_rule);
}

bool bind_result(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& expected,
                 const std::string& role, const std::string& rule, const std::string& dtype_rule) {
  if (i >= h.fn->result_types.size()) return false;
  std::string thing = h.fn->result_types.size() == 1 ? "result" : "result " + std::to_string(i);
  return bind_type(cx, op, h, h.fn->result_types[i], expected, thing, role, rule, dtype_rule);
}

bool check_pure(Context& cx, const Operation& op, const HelperUse& h, const std::string& rule) {
  HelperEffects fx = helper_effects(cx.module, *h.fn);
  if (fx.pure()) return true;
  cx.error(op, rule, h.what() + " must be pure: " + fx.describe(h.fn->name));
  return false;
}

// ---- region helpers: slices and the unobservable segment extent ----

bool bind_slice(Context& cx, const Operation& op, HelperUse& h, size_t i, const Type& source, size_t axis,
                std::string& slice_symbol, const std::string& rule, const std::string& observe_rule) {
  const Value* p = i < h.fn->body.args.size() ? h.fn->body.args[i].get() : nullptr;
  if (!p) return false;
  const Type& declared = p->type;
  std::string who = h.what() + " parameter %" + p->name;
  std::vector<std::pair<Type, Type>> pairs;
  bool shaped = zip_leaves(declared, source, pairs);
  for (const auto& [d, a] : pairs)
    shaped = shaped && d.is_tensor() && a.is_tensor() && d.rank() == a.rank() && axis < d.rank();
  if (!shaped) {
    cx.error(op, rule, who + " has type " + (declared ? declared.str() : std::string("<none>")) +
                           ", which is not a slice of the source " + source.str() + " along axis " +
                           std::to_string(axis));
    return false;
  }
  for (const auto& [d, a] : pairs) {
    const Extent& e = d.shape()[axis];
    if (auto c = e.constant_value()) {
      cx.error(op, observe_rule, who + " fixes the slice extent on axis " + std::to_string(axis) + " to " +
                                     std::to_string(*c) + "; a region helper may not observe the segment extent");
      return false;
    }
    if (!e.is_symbol() || e.symbol_name().empty() || e.symbol_name()[0] == '%') {
      cx.error(op, observe_rule, who + " spells the slice extent on axis " + std::to_string(axis) + " as " + e.str() +
                                     "; it must be a fresh extent symbol of the helper (the segment extent is not "
                                     "observable)");
      return false;
    }
    if (slice_symbol.empty()) {
      slice_symbol = e.symbol_name();
    } else if (slice_symbol != e.symbol_name()) {
      cx.error(op, rule, who + " has slice extent " + e.symbol_name() + " but an earlier slice has " + slice_symbol +
                             "; every source is cut at the same boundaries");
      return false;
    }
  }
  Type declared_rest = remove_axes(declared, {static_cast<int64_t>(axis)});
  Type actual_rest = remove_axes(source, {static_cast<int64_t>(axis)});
  std::string why;
  if (!cx.unify(declared_rest, actual_rest, h.binding, why)) {
    Type slice = with_axis_extent(source, axis, Extent::symbol(slice_symbol));
    cx.error(op, rule, who + " has type " + declared.str() + " but the slice of the source is " + slice.str() + " (" +
                           why + ")");
    return false;
  }
  return true;
}

namespace {

// Finds an op of helper `f` (or of a helper it calls) that reads an extent built from `tainted`
// symbols: `dim` of such an axis, or a domain/subregion of such an extent (chunk-relative
// coordinates). A callee's symbols are tainted when the call binds them to tainted extents.
struct ExtentObserver {
  Context& cx;
  std::set<std::pair<const Function*, std::set<std::string>>> seen;
  const Operation* found = nullptr;
  const Function* found_in = nullptr;
  std::string how;

  void visit(const Function& f, const std::set<std::string>& tainted, int depth) {
    if (found || tainted.empty() || depth > 64 || !seen.insert({&f, tainted}).second) return;
    walk(f.body, [&](const Operation& o) {
      if (found) return;
      if (o.name == "dim" && o.operands.size() == 1 && o.operands[0]) {
        const Type& t = o.operands[0]->type;
        const Attribute* a = o.attr("axis");
        if ((t.is_tensor() || t.is(TypeKind::View) || t.is(TypeKind::Buffer)) && a && a->is_int() && a->i >= 0 &&
            a->i < static_cast<int128>(t.rank()) && mentions(t.shape()[static_cast<size_t>(a->i)], tainted)) {
          found = &o, found_in = &f, how = "reads the slice extent with 'dim'";
          return;
        }
      }
      for (const auto& r : o.results) {
        if (r && (r->type.is(TypeKind::Domain) || r->type.is(TypeKind::Subregion)) &&
            mentions(r->type.extent(), tainted)) {
          found = &o, found_in = &f, how = "builds chunk-relative coordinates ('" + o.name + "' of extent " +
                                            r->type.extent().str() + ")";
          return;
        }
      }
      if (o.name == "call") visit_call(o, tainted, depth);
    });
  }

  void visit_call(const Operation& o, const std::set<std::string>& tainted, int depth) {
    const Attribute* a = o.attr("callee");
    if (!a || a->kind != Attribute::Kind::Symbol) return;
    const Function* g = cx.module.find_function(a->s);
    if (!g || g->is_kernel() || g->body.args.size() != o.operands.size()) return;
    std::map<std::string, Extent> binding;
    for (size_t i = 0; i < o.operands.size(); ++i) {
      std::string why;
      if (o.operands[i]) cx.unify(g->body.args[i]->type, o.operands[i]->type, binding, why);
    }
    std::set<std::string> inner;
    for (const auto& [sym, e] : binding)
      if (mentions(e, tainted)) inner.insert(sym);
    visit(*g, inner, depth + 1);
  }
};

}  // namespace

bool check_slice_unobservable(Context& cx, const Operation& op, const HelperUse& h, const std::string& slice_symbol,
                              const std::string& rule) {
  if (slice_symbol.empty()) return true;
  auto it = h.binding.find(slice_symbol);
  if (it != h.binding.end()) {
    cx.error(op, rule, h.what() + " binds its slice extent " + slice_symbol + " to " + it->second.str() +
                           " through another extent; the segment extent must be a fresh symbol it cannot observe");
    return false;
  }
  ExtentObserver obs{cx, {}, nullptr, nullptr, ""};
  obs.visit(*h.fn, {slice_symbol}, 0);
  if (!obs.found) return true;
  std::string where = obs.found_in != h.fn ? " in @" + obs.found_in->name : std::string();
  if (obs.found->loc.known()) where += " at " + obs.found->loc.str();
  cx.error(op, rule, h.what() + " observes the segment extent: it " + obs.how + where);
  return false;
}

}  // namespace kir::verify::structured
