// Loop formation (checklist C5): every Compute becomes a loop nest over its iteration space,
// outermost axis first, so the innermost loop walks the last axis — unit stride in every
// row-major buffer, the form the C++ compiler vectorizes — with one Store (guarded by an If
// where the Compute has a guard). Dense Computes write each element once: their outermost
// loop carries the unique-write fact the task partition uses. Invalidates: loops.
#include "backends/cpu/passes/pass.h"

namespace kir::cpu {
namespace {

// Whether a scatter's index is the iteration coordinates themselves (after fusion, a store
// through an identity relation): then each element is written once, like a dense Compute.
bool identity_index(const Stmt& c) {
  if (c.index.empty()) return true;
  if (c.index.size() != c.coords.size()) return false;
  for (size_t k = 0; k < c.index.size(); ++k)
    if (c.index[k]->kind != ExprKind::Var || c.index[k]->var != c.coords[k]) return false;
  return true;
}

StmtP form(Program& P, Stmt& c) {
  auto root = make_stmt(StmtKind::Block, c.op_id);
  std::vector<StmtP>* cur = &root->body;
  for (size_t k = 0; k < c.coords.size(); ++k) {
    auto l = make_loop(c.coords[k], make_index(0), c.extents[k], make_index(1), c.op_id);
    P.var(c.coords[k]).role = VarRole::Loop;
    l->unique_writes = identity_index(c);
    if (k == 0) l->outputs = {c.buf};
    Stmt* raw = l.get();
    cur->push_back(std::move(l));
    cur = &raw->body;
  }
  auto st = make_stmt(StmtKind::Store, c.index.empty() ? kNone : c.op_id);
  st->buf = c.buf;
  if (c.index.empty()) {
    for (VarId v : c.coords) st->index.push_back(make_var(v, DType::Index));
  } else {
    st->index = c.index;
  }
  st->value = c.value;
  if (c.guard) {
    auto g = make_stmt(StmtKind::If, c.op_id);
    g->value = c.guard;
    g->body.push_back(std::move(st));
    cur->push_back(std::move(g));
  } else {
    cur->push_back(std::move(st));
  }
  return root;
}

void form_list(Program& P, std::vector<StmtP>& list) {
  for (auto& s : list) {
    if (s->kind == StmtKind::Compute) {
      s = form(P, *s);
      continue;
    }
    form_list(P, s->body);
    form_list(P, s->orelse);
  }
}

}  // namespace

Pass loop_formation_pass() {
  return {"loop-formation", "Computes (fusion done)", {"loops"}, [](Program& P) { form_list(P, P.body.body); }};
}

}  // namespace kir::cpu
