// See index_ranges.h.
#include "tools/index_ranges.h"

#include <set>

namespace kir::tools {
namespace {

using Uses = std::map<const kir::Value*, std::vector<std::pair<const Operation*, size_t>>>;

bool keeps_values(const std::string& op) {
  return op == "broadcast" || op == "cast" || op == "reshape" || op == "transpose";
}

// The extents indexed by coordinate `axis` of relation `rel`: axis `axis` of whatever each of its
// users applies it to (operand 0, with the relation as operand 1).
void indexed_axes(const Uses& uses, const kir::Value* rel, size_t axis, std::vector<Extent>& out) {
  auto it = uses.find(rel);
  if (it == uses.end()) return;
  for (const auto& [op, pos] : it->second) {
    if (pos != 1 || op->operands.empty()) continue;
    const Type& t = op->operands[0]->type;
    if (!(t.is(TypeKind::View) || t.is(TypeKind::Tensor) || t.is(TypeKind::Buffer))) continue;
    if (axis < t.shape().size()) out.push_back(t.shape()[axis]);
  }
}

}  // namespace

std::map<std::string, std::vector<Extent>> index_extents(const Function& k) {
  Uses uses;
  walk(k.body, [&](const Operation& op) {
    for (size_t i = 0; i < op.operands.size(); ++i) uses[op.operands[i]].push_back({&op, i});
  });
  std::map<std::string, std::vector<Extent>> out;
  for (const kir::Value* p : k.params()) {
    if (!p->type.is(TypeKind::View) || p->type.access() != Access::In || !is_integer(p->type.dtype())) continue;
    std::vector<const kir::Value*> work;
    std::set<const kir::Value*> seen;
    for (const auto& [op, pos] : uses[p])
      if (pos == 0 && op->name == "view.load") work.push_back(op->result());
    std::vector<Extent> extents;
    while (!work.empty()) {
      const kir::Value* v = work.back();
      work.pop_back();
      if (!seen.insert(v).second) continue;
      for (const auto& [op, pos] : uses[v]) {
        if (keeps_values(op->name) || (op->name == "select" && pos > 0)) work.push_back(op->result());
        else if (op->name == "relation") indexed_axes(uses, op->result(), pos, extents);
      }
    }
    if (!extents.empty()) out[p->name] = std::move(extents);
  }
  return out;
}

}  // namespace kir::tools
