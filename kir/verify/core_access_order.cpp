// Out views are unreadable on entry (seed 000 §2, L2.2): statically, a read of an Out view
// (view.load, an atomic that reads, scatter_reduce combining with the old contents) that comes
// before every store to that view in program order is an error. Program order is the pre-order
// of ops; a store in an earlier `if` branch or loop body counts (not provable otherwise), and a
// `call` that receives the view may store to it, so it also counts. Reads of elements that were
// not stored although some store preceded are left to the interpreter.
#include <set>

#include "kir/verify/core_rules.h"
#include "kir/verify/core_util.h"

namespace kir::verify::core {

namespace {

bool is_out_view(const Value* v) { return v && v->type.is(TypeKind::View) && v->type.access() == Access::Out; }

}  // namespace

void check_out_reads(Context& cx) {
  for (const auto& f : cx.module.functions) {
    cx.function = f.get();
    std::set<const Value*> stored;
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) {
      const Value* dest = operand(op, 0);
      const std::string& n = op.name;
      if (n == "call") {
        for (const Value* v : op.operands)
          if (is_out_view(v)) stored.insert(v);
        return;
      }
      if (!is_out_view(dest)) return;
      bool reads = n == "view.load" || n == "atomic.load" || n == "atomic.rmw" || n == "atomic.compare_exchange" ||
                   n == "scatter_reduce";
      bool writes = n == "view.store" || n == "unique_store" || n == "atomic.store" || n == "atomic.rmw" ||
                    n == "atomic.compare_exchange" || n == "scatter_reduce";
      if (reads && !stored.count(dest))
        cx.error(op, "L2.2", "read of Out view %" + dest->name + " before any store: an Out view is unreadable on entry" +
                                 (n == "view.load" ? "" : " (" + n + " reads the old contents)"));
      if (writes) stored.insert(dest);
    });
  }
  cx.function = nullptr;
}

}  // namespace kir::verify::core
