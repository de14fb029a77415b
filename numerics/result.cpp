// Names of numerics error statuses for diagnostics.
#include "numerics/result.h"

namespace kir::num {

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::DivideByZero: return "divide by zero";
    case Status::IntOverflow: return "integer overflow";
    case Status::ShiftOutOfRange: return "shift out of range";
    case Status::InvalidCast: return "invalid cast";
    case Status::TypeMismatch: return "type mismatch";
    case Status::NotImplemented: return "not implemented";
  }
  return "unknown";
}

}  // namespace kir::num
