// Buffer lifetime and reuse (checklist C3, C5): every Local buffer is allocated in the innermost
// statement list that holds all its uses, just before the first, and freed just after the
// last; the resource records its owner (the call, or the task whose body holds it — a task's
// temporaries are private to it) and its lifetime. A buffer whose lifetime starts after an
// earlier buffer's has ended, with the same dtype and provably the same shape, reuses that
// storage (Buffer::reuses; its Alloc and Free then only name the storage it borrows, and the
// owner's Free moves past the borrower's last use). Every Local buffer is written before it is
// read, so old contents never show. Invalidates: nothing else.
#include <algorithm>

#include "backends/cpu/passes/pass.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

bool uses(const Stmt& s, BufId b) { return writes_buffer(s, b) || stmt_reads_buffer(s, b); }

bool used_in_tasks(const std::vector<StmtP>& list, BufId b) {
  bool found = false;
  walk_stmts(list, [&](const Stmt& s) { found = found || (s.kind == StmtKind::Tasks && uses(s, b)); });
  return found;
}

void place(Program& P, std::vector<StmtP>& list, const std::vector<BufId>& bufs, bool in_task) {
  std::vector<BufId> here;
  for (BufId b : bufs) {
    int first = -1, last = -1, count = 0;
    for (size_t i = 0; i < list.size(); ++i)
      if (uses(*list[i], b)) {
        if (first < 0) first = static_cast<int>(i);
        last = static_cast<int>(i);
        ++count;
      }
    if (first < 0) continue;
    Stmt& only = *list[static_cast<size_t>(first)];
    bool descend = count == 1 && (only.kind == StmtKind::Loop || only.kind == StmtKind::While ||
                                  only.kind == StmtKind::Tasks || only.kind == StmtKind::Block ||
                                  only.kind == StmtKind::If);
    // A buffer written in one branch of an If and read after it is used in two siblings, so
    // it stays here; descending into an If is only for buffers living inside one branch.
    if (descend && only.kind == StmtKind::If) {
      bool in_body = false, in_else = false;
      for (const auto& c : only.body) in_body = in_body || uses(*c, b);
      for (const auto& c : only.orelse) in_else = in_else || uses(*c, b);
      bool in_cond = only.value && reads_buffer(*only.value, b);
      descend = !in_cond && !(in_body && in_else);
    }
    // Scratch (an implementation's panels) is allocated once per task or call, never per
    // iteration of a loop that reuses it — unless the loop holds the Tasks that use it.
    if (descend && P.buf(b).kind == BufKind::Scratch && (only.kind == StmtKind::Loop || only.kind == StmtKind::While) &&
        !used_in_tasks(only.body, b))
      descend = false;
    if (descend && (only.kind == StmtKind::Loop || only.kind == StmtKind::While || only.kind == StmtKind::Tasks)) {
      bool in_bounds = false;
      for (const ExprP* e : {&only.lo, &only.hi, &only.value})
        if (*e && reads_buffer(**e, b)) in_bounds = true;
      descend = !in_bounds;
    }
    if (descend) continue;
    Buffer& buf = P.buf(b);
    buf.owner = in_task ? "task" : "call";
    buf.first_use = first;
    buf.last_use = last;
    here.push_back(b);
  }
  // Recurse first (indices of this list change below).
  for (auto& s : list) {
    std::vector<BufId> inner;
    for (BufId b : bufs)
      if (std::find(here.begin(), here.end(), b) == here.end() && uses(*s, b)) inner.push_back(b);
    if (inner.empty()) continue;
    bool task = in_task || s->kind == StmtKind::Tasks;
    place(P, s->body, inner, task);
    place(P, s->orelse, inner, task);
  }
  // Reuse: the buffers of this list by first use; a storage is free again once its current
  // holder's lifetime has ended.
  std::sort(here.begin(), here.end(), [&](BufId x, BufId y) { return P.buf(x).first_use < P.buf(y).first_use; });
  struct Storage {
    BufId root;
    int busy_until;
  };
  std::vector<Storage> pool;
  for (BufId b : here) {
    Buffer& buf = P.buf(b);
    Storage* hit = nullptr;
    for (auto& s : pool) {
      const Buffer& r = P.buf(s.root);
      const bool busy = s.busy_until >= buf.first_use + (mutant_active(MutantId::LifetimeReuseEarly) ? 1 : 0);
      if (busy || r.dtype != buf.dtype || r.shape.size() != buf.shape.size()) continue;
      bool same = true;
      for (size_t k = 0; k < r.shape.size() && same; ++k) same = same_expr(*r.shape[k], *buf.shape[k]);
      if (same) {
        hit = &s;
        break;
      }
    }
    if (!hit) {
      pool.push_back({b, buf.last_use});
      continue;
    }
    buf.reuses = hit->root;
    hit->busy_until = buf.last_use;
  }
  for (const auto& s : pool) P.buf(s.root).last_use = std::max(P.buf(s.root).last_use, s.busy_until);
  // Insert Alloc/Free, latest positions first so earlier indices stay valid.
  struct Ins {
    int pos;
    StmtP s;
  };
  std::vector<Ins> ins;
  for (BufId b : here) {
    auto a = make_stmt(StmtKind::Alloc);
    a->buf = b;
    auto f = make_stmt(StmtKind::Free);
    f->buf = b;
    ins.push_back({P.buf(b).first_use, std::move(a)});
    ins.push_back({P.buf(b).last_use + 1, std::move(f)});
  }
  // Latest position first; at one position the Alloc goes in first so that the Free, inserted
  // after it at the same index, ends up before it: storage is released before more is taken.
  std::stable_sort(ins.begin(), ins.end(), [](const Ins& x, const Ins& y) {
    if (x.pos != y.pos) return x.pos > y.pos;
    return x.s->kind == StmtKind::Alloc && y.s->kind == StmtKind::Free;
  });
  for (auto& i : ins) list.insert(list.begin() + i.pos, std::move(i.s));
}

void run_lifetime(Program& P) {
  std::vector<BufId> bufs;
  for (const auto& b : P.bufs)
    if (!b.dead && b.kind != BufKind::View) bufs.push_back(b.id);
  place(P, P.body.body, bufs, false);
}

}  // namespace

Pass lifetime_pass() {
  return {"lifetime", "loops formed, tasks partitioned", {"lifetimes"}, run_lifetime};
}

}  // namespace kir::cpu
