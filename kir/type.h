// KIR types (seed 000 §2–§4, §15): scalars of every dtype, ranked tensors with symbolic extents,
// tuples, records, enums, domains, subregions, index relations, external views In/Out/InOut with
// stride/offset facts, and logical buffers. Types are immutable values compared structurally.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kir/extent.h"
#include "numerics/dtype.h"

namespace kir {

enum class TypeKind { Scalar, Tensor, Tuple, Record, Enum, Domain, Subregion, Relation, View, Buffer };
enum class Access { In, Out, InOut };

struct TypeNode;

class Type {
 public:
  Type() = default;  // null type (absent)
  static Type scalar(DType d);
  static Type tensor(DType d, std::vector<Extent> shape);
  static Type tuple(std::vector<Type> elems);
  static Type record(std::vector<std::pair<std::string, Type>> fields);
  static Type enumeration(const std::string& name);
  static Type domain(Extent extent);
  static Type subregion(Extent extent);
  static Type relation(int source_rank, std::vector<Extent> shape, bool masked);
  static Type view(Access access, Type tensor, std::optional<std::vector<Extent>> strides = {},
                   std::optional<Extent> offset = {});
  static Type buffer(Type tensor);

  explicit operator bool() const { return node_ != nullptr; }
  TypeKind kind() const;
  bool is(TypeKind k) const { return node_ && kind() == k; }
  bool is_scalar() const { return is(TypeKind::Scalar); }
  bool is_tensor() const { return is(TypeKind::Tensor); }
  // Scalar or tensor: a value with an element dtype.
  bool is_shaped_or_scalar() const { return is_scalar() || is_tensor(); }

  DType dtype() const;                        // Scalar, Tensor, View, Buffer
  const std::vector<Extent>& shape() const;   // Tensor, Relation, View/Buffer (of their tensor)
  size_t rank() const { return shape().size(); }
  const std::vector<Type>& elements() const;  // Tuple
  const std::vector<std::pair<std::string, Type>>& fields() const;  // Record
  const std::string& enum_name() const;       // Enum
  const Extent& extent() const;               // Domain, Subregion
  int source_rank() const;                    // Relation
  bool masked() const;                        // Relation
  Access access() const;                      // View
  Type tensor_type() const;                   // View, Buffer
  const std::optional<std::vector<Extent>>& strides() const;  // View
  const std::optional<Extent>& offset() const;                // View

  // A tensor/scalar with the same shape and a different dtype (tuple/record: per component).
  Type with_dtype(DType d) const;
  Type with_shape(std::vector<Extent> shape) const;  // Tensor only
  // The element type of a scalar/tensor/view/buffer: Type::scalar(dtype()).
  Type element() const { return scalar(dtype()); }

  std::string str() const;  // canonical KIR spelling
  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  std::shared_ptr<const TypeNode> node_;
};

struct TypeNode {
  TypeKind kind;
  DType dtype = DType::F32;
  std::vector<Extent> shape;
  std::vector<Type> elems;
  std::vector<std::pair<std::string, Type>> fields;
  std::string name;
  Extent extent;
  int source_rank = 0;
  bool masked = false;
  Access access = Access::In;
  Type inner;
  std::optional<std::vector<Extent>> strides;
  std::optional<Extent> offset;
};

std::string_view access_name(Access a);
std::string shape_str(const std::vector<Extent>& shape);  // "[M, N]"

}  // namespace kir
