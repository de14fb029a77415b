// Shared pieces of the core-family verifiers (see core_util.h).
#include "kir/verify/core_util.h"

#include <algorithm>

#include "kir/op_registry.h"

namespace kir::verify::core {

const Value* operand(const Operation& op, size_t i) {
  return i < op.operands.size() ? op.operands[i] : nullptr;
}
Type operand_type(const Operation& op, size_t i) {
  const Value* v = operand(op, i);
  return v ? v->type : Type();
}
Type result_type(const Operation& op, size_t i) {
  return i < op.results.size() && op.results[i] ? op.results[i]->type : Type();
}
bool has_operand_types(const Operation& op) {
  for (const Value* v : op.operands)
    if (!v || !v->type) return false;
  return true;
}

std::string ty(const Type& t) { return t ? t.str() : "<none>"; }

bool dtype_is(const Type& t, bool (*pred)(DType)) {
  if (!(t.is_scalar() || t.is_tensor() || t.is(TypeKind::View) || t.is(TypeKind::Buffer))) return false;
  return pred(t.dtype());
}
bool is_bool_scalar(const Type& t) { return t.is_scalar() && t.dtype() == DType::Bool; }
bool is_index_like_scalar(const Type& t) { return t.is_scalar() && is_integer(t.dtype()); }

std::vector<Extent> value_shape(const Type& t) {
  if (t.is_tensor()) return t.shape();
  return {};
}

Type element_block(DType d, const std::vector<Extent>& rel_shape) {
  return rel_shape.empty() ? Type::scalar(d) : Type::tensor(d, rel_shape);
}

int first_shape_difference(const std::vector<Extent>& a, const std::vector<Extent>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (a[i] != b[i]) return static_cast<int>(i);
  return a.size() == b.size() ? -1 : static_cast<int>(std::min(a.size(), b.size()));
}

static bool dynamic(const Extent& e) { return !e.is_constant(); }

std::string type_difference(const Type& a, const Type& b) {
  if (a == b) return "";
  if (!a || !b) return "a type is missing";
  if (a.kind() != b.kind()) return "different kinds of value";
  if (a.is_scalar()) return "dtype " + std::string(name(a.dtype())) + " vs " + std::string(name(b.dtype()));
  if (a.is_tensor()) {
    if (a.dtype() != b.dtype())
      return "dtype " + std::string(name(a.dtype())) + " vs " + std::string(name(b.dtype()));
    if (a.rank() != b.rank()) return "rank " + std::to_string(a.rank()) + " vs " + std::to_string(b.rank());
    int i = first_shape_difference(a.shape(), b.shape());
    const Extent& x = a.shape()[static_cast<size_t>(i)];
    const Extent& y = b.shape()[static_cast<size_t>(i)];
    std::string s = "axis " + std::to_string(i) + " has extent " + x.str() + " vs " + y.str();
    if (dynamic(x) && dynamic(y)) s += "; dynamic extents are compatible only when provably equal";
    return s;
  }
  if (a.is(TypeKind::Tuple)) {
    if (a.elements().size() != b.elements().size())
      return std::to_string(a.elements().size()) + " vs " + std::to_string(b.elements().size()) + " components";
    for (size_t i = 0; i < a.elements().size(); ++i)
      if (a.elements()[i] != b.elements()[i])
        return "component " + std::to_string(i) + ": " + ty(a.elements()[i]) + " vs " + ty(b.elements()[i]) + " (" +
               type_difference(a.elements()[i], b.elements()[i]) + ")";
  }
  if (a.is(TypeKind::Record)) {
    if (a.fields().size() != b.fields().size())
      return std::to_string(a.fields().size()) + " vs " + std::to_string(b.fields().size()) + " fields";
    for (size_t i = 0; i < a.fields().size(); ++i) {
      const auto& [na, ta] = a.fields()[i];
      const auto& [nb, tb] = b.fields()[i];
      if (na != nb) return "field " + std::to_string(i) + " is named '" + na + "' vs '" + nb + "'";
      if (ta != tb) return "field '" + na + "': " + ty(ta) + " vs " + ty(tb) + " (" + type_difference(ta, tb) + ")";
    }
  }
  return "types differ";
}

std::string difference_rule(const Type& a, const Type& b) {
  if (!a || !b || a.kind() != b.kind()) return "L4.1";
  if ((a.is_scalar() || a.is_tensor()) && a.dtype() != b.dtype()) return "L4.14";
  if (a.is_tensor() && a.rank() == b.rank()) {
    bool only_dynamic = true;
    for (size_t i = 0; i < a.rank(); ++i)
      if (a.shape()[i] != b.shape()[i] && !(dynamic(a.shape()[i]) && dynamic(b.shape()[i]))) only_dynamic = false;
    return only_dynamic ? "L4.2" : "L4.1";
  }
  return "L4.1";
}

static bool constexpr_rec(const Value* v, int depth) {
  if (!v || depth > 64) return false;
  if (!v->def) return v->is_constexpr;
  const Operation& d = *v->def;
  if (d.name == "const") return true;
  const OpInfo* info = find_op(d.name);
  if (!info || info->effect != Effect::Pure || !v->type.is_scalar()) return false;
  if (info->family != OpFamily::Pointwise && info->family != OpFamily::Compare && info->family != OpFamily::Unary &&
      info->family != OpFamily::Conversion)
    return false;
  for (const Value* o : d.operands)
    if (!constexpr_rec(o, depth + 1)) return false;
  return true;
}
bool is_constexpr_value(const Value* v) { return constexpr_rec(v, 0); }

Type substitute(const Type& t, const std::map<std::string, Extent>& b) {
  if (!t) return t;
  auto sub_shape = [&](const std::vector<Extent>& s) {
    std::vector<Extent> out;
    for (const auto& e : s) out.push_back(e.substitute(b));
    return out;
  };
  switch (t.kind()) {
    case TypeKind::Scalar:
    case TypeKind::Enum:
      return t;
    case TypeKind::Tensor:
      return Type::tensor(t.dtype(), sub_shape(t.shape()));
    case TypeKind::Tuple: {
      std::vector<Type> es;
      for (const auto& e : t.elements()) es.push_back(substitute(e, b));
      return Type::tuple(es);
    }
    case TypeKind::Record: {
      std::vector<std::pair<std::string, Type>> fs;
      for (const auto& [n, f] : t.fields()) fs.emplace_back(n, substitute(f, b));
      return Type::record(fs);
    }
    case TypeKind::Domain:
      return Type::domain(t.extent().substitute(b));
    case TypeKind::Subregion:
      return Type::subregion(t.extent().substitute(b));
    case TypeKind::Relation:
      return Type::relation(t.source_rank(), sub_shape(t.shape()), t.masked());
    case TypeKind::View: {
      std::optional<std::vector<Extent>> strides;
      if (t.strides()) strides = sub_shape(*t.strides());
      std::optional<Extent> offset;
      if (t.offset()) offset = t.offset()->substitute(b);
      return Type::view(t.access(), substitute(t.tensor_type(), b), strides, offset);
    }
    case TypeKind::Buffer:
      return Type::buffer(substitute(t.tensor_type(), b));
  }
  return t;
}

void collect_symbols(const Type& t, std::vector<std::string>& out) {
  if (!t) return;
  auto add = [&](const Extent& e) {
    for (const auto& s : e.symbols())
      if (!s.empty() && s[0] != '%') out.push_back(s);
  };
  switch (t.kind()) {
    case TypeKind::Tensor:
    case TypeKind::Relation:
      for (const auto& e : t.shape()) add(e);
      break;
    case TypeKind::Tuple:
      for (const auto& e : t.elements()) collect_symbols(e, out);
      break;
    case TypeKind::Record:
      for (const auto& f : t.fields()) collect_symbols(f.second, out);
      break;
    case TypeKind::Domain:
    case TypeKind::Subregion:
      add(t.extent());
      break;
    case TypeKind::View:
    case TypeKind::Buffer:
      collect_symbols(t.tensor_type(), out);
      break;
    default:
      break;
  }
}

bool any_enum_operand(const Operation& op) {
  for (const Value* v : op.operands)
    if (v && v->type.is(TypeKind::Enum)) return true;
  return false;
}

const Region* function_body_of(const Region* r) {
  int guard = 0;
  while (r && r->parent && ++guard < 100000) r = r->parent->parent;
  return r;
}

}  // namespace kir::verify::core
