// Runtime values of the manifest expression language: None, Bool, arbitrary-precision Int (GMP),
// Float (Python float, for Value-kind params such as alpha or eps), Str (enum members and dtype
// names), Seq (tuples, lists, shapes) and ADT values. Equality follows Python (1 == True == 1.0).
#pragma once
#include <gmpxx.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kir::specs {

struct AdtValue;

// An evaluation failure (domain error, type mismatch at run time). The message names what went
// wrong; the caller adds the declaration it came from.
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Upper bound on the length of any sequence the evaluator or a generator builds: keeps hostile
// inputs such as repeat(1, 10**12) from exhausting memory.
inline constexpr size_t kMaxSeqLen = size_t{1} << 22;

struct Value {
  enum class T : unsigned char { None, Bool, Int, Float, Str, Seq, Adt };
  T t = T::None;
  bool b = false;
  mpz_class i;
  double f = 0;
  std::string s;
  std::vector<Value> seq;
  std::shared_ptr<const AdtValue> adt;

  static Value none() { return {}; }
  static Value boolean(bool v) { Value x; x.t = T::Bool; x.b = v; return x; }
  static Value integer(const mpz_class& v) { Value x; x.t = T::Int; x.i = v; return x; }
  static Value integer(long v) { Value x; x.t = T::Int; x.i = v; return x; }
  static Value real(double v) { Value x; x.t = T::Float; x.f = v; return x; }
  static Value str(std::string v) { Value x; x.t = T::Str; x.s = std::move(v); return x; }
  static Value sequence(std::vector<Value> v) { Value x; x.t = T::Seq; x.seq = std::move(v); return x; }
  static Value ints(const std::vector<mpz_class>& v);

  bool is_none() const { return t == T::None; }
  bool is_int() const { return t == T::Int; }           // not Bool
  bool is_intlike() const { return t == T::Int || t == T::Bool; }
  bool is_number() const { return t == T::Int || t == T::Bool || t == T::Float; }
  bool is_seq() const { return t == T::Seq; }
  mpz_class as_int() const;      // Int or Bool; else EvalError
  double as_double() const;      // any number
  bool truthy() const;           // Python truth value
  std::string repr() const;      // Python-like rendering for messages and output
};

struct AdtValue {
  std::string adt;
  std::string ctor;
  std::vector<std::pair<std::string, Value>> fields;  // declaration order
  bool partial = false;  // discriminant points: only the finite fields are known
  const Value* field(const std::string& name) const;
};

bool operator==(const Value& a, const Value& b);
inline bool operator!=(const Value& a, const Value& b) { return !(a == b); }
// Python ordering between numbers, or lexicographic between sequences; EvalError otherwise.
int compare(const Value& a, const Value& b);

// Converts a sequence of Int values to integers; EvalError naming `what` otherwise.
std::vector<mpz_class> to_ints(const Value& v, const std::string& what);
// Fits in a signed 64-bit integer (sizes, ranks, counts).
bool fits_i64(const mpz_class& v);
long to_i64(const mpz_class& v, const std::string& what);

}  // namespace kir::specs
