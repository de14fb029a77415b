// Construction, accessors, equality and canonical spelling of KIR types.
#include "kir/type.h"

#include <stdexcept>

namespace kir {
namespace {
std::shared_ptr<TypeNode> make(TypeKind k) {
  auto n = std::make_shared<TypeNode>();
  n->kind = k;
  return n;
}
[[noreturn]] void wrong(const char* what) {
  throw std::logic_error(std::string("kir::Type: ") + what + " on a type that has none");
}
}  // namespace

Type Type::scalar(DType d) { auto n = make(TypeKind::Scalar); n->dtype = d; Type t; t.node_ = n; return t; }
Type Type::tensor(DType d, std::vector<Extent> shape) {
  auto n = make(TypeKind::Tensor); n->dtype = d; n->shape = std::move(shape); Type t; t.node_ = n; return t;
}
Type Type::tuple(std::vector<Type> elems) { auto n = make(TypeKind::Tuple); n->elems = std::move(elems); Type t; t.node_ = n; return t; }
Type Type::record(std::vector<std::pair<std::string, Type>> fields) {
  auto n = make(TypeKind::Record); n->fields = std::move(fields); Type t; t.node_ = n; return t;
}
Type Type::enumeration(const std::string& name) { auto n = make(TypeKind::Enum); n->name = name; Type t; t.node_ = n; return t; }
Type Type::domain(Extent e) { auto n = make(TypeKind::Domain); n->extent = std::move(e); Type t; t.node_ = n; return t; }
Type Type::subregion(Extent e) { auto n = make(TypeKind::Subregion); n->extent = std::move(e); Type t; t.node_ = n; return t; }
Type Type::relation(int source_rank, std::vector<Extent> shape, bool masked) {
  auto n = make(TypeKind::Relation); n->source_rank = source_rank; n->shape = std::move(shape); n->masked = masked;
  Type t; t.node_ = n; return t;
}
Type Type::view(Access access, Type tensor, std::optional<std::vector<Extent>> strides, std::optional<Extent> offset) {
  auto n = make(TypeKind::View); n->access = access; n->inner = std::move(tensor); n->strides = std::move(strides);
  n->offset = std::move(offset); Type t; t.node_ = n; return t;
}
Type Type::buffer(Type tensor) { auto n = make(TypeKind::Buffer); n->inner = std::move(tensor); Type t; t.node_ = n; return t; }

TypeKind Type::kind() const { if (!node_) wrong("kind"); return node_->kind; }
DType Type::dtype() const {
  switch (kind()) {
    case TypeKind::Scalar: case TypeKind::Tensor: return node_->dtype;
    case TypeKind::View: case TypeKind::Buffer: return node_->inner.dtype();
    default: wrong("dtype");
  }
}
const std::vector<Extent>& Type::shape() const {
  static const std::vector<Extent> kEmpty;
  switch (kind()) {
    case TypeKind::Scalar: return kEmpty;
    case TypeKind::Tensor: case TypeKind::Relation: return node_->shape;
    case TypeKind::View: case TypeKind::Buffer: return node_->inner.shape();
    default: wrong("shape");
  }
}
const std::vector<Type>& Type::elements() const { if (!is(TypeKind::Tuple)) wrong("elements"); return node_->elems; }
const std::vector<std::pair<std::string, Type>>& Type::fields() const { if (!is(TypeKind::Record)) wrong("fields"); return node_->fields; }
const std::string& Type::enum_name() const { if (!is(TypeKind::Enum)) wrong("enum name"); return node_->name; }
const Extent& Type::extent() const {
  if (!is(TypeKind::Domain) && !is(TypeKind::Subregion)) wrong("extent");
  return node_->extent;
}
int Type::source_rank() const { if (!is(TypeKind::Relation)) wrong("source rank"); return node_->source_rank; }
bool Type::masked() const { if (!is(TypeKind::Relation)) wrong("masked"); return node_->masked; }
Access Type::access() const { if (!is(TypeKind::View)) wrong("access"); return node_->access; }
Type Type::tensor_type() const { if (!is(TypeKind::View) && !is(TypeKind::Buffer)) wrong("tensor type"); return node_->inner; }
const std::optional<std::vector<Extent>>& Type::strides() const { if (!is(TypeKind::View)) wrong("strides"); return node_->strides; }
const std::optional<Extent>& Type::offset() const { if (!is(TypeKind::View)) wrong("offset"); return node_->offset; }

Type Type::with_dtype(DType d) const {
  switch (kind()) {
    case TypeKind::Scalar: return scalar(d);
    case TypeKind::Tensor: return tensor(d, node_->shape);
    case TypeKind::Tuple: {
      std::vector<Type> es;
      for (const auto& e : node_->elems) es.push_back(e.with_dtype(d));
      return tuple(es);
    }
    case TypeKind::Record: {
      auto fs = node_->fields;
      for (auto& f : fs) f.second = f.second.with_dtype(d);
      return record(fs);
    }
    default: wrong("dtype");
  }
}
Type Type::with_shape(std::vector<Extent> shape) const {
  if (!is_shaped_or_scalar()) wrong("shape");
  return tensor(dtype(), std::move(shape));
}

std::string_view access_name(Access a) {
  switch (a) {
    case Access::In: return "In";
    case Access::Out: return "Out";
    case Access::InOut: return "InOut";
  }
  return "?";
}

std::string shape_str(const std::vector<Extent>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i].str();
  return s + "]";
}

std::string Type::str() const {
  if (!node_) return "<none>";
  const auto& n = *node_;
  switch (n.kind) {
    case TypeKind::Scalar: return std::string(name(n.dtype));
    case TypeKind::Tensor: return std::string(name(n.dtype)) + shape_str(n.shape);
    case TypeKind::Tuple: {
      std::string s = "tuple<";
      for (size_t i = 0; i < n.elems.size(); ++i) s += (i ? ", " : "") + n.elems[i].str();
      return s + ">";
    }
    case TypeKind::Record: {
      std::string s = "record<";
      for (size_t i = 0; i < n.fields.size(); ++i) s += (i ? ", " : "") + n.fields[i].first + ": " + n.fields[i].second.str();
      return s + ">";
    }
    case TypeKind::Enum: return "enum<@" + n.name + ">";
    case TypeKind::Domain: return "domain<" + n.extent.str() + ">";
    case TypeKind::Subregion: return "subregion<" + n.extent.str() + ">";
    case TypeKind::Relation:
      return "relation<" + std::to_string(n.source_rank) + " -> " + shape_str(n.shape) + (n.masked ? ", masked" : "") + ">";
    case TypeKind::View: {
      std::string s = std::string(access_name(n.access)) + "<" + n.inner.str();
      if (n.strides) s += ", strides = " + shape_str(*n.strides);
      if (n.offset) s += ", offset = " + n.offset->str();
      return s + ">";
    }
    case TypeKind::Buffer: return "buffer<" + n.inner.str() + ">";
  }
  return "?";
}

bool operator==(const Type& a, const Type& b) {
  if (a.node_ == b.node_) return true;
  if (!a.node_ || !b.node_) return false;
  const auto& x = *a.node_;
  const auto& y = *b.node_;
  if (x.kind != y.kind) return false;
  switch (x.kind) {
    case TypeKind::Scalar: return x.dtype == y.dtype;
    case TypeKind::Tensor: return x.dtype == y.dtype && x.shape == y.shape;
    case TypeKind::Tuple: return x.elems == y.elems;
    case TypeKind::Record: return x.fields == y.fields;
    case TypeKind::Enum: return x.name == y.name;
    case TypeKind::Domain: case TypeKind::Subregion: return x.extent == y.extent;
    case TypeKind::Relation: return x.source_rank == y.source_rank && x.shape == y.shape && x.masked == y.masked;
    case TypeKind::View: return x.access == y.access && x.inner == y.inner && x.strides == y.strides && x.offset == y.offset;
    case TypeKind::Buffer: return x.inner == y.inner;
  }
  return false;
}

}  // namespace kir
