// Use and write analyses of buffers (pass.h), recomputed from the current program on demand.
#include <algorithm>

#include "backends/cpu/passes/pass.h"

namespace kir::cpu {

void loaded_buffers(const Expr& e, std::vector<BufId>& out) {
  if (e.kind == ExprKind::Load || e.kind == ExprKind::ViewDim)
    if (std::find(out.begin(), out.end(), e.buf) == out.end()) out.push_back(e.buf);
  for (const auto& a : e.args) loaded_buffers(*a, out);
}

namespace {
void count_loads(const Expr& e, std::vector<BufferUse>& u) {
  if (e.kind == ExprKind::Load || e.kind == ExprKind::ViewDim) ++u[static_cast<size_t>(e.buf)].loads;
  for (const auto& a : e.args) count_loads(*a, u);
}

bool writes_here(const Stmt& s, BufId b) {
  switch (s.kind) {
    case StmtKind::Compute:
    case StmtKind::Store:
    case StmtKind::Copy:
    case StmtKind::Kernel:
      return s.buf == b;
    case StmtKind::Atomic:  // a load too: it orders against other accesses like a write
      return s.buf == b;
    case StmtKind::Structured:
      return std::find(s.structured->results.begin(), s.structured->results.end(), b) != s.structured->results.end();
    default:
      return false;
  }
}
}  // namespace

std::vector<BufferUse> buffer_uses(const Program& p) {
  std::vector<BufferUse> u(p.bufs.size());
  walk_stmts(p.body.body, [&](const Stmt& s) {
    for_each_expr(s, [&](const Expr& e) { count_loads(e, u); });
    for (size_t b = 0; b < u.size(); ++b)
      if (writes_here(s, static_cast<BufId>(b))) ++u[b].writes;
    if (s.kind == StmtKind::Copy) ++u[static_cast<size_t>(s.src)].other;
    if (s.kind == StmtKind::Kernel)
      for (const auto& d : s.detail)
        if (d->kind == ExprKind::Load) ++u[static_cast<size_t>(d->buf)].kernel_args;
    if (s.kind == StmtKind::Structured)
      for (BufId b : s.structured->operands) ++u[static_cast<size_t>(b)].other;
  });
  return u;
}

bool writes_buffer(const Stmt& s, BufId b) {
  if (writes_here(s, b)) return true;
  for (const auto& c : s.body)
    if (writes_buffer(*c, b)) return true;
  for (const auto& c : s.orelse)
    if (writes_buffer(*c, b)) return true;
  return false;
}

bool stmt_reads_buffer(const Stmt& s, BufId b) {
  bool r = false;
  for_each_expr(s, [&](const Expr& e) { r = r || reads_buffer(e, b); });
  if (s.kind == StmtKind::Copy && s.src == b) r = true;
  if (s.kind == StmtKind::Atomic && s.buf == b) r = true;
  if (s.kind == StmtKind::Structured)
    for (BufId o : s.structured->operands) r = r || o == b;
  for (const auto& c : s.body) r = r || stmt_reads_buffer(*c, b);
  for (const auto& c : s.orelse) r = r || stmt_reads_buffer(*c, b);
  return r;
}

}  // namespace kir::cpu
