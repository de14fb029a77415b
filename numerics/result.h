// Error-or-value result of numerics operations: operations whose value is undefined in the
// language (integer division by zero, float->int cast of NaN, ...) report a Status with a message
// instead of throwing or invoking UB. docs/numerics.md "Integer rules" / "Casts" list the cases.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace kir::num {

enum class Status : unsigned char {
  Ok,
  DivideByZero,     // integer div/rem by zero
  IntOverflow,      // signed INT_MIN / -1 and INT_MIN % -1
  ShiftOutOfRange,  // shift amount negative or >= bit width
  InvalidCast,      // float->int of NaN/Inf/out-of-range; NaN into e2m1 (no NaN encoding)
  TypeMismatch,     // operands of different dtypes, or an op not defined for the dtype
  NotImplemented,
};

const char* status_name(Status s);

struct Error {
  Status status;
  std::string message;
};

template <class T>
class Result {
 public:
  Result(T v) : v_(std::move(v)) {}  // NOLINT: implicit by design, like std::expected
  Result(Error e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(v_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }
  Status status() const { return ok() ? Status::Ok : error().status; }

 private:
  std::variant<T, Error> v_;
};

inline Error make_error(Status s, std::string msg) { return Error{s, std::move(msg)}; }

}  // namespace kir::num
