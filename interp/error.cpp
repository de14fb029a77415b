// Formatting of run-time errors: "file:line:col: runtime error[kind]: op 'name': message at (coords)
// (in loops) (kir explain kind)", built in one place for a new error and for each loop it unwinds through.
#include "interp/error.h"

#include "kir/ir.h"
#include "kir/rules/rule.h"

namespace kir::interp {

const char* kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::UndefinedRead: return "undefined-read";
    case ErrorKind::OutOfBounds: return "out-of-bounds";
    case ErrorKind::UniqueCollision: return "write-collision";
    case ErrorKind::ParallelConflict: return "parallel-conflict";
    case ErrorKind::DivisionByZero: return "division-by-zero";
    case ErrorKind::IntOverflow: return "integer-overflow";
    case ErrorKind::HistogramRange: return "histogram-range";
    case ErrorKind::ShapeMismatch: return "shape-mismatch";
    case ErrorKind::InvalidCast: return "invalid-cast";
    case ErrorKind::InvalidValue: return "invalid-value";
    case ErrorKind::Binding: return "binding";
    case ErrorKind::Limit: return "limit";
    case ErrorKind::NotImplemented: return "not-implemented";
    case ErrorKind::BreakOn: return "break-on";
  }
  return "error";
}

static std::string render(ErrorKind kind, const std::string& op, const std::string& loc, const std::string& message,
                          const std::string& coords, const std::string& loops) {
  std::string s = (loc.empty() ? std::string("<unknown>") : loc) + ": runtime error[" + kind_name(kind) + "]: ";
  if (!op.empty()) s += "op '" + op + "': ";
  s += message;
  if (!coords.empty()) s += " at " + coords;
  if (!loops.empty()) s += " (in " + loops + ")";
  return s + rules::explain_hint(kind_name(kind));
}

RuntimeError::RuntimeError(ErrorKind kind, std::string op, std::string loc, std::string message, std::string coords)
    : std::runtime_error(kind_name(kind)),
      kind_(kind),
      op_(std::move(op)),
      loc_(std::move(loc)),
      message_(std::move(message)),
      coords_(std::move(coords)),
      text_(render(kind_, op_, loc_, message_, coords_, "")) {}

void RuntimeError::add_loop(const std::string& frame) {
  loops_ = loops_.empty() ? frame : frame + ", " + loops_;
  text_ = render(kind_, op_, loc_, message_, coords_, loops_);
}

void fail(const Operation& op, ErrorKind kind, const std::string& message, const std::string& coords) {
  throw RuntimeError(kind, op.name, op.loc.str(), message, coords);
}

}  // namespace kir::interp
