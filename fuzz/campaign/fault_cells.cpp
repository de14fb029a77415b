// See fault_cells.h.
#include "fuzz/campaign/fault_cells.h"

#include <functional>

#include "interp/error.h"

namespace kir::fuzz {

namespace {

const Operation* op_at(const Module& m, uint32_t line, uint32_t col) {
  const Operation* found = nullptr;
  std::function<void(const Region&)> walk = [&](const Region& r) {
    for (const auto& op : r.ops) {
      if (found) return;
      if (op->loc.line == line && op->loc.col == col) found = op.get();
      for (const auto& sub : op->regions) walk(*sub);
    }
  };
  for (const auto& f : m.functions) walk(f->body);
  return found;
}

bool takes_masked_relation(const Operation& op) {
  for (const Value* v : op.operands)
    if (v->type.is(TypeKind::Relation) && v->type.masked()) return true;
  return false;
}

const char* const kConstructs[] = {"plain", "masked", "branch", "loop", "parallel", "helper", "unknown"};

}  // namespace

std::string fault_construct(const Module& m, const std::string& location) {
  // "file:line:col": the file may itself hold colons, the last two fields are the position.
  const auto c2 = location.rfind(':');
  const auto c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : location.rfind(':', c2 - 1);
  if (c1 == std::string::npos) return "unknown";
  uint32_t line = 0, col = 0;
  try {
    line = static_cast<uint32_t>(std::stoul(location.substr(c1 + 1, c2 - c1 - 1)));
    col = static_cast<uint32_t>(std::stoul(location.substr(c2 + 1)));
  } catch (const std::exception&) {
    return "unknown";
  }
  const Operation* op = op_at(m, line, col);
  if (!op) return "unknown";
  if (takes_masked_relation(*op)) return "masked";
  for (const Operation* p = op->parent_op(); p; p = p->parent_op()) {
    if (p->name == "parallel") return "parallel";
    if (p->name == "if") return "branch";
    if (p->name == "for" || p->name == "while") return "loop";
  }
  for (const auto& f : m.functions)
    if (f->kind == FunctionKind::Helper) {
      for (const Operation* p = op; p; p = p->parent_op())
        if (p->parent == &f->body) return "helper";
    }
  return "plain";
}

std::string fault_cell(const Module& m, const oracle::Fault& f) {
  if (f.empty()) return "";
  return "fault:" + (f.kind.empty() ? std::string("unknown") : f.kind) + "@" + fault_construct(m, f.location);
}

void add_fault_cells(cpu::CoverageMap& m) {
  using interp::ErrorKind;
  for (ErrorKind k : {ErrorKind::UndefinedRead, ErrorKind::OutOfBounds, ErrorKind::UniqueCollision,
                      ErrorKind::ParallelConflict, ErrorKind::DivisionByZero, ErrorKind::IntOverflow,
                      ErrorKind::HistogramRange, ErrorKind::ShapeMismatch, ErrorKind::InvalidCast,
                      ErrorKind::InvalidValue, ErrorKind::Limit})
    for (const char* c : kConstructs)
      if (std::string(c) != "unknown") m.cells.emplace(std::string("fault:") + interp::kind_name(k) + "@" + c, 0);
}

}  // namespace kir::fuzz
