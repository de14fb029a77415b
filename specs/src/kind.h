// Kinds of the manifest type system (reference §2.3–2.4, §3): Dim, Int, Bool, enums (finite
// string sets), DType[...] sets, Seq[K] (Shape = Seq[Dim]), Maybe[K], ADTs, opaque Value, and
// unions of parameter types. Also the two grammars that produce kinds: forall index kinds
// ("Dim", "Shape", "Seq[Int]", "DType[a | b]") and parameter `type` texts ("int | None",
// "tuple[int, int]", "'a' | 'b'", "MGroupedLayout", "torch.dtype", "float", ...).
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kir::specs {

struct Kind {
  enum class T { Dim, Int, Bool, Enum, DType, Seq, Maybe, Adt, Value, Union, Tensor, None, Str };
  T t = T::Value;
  std::set<std::string> members;      // Enum / DType (DType: empty = every registered dtype)
  std::shared_ptr<const Kind> elem;   // Seq element, Maybe payload
  long length = -1;                   // fixed-length Seq (tuple[int, int]); -1 = any
  std::string adt;                    // Adt name
  std::string ctor;                   // Adt narrowed to one constructor ("" = any)
  std::vector<Kind> alts;             // Union alternatives

  static Kind simple(T t) { Kind k; k.t = t; return k; }
  static Kind dim() { return simple(T::Dim); }
  static Kind integer() { return simple(T::Int); }
  static Kind boolean() { return simple(T::Bool); }
  static Kind value() { return simple(T::Value); }
  static Kind seq(Kind e, long len = -1);
  static Kind shape() { return seq(dim()); }
  static Kind maybe(Kind e);
  static Kind enumeration(std::set<std::string> m) { Kind k; k.t = T::Enum; k.members = std::move(m); return k; }
  static Kind dtype(std::set<std::string> m) { Kind k; k.t = T::DType; k.members = std::move(m); return k; }

  bool integral() const { return t == T::Dim || t == T::Int; }
  bool is_seq() const { return t == T::Seq; }
  bool is_shape() const { return t == T::Seq && elem && elem->t == T::Dim; }
  bool is_seq_int() const { return t == T::Seq && elem && elem->integral(); }
  // Finite discriminant: Bool, enum, ADT (its tag), or Maybe of anything (its presence).
  bool finite() const { return t == T::Bool || t == T::Enum || t == T::Adt; }
  std::string str() const;
};

bool operator==(const Kind& a, const Kind& b);

// Parses a forall kind text. Returns nullopt and sets `err` for an unknown kind.
std::optional<Kind> parse_index_kind(const std::string& text, std::string& err);

// Parses a parameter `type` text. `adts` is the set of known ADT names. Returns nullopt and sets
// `err` when the text is malformed (e.g. a sequence element other than int / int | None).
std::optional<Kind> parse_param_type(const std::string& text, const std::set<std::string>& adts, std::string& err);

// Field kinds of ADT constructors: Dim | Int | Bool | quoted-literal enum.
std::optional<Kind> parse_field_kind(const std::string& text, std::string& err);

}  // namespace kir::specs
