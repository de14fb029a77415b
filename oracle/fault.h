// A run-time fault in a form two runs can be compared by (the verdict's "error agreement" rule,
// verdict.h): its kind, the op and location, and the first coordinate. Built from the
// interpreter's RuntimeError, from the native fault record (kir_fault) with the program's op
// table, or — for callers that hold only the printed message — parsed from that message.
//
// The coordinate of a fault is where in the iteration it happened:
//  - interpreter: the indices of the parallel points and loop iterations it ran in, outermost
//    first (RuntimeError::loops(), `(in parallel %p = 1, for %t = 2)`), followed by the element
//    of the faulting op's result being computed (the relation point of a memory access, the
//    element of a tensor op; nothing for a scalar op);
//  - native code: the kir_fault coordinates (the enclosing loop and task variables of the
//    faulting statement, outermost first).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "interp/error.h"

namespace kir::oracle {

struct Fault {
  std::string kind;  // the interpreter's kind name (interp::kind_name: "division-by-zero", ...); "" unknown
  std::string op, location;      // the faulting op and its file:line:col; "" when not known
  std::vector<int64_t> coord;    // the first coordinate (see above); empty: none
  std::string message;           // the located message as printed
  bool empty() const { return message.empty(); }
  // "division-by-zero in `div` at k.kir:9:5, coordinate (3)"
  std::string str() const;
};

// Same kind and same coordinate.
bool same_fault(const Fault& a, const Fault& b);

Fault fault_of(const interp::RuntimeError& e);
Fault fault_of(const cpu::NativeKernel& kernel, const kir_fault& f);
// A fault raised before the native call (binding the arguments): kind and message only.
Fault host_fault(const std::string& kind, const std::string& message);
// Parsed from a printed message (the interpreter's `runtime error[KIND]` or the backend's
// `error[backend]` form); a message of neither form gives kind "" and the message.
Fault fault_from_message(const std::string& message);
// The fault of the exception being handled (call inside a catch block): structured for
// interp::RuntimeError and FaultError, parsed from what() otherwise.
Fault current_fault(const std::exception& e);

// What call_on_backend throws on a native fault or an argument it cannot bind.
class FaultError : public std::runtime_error {
 public:
  explicit FaultError(Fault f) : std::runtime_error(f.message), fault_(std::move(f)) {}
  const Fault& fault() const { return fault_; }

 private:
  Fault fault_;
};

}  // namespace kir::oracle
