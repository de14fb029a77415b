// Result forwarding (checklist C5; the output form of an implementation): a result buffer that
// an expansion writes with micro-kernel calls and that is then only copied unchanged into an
// Out view at the same coordinates is written into the view directly — the copy and the
// intermediate buffer disappear. Conditions: the copy is a dense `compute` of the view whose
// value is a load of the buffer at its own coordinates, over extents equal to the buffer's
// shape and to the view's declared extents (checked on entry); the buffer is written only
// inside one earlier top-level statement, by Kernel statements and stores, and read by nothing
// else; no statement from that writer up to the copy reads or writes the view. The writers then
// target the view (a Kernel reads back only what it wrote itself). Invalidates: buffer uses,
// lifetimes.
#include <algorithm>

#include "backends/cpu/passes/pass.h"

namespace kir::cpu {
namespace {

bool is_coord(const ExprP& e, VarId v) { return e && e->kind == ExprKind::Var && e->var == v; }

// The copy `s` of a local buffer into a view, or kNone.
BufId copied_local(const Program& P, const Stmt& s) {
  if (s.kind != StmtKind::Compute || s.guard || !s.value || s.value->kind != ExprKind::Load) return kNone;
  const Buffer& V = P.buf(s.buf);
  const Expr& ld = *s.value;
  const Buffer& L = P.buf(ld.buf);
  if (V.kind != BufKind::View || V.access == Access::In || L.kind != BufKind::Local) return kNone;
  const size_t r = s.coords.size();
  if (L.shape.size() != r || V.shape.size() != r || ld.args.size() != r || V.extent_checked.size() != r) return kNone;
  if (!s.index.empty() && s.index.size() != r) return kNone;
  for (size_t k = 0; k < r; ++k) {
    if (!is_coord(ld.args[k], s.coords[k]) || (!s.index.empty() && !is_coord(s.index[k], s.coords[k]))) return kNone;
    if (!V.extent_checked[k] || !same_expr(*s.extents[k], *L.shape[k]) || !same_expr(*s.extents[k], *V.shape[k]))
      return kNone;
  }
  return ld.buf;
}

// Whether every write of `b` inside `s` is a Kernel or a Store, and some write is a Kernel.
bool kernel_written(const Stmt& s, BufId b) {
  bool kernel = false, other = false;
  walk_stmts(s.body, [&](const Stmt& c) {
    if (c.kind == StmtKind::Kernel && c.buf == b) kernel = true;
    else if (c.buf == b && (c.kind == StmtKind::Compute || c.kind == StmtKind::Copy || c.kind == StmtKind::Atomic)) other = true;
  });
  walk_stmts(s.orelse, [&](const Stmt& c) {
    if (c.buf == b && (c.kind == StmtKind::Compute || c.kind == StmtKind::Copy || c.kind == StmtKind::Atomic)) other = true;
  });
  return kernel && !other;
}

void retarget(std::vector<StmtP>& list, BufId from, BufId to) {
  walk_stmts(list, [&](Stmt& c) {
    if ((c.kind == StmtKind::Kernel || c.kind == StmtKind::Store) && c.buf == from) c.buf = to;
    for (auto& o : c.outputs)
      if (o == from) o = to;
  });
}

void run_forwarding(Program& P) {
  auto& list = P.body.body;
  for (size_t i = 0; i < list.size(); ++i) {
    const BufId L = copied_local(P, *list[i]);
    if (L == kNone) continue;
    const BufId V = list[i]->buf;
    // The one earlier top-level statement writing L.
    size_t w = i;
    for (size_t j = 0; j < i; ++j)
      if (writes_buffer(*list[j], L)) {
        if (w != i) w = i + 1;  // two writers: give up
        else w = j;
      }
    if (w >= i || !kernel_written(*list[w], L)) continue;
    bool clean = true;
    for (size_t j = 0; j < list.size() && clean; ++j) {
      if (j == i) continue;
      const Stmt& s = *list[j];
      if (j != w && (stmt_reads_buffer(s, L) || writes_buffer(s, L))) clean = false;
      if (j >= w && j < i && (stmt_reads_buffer(s, V) || writes_buffer(s, V))) clean = false;
    }
    // The writer itself reads L only through its Kernel calls (they read back their own block).
    walk_stmts(list[w]->body, [&](const Stmt& c) {
      if (c.kind == StmtKind::Kernel) return;
      for_each_expr(c, [&](const Expr& e) { clean = clean && !reads_buffer(e, L); });
    });
    if (!clean) continue;
    retarget(list[w]->body, L, V);
    retarget(list[w]->orelse, L, V);
    for (auto& o : list[w]->outputs)
      if (o == L) o = V;
    P.buf(L).dead = true;
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    --i;
  }
}

}  // namespace

Pass result_forwarding_pass() {
  return {"result-forwarding", "expansion done, fusion and bounds run", {"buffer uses", "lifetimes"}, run_forwarding};
}

}  // namespace kir::cpu
