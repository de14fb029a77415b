// The fold implementations of reduce and scan: the canonical left fold of the author combine
// in logical order (reduce: row-major over the reduced axes; scan: along its axis, forward or
// reverse, inclusive or exclusive), one accumulator per result element held in registers.
// Numeric contract: exactly the canonical evaluation (bitwise equal to the interpreter's).
// reduce.lanes: a reduce of one component in L lanes (the declared lanes order of
// docs/numerics.md, which the interpreter evaluates too): the point at coordinate c of the last
// reduced axis goes to lane c mod L, the lanes live in a small scratch array the C++ compiler
// keeps in vector registers, and are folded left to right at the end.
#include <algorithm>

#include "backends/cpu/impl/contract_packed.h"
#include "backends/cpu/impl/registry.h"
#include "backends/cpu/mutants/mutants.h"

namespace kir::cpu {

StmtP loop_nest(Program& P, std::vector<VarId>& vars, const std::vector<ExprP>& extents,
                const std::function<void(std::vector<StmtP>&)>& body, bool result_nest) {
  if (vars.empty())
    for (size_t k = 0; k < extents.size(); ++k) vars.push_back(P.add_var("i" + std::to_string(k), DType::Index, VarRole::Loop));
  auto root = make_stmt(StmtKind::Block);
  std::vector<StmtP>* cur = &root->body;
  for (size_t k = 0; k < extents.size(); ++k) {
    auto l = make_loop(vars[k], make_index(0), extents[k], make_index(1));
    Stmt* raw = l.get();
    cur->push_back(std::move(l));
    cur = &raw->body;
  }
  body(*cur);
  if (result_nest && !extents.empty()) root->body[0]->unique_writes = true;
  return root;
}

ExprP sum_start(DType acc) {
  if (!is_any_float(acc) || mutant_active(MutantId::SumStartsAtPositiveZero)) return make_const(acc, 0);
  return make_const(acc, uint64_t{1} << (info(acc).bits - 1));  // -0: only the sign bit
}

ExprP sum_result(ExprP acc, ExprP term_count) {
  if (!is_any_float(acc->dtype)) return acc;
  if (auto n = const_index(term_count); n && *n > 0) return acc;
  DType d = acc->dtype;
  return make_select(make_compare("eq", std::move(term_count), make_index(0)), make_const(d, 0), std::move(acc));
}

VarId let_var(Program& P, std::vector<StmtP>& into, const std::string& name, ExprP value) {
  VarId v = P.add_var(name, value->dtype, VarRole::Let);
  auto s = make_stmt(StmtKind::Let);
  s->var = v;
  s->value = std::move(value);
  into.push_back(std::move(s));
  return v;
}

namespace {

std::vector<int64_t> int_list(const StructuredOp& st, const char* key) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() ? std::vector<int64_t>{} : it->second.ints();
}

bool flag(const StructuredOp& st, const char* key, bool dflt) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() ? dflt : it->second.b;
}

// acc := combine(acc, x) (or combine(x, acc)), all components read before any is written.
void combine_into(Program& P, std::vector<StmtP>& into, const StructuredOp& st, const std::vector<VarId>& acc,
                  const std::vector<ExprP>& x, bool x_first, int32_t op_id) {
  std::vector<std::pair<VarId, ExprP>> subst;
  for (size_t k = 0; k < acc.size(); ++k) {
    ExprP a = make_var(acc[k], P.var(acc[k]).dtype);
    subst.emplace_back(st.combine_lhs[k], x_first ? x[k] : a);
    subst.emplace_back(st.combine_rhs[k], x_first ? a : x[k]);
  }
  std::vector<VarId> fresh;
  for (size_t k = 0; k < acc.size(); ++k) fresh.push_back(let_var(P, into, "next", substitute(st.combine[k], subst)));
  for (size_t k = 0; k < acc.size(); ++k) {
    auto a = make_stmt(StmtKind::Assign, op_id);
    a->var = acc[k];
    a->value = make_var(fresh[k], P.var(fresh[k]).dtype);
    into.push_back(std::move(a));
  }
}

// The identity component k starts from (the seeded mutant reduce_max_identity_zero starts a
// float max reduce at 0 instead).
ExprP identity_of(const StructuredOp& st, size_t k) {
  const Expr& comb = *st.combine[k];
  if (st.kind == "reduce" && comb.kind == ExprKind::Binary && comb.op == "max" && is_any_float(comb.dtype) &&
      mutant_active(MutantId::ReduceMaxIdentityZero))
    return make_const(comb.dtype, 0);
  return st.init[k];
}

std::vector<VarId> init_accumulators(Program& P, std::vector<StmtP>& into, const StructuredOp& st, int32_t op_id) {
  std::vector<VarId> acc;
  for (size_t k = 0; k < st.results.size(); ++k) {
    VarId v = P.add_var("acc", P.buf(st.results[k]).dtype, VarRole::Carry);
    auto a = make_stmt(StmtKind::Assign, op_id);
    a->var = v;
    a->value = identity_of(st, k);
    into.push_back(std::move(a));
    acc.push_back(v);
  }
  return acc;
}

// Leaves of a tuple/record accumulator may differ in rank (a scalar leaf beside a tensor
// one, broadcast by the combine): the loops run over the highest-rank result, a leaf of rank r
// takes the trailing r coordinates, and a lower-rank leaf is stored once (where the leading
// coordinates are 0) so that every element has exactly one writer.
size_t widest(const Program& P, const std::vector<BufId>& bufs) {
  size_t w = 0;
  for (size_t k = 1; k < bufs.size(); ++k)
    if (P.buf(bufs[k]).shape.size() > P.buf(bufs[w]).shape.size()) w = k;
  return w;
}

std::vector<ExprP> trailing(const std::vector<VarId>& vars, size_t r) {
  std::vector<ExprP> out;
  for (size_t i = vars.size() - r; i < vars.size(); ++i) out.push_back(make_var(vars[i], DType::Index));
  return out;
}

void store_leaf(std::vector<StmtP>& into, const Program& P, BufId b, std::vector<ExprP> idx,
                const std::vector<VarId>& outer, size_t leaf_outer_rank, ExprP value, int32_t op_id) {
  auto w = make_stmt(StmtKind::Store, op_id);
  w->buf = b;
  w->index = std::move(idx);
  w->value = std::move(value);
  (void)P;
  if (leaf_outer_rank == outer.size()) {
    into.push_back(std::move(w));
    return;
  }
  ExprP first = make_const(DType::Bool, 1);
  for (size_t i = 0; i < outer.size() - leaf_outer_rank; ++i)
    first = make_binary("and", first, make_compare("eq", make_var(outer[i], DType::Index), make_index(0)));
  auto g = make_stmt(StmtKind::If, op_id);
  g->value = first;
  g->body.push_back(std::move(w));
  into.push_back(std::move(g));
}

// The element of source component k at reduced coordinates `q` (one per axis of `axes`): the
// result coordinates fill the kept axes in order, q the reduced ones.
ExprP source_at(const Program& P, const StructuredOp& st, size_t k, const std::vector<int64_t>& axes,
                const std::vector<VarId>& rvars, const std::vector<ExprP>& q) {
  const auto& src_shape = P.buf(st.operands[k]).shape;
  std::vector<bool> reduced(src_shape.size(), false);
  for (auto a : axes) reduced.at(static_cast<size_t>(a)) = true;
  auto kept = trailing(rvars, src_shape.size() - axes.size());
  std::vector<ExprP> idx(src_shape.size());
  size_t ri = 0;
  for (size_t a = 0; a < src_shape.size(); ++a)
    if (!reduced[a]) idx[a] = kept[ri++];
  for (size_t j = 0; j < axes.size(); ++j) idx[static_cast<size_t>(axes[j])] = q[j];
  return make_load(st.operands[k], P.buf(st.operands[k]).dtype, idx);
}

std::vector<StmtP> expand_reduce(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  auto axes = int_list(st, "axes");
  std::vector<VarId> rvars = st.coords;
  size_t wide = widest(P, st.results);
  std::vector<ExprP> red_ext;
  for (auto a : axes) red_ext.push_back(P.buf(st.operands[wide]).shape.at(static_cast<size_t>(a)));
  std::vector<StmtP> out;
  out.push_back(loop_nest(P, rvars, P.buf(st.results[wide]).shape, [&](std::vector<StmtP>& body) {
    auto acc = init_accumulators(P, body, st, s.op_id);
    std::vector<VarId> qvars;
    body.push_back(loop_nest(P, qvars, red_ext, [&](std::vector<StmtP>& inner) {
      std::vector<ExprP> q, x;
      for (VarId v : qvars) q.push_back(make_var(v, DType::Index));
      for (size_t k = 0; k < st.operands.size(); ++k) x.push_back(source_at(P, st, k, axes, rvars, q));
      combine_into(P, inner, st, acc, x, false, s.op_id);
    }));
    for (size_t k = 0; k < st.results.size(); ++k) {
      size_t r = P.buf(st.results[k]).shape.size();
      store_leaf(body, P, st.results[k], trailing(rvars, r), rvars, r, make_var(acc[k], P.var(acc[k]).dtype), s.op_id);
    }
  }, true));
  return out;
}

std::vector<StmtP> expand_scan(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  auto ax_it = st.attrs.find("axis");
  size_t axis = ax_it == st.attrs.end() ? 0 : static_cast<size_t>(ax_it->second.i);
  bool inclusive = flag(st, "inclusive", true), reverse = flag(st, "reverse", false);
  if (mutant_active(MutantId::ScanInclusiveFlipped)) inclusive = !inclusive;
  size_t wide = widest(P, st.results);
  const auto& wide_shape = P.buf(st.operands[wide]).shape;
  std::vector<ExprP> outer_ext;
  for (size_t a = 0; a < wide_shape.size(); ++a)
    if (a != axis) outer_ext.push_back(wide_shape[a]);
  ExprP n = wide_shape.at(axis);
  std::vector<VarId> ovars = st.coords;
  std::vector<StmtP> out;
  out.push_back(loop_nest(P, ovars, outer_ext, [&](std::vector<StmtP>& body) {
    auto acc = init_accumulators(P, body, st, s.op_id);
    std::vector<VarId> pvars;
    body.push_back(loop_nest(P, pvars, {n}, [&](std::vector<StmtP>& inner) {
      ExprP p = make_var(pvars[0], DType::Index);
      if (reverse) p = index_sub(index_sub(n, make_index(1)), p);
      std::vector<std::vector<ExprP>> idx(st.operands.size());
      for (size_t k = 0; k < st.operands.size(); ++k) {
        size_t r = P.buf(st.operands[k]).shape.size();
        auto o = trailing(ovars, r - 1);
        size_t oi = 0;
        for (size_t a = 0; a < r; ++a) idx[k].push_back(a == axis ? p : o[oi++]);
      }
      auto store = [&] {
        for (size_t k = 0; k < st.results.size(); ++k)
          store_leaf(inner, P, st.results[k], idx[k], ovars, P.buf(st.results[k]).shape.size() - 1,
                     make_var(acc[k], P.var(acc[k]).dtype), s.op_id);
      };
      std::vector<ExprP> x;
      for (size_t k = 0; k < st.operands.size(); ++k) x.push_back(make_load(st.operands[k], P.buf(st.operands[k]).dtype, idx[k]));
      if (!inclusive) store();
      combine_into(P, inner, st, acc, x, reverse, s.op_id);
      if (inclusive) store();
    }));
  }, true));
  return out;
}

// Both folds: one combine component per result.
std::string components_applicable(const Program&, const StructuredOp& st) {
  if (st.combine.size() != st.results.size()) return "combine components do not match the results";
  return "";
}

std::string fold_applicable(const Program& P, const StructuredOp& st) {
  if (auto why = components_applicable(P, st); !why.empty()) return why;
  if (lane_foldable(P, st)) return "a reduce of one component (its implementation is reduce.lanes)";
  return "";
}

StmtP counted_loop(Program& P, const std::string& name, ExprP lo, ExprP hi, int64_t step, VarId* var) {
  *var = P.add_var(name, DType::Index, VarRole::Loop);
  return make_loop(*var, std::move(lo), std::move(hi), make_index(step));
}

// lanes[j] = combine(lanes[j], x) (the lane's accumulator first, as in the canonical fold). The
// lane index is below L by construction: the store is unchecked (no op), so it vectorizes.
StmtP lane_update(Program& P, const StructuredOp& st, BufId lanes, ExprP j, ExprP x) {
  const DType d = P.buf(lanes).dtype;
  auto w = make_stmt(StmtKind::Store);
  w->buf = lanes;
  w->index = {j};
  w->value = substitute(st.combine[0], {{st.combine_lhs[0], make_load(lanes, d, {j})}, {st.combine_rhs[0], std::move(x)}});
  return w;
}

// acc := v for the first block, acc := combine(acc, v) after it.
void fold_partial(Program& P, std::vector<StmtP>& into, const StructuredOp& st, VarId acc, ExprP first, ExprP v, int32_t op_id) {
  auto i = make_stmt(StmtKind::If, op_id);
  i->value = std::move(first);
  auto a = make_stmt(StmtKind::Assign, op_id);
  a->var = acc;
  a->value = v;
  i->body.push_back(std::move(a));
  combine_into(P, i->orelse, st, {acc}, {v}, false, op_id);
  into.push_back(std::move(i));
}

std::vector<StmtP> expand_reduce_lanes(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  const int64_t L = param(st, "lanes"), C = param(st, "block");
  auto axes = int_list(st, "axes");
  std::sort(axes.begin(), axes.end());
  const BufId src = st.operands[0], res = st.results[0];
  const DType d = P.buf(res).dtype;
  std::vector<ExprP> lead_ext;
  for (size_t j = 0; j + 1 < axes.size(); ++j) lead_ext.push_back(P.buf(src).shape.at(static_cast<size_t>(axes[j])));
  const ExprP n_last = P.buf(src).shape.at(static_cast<size_t>(axes.back()));
  ExprP total = n_last;
  for (const auto& e : lead_ext) total = index_mul(total, e);
  const ExprP none = make_compare("eq", total, make_index(0));
  Buffer lb;
  lb.name = P.buf(res).name + "_lanes";
  lb.kind = BufKind::Scratch;
  lb.dtype = d;
  lb.shape = {make_index(L)};
  const BufId lanes = P.add_buffer(std::move(lb));
  std::vector<VarId> rvars = st.coords;

  // One block [lo, hi) of the last axis: its lanes from the identity over every leading point,
  // then the lanes that received a point folded left to right into `part` (lane 0 alone when
  // none did).
  auto block = [&](std::vector<StmtP>& into, ExprP lo, ExprP hi) {
    VarId j;
    auto init = counted_loop(P, "lane", make_index(0), make_index(L), 1, &j);
    auto w = make_stmt(StmtKind::Store);
    w->buf = lanes;
    w->index = {make_var(j, DType::Index)};
    w->value = identity_of(st, 0);
    init->body.push_back(std::move(w));
    into.push_back(std::move(init));
    VarId len = let_var(P, into, "len", index_sub(hi, lo));
    std::vector<VarId> lvars;
    into.push_back(loop_nest(P, lvars, lead_ext, [&](std::vector<StmtP>& inner) {
      std::vector<ExprP> q;
      for (VarId v : lvars) q.push_back(make_var(v, DType::Index));
      // Whole groups of L points, then the tail: point c updates lane (c - lo) mod L, which is
      // c mod L since the block length is a multiple of L.
      VarId main = let_var(P, inner, "main", index_add(lo, index_sub(make_var(len, DType::Index), make_binary("rem", make_var(len, DType::Index), make_index(L)))));
      VarId q0, jj, tj;
      auto groups = counted_loop(P, "q0", lo, make_var(main, DType::Index), L, &q0);
      auto lane = counted_loop(P, "lane", make_index(0), make_index(L), 1, &jj);
      // q0 + lane < main <= hi and main + lane < hi: neither sum can overflow.
      q.push_back(index_add_nw(make_var(q0, DType::Index), make_var(jj, DType::Index)));
      lane->body.push_back(lane_update(P, st, lanes, make_var(jj, DType::Index), source_at(P, st, 0, axes, rvars, q)));
      groups->body.push_back(std::move(lane));
      inner.push_back(std::move(groups));
      auto tail = counted_loop(P, "lane", make_index(0), index_sub(hi, make_var(main, DType::Index)), 1, &tj);
      q.back() = index_add_nw(make_var(main, DType::Index), make_var(tj, DType::Index));
      ExprP tail_lane = make_var(tj, DType::Index);
      if (mutant_active(MutantId::ReduceLanesTailLaneShift)) tail_lane = index_add(tail_lane, make_index(1));
      tail->body.push_back(lane_update(P, st, lanes, tail_lane, source_at(P, st, 0, axes, rvars, q)));
      inner.push_back(std::move(tail));
    }));
    VarId used = let_var(P, into, "used", make_select(none, make_index(1), index_min(make_index(L), make_var(len, DType::Index))));
    VarId part = P.add_var("part", d, VarRole::Carry);
    auto a = make_stmt(StmtKind::Assign, s.op_id);
    a->var = part;
    a->value = make_load(lanes, d, {make_index(0)});
    into.push_back(std::move(a));
    VarId fj;
    auto fold = counted_loop(P, "lane", make_index(mutant_active(MutantId::ReduceLanesLaneZeroTwice) ? 0 : 1), make_var(used, DType::Index), 1, &fj);
    combine_into(P, fold->body, st, {part}, {make_load(lanes, d, {make_var(fj, DType::Index)})}, false, s.op_id);
    into.push_back(std::move(fold));
    return part;
  };
  auto block_bounds = [&](ExprP b) -> std::pair<ExprP, ExprP> {
    if (C == 0) return {make_index(0), n_last};
    ExprP lo = index_mul(b, make_index(C));
    return {lo, index_min(n_last, index_add(lo, make_index(C)))};
  };
  // Blocks: ceil(n / C), at least one (the identity when there are no points).
  const ExprP nblk = C == 0 ? make_index(1)
                            : make_select(none, make_index(1), make_binary("floordiv", index_add(n_last, make_index(mutant_active(MutantId::ReduceLanesBlocksRoundDown) ? 0 : C - 1)), make_index(C)));
  std::vector<StmtP> out;
  // Coverage (driver/coverage.h): the blocks of the last axis, and the lanes of the last block
  // (blocks are whole multiples of L, so its tail is n_last's).
  if (C > 0) out.push_back(cover_tail(P, st.implementation + "/block", n_last, C));
  out.push_back(cover_tail(P, st.implementation + "/lanes", n_last, L));
  if (P.buf(res).shape.empty() && C > 0) {
    // A reduction to one element: the blocks are tasks writing their partials, folded after.
    Buffer pb;
    pb.name = P.buf(res).name + "_partials";
    pb.kind = BufKind::Scratch;
    pb.dtype = d;
    pb.shape = {nblk};
    const BufId partials = P.add_buffer(std::move(pb));
    auto tasks = make_stmt(StmtKind::Tasks);
    tasks->var = P.add_var("blk", DType::Index, VarRole::Task);
    tasks->lo = make_index(0);
    tasks->hi = nblk;
    tasks->step = make_index(1);
    tasks->unique_writes = true;
    auto [lo, hi] = block_bounds(make_var(tasks->var, DType::Index));
    VarId part = block(tasks->body, lo, hi);
    auto w = make_stmt(StmtKind::Store);
    w->buf = partials;
    w->index = {make_var(tasks->var, DType::Index)};
    w->value = make_var(part, d);
    tasks->body.push_back(std::move(w));
    out.push_back(std::move(tasks));
    VarId acc = P.add_var("acc", d, VarRole::Carry);
    VarId b;
    auto fold = counted_loop(P, "blk", make_index(0), nblk, 1, &b);
    fold_partial(P, fold->body, st, acc, make_compare("eq", make_var(b, DType::Index), make_index(0)),
                 make_load(partials, d, {make_var(b, DType::Index)}), s.op_id);
    out.push_back(std::move(fold));
    store_leaf(out, P, res, {}, {}, 0, make_var(acc, d), s.op_id);
    return out;
  }
  out.push_back(loop_nest(P, rvars, P.buf(res).shape, [&](std::vector<StmtP>& body) {
    VarId acc = P.add_var("acc", d, VarRole::Carry);
    VarId b;
    auto blocks = counted_loop(P, "blk", make_index(0), nblk, 1, &b);
    auto [lo, hi] = block_bounds(make_var(b, DType::Index));
    VarId part = block(blocks->body, lo, hi);
    fold_partial(P, blocks->body, st, acc, make_compare("eq", make_var(b, DType::Index), make_index(0)), make_var(part, d), s.op_id);
    body.push_back(std::move(blocks));
    store_leaf(body, P, res, trailing(rvars, P.buf(res).shape.size()), rvars, P.buf(res).shape.size(), make_var(acc, d), s.op_id);
  }, true));
  return out;
}

// scan.blocks: a one-component scan of a single line in blocks of C points along the scan order
// (the declared blocks order, interpreter.h Options::scan_blocks_at). Three phases: the blocks'
// totals, as tasks (each block folded from the identity); the prefix P_b before each block,
// serially; the blocks again, as tasks, each scanned from the identity with every value stored
// as combine(P_b, local) (in the scan's operand order) — block 0 as it is, an exclusive block's
// first element P_b itself. The source is read twice and the result only written, so nothing
// reads back what a task stored.
std::vector<StmtP> expand_scan_blocks(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  const int64_t C = param(st, "block");
  if (C == 0) return expand_scan(P, s);  // one block: the canonical fold
  bool inclusive = flag(st, "inclusive", true);
  const bool reverse = flag(st, "reverse", false);
  if (mutant_active(MutantId::ScanInclusiveFlipped)) inclusive = !inclusive;
  const BufId src = st.operands[0], res = st.results[0];
  const DType d = P.buf(res).dtype;
  const ExprP n = P.buf(src).shape.at(0);
  const ExprP nblk = make_select(make_compare("eq", n, make_index(0)), make_index(0),
                                 make_binary("floordiv", index_add(n, make_index(mutant_active(MutantId::ScanBlocksRoundDown) ? 0 : C - 1)), make_index(C)));
  auto scratch = [&](const std::string& name) {
    Buffer b;
    b.name = P.buf(res).name + name;
    b.kind = BufKind::Scratch;
    b.dtype = d;
    b.shape = {make_select(make_compare("eq", n, make_index(0)), make_index(1), nblk)};
    return P.add_buffer(std::move(b));
  };
  const BufId totals = scratch("_totals"), prefix = scratch("_prefix");
  // before . after in the scan order (combine(before, after) forward, swapped in reverse).
  auto join = [&](ExprP before, ExprP after) {
    if (reverse) std::swap(before, after);
    return substitute(st.combine[0], {{st.combine_lhs[0], std::move(before)}, {st.combine_rhs[0], std::move(after)}});
  };
  auto store = [&](std::vector<StmtP>& into, BufId b, ExprP at, ExprP value) {
    auto w = make_stmt(StmtKind::Store, s.op_id);
    w->buf = b;
    w->index = {std::move(at)};
    w->value = std::move(value);
    into.push_back(std::move(w));
  };
  auto when = [&](std::vector<StmtP>& into, ExprP cond, const std::function<void(std::vector<StmtP>&)>& then,
                  const std::function<void(std::vector<StmtP>&)>& orelse) {
    auto i = make_stmt(StmtKind::If, s.op_id);
    i->value = std::move(cond);
    then(i->body);
    orelse(i->orelse);
    into.push_back(std::move(i));
  };
  // Tasks over the blocks; `body` gets the block, its first point in scan order, its points'
  // loop body (with the point's position) and the accumulator folded from the identity.
  auto blocks = [&](const std::function<void(std::vector<StmtP>&, ExprP blk, ExprP lo, ExprP sv, ExprP p, VarId acc, bool before)>& at_point,
                    const std::function<void(std::vector<StmtP>&, ExprP blk, VarId acc)>& after) {
    auto tasks = make_stmt(StmtKind::Tasks);
    tasks->var = P.add_var("blk", DType::Index, VarRole::Task);
    tasks->lo = make_index(0);
    tasks->hi = nblk;
    tasks->step = make_index(1);
    tasks->unique_writes = true;
    const ExprP blk = make_var(tasks->var, DType::Index);
    VarId lo = let_var(P, tasks->body, "lo", index_mul(blk, make_index(C)));
    VarId hi = let_var(P, tasks->body, "hi", index_min(n, index_add(make_var(lo, DType::Index), make_index(C))));
    auto acc = init_accumulators(P, tasks->body, st, s.op_id);
    VarId sv;
    auto loop = counted_loop(P, "s", make_var(lo, DType::Index), make_var(hi, DType::Index), 1, &sv);
    const ExprP svx = make_var(sv, DType::Index);
    const ExprP p = reverse ? index_sub(index_sub(n, make_index(1)), svx) : svx;
    at_point(loop->body, blk, make_var(lo, DType::Index), svx, p, acc[0], true);
    combine_into(P, loop->body, st, acc, {make_load(src, d, {p})}, reverse, s.op_id);
    at_point(loop->body, blk, make_var(lo, DType::Index), svx, p, acc[0], false);
    tasks->body.push_back(std::move(loop));
    after(tasks->body, blk, acc[0]);
    return tasks;
  };
  const auto none = [](std::vector<StmtP>&, ExprP, ExprP, ExprP, ExprP, VarId, bool) {};
  std::vector<StmtP> out;
  out.push_back(cover_tail(P, st.implementation + "/block", n, C));  // coverage (driver/coverage.h)
  // 1. Each block's total.
  out.push_back(blocks(none, [&](std::vector<StmtP>& into, ExprP blk, VarId acc) { store(into, totals, blk, make_var(acc, d)); }));
  // 2. P_b = the totals of blocks 0 .. b - 1 folded left to right (b >= 1).
  VarId b;
  auto pre = counted_loop(P, "blk", make_index(1), nblk, 1, &b);
  const ExprP bx = make_var(b, DType::Index);
  when(pre->body, make_compare("eq", bx, make_index(1)),
       [&](std::vector<StmtP>& t) { store(t, prefix, bx, make_load(totals, d, {make_index(0)})); },
       [&](std::vector<StmtP>& e) {
         store(e, prefix, bx, join(make_load(prefix, d, {index_sub(bx, make_index(1))}),
                                   make_load(totals, d, {mutant_active(MutantId::ScanBlocksPrefixOwnTotal) ? bx : index_sub(bx, make_index(1))})));
       });
  out.push_back(std::move(pre));
  // 3. The blocks again, each value combined with its block's prefix.
  out.push_back(blocks(
      [&](std::vector<StmtP>& into, ExprP blk, ExprP lo, ExprP sv, ExprP p, VarId acc, bool before) {
        if (before == inclusive) return;  // exclusive stores before the point, inclusive after
        const ExprP local = make_var(acc, d);
        when(into, make_compare("eq", blk, make_index(0)), [&](std::vector<StmtP>& t) { store(t, res, p, local); },
             [&](std::vector<StmtP>& e) {
               const ExprP pb = make_load(prefix, d, {blk});
               if (inclusive) return store(e, res, p, join(pb, local));
               when(e, make_compare("eq", mutant_active(MutantId::ScanBlocksExclusiveFirstByPosition) ? p : sv, lo), [&](std::vector<StmtP>& t) { store(t, res, p, pb); },
                    [&](std::vector<StmtP>& f) { store(f, res, p, join(pb, local)); });
             });
      },
      [](std::vector<StmtP>&, ExprP, VarId) {}));
  return out;
}

// The typed kind scan.blocks realizes: a scan of one component over a single line (a rank-1
// source of the result's dtype); scan.fold takes every other scan (several lines already run
// as tasks over the lines).
bool block_scannable(const Program& P, const StructuredOp& st) {
  return st.kind == "scan" && st.results.size() == 1 && st.operands.size() == 1 && st.combine.size() == 1 &&
         st.init.size() == 1 && P.buf(st.operands[0]).shape.size() == 1 &&
         P.buf(st.operands[0]).dtype == P.buf(st.results[0]).dtype;
}

}  // namespace

bool lane_foldable(const Program& P, const StructuredOp& st) {
  if (st.kind != "reduce" || st.results.size() != 1 || st.operands.size() != 1 || st.combine.size() != 1 || st.init.size() != 1)
    return false;
  // Any scalar dtype: the interpreter evaluates the declared lanes order for every reduce, so
  // an integer or bool reduce in lanes is compared bit for bit too (and, with a wrapping
  // associative combine such as add, gives the canonical bits anyway).
  const DType d = P.buf(st.results[0]).dtype;
  if (P.buf(st.operands[0]).dtype != d) return false;
  auto it = st.attrs.find("axes");
  return it != st.attrs.end() && !it->second.ints().empty() &&
         P.buf(st.operands[0]).shape.size() == P.buf(st.results[0]).shape.size() + it->second.ints().size();
}

std::vector<Implementation> fold_implementations() {
  return {
      {"reduce.fold", "reduce", "canonical left fold of the combine in logical order (bitwise canonical)",
       fold_applicable, expand_reduce, {}, "", "",
       {"none", "the source as it is", "one accumulator per result element", "the result buffer"}},
      {"reduce.lanes", "reduce",
       "lanes order: along the last reduced axis, blocks of C points (one block when C = 0), the point at coordinate c "
       "in lane c mod L of its block, each lane a left fold from the identity, each block the left fold of its lanes "
       "that received a point, then the blocks left to right (order lanes; L = 1, C = 0 is the canonical fold)",
       [](const Program& P, const StructuredOp& st) {
         if (!lane_foldable(P, st)) return std::string("not a reduce of one component over at least one axis");
         if (param(st, "block") % param(st, "lanes") != 0) return std::string("block is not a multiple of lanes");
         return std::string();
       },
       expand_reduce_lanes, {{"lanes", 1, 256, 1}, {"block", 0, int64_t{1} << 40, 1}}, "", "lanes",
       {"none", "the source as it is", "L lane accumulators per task (a stack array)", "the result buffer"}},
      {"scan.fold", "scan", "canonical fold along the axis, inclusive/exclusive, forward/reverse (bitwise canonical)",
       [](const Program& P, const StructuredOp& st) {
         if (auto why = components_applicable(P, st); !why.empty()) return why;
         if (block_scannable(P, st)) return std::string("a one-component scan of one line (its implementation is scan.blocks)");
         return std::string();
       },
       expand_scan, {}, "", "",
       {"none", "the source as it is", "one carry per line", "the result buffer, prefix by prefix"}},
      {"scan.blocks", "scan",
       "blocks order: along the scan order, blocks of C points (one block when C = 0) each scanned from the identity; "
       "the earlier blocks' totals folded left to right into P_b, and every value of block b > 0 combined with P_b "
       "(an exclusive block's first value is P_b); C = 0 or C >= n is the canonical fold",
       [](const Program& P, const StructuredOp& st) {
         if (!block_scannable(P, st)) return std::string("not a one-component scan of one line");
         return std::string();
       },
       expand_scan_blocks, {{"block", 0, int64_t{1} << 40, 1}}, "", "blocks",
       {"none", "the source as it is, read twice", "the blocks' totals and prefixes (two scratch vectors)",
        "the result buffer, each element written once"}},
      // region_fold's helpers are inlined at construction (construct/ops_region.cpp), which
      // reads this implementation's parameter from the row: it is never a Structured op.
      {"region_fold.blocks", "region_fold",
       "segments of B = region_block source rows from the start, the last one shorter (B = 0 or B >= n: the whole "
       "source): acc = summarize(first block), then acc = combine(acc, summarize(block)) left to right (order segments)",
       [](const Program&, const StructuredOp&) { return std::string(); },
       [](Program&, const Stmt&) -> std::vector<StmtP> {
         throw std::logic_error("internal: region_fold.blocks is expanded at construction, not from a structured op");
       },
       {{"region_block", 0, int64_t{1} << 40, 1}}, "", "segments",
       {"none", "each block's rows copied (fused into their readers)", "the accumulator (the summary type)",
        "the fold's value"}},
  };
}

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> all = [] {
    std::vector<Implementation> v;
    for (auto* f : {fold_implementations, contract_implementations, packed_contract_implementations,
                    format_implementations, scaled_packed_implementations, sparse_packed_implementations,
                    effect_implementations, qdot_packed_implementations})
      for (auto& i : f()) v.push_back(std::move(i));
    return v;
  }();
  return all;
}

std::vector<std::pair<int64_t, int64_t>> pairs_of(const StructuredOp& st, const char* key) {
  auto it = st.attrs.find(key);
  return it == st.attrs.end() ? std::vector<std::pair<int64_t, int64_t>>{} : it->second.int_pairs();
}

int64_t param(const StructuredOp& st, const std::string& name) {
  for (const auto& [k, v] : st.params)
    if (k == name) return v;
  throw std::logic_error("internal: implementation " + st.implementation + " is bound without parameter " + name);
}

const Implementation* find_implementation(const std::string& name) {
  for (const auto& i : implementations())
    if (i.name == name) return &i;
  return nullptr;
}

}  // namespace kir::cpu
