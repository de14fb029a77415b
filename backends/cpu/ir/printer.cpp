// The CPU IR printer (printer.h). One line per buffer, variable and statement; nested bodies
// indented by two spaces and closed by "}". Expressions print as op.dtype(args...).
#include "backends/cpu/ir/printer.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "kir/type.h"
#include "numerics/value_text.h"

namespace kir::cpu {

namespace {

std::string dt(DType d) { return std::string(name(d)); }

const char* kind_name(BufKind k) {
  switch (k) {
    case BufKind::View: return "view";
    case BufKind::Local: return "local";
    case BufKind::Scratch: return "scratch";
  }
  return "?";
}

const char* role_name(VarRole r) {
  switch (r) {
    case VarRole::Symbol: return "symbol";
    case VarRole::Scalar: return "scalar";
    case VarRole::Loop: return "loop";
    case VarRole::Task: return "task";
    case VarRole::Let: return "let";
    case VarRole::Carry: return "carry";
  }
  return "?";
}

// Spells vars and buffers; var names get "#id" only when another var has the same name.
class Namer {
 public:
  explicit Namer(const Program& p) : p_(p) {
    for (const auto& v : p.vars) ++counts_[v.name];
  }
  std::string var(VarId v) const {
    if (v < 0 || static_cast<size_t>(v) >= p_.vars.size()) return "%?var" + std::to_string(v);
    const auto& n = p_.var(v).name;
    if (n.empty() || counts_.at(n) > 1) return "%" + n + "#" + std::to_string(v);
    return "%" + n;
  }
  std::string buf(BufId b) const {
    if (b < 0 || static_cast<size_t>(b) >= p_.bufs.size()) return "%?buf" + std::to_string(b);
    return "%" + p_.buf(b).name + "#" + std::to_string(b);
  }

 private:
  const Program& p_;
  std::map<std::string, int> counts_;
};

std::string const_text(const Expr& e) {
  if (e.dtype == DType::Index) return std::to_string(static_cast<int64_t>(e.bits));
  const num::Scalar s{e.dtype, e.bits};
  if (e.dtype == DType::Bool && e.bits <= 1) return num::format_value(s);
  // Out-of-width bits (an invalid constant) and NaNs (payload) print as their bit pattern.
  const bool fits = (e.bits & ~num::width_mask(e.dtype)) == 0;
  std::string v = fits ? num::format_value(s) : "";
  if (!fits || v == "nan" || e.dtype == DType::Bool) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(e.bits));
    v = buf;
  }
  return v + ":" + dt(e.dtype);
}

class Printer {
 public:
  explicit Printer(const Program& p) : p_(p), n_(p) {}

  std::string expr(const Expr& e) const {
    auto args = [&](size_t from = 0) {
      std::string s = "(";
      for (size_t i = from; i < e.args.size(); ++i) {
        if (i > from) s += ", ";
        s += e.args[i] ? expr(*e.args[i]) : "<null>";
      }
      return s + ")";
    };
    // op_id of a faulting op: "div.i32{op 3}(a, b)".
    const std::string id = e.op_id == kNone ? "" : "{op " + std::to_string(e.op_id) + "}";
    switch (e.kind) {
      case ExprKind::Const: return const_text(e);
      case ExprKind::Var: return n_.var(e.var);
      case ExprKind::Load: {
        std::string s = "load" + id + " " + n_.buf(e.buf) + "[";  // op id: a bounds-checked load
        for (size_t i = 0; i < e.args.size(); ++i)
          s += (i ? ", " : "") + (e.args[i] ? expr(*e.args[i]) : std::string("<null>"));
        s += "]";
        if (!buf_ok(e.buf) || p_.buf(e.buf).dtype != e.dtype) s += " as " + dt(e.dtype);
        return s;
      }
      case ExprKind::ViewDim: return "dim(" + n_.buf(e.buf) + ", " + std::to_string(e.axis) + ")";
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::Math: {
        std::string t = e.from == e.dtype ? dt(e.dtype) : dt(e.from) + "->" + dt(e.dtype);
        return e.op + "." + t + id + args();
      }
      case ExprKind::Compare: {
        std::string t = dt(e.from) + (e.dtype == DType::Bool ? "" : "->" + dt(e.dtype));
        return e.op + "." + t + id + args();
      }
      case ExprKind::Select: return "select." + dt(e.dtype) + id + args();
      case ExprKind::Cast: return "cast." + dt(e.from) + "->" + dt(e.dtype) + id + args();
      case ExprKind::Bitcast: return "bitcast." + dt(e.from) + "->" + dt(e.dtype) + id + args();
      case ExprKind::Random: return "random." + e.op + "." + dt(e.dtype) + id + args();
    }
    return "?";
  }

  std::string program() {
    out_ << "cpu.program @" << p_.kernel << " symbols(" << join(p_.symbols) << ")";
    if (!p_.symbol_vars.empty()) out_ << " symbol-vars(" << vars(p_.symbol_vars) << ")";
    if (!p_.view_params.empty()) out_ << " views(" << bufs(p_.view_params) << ")";
    if (!p_.scalar_params.empty()) out_ << " scalars(" << vars(p_.scalar_params) << ")";
    out_ << "\n";
    for (const auto& b : p_.bufs) buffer(b);
    for (const auto& v : p_.vars) {
      out_ << "  var " << n_.var(v.id) << " : " << dt(v.dtype) << " " << role_name(v.role);
      if (v.param != kNone) out_ << " param " << v.param;
      out_ << "\n";
    }
    for (size_t i = 0; i < p_.ops.size(); ++i)
      out_ << "  origin " << i << " " << p_.ops[i].name << " at " << p_.ops[i].location << "\n";
    if (!p_.config_row.empty()) out_ << "  row " << p_.config_row << "\n";
    for (const auto& b : p_.bindings) {
      out_ << "  binding op " << b.op_id << " " << b.implementation << " {";
      for (size_t i = 0; i < b.params.size(); ++i)
        out_ << (i ? ", " : "") << b.params[i].first << "=" << b.params[i].second;
      out_ << "}" << (b.order.empty() ? "" : " order " + b.order) << "\n";
    }
    out_ << "body:\n";
    // The program body is a Block; its own fields beyond `body` carry no meaning.
    for (const auto& s : p_.body.body) stmt(*s, 1);
    return out_.str();
  }

  std::string origin(int32_t op_id) const {
    if (op_id == kNone) return "";
    std::string s = "op " + std::to_string(op_id);
    if (op_id >= 0 && static_cast<size_t>(op_id) < p_.ops.size()) {
      const auto& o = p_.ops[static_cast<size_t>(op_id)];
      s += " (" + o.name + " at " + o.location + ")";
    }
    return s;
  }

 private:
  bool buf_ok(BufId b) const { return b >= 0 && static_cast<size_t>(b) < p_.bufs.size(); }

  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
  }
  std::string exprs(const std::vector<ExprP>& v) const {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + (v[i] ? expr(*v[i]) : std::string("<null>"));
    return s;
  }
  std::string opt_expr(const ExprP& e) const { return e ? expr(*e) : "<none>"; }
  std::string vars(const std::vector<VarId>& v) const {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + n_.var(v[i]);
    return s;
  }
  std::string bufs(const std::vector<BufId>& v) const {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + n_.buf(v[i]);
    return s;
  }

  void buffer(const Buffer& b) {
    const bool view = b.kind == BufKind::View;
    out_ << "  " << kind_name(b.kind) << " " << n_.buf(b.id) << " : ";
    if (view) out_ << access_name(b.access) << " ";
    out_ << dt(b.dtype) << "[" << exprs(b.shape) << "]";
    // View facts (shown for any buffer that has them), then resource facts.
    if (view || b.param != kNone) out_ << " param " << b.param;
    if (!b.extent_names.empty()) out_ << " extents(" << join(b.extent_names) << ")";
    if (view || b.static_strides) {
      out_ << " strides(";
      if (b.static_strides) {
        for (size_t i = 0; i < b.static_strides->size(); ++i)
          if ((*b.static_strides)[i] == kDynamicStride) out_ << (i ? ", " : "") << "?";
          else out_ << (i ? ", " : "") << (*b.static_strides)[i];
      } else {
        out_ << "dynamic";
      }
      out_ << ")";
    }
    if (view || b.static_offset) {
      out_ << " offset(";
      if (b.static_offset) out_ << *b.static_offset;
      else out_ << "dynamic";
      out_ << ")";
    }
    if (b.may_alias_outputs) out_ << " may-alias-outputs";
    if (!view && b.access != Access::In) out_ << " access " << access_name(b.access);
    if (!view || b.align != 64 || b.init != BufInit::None || b.owner != "call") {
      out_ << " align " << b.align << " init " << (b.init == BufInit::Zero ? "zero" : "none")
           << " owner " << b.owner;
    }
    if (!view || b.first_use != -1 || b.last_use != -1)
      out_ << " lifetime [" << b.first_use << ", " << b.last_use << "]";
    if (b.reuses != kNone) out_ << " reuses " << n_.buf(b.reuses);
    if (b.dead) out_ << " dead";
    out_ << "\n";
  }

  void line(int depth, const std::string& text, int32_t op_id) {
    out_ << std::string(static_cast<size_t>(depth) * 2, ' ') << text;
    if (op_id != kNone) out_ << "   // " << origin(op_id);
    out_ << "\n";
  }
  void nested(const std::vector<StmtP>& list, int depth) {
    for (const auto& s : list) stmt(*s, depth);
  }
  void close(int depth, const std::string& text = "}") {
    out_ << std::string(static_cast<size_t>(depth) * 2, ' ') << text << "\n";
  }

  void stmt(const Stmt& s, int d) {
    switch (s.kind) {
      case StmtKind::Block:
        line(d, "block {", s.op_id);
        nested(s.body, d + 1);
        close(d);
        break;
      case StmtKind::Compute: {
        // buf[coords] over buf's shape, or a scatter buf[index(coords)] for coords in extents.
        std::string t = "compute " + n_.buf(s.buf);
        if (s.index.empty()) t += "[" + vars(s.coords) + "]";
        else t += "[" + exprs(s.index) + "] for (" + vars(s.coords) + ")";
        if (!s.extents.empty()) t += " extents [" + exprs(s.extents) + "]";
        if (s.guard) t += " where " + expr(*s.guard);
        line(d, t + " = " + opt_expr(s.value), s.op_id);
        break;
      }
      case StmtKind::Loop: {
        std::string t = "loop " + n_.var(s.var) + " = " + opt_expr(s.lo) + " to " + opt_expr(s.hi) +
                        " step " + opt_expr(s.step);
        if (s.block != 0) t += " block " + std::to_string(s.block);
        line(d, t + " {", s.op_id);
        nested(s.body, d + 1);
        close(d);
        break;
      }
      case StmtKind::Tasks: {
        std::string t = "tasks " + n_.var(s.var) + " < " + opt_expr(s.hi);
        if (s.lo) t += " from " + expr(*s.lo);
        if (s.step) t += " step " + expr(*s.step);
        t += " captures(" + bufs(s.captures) + ") outputs(" + bufs(s.outputs) + ")";
        if (s.unique_writes) t += " unique-writes";
        line(d, t + " {", s.op_id);
        nested(s.body, d + 1);
        close(d);
        break;
      }
      case StmtKind::If:
        line(d, "if " + opt_expr(s.value) + " {", s.op_id);
        nested(s.body, d + 1);
        if (!s.orelse.empty()) {
          close(d, "} else {");
          nested(s.orelse, d + 1);
        }
        close(d);
        break;
      case StmtKind::While:
        if (s.cond_first) {
          line(d, "while " + opt_expr(s.value) + " {", s.op_id);
          nested(s.body, d + 1);
          close(d);
        } else {
          line(d, "do {", s.op_id);
          nested(s.body, d + 1);
          close(d, "} while " + opt_expr(s.value));
        }
        break;
      case StmtKind::Break: line(d, "break", s.op_id); break;
      case StmtKind::Continue: line(d, "continue", s.op_id); break;
      case StmtKind::Let: line(d, "let " + n_.var(s.var) + " = " + opt_expr(s.value), s.op_id); break;
      case StmtKind::Assign: line(d, "assign " + n_.var(s.var) + " = " + opt_expr(s.value), s.op_id); break;
      case StmtKind::Store:
        line(d, "store " + n_.buf(s.buf) + "[" + exprs(s.index) + "]" + (s.guard ? " where " + expr(*s.guard) : "") +
                    " = " + opt_expr(s.value),
             s.op_id);
        break;
      case StmtKind::Check: {
        std::string t = "check " + opt_expr(s.value) + " fault " + std::to_string(s.fault) + (s.stops ? " stops" : "");
        if (!s.index.empty()) t += " at [" + exprs(s.index) + "]";
        if (!s.detail.empty()) t += " detail(" + exprs(s.detail) + ")";
        line(d, t, s.op_id);
        break;
      }
      case StmtKind::Alloc: line(d, "alloc " + n_.buf(s.buf), s.op_id); break;
      case StmtKind::Free: line(d, "free " + n_.buf(s.buf), s.op_id); break;
      case StmtKind::Copy: line(d, "copy " + n_.buf(s.buf) + " = " + n_.buf(s.src), s.op_id); break;
      case StmtKind::Atomic: {
        // [%old[, %ok] =] atomic <op> %buf[index] [(value[, desired])]; update: "with %cur".
        std::string t;
        const bool update = s.op.rfind("update", 0) == 0;
        if (s.var != kNone && !update) t += n_.var(s.var);
        if (s.var2 != kNone) t += ", " + n_.var(s.var2);
        if (!t.empty()) t += " = ";
        t += "atomic " + s.op + " " + n_.buf(s.buf) + "[" + exprs(s.index) + "]";
        if (update) t += " with " + n_.var(s.var);
        if (s.value) t += " (" + expr(*s.value) + (s.detail.empty() ? "" : ", " + exprs(s.detail)) + ")";
        line(d, t, s.op_id);
        break;
      }
      case StmtKind::Structured: line(d, structured(s.structured.get()), s.op_id); break;
      case StmtKind::Cover: {
        // cover <first cell>[..] by <selector>
        std::string t = "cover " + (s.cell >= 0 && static_cast<size_t>(s.cell) < p_.cover_cells.size() ? p_.cover_cells[static_cast<size_t>(s.cell)] : std::string("?"));
        if (s.value) t += ".. by " + expr(*s.value);
        line(d, t, s.op_id);
        break;
      }
      case StmtKind::Kernel:
        line(d, "kernel " + s.op + " " + n_.buf(s.buf) + "[" + exprs(s.index) + "] (" + exprs(s.detail) + ")", s.op_id);
        break;
    }
  }

  std::string structured(const StructuredOp* op) const {
    if (!op) return "structured <none>";
    std::string t = "structured " + op->kind + "(" + bufs(op->operands);
    if (!op->scalars.empty()) t += "; " + exprs(op->scalars);
    t += ") -> (" + bufs(op->results) + ") acc " + dt(op->acc) + " impl \"" + op->implementation + "\"";
    if (!op->attrs.empty()) {
      t += " attrs {";
      bool first = true;
      for (const auto& [k, a] : op->attrs) {
        t += (first ? "" : ", ") + k + " = " + a.str();
        first = false;
      }
      t += "}";
    }
    if (!op->combine_lhs.empty() || !op->combine_rhs.empty() || !op->combine.empty()) {
      if (op->combine_lhs.size() == 1 && op->combine_rhs.size() == 1 && op->combine.size() == 1)
        t += " combine(" + n_.var(op->combine_lhs[0]) + ", " + n_.var(op->combine_rhs[0]) + ") = " +
             opt_expr(op->combine[0]);
      else
        t += " combine([" + vars(op->combine_lhs) + "], [" + vars(op->combine_rhs) + "]) = [" +
             exprs(op->combine) + "]";
    }
    if (!op->coords.empty() || !op->init.empty())
      t += " init(" + vars(op->coords) + ") = [" + exprs(op->init) + "]";
    if (const Stmt* e = op->epilogue.get())
      t += " epilogue " + n_.buf(e->buf) + "[" + (e->index.empty() ? vars(e->coords) : exprs(e->index)) + "] for (" +
           vars(e->coords) + ") = " + opt_expr(e->value);
    return t;
  }

  const Program& p_;
  Namer n_;
  std::ostringstream out_;
};

}  // namespace

std::string print(const Program& p) { return Printer(p).program(); }
std::string print_expr(const Program& p, const Expr& e) { return Printer(p).expr(e); }
std::string var_name(const Program& p, VarId v) { return Namer(p).var(v); }
std::string buf_name(const Program& p, BufId b) { return Namer(p).buf(b); }
std::string origin_text(const Program& p, int32_t op_id) { return Printer(p).origin(op_id); }

}  // namespace kir::cpu
