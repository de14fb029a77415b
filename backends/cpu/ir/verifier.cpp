// The CPU IR verifier (verifier.h). Local checks look at one statement or expression node;
// structural checks (scope, control, task worksets, resources) walk the statement tree with
// their own context. Every rule reports under its own bracketed tag so tests and pass authors
// can tell which invariant broke.
#include "backends/cpu/ir/verifier.h"
#include "backends/cpu/ir/ukernels.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "backends/cpu/ir/printer.h"
#include "numerics/math.h"
#include "numerics/scalar.h"

namespace kir::cpu {

namespace {

const char* stmt_name(StmtKind k) {
  switch (k) {
    case StmtKind::Block: return "Block";
    case StmtKind::Compute: return "Compute";
    case StmtKind::Loop: return "Loop";
    case StmtKind::Tasks: return "Tasks";
    case StmtKind::If: return "If";
    case StmtKind::While: return "While";
    case StmtKind::Break: return "Break";
    case StmtKind::Continue: return "Continue";
    case StmtKind::Let: return "Let";
    case StmtKind::Assign: return "Assign";
    case StmtKind::Store: return "Store";
    case StmtKind::Check: return "Check";
    case StmtKind::Alloc: return "Alloc";
    case StmtKind::Free: return "Free";
    case StmtKind::Structured: return "Structured";
    case StmtKind::Copy: return "Copy";
    case StmtKind::Atomic: return "Atomic";
    case StmtKind::Kernel: return "Kernel";
    case StmtKind::Cover: return "Cover";
  }
  return "?";
}

std::string dt(DType d) { return std::string(name(d)); }

bool one_of(const std::string& s, std::initializer_list<const char*> set) {
  return std::any_of(set.begin(), set.end(), [&](const char* x) { return s == x; });
}

class Verifier {
 public:
  Verifier(const Program& p, const VerifyOptions& o) : p_(p), o_(o) {
    int n = 0;
    walk_stmts(p_.body.body, [&](const Stmt& s) { number_[&s] = n++; });
  }

  std::vector<std::string> run() {
    check_program_facts();
    walk_stmts(p_.body.body, [&](const Stmt& s) { check_stmt(s); });
    check_scope();
    check_control(p_.body.body, false);
    walk_stmts(p_.body.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Tasks) check_task_workset(s);
    });
    if (o_.require_resources) check_resources();
    // A broken node shared by several statements or used twice reports once per statement.
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (auto& m : msgs_)
      if (seen.insert(m).second) out.push_back(std::move(m));
    return out;
  }

 private:
  // ------------------------------------------------------------ reporting
  void at(const Stmt& s) {
    where_ = "stmt " + std::to_string(number_.at(&s));
    if (s.op_id != kNone) {
      where_ += " (op " + std::to_string(s.op_id);
      if (s.op_id >= 0 && static_cast<size_t>(s.op_id) < p_.ops.size()) {
        const auto& o = p_.ops[static_cast<size_t>(s.op_id)];
        where_ += " `" + o.name + "` at " + o.location;
      }
      where_ += ")";
    }
  }
  void report(const char* rule, const std::string& text) {
    msgs_.push_back(where_ + ": [" + rule + "] " + text);
  }
  std::string show(const Expr& e) const {
    std::string s = print_expr(p_, e);
    return s.size() > 160 ? s.substr(0, 157) + "..." : s;
  }
  std::string bname(BufId b) const { return buf_name(p_, b); }
  std::string vname(VarId v) const { return var_name(p_, v); }

  bool var_ok(VarId v) const { return v >= 0 && static_cast<size_t>(v) < p_.vars.size(); }
  bool buf_exists(BufId b) const { return b >= 0 && static_cast<size_t>(b) < p_.bufs.size(); }
  static bool integer(const ExprP& e) { return e && is_integer(e->dtype); }

  // Rule [buffer]: a referenced buffer exists and is not dead. Returns whether it exists.
  bool buffer_ref(BufId b, const std::string& what) {
    if (!buf_exists(b)) {
      report("buffer", what + " refers to buffer " + std::to_string(b) + ", which does not exist");
      return false;
    }
    if (p_.buf(b).dead) report("buffer", what + " refers to dead buffer " + bname(b));
    return true;
  }
  bool var_ref(VarId v, const std::string& what) {
    if (var_ok(v)) return true;
    report("var", what + " refers to variable " + std::to_string(v) + ", which does not exist");
    return false;
  }
  // Rule [access]: nothing writes into an In view.
  void writable(BufId b, const std::string& what) {
    if (!buf_exists(b)) return;
    const Buffer& buf = p_.buf(b);
    if (buf.kind == BufKind::View && buf.access == Access::In)
      report("access", what + " writes into In view " + bname(b));
  }

  // ------------------------------------------------------------ program-level facts
  void check_program_facts() {
    where_ = "program";
    for (size_t i = 0; i < p_.bufs.size(); ++i) {
      const Buffer& b = p_.bufs[i];
      where_ = "buffer " + bname(static_cast<BufId>(i));
      if (b.id != static_cast<BufId>(i)) report("buffer", "id " + std::to_string(b.id) + " at position " + std::to_string(i));
      for (const auto& e : b.shape) {
        if (!e) {
          report("buffer", "null extent");
          continue;
        }
        check_expr(*e);
        if (!is_integer(e->dtype)) report("buffer", "extent " + show(*e) + " is not of integer dtype");
        // A view's extents are bound at the call; owned storage is sized where it is allocated
        // (its extents are scope-checked at its Alloc).
        if (b.kind == BufKind::View) shape_scope(*e);
      }
      if (b.reuses != kNone) buffer_ref(b.reuses, "reuses");
      if (b.kind == BufKind::View) check_view_facts(b);
      if (b.align <= 0 || (b.align & (b.align - 1)) != 0)
        report("buffer", "alignment " + std::to_string(b.align) + " is not a power of two");
    }
    where_ = "program";
    for (size_t i = 0; i < p_.view_params.size(); ++i) {
      const BufId b = p_.view_params[i];
      if (!buffer_ref(b, "view parameter " + std::to_string(i))) continue;
      if (p_.buf(b).kind != BufKind::View || p_.buf(b).param != static_cast<int>(i))
        report("view", "view parameter " + std::to_string(i) + " is " + bname(b) +
                           ", which is not a View with param " + std::to_string(i));
    }
    for (VarId v : p_.symbol_vars)
      if (var_ref(v, "symbol-vars") && p_.var(v).role != VarRole::Symbol)
        report("var", "symbol variable " + vname(v) + " does not have role Symbol");
    for (VarId v : p_.scalar_params)
      if (var_ref(v, "scalar parameters") && p_.var(v).role != VarRole::Scalar)
        report("var", "scalar parameter " + vname(v) + " does not have role Scalar");
  }

  // Rule [view]: the ABI facts of a view agree with its rank.
  void check_view_facts(const Buffer& b) {
    const size_t rank = b.shape.size();
    if (b.param < 0) report("view", "view has no parameter position");
    if (!b.extent_names.empty() && b.extent_names.size() != rank)
      report("view", std::to_string(b.extent_names.size()) + " extent names for rank " + std::to_string(rank));
    if (b.static_strides && b.static_strides->size() != rank)
      report("view", std::to_string(b.static_strides->size()) + " static strides for rank " + std::to_string(rank));
  }

  // Extents are bound at the call: only symbols and scalar parameters may appear.
  void shape_scope(const Expr& e) {
    if (e.kind == ExprKind::Var && var_ok(e.var)) {
      const VarRole r = p_.var(e.var).role;
      if (r != VarRole::Symbol && r != VarRole::Scalar)
        report("scope", "extent uses " + vname(e.var) + ", which is not a symbol or scalar parameter");
    }
    for (const auto& a : e.args)
      if (a) shape_scope(*a);
  }

  // ------------------------------------------------------------ expressions
  void arity(const Expr& e, size_t n) {
    if (e.args.size() != n)
      report("arity", show(e) + " has " + std::to_string(e.args.size()) + " operands, expected " + std::to_string(n));
  }
  void same(const Expr& e, DType got, DType want, const std::string& what) {
    if (got != want) report("dtype", show(e) + ": " + what + " is " + dt(got) + ", expected " + dt(want));
  }

  void check_expr(const Expr& e) {
    for (const auto& a : e.args)
      if (!a) {
        report("arity", "null operand in " + show(e));
        return;
      }
    auto arg = [&](size_t i) { return e.args[i]->dtype; };
    switch (e.kind) {
      case ExprKind::Const:
        arity(e, 0);
        if (e.dtype == DType::Bool ? e.bits > 1 : (e.bits & ~num::width_mask(e.dtype)) != 0)
          report("const", show(e) + " has bits outside the width of " + dt(e.dtype));
        break;
      case ExprKind::Var:
        arity(e, 0);
        if (var_ref(e.var, "expression")) same(e, e.dtype, p_.var(e.var).dtype, "the variable's use");
        break;
      case ExprKind::Load:
        check_load(e);
        break;
      case ExprKind::ViewDim:
        arity(e, 0);
        if (!buffer_ref(e.buf, show(e))) break;
        if (p_.buf(e.buf).kind != BufKind::View) report("view-dim", show(e) + " reads an extent of a non-view buffer");
        if (e.axis < 0 || static_cast<size_t>(e.axis) >= p_.buf(e.buf).shape.size())
          report("view-dim", show(e) + ": axis " + std::to_string(e.axis) + " is out of range for rank " +
                                 std::to_string(p_.buf(e.buf).shape.size()));
        same(e, e.dtype, DType::Index, "the extent");
        break;
      case ExprKind::Unary:
        arity(e, 1);
        if (!one_of(e.op, {"neg", "not", "abs", "sqrt", "floor", "ftz"})) report("op", "unknown unary op `" + e.op + "`");
        if (e.args.size() == 1) same(e, arg(0), e.dtype, "the operand");
        break;
      case ExprKind::Binary:
        arity(e, 2);
        // floordiv: index arithmetic of extents (docs/kir-text.md), besides the language's set;
        // add_nw: an index sum its builder proved cannot overflow (index_add_nw).
        if (!one_of(e.op, {"add", "sub", "mul", "div", "rem", "min", "max", "pow", "and", "or", "xor", "shl", "shr",
                           "floordiv", "add_nw"}))
          report("op", "unknown binary op `" + e.op + "`");
        if (e.op == "add_nw" && e.dtype != DType::Index) report("op", "add_nw is index arithmetic");
        // Shift amounts have the operand dtype in the language (docs/numerics.md), so no exception.
        same(e, e.from, e.dtype, "the operand dtype");
        for (size_t i = 0; i < e.args.size(); ++i) same(e, arg(i), e.dtype, "operand " + std::to_string(i));
        break;
      case ExprKind::Compare:
        arity(e, 2);
        if (!one_of(e.op, {"eq", "ne", "lt", "le", "gt", "ge"})) report("op", "unknown compare op `" + e.op + "`");
        for (size_t i = 0; i < e.args.size(); ++i) same(e, arg(i), e.from, "operand " + std::to_string(i));
        same(e, e.dtype, DType::Bool, "the result");
        break;
      case ExprKind::Select:
        arity(e, 3);
        if (e.args.size() != 3) break;
        same(e, arg(0), DType::Bool, "the condition");
        same(e, arg(1), e.dtype, "the true arm");
        same(e, arg(2), e.dtype, "the false arm");
        break;
      case ExprKind::Cast:
        arity(e, 1);
        if (e.args.size() == 1) same(e, arg(0), e.from, "the operand");
        break;
      case ExprKind::Bitcast:
        arity(e, 1);
        if (e.args.size() == 1) same(e, arg(0), e.from, "the operand");
        if (info(e.from).bits != info(e.dtype).bits)
          report("dtype", show(e) + ": bitcast between widths " + std::to_string(info(e.from).bits) + " and " +
                              std::to_string(info(e.dtype).bits));
        break;
      case ExprKind::Math:
        arity(e, 1);
        if (e.args.size() == 1) same(e, arg(0), e.dtype, "the operand");
        if (!num::parse_math_fn(e.op)) report("op", "unknown math function `" + e.op + "`");
        if (!is_float(e.dtype)) report("dtype", show(e) + ": math on " + dt(e.dtype) + " (only f16, bf16, f32, f64)");
        break;
      case ExprKind::Random:
        arity(e, 2);
        if (!one_of(e.op, {"bits", "uniform"})) report("op", "unknown random op `" + e.op + "`");
        break;
    }
    for (const auto& a : e.args) check_expr(*a);
  }

  // Rule [load]: one integer index per axis; the load yields the buffer's dtype.
  void check_load(const Expr& e) {
    if (!buffer_ref(e.buf, show(e))) return;
    const Buffer& b = p_.buf(e.buf);
    if (e.args.size() != b.shape.size())
      report("load", show(e) + " has " + std::to_string(e.args.size()) + " indices for rank " +
                         std::to_string(b.shape.size()));
    for (const auto& a : e.args)
      if (!is_integer(a->dtype)) report("load", show(e) + ": index " + show(*a) + " is " + dt(a->dtype) + ", not an integer");
    same(e, e.dtype, b.dtype, "the loaded element");
  }

  // ------------------------------------------------------------ statements (local)
  void check_stmt(const Stmt& s) {
    at(s);
    for_each_expr(s, [&](const Expr& e) { check_expr(e); });
    const std::string k = stmt_name(s.kind);
    if (s.guard && s.guard->dtype != DType::Bool) report("cond", k + " guard " + show(*s.guard) + " is not bool");
    switch (s.kind) {
      case StmtKind::Compute: check_compute(s); break;
      case StmtKind::Store: check_store(s); break;
      case StmtKind::Copy: check_copy(s); break;
      case StmtKind::Atomic: check_atomic(s); break;
      case StmtKind::Kernel:
        if (std::string why = check_kernel_call(p_, s); !why.empty()) report("kernel", why);
        else writable(s.buf, "Kernel");
        break;
      case StmtKind::Loop: check_loop(s); break;
      case StmtKind::Tasks: check_tasks_header(s); break;
      case StmtKind::If:
      case StmtKind::While:
        if (!s.value) report("cond", k + " has no condition");
        else if (s.value->dtype != DType::Bool) report("cond", k + " condition " + show(*s.value) + " is not bool");
        break;
      case StmtKind::Let:
      case StmtKind::Assign:
        if (!var_ref(s.var, k)) break;
        // Let defines a scalar once; Assign updates a carry slot (declared for the whole body).
        if (s.kind == StmtKind::Let && p_.var(s.var).role != VarRole::Let)
          report("role", "Let binds " + vname(s.var) + ", which is not a Let variable");
        if (s.kind == StmtKind::Assign && p_.var(s.var).role != VarRole::Carry)
          report("role", "Assign to " + vname(s.var) + ", which is not a Carry variable");
        if (!s.value) report("value-dtype", k + " of " + vname(s.var) + " has no value");
        else if (s.value->dtype != p_.var(s.var).dtype)
          report("value-dtype", k + " of " + dt(s.value->dtype) + " value to " + dt(p_.var(s.var).dtype) + " " + vname(s.var));
        break;
      case StmtKind::Check:
        if (s.fault == 0) report("check", "Check has fault code 0");
        if (!s.value) report("check", "Check has no condition");
        else if (s.value->dtype != DType::Bool) report("check", "Check condition " + show(*s.value) + " is not bool");
        if (s.detail.size() > 2) report("check", "Check has more than two detail values");
        break;
      case StmtKind::Alloc:
      case StmtKind::Free:
        if (buffer_ref(s.buf, k) && p_.buf(s.buf).kind == BufKind::View)
          report("resources", k + " of view " + bname(s.buf) + " (only Local and Scratch are owned)");
        break;
      case StmtKind::Structured: check_structured(s); break;
      case StmtKind::Cover:
        if (s.cell < 0 || static_cast<size_t>(s.cell) >= p_.cover_cells.size()) report("cover", "Cover of cell " + std::to_string(s.cell) + ", which the program does not have");
        if (s.value && s.value->dtype != DType::Index) report("cover", "Cover selector " + show(*s.value) + " is not index");
        break;
      case StmtKind::Block:
      case StmtKind::Break:
      case StmtKind::Continue:
        break;
    }
  }

  void check_compute(const Stmt& s) {
    if (!o_.allow_compute) report("no-compute", "Compute remains after loops were formed");
    if (!buffer_ref(s.buf, "Compute")) return;
    writable(s.buf, "Compute");
    const Buffer& b = p_.buf(s.buf);
    // Dense: one coordinate per axis of buf. Scatter: one index per axis of buf, one
    // coordinate per extent of the iteration space.
    const bool scatter = !s.index.empty();
    if (!scatter && s.coords.size() != b.shape.size())
      report("compute", "Compute of " + bname(s.buf) + " has " + std::to_string(s.coords.size()) +
                            " coordinates for rank " + std::to_string(b.shape.size()));
    if (scatter && s.index.size() != b.shape.size())
      report("compute", "scattering Compute into " + bname(s.buf) + " has " + std::to_string(s.index.size()) +
                            " indices for rank " + std::to_string(b.shape.size()));
    // Dense extents may be left implicit (buf's shape); a scatter's are its iteration space.
    if ((scatter || !s.extents.empty()) && s.extents.size() != s.coords.size())
      report("compute", "Compute has " + std::to_string(s.extents.size()) + " extents for " +
                            std::to_string(s.coords.size()) + " coordinates");
    for (const auto& e : s.extents)
      if (!is_integer(e->dtype)) report("compute", "Compute extent " + show(*e) + " is not of integer dtype");
    for (const auto& e : s.index)
      if (!is_integer(e->dtype)) report("compute", "Compute index " + show(*e) + " is not of integer dtype");
    for (VarId v : s.coords)
      if (var_ref(v, "Compute coordinate") && !is_integer(p_.var(v).dtype))
        report("compute", "coordinate " + vname(v) + " is not of integer dtype");
    if (!s.value) report("value-dtype", "Compute of " + bname(s.buf) + " has no value");
    else if (s.value->dtype != b.dtype)
      report("value-dtype", "Compute of a " + dt(s.value->dtype) + " value into " + dt(b.dtype) + " " + bname(s.buf));
  }

  void check_store(const Stmt& s) {
    if (!buffer_ref(s.buf, "Store")) return;
    writable(s.buf, "Store");
    const Buffer& b = p_.buf(s.buf);
    if (s.index.size() != b.shape.size())
      report("store", "Store into " + bname(s.buf) + " has " + std::to_string(s.index.size()) + " indices for rank " +
                          std::to_string(b.shape.size()));
    for (const auto& i : s.index)
      if (i && !is_integer(i->dtype)) report("store", "Store index " + show(*i) + " is not of integer dtype");
    if (!s.value) report("value-dtype", "Store into " + bname(s.buf) + " has no value");
    else if (s.value->dtype != b.dtype)
      report("value-dtype", "Store of a " + dt(s.value->dtype) + " value into " + dt(b.dtype) + " " + bname(s.buf));
  }

  // Rule [atomic]: a known "<what>.<order>" form, index and value rules like Store (load: may
  // read an In view), result vars of Let role with the element's dtype (cas: a bool flag).
  void check_atomic(const Stmt& s) {
    const size_t dot = s.op.rfind('.');
    const std::string what = s.op.substr(0, dot == std::string::npos ? 0 : dot);
    const std::string ord = dot == std::string::npos ? "" : s.op.substr(dot + 1);
    if (!one_of(what, {"load", "store", "rmw.exchange", "rmw.add", "rmw.max", "rmw.min", "rmw.and", "rmw.or", "rmw.xor",
                       "cas", "update"}) ||
        !one_of(ord, {"relaxed", "acquire", "release", "acq_rel"})) {
      report("atomic", "unknown atomic `" + s.op + "`");
      return;
    }
    if (!buffer_ref(s.buf, "Atomic")) return;
    if (what != "load") writable(s.buf, "Atomic " + what);
    const Buffer& b = p_.buf(s.buf);
    if (s.index.size() != b.shape.size())
      report("atomic", "Atomic on " + bname(s.buf) + " has " + std::to_string(s.index.size()) + " indices for rank " +
                           std::to_string(b.shape.size()));
    for (const auto& i : s.index)
      if (i && !is_integer(i->dtype)) report("atomic", "Atomic index " + show(*i) + " is not of integer dtype");
    const bool has_value = what != "load";
    if (has_value != static_cast<bool>(s.value))
      report("atomic", "Atomic " + what + (has_value ? " has no value" : " has a value"));
    if (s.value && s.value->dtype != b.dtype)
      report("value-dtype", "Atomic " + what + " of a " + dt(s.value->dtype) + " value on " + dt(b.dtype) + " " + bname(s.buf));
    if (s.detail.size() != (what == "cas" ? 1u : 0u)) report("atomic", "Atomic " + what + " has " + std::to_string(s.detail.size()) + " detail values");
    for (const auto& e : s.detail)
      if (e && e->dtype != b.dtype) report("value-dtype", "Atomic cas desired value " + show(*e) + " is not " + dt(b.dtype));
    const bool has_var = what != "store";
    if (has_var != (s.var != kNone)) report("atomic", "Atomic " + what + (has_var ? " has no result variable" : " has a result variable"));
    if (s.var != kNone && var_ref(s.var, "Atomic")) {
      if (p_.var(s.var).role != VarRole::Let) report("role", "Atomic defines " + vname(s.var) + ", which is not a Let variable");
      if (p_.var(s.var).dtype != b.dtype)
        report("value-dtype", "Atomic result " + vname(s.var) + " is " + dt(p_.var(s.var).dtype) + ", not " + dt(b.dtype));
    }
    if ((what == "cas") != (s.var2 != kNone)) report("atomic", "Atomic " + what + (what == "cas" ? " has no success flag" : " has a success flag"));
    if (s.var2 != kNone && var_ref(s.var2, "Atomic")) {
      if (p_.var(s.var2).role != VarRole::Let) report("role", "Atomic defines " + vname(s.var2) + ", which is not a Let variable");
      if (p_.var(s.var2).dtype != DType::Bool) report("value-dtype", "Atomic success flag " + vname(s.var2) + " is not bool");
    }
    if (what == "rmw.and" || what == "rmw.or" || what == "rmw.xor") {
      if (!is_integer(b.dtype) && b.dtype != DType::Bool) report("atomic", "Atomic " + what + " on " + dt(b.dtype) + " " + bname(s.buf));
    } else if (what == "rmw.add" || what == "rmw.max" || what == "rmw.min") {
      if (!is_integer(b.dtype) && !is_float(b.dtype)) report("atomic", "Atomic " + what + " on " + dt(b.dtype) + " " + bname(s.buf));
    }
  }

  void check_copy(const Stmt& s) {
    const bool dst = buffer_ref(s.buf, "Copy destination"), src = buffer_ref(s.src, "Copy source");
    if (!dst || !src) return;
    writable(s.buf, "Copy");
    const Buffer &d = p_.buf(s.buf), &r = p_.buf(s.src);
    if (d.dtype != r.dtype) report("copy", "Copy from " + dt(r.dtype) + " " + bname(s.src) + " into " + dt(d.dtype) + " " + bname(s.buf));
    if (d.shape.size() != r.shape.size())
      report("copy", "Copy from rank " + std::to_string(r.shape.size()) + " into rank " + std::to_string(d.shape.size()));
  }

  void check_loop(const Stmt& s) {
    var_ref(s.var, "Loop");
    const std::pair<const char*, const ExprP*> bounds[] = {{"lo", &s.lo}, {"hi", &s.hi}, {"step", &s.step}};
    for (const auto& [what, e] : bounds) {
      if (!*e) report("loop", std::string("Loop has no ") + what);
      else if (!is_integer((*e)->dtype)) report("loop", std::string("Loop ") + what + " " + show(**e) + " is not of integer dtype");
    }
    if (auto c = const_index(s.step); c && *c <= 0) report("loop", "Loop step " + std::to_string(*c) + " is not positive");
    if (s.block < 0) report("loop", "Loop block " + std::to_string(s.block) + " is negative");
  }

  void check_tasks_header(const Stmt& s) {
    var_ref(s.var, "Tasks");
    if (!s.hi) report("tasks", "Tasks has no task count (hi)");
    else if (!is_integer(s.hi->dtype)) report("tasks", "Tasks count " + show(*s.hi) + " is not of integer dtype");
    for (BufId b : s.captures) buffer_ref(b, "Tasks capture");
    for (BufId b : s.outputs) {
      buffer_ref(b, "Tasks output");
      writable(b, "Tasks output");
    }
  }

  void check_structured(const Stmt& s) {
    if (!o_.allow_structured) report("no-structured", "Structured remains after expansion (C7)");
    if (!s.structured) {
      report("structured", "Structured has no op");
      return;
    }
    const StructuredOp& op = *s.structured;
    for (BufId b : op.operands) buffer_ref(b, "Structured operand");
    for (BufId b : op.results)
      if (buffer_ref(b, "Structured result")) writable(b, "Structured " + op.kind);
    if (op.combine_lhs.size() != op.combine.size() || op.combine_rhs.size() != op.combine.size())
      report("structured", "combine has " + std::to_string(op.combine_lhs.size()) + " lhs, " +
                               std::to_string(op.combine_rhs.size()) + " rhs variables for " +
                               std::to_string(op.combine.size()) + " components");
    for (VarId v : op.combine_lhs) var_ref(v, "combine");
    for (VarId v : op.combine_rhs) var_ref(v, "combine");
    for (VarId v : op.coords) var_ref(v, "init coordinate");
  }

  // ------------------------------------------------------------ scope
  // Symbols, scalar parameters and carry slots are always in scope; Loop/Tasks vars inside
  // their body; Compute coords inside its value, index and guard; combine vars inside the
  // combine, init coords inside the init; Let vars after the Let until the end of its block.
  // A buffer's extents must be in scope where it is allocated.
  void check_scope() {
    bound_.assign(p_.vars.size(), 0);
    scope_block(p_.body.body);
  }
  void bind(VarId v, int d) {
    if (var_ok(v)) bound_[static_cast<size_t>(v)] += d;
  }
  bool in_scope(VarId v) const {
    const VarRole r = p_.var(v).role;
    return r == VarRole::Symbol || r == VarRole::Scalar || r == VarRole::Carry || bound_[static_cast<size_t>(v)] > 0;
  }
  void scope_expr(const Expr& e) {
    if (e.kind == ExprKind::Var && var_ok(e.var) && !in_scope(e.var))
      report("scope", vname(e.var) + " is used out of its scope");
    for (const auto& a : e.args)
      if (a) scope_expr(*a);
  }
  void scope_use(const ExprP& e) {
    if (e) scope_expr(*e);
  }
  void scope_block(const std::vector<StmtP>& list) {
    std::vector<VarId> lets;
    for (const auto& s : list) scope_stmt(*s, lets);
    for (VarId v : lets) bind(v, -1);
  }
  void scope_stmt(const Stmt& s, std::vector<VarId>& lets) {
    at(s);
    switch (s.kind) {
      case StmtKind::Loop:
      case StmtKind::Tasks:
        scope_use(s.lo), scope_use(s.hi), scope_use(s.step);
        bind(s.var, 1);
        scope_block(s.body);
        bind(s.var, -1);
        break;
      case StmtKind::Compute:
        for (const auto& e : s.extents) scope_use(e);
        for (VarId v : s.coords) bind(v, 1);
        scope_use(s.value), scope_use(s.guard);
        for (const auto& e : s.index) scope_use(e);
        for (VarId v : s.coords) bind(v, -1);
        break;
      case StmtKind::Let:
        scope_use(s.value);
        if (var_ok(s.var) && bound_[static_cast<size_t>(s.var)] > 0)
          report("scope", vname(s.var) + " is defined again while in scope");
        bind(s.var, 1);
        lets.push_back(s.var);
        break;
      case StmtKind::Alloc:
        if (buf_exists(s.buf))
          for (const auto& e : p_.buf(s.buf).shape) scope_use(e);
        break;
      case StmtKind::Atomic: {
        for (const auto& e : s.index) scope_use(e);
        for (const auto& e : s.detail) scope_use(e);
        const bool update = s.op.rfind("update", 0) == 0;
        if (update) bind(s.var, 1);
        scope_use(s.value);
        if (update) {
          bind(s.var, -1);
          break;
        }
        for (VarId v : {s.var, s.var2}) {
          if (v == kNone) continue;
          if (var_ok(v) && bound_[static_cast<size_t>(v)] > 0) report("scope", vname(v) + " is defined again while in scope");
          bind(v, 1);
          lets.push_back(v);
        }
        break;
      }
      case StmtKind::Structured:
        if (!s.structured) break;
        for (const auto& e : s.structured->scalars) scope_use(e);
        for (VarId v : s.structured->combine_lhs) bind(v, 1);
        for (VarId v : s.structured->combine_rhs) bind(v, 1);
        for (const auto& e : s.structured->combine) scope_use(e);
        for (VarId v : s.structured->combine_lhs) bind(v, -1);
        for (VarId v : s.structured->combine_rhs) bind(v, -1);
        for (VarId v : s.structured->coords) bind(v, 1);
        for (const auto& e : s.structured->init) scope_use(e);
        for (VarId v : s.structured->coords) bind(v, -1);
        break;
      default:
        for_each_expr(s, [&](const Expr& e) { scope_expr(e); });
        scope_block(s.body);
        scope_block(s.orelse);
        break;
    }
  }

  // ------------------------------------------------------------ control
  // Break/Continue leave the innermost Loop or While; a Tasks body is a function boundary.
  void check_control(const std::vector<StmtP>& list, bool in_loop) {
    for (const auto& s : list) {
      at(*s);
      if ((s->kind == StmtKind::Break || s->kind == StmtKind::Continue) && !in_loop)
        report("control", std::string(stmt_name(s->kind)) + " outside a Loop or While (or across a Tasks boundary)");
      const bool inner = s->kind == StmtKind::Loop || s->kind == StmtKind::While ? true
                         : s->kind == StmtKind::Tasks                             ? false
                                                                                  : in_loop;
      check_control(s->body, inner);
      check_control(s->orelse, inner);
    }
  }

  // ------------------------------------------------------------ task worksets
  // Every buffer written inside a Tasks body is one of its outputs and every buffer read is a
  // capture or an output — unless it is Local/Scratch storage allocated inside the body.
  static void loads_of(const Expr& e, std::vector<BufId>& out) {
    if (e.kind == ExprKind::Load) out.push_back(e.buf);
    for (const auto& a : e.args)
      if (a) loads_of(*a, out);
  }
  void check_task_workset(const Stmt& t) {
    // `parallel` is built as Tasks whose facts the partition pass derives later; once
    // resources are planned every Tasks must carry them.
    if (t.captures.empty() && t.outputs.empty() && !o_.require_resources) return;
    const std::string tasks = "stmt " + std::to_string(number_.at(&t));
    std::set<BufId> local;
    walk_stmts(t.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Alloc) local.insert(s.buf);
    });
    auto listed = [](const std::vector<BufId>& v, BufId b) { return std::find(v.begin(), v.end(), b) != v.end(); };
    walk_stmts(t.body, [&](const Stmt& s) {
      at(s);
      std::vector<BufId> writes, reads;
      switch (s.kind) {
        case StmtKind::Store:
        case StmtKind::Kernel:
        case StmtKind::Compute: writes.push_back(s.buf); break;
        case StmtKind::Atomic:
          if (s.op.rfind("load", 0) == 0) reads.push_back(s.buf);
          else writes.push_back(s.buf);
          break;
        case StmtKind::Copy: writes.push_back(s.buf), reads.push_back(s.src); break;
        case StmtKind::Structured:
          if (s.structured) {
            writes = s.structured->results;
            reads = s.structured->operands;
          }
          break;
        default: break;
      }
      for_each_expr(s, [&](const Expr& e) { loads_of(e, reads); });
      for (BufId b : writes)
        if (!local.count(b) && !listed(t.outputs, b))
          report("tasks", std::string(stmt_name(s.kind)) + " writes " + bname(b) + " inside Tasks (" + tasks +
                              ") but it is not among the task outputs");
      for (BufId b : reads)
        if (!local.count(b) && !listed(t.captures, b) && !listed(t.outputs, b))
          report("tasks", std::string(stmt_name(s.kind)) + " reads " + bname(b) + " inside Tasks (" + tasks +
                              ") but it is neither captured nor an output");
    });
  }

  // ------------------------------------------------------------ resources
  // Each used Local/Scratch buffer is allocated by an Alloc earlier in the same or an
  // enclosing block, not used after its Free, and freed before its Alloc's block ends.
  enum class Life { Unallocated, Live, Freed };
  void check_resources() {
    life_.assign(p_.bufs.size(), Life::Unallocated);
    alloc_at_.assign(p_.bufs.size(), nullptr);
    resource_block(p_.body.body);
  }
  bool owned(BufId b) const { return buf_exists(b) && p_.buf(b).kind != BufKind::View; }
  void use(BufId b) {
    if (!owned(b)) return;
    const Life l = life_[static_cast<size_t>(b)];
    if (l == Life::Unallocated) report("resources", bname(b) + " is used without an Alloc before it in scope");
    if (l == Life::Freed) report("resources", bname(b) + " is used after its Free");
  }
  void resource_block(const std::vector<StmtP>& list) {
    std::vector<BufId> here;
    for (const auto& s : list) resource_stmt(*s, here);
    for (BufId b : here) {
      auto& l = life_[static_cast<size_t>(b)];
      if (l == Life::Live) {
        at(*alloc_at_[static_cast<size_t>(b)]);
        report("resources", bname(b) + " is allocated here but never freed");
      }
      l = Life::Unallocated;
    }
  }
  void resource_stmt(const Stmt& s, std::vector<BufId>& here) {
    at(s);
    if (s.kind == StmtKind::Alloc || s.kind == StmtKind::Free) {
      if (!owned(s.buf)) return;
      auto& l = life_[static_cast<size_t>(s.buf)];
      if (s.kind == StmtKind::Alloc) {
        if (l == Life::Live) report("resources", bname(s.buf) + " is allocated twice");
        l = Life::Live;
        alloc_at_[static_cast<size_t>(s.buf)] = &s;
        here.push_back(s.buf);
      } else {
        if (l != Life::Live) report("resources", "Free of " + bname(s.buf) + ", which is not allocated");
        l = Life::Freed;
      }
      return;
    }
    std::vector<BufId> used;
    for_each_expr(s, [&](const Expr& e) { loads_of(e, used); });
    if (s.kind == StmtKind::Store || s.kind == StmtKind::Compute || s.kind == StmtKind::Copy || s.kind == StmtKind::Atomic ||
        s.kind == StmtKind::Kernel)
      used.push_back(s.buf);
    if (s.kind == StmtKind::Copy) used.push_back(s.src);
    if (s.kind == StmtKind::Structured && s.structured) {
      used.insert(used.end(), s.structured->operands.begin(), s.structured->operands.end());
      used.insert(used.end(), s.structured->results.begin(), s.structured->results.end());
    }
    for (BufId b : used) use(b);
    resource_block(s.body);
    resource_block(s.orelse);
  }

  const Program& p_;
  const VerifyOptions& o_;
  std::unordered_map<const Stmt*, int> number_;
  std::string where_;
  std::vector<std::string> msgs_;
  std::vector<int> bound_;
  std::vector<Life> life_;
  std::vector<const Stmt*> alloc_at_;
};

}  // namespace

std::vector<std::string> verify(const Program& p, const VerifyOptions& options) {
  return Verifier(p, options).run();
}

void verify_or_throw(const Program& p, const VerifyOptions& options, const std::string& after_pass) {
  const auto msgs = verify(p, options);
  if (msgs.empty()) return;
  std::string text = "CPU IR verification failed after pass `" + after_pass + "` (" + std::to_string(msgs.size()) +
                     (msgs.size() == 1 ? " violation):" : " violations):");
  for (const auto& m : msgs) text += "\n  " + m;
  throw std::logic_error(text);
}

}  // namespace kir::cpu
