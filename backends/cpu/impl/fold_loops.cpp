// The fold implementations of reduce and scan: the canonical left fold of the author combine
// in logical order (reduce: row-major over the reduced axes; scan: along its axis, forward or
// reverse, inclusive or exclusive), one accumulator per result element held in registers.
// Numeric contract: exactly the canonical evaluation (bitwise equal to the interpreter's).
#include "backends/cpu/impl/registry.h"

namespace kir::cpu {

StmtP loop_nest(Program& P, std::vector<VarId>& vars, const std::vector<ExprP>& extents,
                const std::function<void(std::vector<StmtP>&)>& body, std::vector<StmtP>* outer_body) {
  if (vars.empty())
    for (size_t k = 0; k < extents.size(); ++k) vars.push_back(P.add_var("i" + std::to_string(k), DType::Index, VarRole::Loop));
  auto root = make_stmt(StmtKind::Block);
  std::vector<StmtP>* cur = &root->body;
  for (size_t k = 0; k < extents.size(); ++k) {
    auto l = make_stmt(StmtKind::Loop);
    l->var = vars[k];
    l->lo = make_index(0);
    l->hi = extents[k];
    l->step = make_index(1);
    Stmt* raw = l.get();
    cur->push_back(std::move(l));
    cur = &raw->body;
  }
  body(*cur);
  (void)outer_body;
  // Each result element is produced by one iteration of the outer nest.
  if (!root->body.empty()) root->body[0]->unique_writes = true;
  return root;
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

std::vector<VarId> init_accumulators(Program& P, std::vector<StmtP>& into, const StructuredOp& st, int32_t op_id) {
  std::vector<VarId> acc;
  for (size_t k = 0; k < st.results.size(); ++k) {
    VarId v = P.add_var("acc", P.buf(st.results[k]).dtype, VarRole::Carry);
    auto a = make_stmt(StmtKind::Assign, op_id);
    a->var = v;
    a->value = st.init[k];
    into.push_back(std::move(a));
    acc.push_back(v);
  }
  return acc;
}

std::vector<StmtP> expand_reduce(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  auto axes = int_list(st, "axes");
  const auto& src_shape = P.buf(st.operands[0]).shape;
  std::vector<bool> reduced(src_shape.size(), false);
  std::vector<ExprP> red_ext;
  for (auto a : axes) {
    reduced[static_cast<size_t>(a)] = true;
    red_ext.push_back(src_shape[static_cast<size_t>(a)]);
  }
  std::vector<VarId> rvars = st.coords;
  std::vector<StmtP> out;
  out.push_back(loop_nest(P, rvars, P.buf(st.results[0]).shape, [&](std::vector<StmtP>& body) {
    auto acc = init_accumulators(P, body, st, s.op_id);
    std::vector<VarId> qvars;
    body.push_back(loop_nest(P, qvars, red_ext, [&](std::vector<StmtP>& inner) {
      // Source coordinate: result coordinates fill the kept axes in order, q the reduced ones.
      std::vector<ExprP> idx(src_shape.size());
      size_t ri = 0;
      for (size_t a = 0; a < src_shape.size(); ++a)
        if (!reduced[a]) idx[a] = make_var(rvars[ri++], DType::Index);
      for (size_t j = 0; j < axes.size(); ++j) idx[static_cast<size_t>(axes[j])] = make_var(qvars[j], DType::Index);
      std::vector<ExprP> x;
      for (BufId b : st.operands) x.push_back(make_load(b, P.buf(b).dtype, idx));
      combine_into(P, inner, st, acc, x, false, s.op_id);
    }));
    for (size_t k = 0; k < st.results.size(); ++k) {
      auto w = make_stmt(StmtKind::Store, s.op_id);
      w->buf = st.results[k];
      for (VarId v : rvars) w->index.push_back(make_var(v, DType::Index));
      w->value = make_var(acc[k], P.var(acc[k]).dtype);
      body.push_back(std::move(w));
    }
  }));
  return out;
}

std::vector<StmtP> expand_scan(Program& P, const Stmt& s) {
  const StructuredOp& st = *s.structured;
  auto ax_it = st.attrs.find("axis");
  size_t axis = ax_it == st.attrs.end() ? 0 : static_cast<size_t>(ax_it->second.i);
  bool inclusive = flag(st, "inclusive", true), reverse = flag(st, "reverse", false);
  const auto& src_shape = P.buf(st.operands[0]).shape;
  std::vector<ExprP> outer_ext;
  for (size_t a = 0; a < src_shape.size(); ++a)
    if (a != axis) outer_ext.push_back(src_shape[a]);
  std::vector<VarId> ovars = st.coords;
  std::vector<StmtP> out;
  out.push_back(loop_nest(P, ovars, outer_ext, [&](std::vector<StmtP>& body) {
    auto acc = init_accumulators(P, body, st, s.op_id);
    std::vector<VarId> pvars;
    body.push_back(loop_nest(P, pvars, {src_shape[axis]}, [&](std::vector<StmtP>& inner) {
      ExprP p = make_var(pvars[0], DType::Index);
      if (reverse) p = index_sub(index_sub(src_shape[axis], make_index(1)), p);
      std::vector<ExprP> idx;
      size_t oi = 0;
      for (size_t a = 0; a < src_shape.size(); ++a) idx.push_back(a == axis ? p : make_var(ovars[oi++], DType::Index));
      auto store = [&] {
        for (size_t k = 0; k < st.results.size(); ++k) {
          auto w = make_stmt(StmtKind::Store, s.op_id);
          w->buf = st.results[k];
          w->index = idx;
          w->value = make_var(acc[k], P.var(acc[k]).dtype);
          inner.push_back(std::move(w));
        }
      };
      std::vector<ExprP> x;
      for (BufId b : st.operands) x.push_back(make_load(b, P.buf(b).dtype, idx));
      if (!inclusive) store();
      combine_into(P, inner, st, acc, x, reverse, s.op_id);
      if (inclusive) store();
    }));
  }));
  return out;
}

std::string fold_applicable(const Program&, const StructuredOp& st) {
  if (st.combine.size() != st.results.size()) return "combine components do not match the results";
  return "";
}

}  // namespace

std::vector<Implementation> fold_implementations() {
  return {
      {"reduce.fold", "reduce", "canonical left fold of the combine in logical order (bitwise canonical)",
       fold_applicable, expand_reduce},
      {"scan.fold", "scan", "canonical fold along the axis, inclusive/exclusive, forward/reverse (bitwise canonical)",
       fold_applicable, expand_scan},
  };
}

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> all = [] {
    std::vector<Implementation> v;
    for (auto* f : {fold_implementations, contract_implementations, format_implementations, effect_implementations})
      for (auto& i : f()) v.push_back(std::move(i));
    return v;
  }();
  return all;
}

const Implementation* find_implementation(const std::string& name) {
  for (const auto& i : implementations())
    if (i.name == name) return &i;
  return nullptr;
}

}  // namespace kir::cpu
