// Run-time errors of the interpreter (issue 4 item 2). Every error names the op, its source
// location (file:line:col) and, where elements are involved, the coordinates; the class says what
// kind of fault it is so tests and the oracle can tell them apart.
#pragma once
#include <stdexcept>
#include <string>

namespace kir {
class Operation;
}

namespace kir::interp {

enum class ErrorKind {
  UndefinedRead,     // read of an Out view or buffer element never written
  OutOfBounds,       // active coordinate outside the accessed source
  UniqueCollision,   // two points of a unique_store (or a store) write the same element
  ParallelConflict,  // two points of a parallel write (or write and read) the same element
  DivisionByZero,    // integer division or remainder by zero
  IntOverflow,       // INT_MIN / -1, shift out of range
  HistogramRange,    // histogram value outside [0, bins) on an active lane
  ShapeMismatch,     // dynamic extent / carry / binding mismatch found at run time
  InvalidCast,       // float->int of NaN/Inf/out of range, NaN into e2m1
  InvalidValue,      // non-positive dynamic step, bad sparse metadata, bad subregion bounds...
  Binding,           // kernel invocation: missing/ill-typed argument
  Limit,             // size or step limit exceeded
  NotImplemented,    // op or case not built yet
  BreakOn,           // --break-on nan|inf stopped execution
};

const char* kind_name(ErrorKind k);

class RuntimeError : public std::runtime_error {
 public:
  RuntimeError(ErrorKind kind, std::string op, std::string loc, std::string message, std::string coords = "");
  ErrorKind kind() const { return kind_; }
  const std::string& op() const { return op_; }
  const std::string& location() const { return loc_; }
  const std::string& message() const { return message_; }
  const std::string& coords() const { return coords_; }
  // The loops and parallel points the op was executing in, outermost first ("for %t = 0",
  // "parallel %r = 5"); each enclosing loop adds itself while the error unwinds through it.
  const std::string& loops() const { return loops_; }
  void add_loop(const std::string& frame);
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  ErrorKind kind_;
  std::string op_, loc_, message_, coords_, loops_, text_;
};

// An error at `op` (its name and location).
[[noreturn]] void fail(const Operation& op, ErrorKind kind, const std::string& message, const std::string& coords = "");

}  // namespace kir::interp
