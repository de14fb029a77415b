// Constructors and small queries of the CPU IR (cpu_ir.h).
#include "backends/cpu/ir/cpu_ir.h"

#include <functional>

#include "kir/ir.h"

namespace kir::cpu {

namespace {
std::shared_ptr<Expr> node(ExprKind k, DType d) {
  auto e = std::make_shared<Expr>();
  e->kind = k;
  e->dtype = d;
  return e;
}
}  // namespace

ExprP make_const(DType d, uint64_t bits) {
  auto e = node(ExprKind::Const, d);
  e->bits = bits;
  return e;
}

ExprP make_index(int64_t v) { return make_const(DType::Index, static_cast<uint64_t>(v)); }

ExprP make_var(VarId v, DType d) {
  auto e = node(ExprKind::Var, d);
  e->var = v;
  return e;
}

ExprP make_load(BufId b, DType d, std::vector<ExprP> index) {
  auto e = node(ExprKind::Load, d);
  e->buf = b;
  e->args = std::move(index);
  return e;
}

ExprP make_view_dim(BufId b, int axis) {
  auto e = node(ExprKind::ViewDim, DType::Index);
  e->buf = b;
  e->axis = axis;
  return e;
}

ExprP make_unary(const std::string& op, ExprP a, int32_t op_id) {
  auto e = node(ExprKind::Unary, a->dtype);
  e->op = op;
  e->from = a->dtype;
  e->args = {std::move(a)};
  e->op_id = op_id;
  return e;
}

ExprP make_binary(const std::string& op, ExprP a, ExprP b, int32_t op_id) {
  auto e = node(ExprKind::Binary, a->dtype);
  e->op = op;
  e->from = a->dtype;
  e->args = {std::move(a), std::move(b)};
  e->op_id = op_id;
  return e;
}

ExprP make_compare(const std::string& op, ExprP a, ExprP b) {
  auto e = node(ExprKind::Compare, DType::Bool);
  e->op = op;
  e->from = a->dtype;
  e->args = {std::move(a), std::move(b)};
  return e;
}

ExprP make_select(ExprP c, ExprP a, ExprP b, int32_t op_id) {
  auto e = node(ExprKind::Select, a->dtype);
  e->args = {std::move(c), std::move(a), std::move(b)};
  e->op_id = op_id;
  return e;
}

ExprP make_cast(ExprP a, DType to, int32_t op_id) {
  if (a->dtype == to) return a;
  auto e = node(ExprKind::Cast, to);
  e->from = a->dtype;
  e->args = {std::move(a)};
  e->op_id = op_id;
  return e;
}

ExprP make_bitcast(ExprP a, DType to) {
  if (a->dtype == to) return a;
  auto e = node(ExprKind::Bitcast, to);
  e->from = a->dtype;
  e->args = {std::move(a)};
  return e;
}

ExprP make_math(const std::string& fn, ExprP a) {
  auto e = node(ExprKind::Math, a->dtype);
  e->op = fn;
  e->from = a->dtype;
  e->args = {std::move(a)};
  return e;
}

std::optional<int64_t> const_index(const ExprP& e) {
  if (!e || e->kind != ExprKind::Const || !is_integer(e->dtype)) return std::nullopt;
  return static_cast<int64_t>(e->bits);
}

// Index arithmetic wraps like the language's index (two's complement), so folding in uint64_t.
ExprP index_add_nw(ExprP a, ExprP b) {
  if (const_index(a) == 0) return b;
  if (const_index(b) == 0) return a;
  return make_binary("add_nw", std::move(a), std::move(b));
}

ExprP index_add(ExprP a, ExprP b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_index(static_cast<int64_t>(static_cast<uint64_t>(*ca) + static_cast<uint64_t>(*cb)));
  if (ca && *ca == 0) return b;
  if (cb && *cb == 0) return a;
  return make_binary("add", std::move(a), std::move(b));
}

ExprP index_sub(ExprP a, ExprP b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_index(static_cast<int64_t>(static_cast<uint64_t>(*ca) - static_cast<uint64_t>(*cb)));
  if (cb && *cb == 0) return a;
  return make_binary("sub", std::move(a), std::move(b));
}

ExprP index_mul(ExprP a, ExprP b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_index(static_cast<int64_t>(static_cast<uint64_t>(*ca) * static_cast<uint64_t>(*cb)));
  if ((ca && *ca == 0) || (cb && *cb == 0)) return make_index(0);
  if (ca && *ca == 1) return b;
  if (cb && *cb == 1) return a;
  return make_binary("mul", std::move(a), std::move(b));
}

ExprP index_min(ExprP a, ExprP b) {
  auto ca = const_index(a), cb = const_index(b);
  if (ca && cb) return make_index(std::min(*ca, *cb));
  return make_binary("min", std::move(a), std::move(b));
}

bool may_fault(const Expr& e) {
  if (e.probed) return false;
  switch (e.kind) {
    case ExprKind::Load:  // a checked load (it has an op)
      if (e.op_id >= 0) return true;
      break;
    case ExprKind::Random:  // an index counter is checked (negative: a fault)
      if (e.args.size() == 2 && e.args[1]->dtype == DType::Index) return true;
      break;
    case ExprKind::Binary:
      if (is_integer(e.dtype) && (e.op == "div" || e.op == "rem")) {
        // A constant 64-bit divisor other than 0 and -1 (the overflowing quotient) cannot fault.
        const bool wide = e.args.size() == 2 && (e.args[1]->dtype == DType::Index || e.args[1]->dtype == DType::I64);
        auto d = wide ? const_index(e.args[1]) : std::nullopt;
        if (!d || *d == 0 || *d == -1) return true;
      }
      if (is_integer(e.dtype) && (e.op == "shl" || e.op == "shr")) return true;
      break;
    case ExprKind::Cast:
      if (is_any_float(e.from) && (is_integer(e.dtype) || e.dtype == DType::E2M1)) return true;
      break;
    default:
      break;
  }
  for (const auto& a : e.args)
    if (may_fault(*a)) return true;
  return false;
}

bool exprs_may_fault(const Stmt& s) {
  bool f = false;
  for_each_expr(s, [&](const Expr& e) { f = f || may_fault(e); });
  return f;
}

bool may_fault(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Check:
    case StmtKind::Structured:
    case StmtKind::While:
      return true;
    case StmtKind::Store:
    case StmtKind::Atomic:
    case StmtKind::Compute:
      if (s.op_id >= 0 && !s.index.empty()) return true;
      break;
    default:
      break;
  }
  if (exprs_may_fault(s)) return true;
  for (const auto& c : s.body)
    if (may_fault(*c)) return true;
  for (const auto& c : s.orelse)
    if (may_fault(*c)) return true;
  return false;
}

bool mentions_var(const Expr& e, VarId v) {
  if (e.kind == ExprKind::Var && e.var == v) return true;
  for (const auto& a : e.args)
    if (mentions_var(*a, v)) return true;
  return false;
}

ExprP map_loads(const ExprP& e, BufId b, const std::function<ExprP(const ExprP&)>& f) {
  if (!e) return e;
  bool changed = false;
  std::vector<ExprP> args;
  for (const auto& a : e->args) {
    args.push_back(map_loads(a, b, f));
    changed |= args.back() != a;
  }
  ExprP c = e;
  if (changed) {
    auto n = std::make_shared<Expr>(*e);
    n->args = std::move(args);
    c = n;
  }
  return c->kind == ExprKind::Load && c->buf == b ? f(c) : c;
}

void rewrite_exprs(Stmt& s, const std::function<ExprP(const ExprP&)>& f) {
  for (ExprP* e : {&s.lo, &s.hi, &s.step, &s.value, &s.guard})
    if (*e) *e = f(*e);
  for (auto* list : {&s.extents, &s.index, &s.detail})
    for (auto& e : *list) e = f(e);
  for (auto& c : s.body) rewrite_exprs(*c, f);
  for (auto& c : s.orelse) rewrite_exprs(*c, f);
}

bool reads_buffer(const Expr& e, BufId b) {
  if ((e.kind == ExprKind::Load || e.kind == ExprKind::ViewDim) && e.buf == b) return true;
  for (const auto& a : e.args)
    if (reads_buffer(*a, b)) return true;
  return false;
}

bool has_load(const Expr& e) {
  if (e.kind == ExprKind::Load) return true;
  for (const auto& a : e.args)
    if (has_load(*a)) return true;
  return false;
}

ExprP substitute(const ExprP& e, const std::vector<std::pair<VarId, ExprP>>& subst) {
  if (e->kind == ExprKind::Var) {
    for (const auto& [v, r] : subst)
      if (v == e->var) return r;
    return e;
  }
  if (e->args.empty()) return e;
  bool changed = false;
  std::vector<ExprP> args;
  args.reserve(e->args.size());
  for (const auto& a : e->args) {
    args.push_back(substitute(a, subst));
    changed |= args.back() != a;
  }
  if (!changed) return e;
  auto c = std::make_shared<Expr>(*e);
  c->args = std::move(args);
  return c;
}

bool same_expr(const Expr& a, const Expr& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind || a.dtype != b.dtype || a.from != b.from || a.bits != b.bits || a.var != b.var ||
      a.buf != b.buf || a.axis != b.axis || a.op != b.op || a.op_id != b.op_id || a.args.size() != b.args.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!same_expr(*a.args[i], *b.args[i])) return false;
  return true;
}

int expr_size(const Expr& e) {
  int n = 1;
  for (const auto& a : e.args) n += expr_size(*a);
  return n;
}

StmtP make_stmt(StmtKind k, int32_t op_id) {
  auto s = std::make_unique<Stmt>();
  s->kind = k;
  s->op_id = op_id;
  return s;
}

StmtP make_cover(Program& P, const std::vector<std::string>& cells, ExprP which) {
  auto s = make_stmt(StmtKind::Cover);
  s->cell = static_cast<int32_t>(P.cover_cells.size());
  P.cover_cells.insert(P.cover_cells.end(), cells.begin(), cells.end());
  s->value = std::move(which);
  return s;
}

StmtP cover_tail(Program& P, const std::string& what, ExprP extent, int64_t block, bool nonempty) {
  auto eq = [](ExprP a, ExprP b) { return make_compare("eq", std::move(a), std::move(b)); };
  ExprP cls = make_select(make_compare("lt", extent, make_index(block)), make_index(3),
                          make_select(eq(make_binary("rem", extent, make_index(block)), make_index(0)), make_index(1),
                                      make_index(2)));
  if (nonempty)
    return make_cover(P, {what + ":none", what + ":partial", what + ":only-tail"},
                      index_sub(std::move(cls), make_index(1)));
  cls = make_select(eq(extent, make_index(0)), make_index(0), std::move(cls));
  return make_cover(P, {what + ":empty", what + ":none", what + ":partial", what + ":only-tail"}, std::move(cls));
}

StmtP cover_split(Program& P, const std::string& what, ExprP n, ExprP grain) {
  auto cmp = [](const char* op, ExprP a, ExprP b) { return make_compare(op, std::move(a), std::move(b)); };
  ExprP whole = index_mul(make_binary("floordiv", n, grain), grain);
  ExprP cls = make_select(cmp("eq", n, make_index(0)), make_index(0),
                          make_select(cmp("le", n, grain), make_index(1),
                                      make_select(cmp("eq", whole, n), make_index(2), make_index(3))));
  return make_cover(P, {what + ":empty", what + ":one", what + ":several", what + ":uneven"}, std::move(cls));
}

StmtP make_loop(VarId v, ExprP lo, ExprP hi, ExprP step, int32_t op_id) {
  auto l = make_stmt(StmtKind::Loop, op_id);
  l->var = v;
  l->lo = std::move(lo);
  l->hi = std::move(hi);
  l->step = std::move(step);
  return l;
}

VarId Program::add_var(std::string name, DType d, VarRole role) {
  Var v;
  v.id = static_cast<VarId>(vars.size());
  v.name = std::move(name);
  v.dtype = d;
  v.role = role;
  vars.push_back(std::move(v));
  return vars.back().id;
}

BufId Program::add_buffer(Buffer b) {
  b.id = static_cast<BufId>(bufs.size());
  bufs.push_back(std::move(b));
  return bufs.back().id;
}

int32_t Program::add_origin(const Operation& op) {
  ops.push_back({op.name, op.loc.str()});
  return static_cast<int32_t>(ops.size() - 1);
}

}  // namespace kir::cpu
