// The interpreter's runtime value model (seed 000 §2-§4, §14-§15): scalars (numerics Scalar),
// dense tensors (dtype, concrete shape, one 64-bit bit pattern per element, rank 0 allowed; index
// tensors from `indices`/`broadcast` may be lazy and affine),
// tuples, records, constexpr enum members, domains/subregions (with source identity), index
// relations (affine or shared coordinates plus optional validity), external views (storage, shape,
// strides, offset, access, per-element "defined" tracking for Out) and logical buffers.
// Values are immutable and cheap to copy (shared payloads); views and buffers share mutable
// Storage, which is exactly the aliasing the language gives them.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "kir/type.h"
#include "numerics/scalar.h"

namespace kir::interp {

using num::Scalar;
using Shape = std::vector<int64_t>;

// Largest number of elements any tensor, relation, view or buffer may have: bigger sizes are a
// clear run-time error instead of an allocation that exhausts memory (8 bytes per element).
inline constexpr int64_t kMaxElements = int64_t{1} << 28;

// Product of the extents; beyond kMaxElements (Limit) or for a negative extent (ShapeMismatch)
// throws a RuntimeError without op or location, which the op dispatch (Engine::exec) and kernel
// binding complete with the op or parameter that asked for the size.
int64_t checked_numel(const Shape& shape);
std::string shape_str(const Shape& shape);          // "[2, 3]"
std::string coord_str(const Shape& coord);          // "(1, 2)"
Shape unravel(int64_t flat, const Shape& shape);    // row-major
Shape row_major_strides(const Shape& shape);

// An index tensor whose elements are an affine function of their coordinate c:
// element(c) = base + sum_k strides[k] * c[k] (wrapping int64). `indices` and `broadcast` of such
// a tensor produce one without writing its elements; a relation built from it stays affine, so
// a load or store through it is a strided loop (docs/design.md "Interpreter speed").
struct AffineIndex {
  int64_t base = 0;
  Shape strides;  // one per tensor axis
  int64_t at(const Shape& coord) const {
    uint64_t v = static_cast<uint64_t>(base);
    for (size_t k = 0; k < coord.size(); ++k) v += static_cast<uint64_t>(strides[k]) * static_cast<uint64_t>(coord[k]);
    return static_cast<int64_t>(v);
  }
};

struct Tensor {
  DType dtype = DType::F32;
  Shape shape;
  std::vector<uint64_t> bits;  // row-major, one bit pattern per element (Scalar::bits layout)
  // Set only while the tensor is lazy (an index tensor whose `bits` are not written yet):
  // Value::tensor() and the other accessors write the bits and clear it first, so every
  // consumer but the affine-aware ones (relation, broadcast) sees a plain tensor.
  std::shared_ptr<const AffineIndex> affine;
  int64_t size() const { return static_cast<int64_t>(bits.size()); }
  Scalar at(int64_t i) const { return Scalar{dtype, bits[static_cast<size_t>(i)]}; }
  void materialize();  // writes the bits of a lazy tensor and clears `affine`
};

struct Value;
struct TupleV {
  std::vector<Value> elems;
};
struct RecordV {
  std::vector<std::string> names;
  std::vector<Value> elems;
};
struct EnumV {
  std::string enum_name, member;
  int64_t value = 0;
};

// A domain or a contiguous subregion of one: members are root_begin + (first + k) * step for
// k in [0, count). `root_id` is the identity of the source domain (subregions keep it).
struct DomainV {
  int64_t root_id = 0;
  int64_t root_begin = 0, step = 1;
  int64_t first = 0, count = 0;
  bool subregion = false;
  // Computed modulo 2^64: a member is always in the index range, but (first + k) * step alone
  // need not be (domain(INT64_MIN, INT64_MAX, INT64_MAX) has the member -1).
  int64_t member(int64_t k) const {
    const uint64_t off = (static_cast<uint64_t>(first) + static_cast<uint64_t>(k)) * static_cast<uint64_t>(step);
    return static_cast<int64_t>(static_cast<uint64_t>(root_begin) + off);
  }
};

// One source-axis coordinate of every relation point: either affine in the point's coordinate
// (`affine` set, strides over the relation shape) or one value per point in row-major order at
// `data`, kept alive by `owner` (the index tensor it came from, shared without a copy, or a
// converted copy).
struct RelationAxis {
  std::shared_ptr<const AffineIndex> affine;
  const int64_t* data = nullptr;
  std::shared_ptr<const void> owner;
};

// An index relation: for each point of `shape` (row-major), one coordinate per source axis and,
// if masked, whether the point is active. Either every axis is affine or none is.
struct RelationV {
  int source_rank = 0;
  Shape shape;
  int64_t points = 1;
  std::vector<RelationAxis> coords;  // [axis]
  bool affine = false;               // every axis affine
  bool masked = false;
  std::vector<uint8_t> valid;        // [point], when masked
  bool active(int64_t p) const { return !masked || valid[static_cast<size_t>(p)] != 0; }
  // Coordinate on source axis a of point p (row-major flat index).
  int64_t coord(size_t a, int64_t p) const {
    const RelationAxis& x = coords[a];
    return x.affine ? x.affine->at(unravel(p, shape)) : x.data[p];
  }
};

// A process-unique identity for each Storage (conflict tracking keys on it: an address may be
// reused by a later allocation, a serial never is).
inline uint64_t next_storage_serial() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// Mutable element storage behind a view or a buffer.
struct Storage {
  DType dtype = DType::F32;
  std::vector<uint64_t> bits;
  std::vector<uint8_t> defined;   // empty: every element defined
  std::vector<uint64_t> mark;     // write marks for collision detection (lazily sized)
  uint64_t serial = next_storage_serial();
  bool is_defined(int64_t i) const { return defined.empty() || defined[static_cast<size_t>(i)] != 0; }
  void set_defined(int64_t i) { if (!defined.empty()) defined[static_cast<size_t>(i)] = 1; }
};

struct ViewV {
  std::shared_ptr<Storage> storage;
  std::string name;  // parameter name, for messages
  Access access = Access::In;
  Shape shape, strides;
  int64_t offset = 0;
  bool is_buffer = false;  // a logical buffer (row-major, no access restriction)
  int64_t storage_index(const Shape& coord) const {
    int64_t s = offset;
    for (size_t i = 0; i < coord.size(); ++i) s += coord[i] * strides[i];
    return s;
  }
};

struct Value {
  std::variant<std::monostate, Scalar, std::shared_ptr<const Tensor>, std::shared_ptr<const TupleV>,
               std::shared_ptr<const RecordV>, EnumV, std::shared_ptr<const DomainV>,
               std::shared_ptr<const RelationV>, std::shared_ptr<const ViewV>>
      v;

  Value() = default;
  Value(Scalar s) : v(s) {}  // NOLINT
  Value(Tensor t) : v(std::shared_ptr<const Tensor>(std::make_shared<Tensor>(std::move(t)))) {}  // NOLINT
  Value(std::shared_ptr<const Tensor> t) : v(std::move(t)) {}  // NOLINT
  Value(TupleV t) : v(std::shared_ptr<const TupleV>(std::make_shared<TupleV>(std::move(t)))) {}  // NOLINT
  Value(RecordV r) : v(std::shared_ptr<const RecordV>(std::make_shared<RecordV>(std::move(r)))) {}  // NOLINT
  Value(EnumV e) : v(std::move(e)) {}  // NOLINT
  Value(DomainV d) : v(std::make_shared<const DomainV>(d)) {}  // NOLINT
  Value(RelationV r) : v(std::make_shared<const RelationV>(std::move(r))) {}  // NOLINT
  Value(std::shared_ptr<const ViewV> w) : v(std::move(w)) {}  // NOLINT

  bool empty() const { return v.index() == 0; }
  bool is_scalar() const { return std::holds_alternative<Scalar>(v); }
  bool is_tensor() const { return std::holds_alternative<std::shared_ptr<const Tensor>>(v); }
  bool is_tuple() const { return std::holds_alternative<std::shared_ptr<const TupleV>>(v); }
  bool is_record() const { return std::holds_alternative<std::shared_ptr<const RecordV>>(v); }
  bool is_enum() const { return std::holds_alternative<EnumV>(v); }
  bool is_domain() const { return std::holds_alternative<std::shared_ptr<const DomainV>>(v); }
  bool is_relation() const { return std::holds_alternative<std::shared_ptr<const RelationV>>(v); }
  bool is_view() const { return std::holds_alternative<std::shared_ptr<const ViewV>>(v); }

  Scalar scalar() const;  // throws std::logic_error on a kind mismatch (a verifier bug)
  const Tensor& tensor() const;  // writes the elements of a lazy index tensor first
  // The affine form of a lazy index tensor (its elements not written), else null; never
  // materializes.
  const AffineIndex* lazy_affine() const {
    auto* p = std::get_if<std::shared_ptr<const Tensor>>(&v);
    return p ? (*p)->affine.get() : nullptr;
  }
  const Tensor& lazy_tensor() const;  // as tensor() without writing a lazy one's elements (shape, dtype)
  const TupleV& tuple() const;
  const RecordV& record() const;
  const EnumV& enumv() const { return std::get<EnumV>(v); }
  const DomainV& domain() const;
  const RelationV& relation() const;
  const ViewV& view() const;
  const std::shared_ptr<const Tensor>& tensor_ptr() const {
    (void)tensor();
    return std::get<std::shared_ptr<const Tensor>>(v);
  }
  // Payloads are allocated non-const; a sole owner may update them in place (copy-on-write).
  Tensor* unique_tensor() {
    auto* p = std::get_if<std::shared_ptr<const Tensor>>(&v);
    if (!p || p->use_count() != 1) return nullptr;
    auto* t = const_cast<Tensor*>(p->get());
    if (t->affine) t->materialize();
    return t;
  }
  TupleV* unique_tuple() {
    auto* p = std::get_if<std::shared_ptr<const TupleV>>(&v);
    return p && p->use_count() == 1 ? const_cast<TupleV*>(p->get()) : nullptr;
  }
  RecordV* unique_record() {
    auto* p = std::get_if<std::shared_ptr<const RecordV>>(&v);
    return p && p->use_count() == 1 ? const_cast<RecordV*>(p->get()) : nullptr;
  }
};

// Short human-readable summary ("f32[2, 3] min=-1 max=2.5 nan=0", "i32 7", "tuple(...)").
std::string summarize(const Value& v);

// Every element of a scalar or tensor, nested like NumPy ("[[1, 2], [3, 4]]"), at most `limit`
// elements (then "..."); tuples and records per component; other values as summarize().
std::string render_elements(const Value& v, int64_t limit = 1000);

}  // namespace kir::interp
