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
  if (L.shape.size() != r || V.shape.size() != r || ld.args.size() != r) return kNone;
  if (!s.index.empty() && s.index.size() != r) return kNone;
  for (size_t k = 0; k < r; ++k) {
    if (!is_coord(ld.args[k], s.coords[k]) || (!s.index.empty() && !is_coord(s.index[k], s.coords[k]))) return kNone;
    if (!spans_view_axis(P, s, k, s.buf, k) || !same_expr(*s.extents[k], *L.shape[k])) return kNone;
  }
  return ld.buf;
}

// Every statement nested in `s` (its body and its else branch), not `s` itself.
template <typename S, typename F>
void walk_nested(S& s, F&& f) {
  walk_stmts(s.body, f);
  walk_stmts(s.orelse, f);
}

// Whether every write of `b` inside `s` is a Kernel or a Store, and some write is a Kernel.
bool kernel_written(const Stmt& s, BufId b) {
  bool kernel = false, other = false;
  walk_nested(s, [&](const Stmt& c) {
    if (c.buf != b) return;
    if (c.kind == StmtKind::Kernel) kernel = true;
    else if (c.kind == StmtKind::Compute || c.kind == StmtKind::Copy || c.kind == StmtKind::Atomic) other = true;
  });
  return kernel && !other;
}

// The writer `w` reads `b` only through its Kernel calls (they read back their own block).
bool read_only_by_kernels(const Stmt& w, BufId b) {
  bool other = false;
  walk_nested(w, [&](const Stmt& c) {
    if (c.kind == StmtKind::Kernel) return;
    for_each_expr(c, [&](const Expr& e) { other = other || reads_buffer(e, b); });
  });
  return !other;
}

void retarget(Stmt& w, BufId from, BufId to) {
  auto fix = [&](Stmt& c) {
    if ((c.kind == StmtKind::Kernel || c.kind == StmtKind::Store) && c.buf == from) c.buf = to;
    for (auto& o : c.outputs)
      if (o == from) o = to;
  };
  fix(w);
  walk_nested(w, fix);
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
    if (!clean || !read_only_by_kernels(*list[w], L)) continue;
    retarget(*list[w], L, V);
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
