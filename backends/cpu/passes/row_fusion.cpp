// Row fusion (checklist C5: cross-op fusion and reuse): consecutive top-level loop nests over
// the same rows — a row reduction, then a pointwise pass reading its per-row result, then
// another reduction ... (softmax: max, exp, sum, divide; layer-norm: mean, variance, normalize)
// — become one loop over the rows whose body runs each nest's row in turn, so a row goes
// through every pass while it is in L1/L2 instead of each pass sweeping the whole tensor from
// memory. Legal when every buffer that both nests touch and one of them writes is accessed by
// both only in the row of the current iteration (first index = the row variable): then row r
// of the second nest reads exactly what row r of the first wrote, as in the original order.
// Nests that can fault, contain break/continue or touch a shared buffer any other way are left
// alone. Runs after loop formation, before the task partition (the fused loop keeps the
// unique-write fact and is partitioned into tasks over its rows). The intermediates only the
// fused loop uses shrink to one row of scratch per task. Invalidates: loops, lifetimes.
#include <algorithm>
#include <map>

#include "backends/cpu/passes/pass.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

// The row loop of a top-level statement: a Loop from 0 step 1, or a Block holding only one.
Stmt* row_loop(Stmt& s) {
  Stmt* l = &s;
  if (s.kind == StmtKind::Block && s.body.size() == 1) l = s.body[0].get();
  if (l->kind != StmtKind::Loop || l->block != 0 || !l->unique_writes) return nullptr;
  if (const_index(l->lo) != int64_t{0} || const_index(l->step) != int64_t{1}) return nullptr;
  return l;
}

// How a nest touches one buffer: read, written, and whether every access is in the row of the
// current iteration.
struct Access {
  bool read = false, write = false, row_only = true;
};

struct Nest {
  std::map<BufId, Access> bufs;
  bool fusible = true;  // no faults, no break/continue, no atomics
};

bool is_row(const ExprP& e, VarId row) { return e && e->kind == ExprKind::Var && e->var == row; }

void scan_expr(const Expr& e, VarId row, Nest& n) {
  if (may_fault(e) && !mutant_active(MutantId::RowFusionFusesFaults)) n.fusible = false;
  if (e.kind == ExprKind::Load) {
    Access& a = n.bufs[e.buf];
    a.read = true;
    a.row_only = a.row_only && !e.args.empty() && is_row(e.args[0], row);
  }
  for (const auto& a : e.args) scan_expr(*a, row, n);
}

// A checked store that cannot fail: a per-row result vector written at the row (its one axis
// is the loop's range).
bool safe_row_store(const Program& P, const Stmt& s, const Stmt& loop) {
  const Buffer& b = P.buf(s.buf);
  return b.kind != BufKind::View && b.shape.size() == 1 && s.index.size() == 1 && is_row(s.index[0], loop.var) &&
         same_expr(*b.shape[0], *loop.hi);
}

Nest scan(const Program& P, const Stmt& loop) {
  Nest n;
  const VarId row = loop.var;
  walk_stmts(loop.body, [&](const Stmt& s) {
    for_each_expr(s, [&](const Expr& e) { scan_expr(e, row, n); });
    switch (s.kind) {
      case StmtKind::Store: {
        Access& a = n.bufs[s.buf];
        a.write = true;
        a.row_only = a.row_only && !s.index.empty() && is_row(s.index[0], row);
        if (s.op_id != kNone && !safe_row_store(P, s, loop)) n.fusible = false;  // a checked store may fail
        break;
      }
      case StmtKind::Copy:
        n.bufs[s.buf].write = true;
        n.bufs[s.buf].row_only = false;
        n.bufs[s.src].read = true;
        n.bufs[s.src].row_only = false;
        break;
      case StmtKind::Kernel:
        n.bufs[s.buf].write = true;
        n.bufs[s.buf].row_only = false;
        break;
      case StmtKind::Check:
      case StmtKind::Atomic:
      case StmtKind::Break:
      case StmtKind::Continue:
      case StmtKind::Tasks:
      case StmtKind::Structured:
      case StmtKind::Compute:
        n.fusible = false;
        break;
      default:
        break;
    }
  });
  return n;
}

bool may_fuse(const Nest& a, const Nest& b) {
  if (!a.fusible || !b.fusible) return false;
  for (const auto& [buf, x] : a.bufs) {
    auto it = b.bufs.find(buf);
    if (it == b.bufs.end()) continue;
    const Access& y = it->second;
    if ((x.write || y.write) && !(x.row_only && y.row_only) &&
        !(mutant_active(MutantId::RowFusionEitherRowOnly) && (x.row_only || y.row_only)))
      return false;
  }
  return true;
}

// Every access of `b` in `body` moved to row 0.
void row0(std::vector<StmtP>& body, BufId b) {
  auto load_row0 = [](const ExprP& l) {
    auto c = std::make_shared<Expr>(*l);
    c->args[0] = make_index(0);
    return ExprP(c);
  };
  for (auto& s : body) rewrite_exprs(*s, [&](const ExprP& e) { return map_loads(e, b, load_row0); });
  walk_stmts(body, [b](Stmt& c) {
    if (c.kind == StmtKind::Store && c.buf == b) c.index[0] = make_index(0);
  });
}

// The intermediates of a fused loop — local buffers only it uses, each accessed only in the
// current row — shrink to one row of scratch, allocated once per task: a row is written and
// read back in cache and never goes out to memory.
void shrink_rows(Program& P, std::vector<StmtP>& list, size_t at, Stmt& loop) {
  for (const auto& [b, a] : scan(P, loop).bufs) {
    Buffer& B = P.buf(b);
    if (!a.row_only || B.kind != BufKind::Local || B.shape.empty()) continue;
    bool elsewhere = false;
    for (size_t k = 0; k < list.size() && !elsewhere; ++k)
      elsewhere = k != at && (stmt_reads_buffer(*list[k], b) || writes_buffer(*list[k], b));
    if (elsewhere) continue;
    B.shape[0] = make_index(1);
    B.kind = BufKind::Scratch;
    row0(loop.body, b);
  }
}

void run_row_fusion(Program& P) {
  auto& list = P.body.body;
  for (size_t i = 0; i + 1 < list.size(); ++i) {
    Stmt* first = row_loop(*list[i]);
    if (!first) continue;
    const size_t before = list.size();
    // Fuse the following nests into this one while they qualify.
    while (i + 1 < list.size()) {
      // A Cover between two row loops (an implementation's coverage cell) reads no buffer and
      // depends on nothing the loop defines: it moves ahead of the loop, which may then fuse.
      if (list[i + 1]->kind == StmtKind::Cover) {
        std::swap(list[i], list[i + 1]);
        ++i;
        continue;
      }
      Stmt* next = row_loop(*list[i + 1]);
      if (!next || !same_expr(*first->hi, *next->hi) || !may_fuse(scan(P, *first), scan(P, *next))) break;
      const std::vector<std::pair<VarId, ExprP>> row = {{next->var, make_var(first->var, DType::Index)}};
      for (auto& s : next->body) {
        rewrite_exprs(*s, [&](const ExprP& e) { return substitute(e, row); });
        first->body.push_back(std::move(s));
      }
      for (BufId b : next->outputs)
        if (std::find(first->outputs.begin(), first->outputs.end(), b) == first->outputs.end()) first->outputs.push_back(b);
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
    if (list.size() < before) shrink_rows(P, list, i, *first);
  }
}

}  // namespace

Pass row_fusion_pass() {
  return {"row-fusion", "loops formed, before the task partition", {"loops", "lifetimes"}, run_row_fusion};
}

}  // namespace kir::cpu
