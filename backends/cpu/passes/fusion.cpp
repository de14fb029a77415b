// Fusion of pointwise producers into their consumers (checklist C5): a dense Compute whose
// buffer is written only there and read only through loads is inlined into the consumers'
// expressions — its value substituted at the consumer's coordinates — and its buffer is
// dropped, so no intermediate is materialized. It fuses when the value is cheap (small, no
// math: index arithmetic, constants, casts, loads) or read exactly once — once per element: a
// single load a Compute broadcasts (a per-row rsqrt read at every point of the row) would
// compute the value once per point, so it stays materialized — and only across siblings that do not
// write anything the value reads (views written in between, loop carries copied). Run before
// expansion (pointwise chains, view loads into stores) and after (operands into the loops of
// reduce, scan and contract).
// A fault is an effect (L-level run-time errors): every element of a value that can fault
// faults whether or not it is read, and the first fault is the one the language's order of ops
// and elements reaches first. A value that can fault (may_fault, after the bounds facts have
// removed the checks they prove) is inlined plainly only where that order is kept: its one
// consumer is the next faulting statement, a dense Compute over the same extents that reads it
// once per point at its own coordinates, unconditionally, and faults in nothing else. Anywhere
// else — read partly (a gather, a masked store, under an `if`, in a loop that may run zero
// times), read twice, or next to other faults — it is inlined and a probe takes its place: a
// loop nest over its extents that evaluates it for its faults alone and stores nothing. A value
// nobody reads and that can fault becomes a probe too.
// Invalidates: buffer uses, lifetimes.
#include <algorithm>
#include <functional>

#include "backends/cpu/passes/pass.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {
namespace {

bool has_math(const Expr& e) {
  if (e.kind == ExprKind::Math || e.kind == ExprKind::Random) return true;
  for (const auto& a : e.args)
    if (has_math(*a)) return true;
  return false;
}

int count_loads_of(const Expr& e, BufId b) {
  int n = (e.kind == ExprKind::Load && e.buf == b) ? 1 : 0;
  for (const auto& a : e.args) n += count_loads_of(*a, b);
  return n;
}

int stmt_loads_of(const Stmt& s, BufId b) {
  int n = 0;
  for_each_expr(s, [&](const Expr& e) { n += count_loads_of(e, b); });
  for (const auto& c : s.body) n += stmt_loads_of(*c, b);
  for (const auto& c : s.orelse) n += stmt_loads_of(*c, b);
  return n;
}

// Whether `e` loads `b` with indices that leave out some coordinate of Compute `c`.
bool broadcast_load(const Expr& e, BufId b, const Stmt& c) {
  if (e.kind == ExprKind::Load && e.buf == b)
    for (VarId v : c.coords)
      if (std::none_of(e.args.begin(), e.args.end(), [&](const ExprP& a) { return mentions_var(*a, v); })) return true;
  for (const auto& a : e.args)
    if (broadcast_load(*a, b, c)) return true;
  return false;
}

// Whether some Compute in `s` reads `b` at the same element for several of its points.
bool broadcast_read(const Stmt& s, BufId b) {
  bool found = false;
  if (s.kind == StmtKind::Compute) for_each_expr(s, [&](const Expr& e) { found = found || broadcast_load(e, b, s); });
  for (const auto& c : s.body) found = found || broadcast_read(*c, b);
  for (const auto& c : s.orelse) found = found || broadcast_read(*c, b);
  return found;
}

// Whether some load of `b` in `list` is checked (a gather at a computed coordinate): its
// bounds check would be lost if the producer's value were substituted for it.
bool checked_load_of(const std::vector<StmtP>& list, BufId b) {
  bool found = false;
  std::function<void(const Expr&)> scan = [&](const Expr& e) {
    found = found || (e.kind == ExprKind::Load && e.buf == b && e.op_id >= 0);
    for (const auto& a : e.args) scan(*a);
  };
  walk_stmts(list, [&](const Stmt& s) { for_each_expr(s, scan); });
  return found;
}

struct Inliner {
  const Stmt& producer;
  bool probed = false;  // the producer's probe stays: its copies cannot fault
  ExprP rewrite(const ExprP& e) const {
    if (!e) return e;
    // A load of a rank-0 producer has no index arguments but is still a use to substitute.
    if (e->args.empty() && !(e->kind == ExprKind::Load && e->buf == producer.buf)) return e;
    bool changed = false;
    std::vector<ExprP> args;
    for (const auto& a : e->args) {
      args.push_back(rewrite(a));
      changed |= args.back() != a;
    }
    if (e->kind == ExprKind::Load && e->buf == producer.buf) {
      std::vector<std::pair<VarId, ExprP>> subst;
      for (size_t k = 0; k < producer.coords.size(); ++k) subst.emplace_back(producer.coords[k], args[k]);
      ExprP v = substitute(producer.value, subst);
      if (!probed) return v;
      auto c = std::make_shared<Expr>(*v);
      c->probed = true;
      return c;
    }
    if (e->kind == ExprKind::Cast && changed && args[0]->kind == ExprKind::Cast && args[0]->args[0]->dtype == e->dtype &&
        is_any_float(e->dtype) && mutant_active(MutantId::FusionFoldsRoundtripCast))
      return args[0]->args[0];
    if (!changed) return e;
    auto c = std::make_shared<Expr>(*e);
    c->args = std::move(args);
    return c;
  }
  void apply(Stmt& s) const {
    for (ExprP* f : {&s.lo, &s.hi, &s.step, &s.value, &s.guard}) *f = rewrite(*f);
    for (auto& e : s.extents) e = rewrite(e);
    for (auto& e : s.index) e = rewrite(e);
    for (auto& e : s.detail) e = rewrite(e);
    if (s.structured) {
      for (auto& e : s.structured->init) e = rewrite(e);
      for (auto& e : s.structured->scalars) e = rewrite(e);
    }
    for (auto& c : s.body) apply(*c);
    for (auto& c : s.orelse) apply(*c);
  }
};

// A copy of another buffer element for element without a check (`b[coords] = load v[coords]`,
// a view load the bounds pass proved inside the view): substituted into a micro-kernel's
// argument it is still an element of a buffer with the same layout of coordinates.
bool plain_copy(const Stmt& s) {
  const Expr& v = *s.value;
  if (v.kind != ExprKind::Load || v.op_id != kNone || v.args.size() != s.coords.size()) return false;
  for (size_t k = 0; k < v.args.size(); ++k)
    if (v.args[k]->kind != ExprKind::Var || v.args[k]->var != s.coords[k]) return false;
  return true;
}

bool fusible(const Program& P, const Stmt& s, const std::vector<BufferUse>& uses) {
  if (s.kind != StmtKind::Compute || !s.index.empty() || s.guard) return false;
  const Buffer& b = P.buf(s.buf);
  const BufferUse& u = uses[static_cast<size_t>(s.buf)];
  // A micro-kernel reads a block from the element it is given, so only a plain copy may be
  // substituted into its arguments.
  return b.kind == BufKind::Local && u.writes == 1 && u.other == 0 && (u.kernel_args == 0 || plain_copy(s)) &&
         !checked_load_of(P.body.body, s.buf);
}

// Whether every load of `b` in `e` is at exactly `coords` and evaluated unconditionally (not in
// an arm of a guard select the backend made, which evaluates only the arm it chooses).
bool reads_at_unconditionally(const Expr& e, BufId b, const std::vector<VarId>& coords, bool in_arm = false) {
  if (e.kind == ExprKind::Load && e.buf == b) {
    if (in_arm || e.args.size() != coords.size()) return false;
    for (size_t k = 0; k < coords.size(); ++k)
      if (e.args[k]->kind != ExprKind::Var || e.args[k]->var != coords[k]) return false;
  }
  for (size_t k = 0; k < e.args.size(); ++k) {
    const bool arm = in_arm || (e.kind == ExprKind::Select && e.op_id == kNone && k > 0);
    if (!reads_at_unconditionally(*e.args[k], b, coords, arm)) return false;
  }
  return true;
}

bool same_extents(const Stmt& a, const Stmt& b) {
  if (a.extents.size() != b.extents.size()) return false;
  for (size_t k = 0; k < a.extents.size(); ++k)
    if (!same_expr(*a.extents[k], *b.extents[k])) return false;
  return true;
}

// Whether inlining the faulting producer list[i] into list[j] (which holds all its loads) keeps
// the language's order of faults (see the header).
bool keeps_fault_order(const std::vector<StmtP>& list, size_t i, size_t j, int total) {
  const Stmt& p = *list[i];
  if (total != 1) return false;
  const Stmt& c = *list[j];
  for (size_t k = i + 1; k < j; ++k)
    if (may_fault(*list[k])) return false;
  if (c.kind != StmtKind::Compute || c.guard || !c.index.empty() || may_fault(c) || !same_extents(p, c)) return false;
  return stmt_loads_of(c, p.buf) == 1 && reads_at_unconditionally(*c.value, p.buf, c.coords);
}

// The probe of Compute `s`: its value evaluated over its iteration space, in the order of its
// coordinates, for its faults only (a Let nobody reads).
StmtP probe_of(Program& P, const Stmt& s) {
  const VarId v = P.add_var(P.buf(s.buf).name + "_probe", s.value->dtype, VarRole::Let);
  auto let = make_stmt(StmtKind::Let, s.op_id);
  let->var = v;
  let->value = s.value;
  StmtP nest = std::move(let);
  for (size_t k = s.coords.size(); k-- > 0;) {
    auto l = make_loop(s.coords[k], make_index(0), s.extents[k], make_index(1), s.op_id);
    P.var(s.coords[k]).role = VarRole::Loop;
    l->body.push_back(std::move(nest));
    nest = std::move(l);
  }
  if (nest->kind != StmtKind::Let) return nest;
  auto block = make_stmt(StmtKind::Block, s.op_id);
  block->body.push_back(std::move(nest));
  return block;
}

bool fuse_list(Program& P, std::vector<StmtP>& list, const std::vector<BufferUse>& uses) {
  for (size_t i = 0; i < list.size(); ++i) {
    Stmt& s = *list[i];
    if (fusible(P, s, uses)) {
      int total = uses[static_cast<size_t>(s.buf)].loads;
      std::vector<BufId> reads;
      loaded_buffers(*s.value, reads);
      // Cheap: index arithmetic, constants, casts and plain loads — recomputing it at every use
      // costs less than a materialized buffer; math is never duplicated.
      bool cheap = !has_math(*s.value) && expr_size(*s.value) <= 16;
      int found = 0;
      size_t j = i + 1;
      for (; j < list.size() && found < total; ++j) {
        bool hazard = false;
        for (BufId r : reads) hazard = hazard || writes_buffer(*list[j], r);
        if (hazard && !mutant_active(MutantId::FusionIgnoresHazard)) break;
        found += stmt_loads_of(*list[j], s.buf);
      }
      bool once = total == 1;
      for (size_t k = i + 1; k < j && once; ++k) once = !broadcast_read(*list[k], s.buf);
      const bool faults = may_fault(*s.value) && !mutant_active(MutantId::FusionDropsFaults);
      if (total > 0 && found == total && (cheap || once)) {
        const bool probe = faults && !keeps_fault_order(list, i, j - 1, total);
        Inliner in{s, probe};
        for (size_t k = i + 1; k < j; ++k) in.apply(*list[k]);
        P.buf(s.buf).dead = true;
        if (probe) list[i] = probe_of(P, s);
        else list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      }
      // A value nobody reads is dropped; if computing it can fault, its probe stays.
      if (total == 0) {
        P.buf(s.buf).dead = true;
        if (faults) list[i] = probe_of(P, s);
        else list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      }
    }
    if (fuse_list(P, s.body, uses) || fuse_list(P, s.orelse, uses)) return true;
  }
  return false;
}

void run_fusion(Program& P) {
  // One producer per round; analyses recomputed after every rewrite. The bounds facts first, so
  // a load they prove inside the view is no fault to keep in order.
  for (int round = 0; round < 100000; ++round) {
    prove_bounds(P);
    if (!fuse_list(P, P.body.body, buffer_uses(P))) return;
  }
}

}  // namespace

Pass fusion_pass() {
  return {"fusion", "dense Computes in SSA form (one writer per Local buffer)", {"buffer uses", "lifetimes"}, run_fusion};
}

}  // namespace kir::cpu
