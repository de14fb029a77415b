// Epilogue fusion (checklist C5; an implementation's output form): the pointwise Compute that
// follows a contract and reads its result only at its own coordinates (bias, activation, scale,
// cast ...) is handed to the contract's implementation, which applies it to each block of the
// result as soon as the block is final — an MC x NC block after its last KC block, still in L2 —
// instead of in a second sweep over the whole result from memory. Every element still gets
// exactly the value the Compute gives it; only when it is computed changes, so the Compute must
// not be able to fault (the order of faults would change), and nothing between the contract and
// the Compute may touch what the Compute reads or writes. Output views are taken to be disjoint
// from the other views, as result forwarding does. Runs after selection (the binding says
// whether the implementation takes an epilogue) and before expansion. Where the Compute writes a
// buffer of the result's dtype at its own coordinates, the result is accumulated in that buffer
// and read back by the epilogue (no intermediate at all). Invalidates: buffer uses, lifetimes.
#include <set>

#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/passes/pass.h"

namespace kir::cpu {
namespace {

bool is_var(const ExprP& e, VarId v) { return e && e->kind == ExprKind::Var && e->var == v; }

// Whether every load of `b` in `e` is at exactly the coordinates `coords`.
bool loads_at(const Expr& e, BufId b, const std::vector<VarId>& coords) {
  if (e.kind == ExprKind::Load && e.buf == b) {
    if (e.args.size() != coords.size()) return false;
    for (size_t k = 0; k < coords.size(); ++k)
      if (!is_var(e.args[k], coords[k])) return false;
  } else if (e.kind == ExprKind::ViewDim && e.buf == b) {
    return false;
  }
  for (const auto& a : e.args)
    if (!loads_at(*a, b, coords)) return false;
  return true;
}

// Whether Compute `e` is an epilogue of the contract result `c`: dense over c's shape (its own
// coordinates, or an identity index), reading c only at those coordinates, not reading what it
// writes, unable to fault, and more than a copy.
bool epilogue_of(const Program& P, const Stmt& e, BufId c) {
  if (e.kind != StmtKind::Compute || e.guard || !e.value || e.buf == c) return false;
  const Buffer& C = P.buf(c);
  if (e.coords.size() != 2 || e.extents.size() != 2 || C.shape.size() != 2) return false;
  for (size_t k = 0; k < 2; ++k)
    if (!same_expr(*e.extents[k], *C.shape[k])) return false;
  if (!e.index.empty())
    for (size_t k = 0; k < 2; ++k)
      if (!is_var(e.index[k], e.coords[k])) return false;
  // A plain copy is result forwarding's: the implementation then writes the copy's buffer directly.
  if (e.value->kind == ExprKind::Load && e.value->buf == c) return false;
  return loads_at(*e.value, c, e.coords) && !reads_buffer(*e.value, e.buf) &&
         (!may_fault(*e.value) || mutant_active(MutantId::EpilogueFusesFaults));
}

// The index of the Compute to fuse into the contract at list[i], or 0.
size_t find_epilogue(const Program& P, const std::vector<StmtP>& list, size_t i, const std::vector<BufferUse>& uses) {
  const Stmt& s = *list[i];
  const StructuredOp& st = *s.structured;
  if (st.results.size() != 1 || st.epilogue) return 0;
  const BufId c = st.results[0];
  const BufferUse& u = uses[static_cast<size_t>(c)];
  if (P.buf(c).kind != BufKind::Local || u.writes != 1 || u.other != 0 || u.kernel_args != 0) return 0;
  size_t j = i + 1;
  while (j < list.size() && !stmt_reads_buffer(*list[j], c) && !writes_buffer(*list[j], c)) ++j;
  if (j == list.size() || !epilogue_of(P, *list[j], c)) return 0;
  const Stmt& e = *list[j];
  if (stmt_reads_buffer(s, e.buf)) return 0;
  std::vector<BufId> reads;
  loaded_buffers(*e.value, reads);
  for (size_t k = i + 1; k < j; ++k) {
    if (stmt_reads_buffer(*list[k], e.buf) || writes_buffer(*list[k], e.buf)) return 0;
    for (BufId r : reads)
      if (writes_buffer(*list[k], r)) return 0;
  }
  for (size_t k = j + 1; k < list.size() && !mutant_active(MutantId::EpilogueIgnoresLaterReads); ++k)
    if (stmt_reads_buffer(*list[k], c) || writes_buffer(*list[k], c)) return 0;
  return j;
}

// In place: when the epilogue writes a buffer of the result's dtype over exactly the result's
// shape (its own coordinates), the implementation accumulates into that buffer and the
// epilogue reads each element back from it just before overwriting it; the result buffer goes.
void in_place(Program& P, StructuredOp& st, Stmt& e) {
  const BufId c = st.results[0];
  const Buffer& V = P.buf(e.buf);
  if (!e.index.empty() || V.dtype != P.buf(c).dtype || (V.kind == BufKind::View && V.access == Access::In)) return;
  const BufId to = e.buf;
  e.value = map_loads(e.value, c, [to](const ExprP& l) {
    auto n = std::make_shared<Expr>(*l);
    n->buf = to;
    return ExprP(n);
  });
  st.results[0] = e.buf;
  P.buf(c).dead = true;
}

void run_epilogue(Program& P) {
  auto& list = P.body.body;
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    if (s.kind != StmtKind::Structured || !s.structured) continue;
    const Implementation* impl = find_implementation(s.structured->implementation);
    if (!impl || !impl->takes_epilogue) continue;
    const size_t j = find_epilogue(P, list, i, buffer_uses(P));
    if (j == 0) continue;
    in_place(P, *s.structured, *list[j]);
    s.structured->epilogue = std::shared_ptr<const Stmt>(std::move(list[j]));
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(j));
  }
}

}  // namespace

StmtP epilogue_block(Program& P, const Stmt& epi, ExprP r0, ExprP c0, ExprP rows, ExprP cols) {
  const VarId a = P.add_var("er", DType::Index, VarRole::Loop), b = P.add_var("ec", DType::Index, VarRole::Loop);
  ExprP i = index_add(std::move(r0), make_var(a, DType::Index)), j = index_add(std::move(c0), make_var(b, DType::Index));
  auto la = make_loop(a, make_index(0), std::move(rows), make_index(1), epi.op_id);
  auto lb = make_loop(b, make_index(0), std::move(cols), make_index(1), epi.op_id);
  // As loop formation stores a Compute: unchecked at its own coordinates, checked through an index.
  auto st = make_stmt(StmtKind::Store, epi.index.empty() ? kNone : epi.op_id);
  st->buf = epi.buf;
  st->index = {i, j};
  st->value = substitute(epi.value, {{epi.coords[0], i}, {epi.coords[1], j}});
  lb->body.push_back(std::move(st));
  la->body.push_back(std::move(lb));
  return la;
}

namespace {
void epilogue_ops(const Expr& e, std::set<std::string>& ops) {
  switch (e.kind) {
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Compare:
    case ExprKind::Math: ops.insert(e.op); break;
    case ExprKind::Select: ops.insert("select"); break;
    case ExprKind::Cast: ops.insert("cast." + std::string(name(e.from)) + "." + std::string(name(e.dtype))); break;
    case ExprKind::Bitcast: ops.insert("bitcast"); break;
    default: break;
  }
  for (const auto& a : e.args) epilogue_ops(*a, ops);
}
}  // namespace

std::string epilogue_kind(const Stmt& epi) {
  std::set<std::string> ops;
  if (epi.value) epilogue_ops(*epi.value, ops);
  std::string k;
  for (const auto& o : ops) k += (k.empty() ? "" : "+") + o;
  return k.empty() ? "copy" : k;
}

StmtP cover_epilogue(Program& P, const StructuredOp& st, const Stmt& epi, const std::string& path) {
  return make_cover(P, {st.implementation + "/epilogue:" + epilogue_kind(epi) + "@" + path});
}

Pass epilogue_pass() {
  return {"epilogue", "selection done, before expansion", {"buffer uses", "lifetimes"}, run_epilogue};
}

}  // namespace kir::cpu
