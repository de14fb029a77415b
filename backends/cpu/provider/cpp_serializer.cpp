// Spelling of the CPU IR as C++ (cpp_serializer.h). Scalars are C++ locals named v<id>,
// buffers b<id> with extents b<id>_n<k> and strides b<id>_s<k> (row-major for resources, the
// ABI's for views unless the view type fixes them); every scalar rule is a kir_rt.h function
// (<op>_<dtype>, cast_<from>_<to>), fallible ones note a status the statement checks after it.
#include "backends/cpu/provider/cpp_serializer.h"

#include <optional>
#include <sstream>

#include "backends/cpu/ir/ukernels.h"
#include "backends/cpu/mutants/mutants.h"
#include "numerics/math.h"

namespace kir::cpu {
namespace {

std::string dt(DType d) { return std::string(name(d)); }

bool cast_can_fail(DType from, DType to) {
  return is_any_float(from) && from != DType::E2M1 && (is_integer(to) || to == DType::E2M1);
}

class Writer {
 public:
  explicit Writer(const Program& p) : P(p) {}
  const Program& P;
  std::ostringstream out;
  int indent = 1;
  std::vector<VarId> coords;  // enclosing loop/task variables (fault coordinates)
  int task_depth = 0;         // inside a task body (a lambda): `return;` leaves the task
  // The fault order of the code being written (kir_gen::fault): the task variable of the ordered
  // partition it is in, or kir_gen::kUnordered.
  static constexpr const char* kUnordered = "kir_gen::kUnordered";
  std::string fault_order = kUnordered;
  // The fault order as a trailing argument of kir_gen::fault/stopped ("" when unordered).
  std::string order_arg() const { return fault_order == kUnordered ? "" : ", " + fault_order; }

  std::ostream& line() {
    for (int i = 0; i < indent; ++i) out << "  ";
    return out;
  }
  std::string var(VarId v) const { return "v" + std::to_string(v); }
  std::string buf(BufId b) const { return "b" + std::to_string(b); }

  std::string constant(DType d, uint64_t bits) const {
    std::ostringstream s;
    switch (d) {
      case DType::F32: s << "kir_rt::f32_from_bits(0x" << std::hex << bits << "u)"; break;
      case DType::F64: s << "kir_rt::f64_from_bits(0x" << std::hex << bits << "ull)"; break;
      default: s << cpp_type(d) << "(0x" << std::hex << bits << "ull)"; break;
    }
    return s.str();
  }

  std::string offset(BufId b, const std::vector<ExprP>& idx) {
    const Buffer& B = P.buf(b);
    std::string o;
    for (size_t k = 0; k < idx.size(); ++k) {
      std::string term = "(" + expr(*idx[k]) + ")";
      bool unit = B.kind != BufKind::View && k + 1 == idx.size();
      if (B.kind == BufKind::View && B.static_strides && (*B.static_strides)[k] == 1) unit = true;
      if (B.kind == BufKind::View && k + 1 == idx.size() && mutant_active(MutantId::StridedViewAsUnit)) unit = true;
      if (!unit) term += " * " + buf(b) + "_s" + std::to_string(k);
      o += (o.empty() ? "" : " + ") + term;
    }
    return o.empty() ? "0" : o;
  }

  std::string in_bounds(BufId b, const std::vector<ExprP>& idx) {
    std::string c;
    for (size_t k = 0; k < idx.size(); ++k)
      c += (c.empty() ? "" : " & ") + std::string("kir_gen::inb(") + expr(*idx[k]) + ", " + buf(b) + "_n" +
           std::to_string(k) + ")";
    return c.empty() ? "true" : c;
  }

  std::string expr(const Expr& e) {
    const std::string T = cpp_type(e.dtype);
    auto a = [&](size_t i) { return expr(*e.args[i]); };
    switch (e.kind) {
      case ExprKind::Const: return constant(e.dtype, e.bits);
      case ExprKind::Var: return var(e.var);
      case ExprKind::ViewDim: return buf(e.buf) + "_n" + std::to_string(e.axis);
      case ExprKind::Load: {
        std::string ld = buf(e.buf) + "[" + offset(e.buf, e.args) + "]";
        if (e.op_id < 0) return ld;
        return "(" + in_bounds(e.buf, e.args) + " ? " + ld + " : kir_gen::oob<" + T + ">(st_, " +
               std::to_string(e.op_id) + "))";
      }
      case ExprKind::Unary: {
        std::string op = e.op;
        if (op == "not" && e.dtype == DType::Bool) return "kir_rt::not_bool(" + a(0) + ")";
        if (op == "ftz") return "kir_gen::ftz(" + a(0) + ")";
        return "kir_rt::" + op + "_" + dt(e.dtype) + "(" + a(0) + ")";
      }
      case ExprKind::Binary: {
        if (e.op == "floordiv") return "kir_gen::floordiv(" + a(0) + ", " + a(1) + ")";
        // Proved not to overflow: plain signed arithmetic, which the C++ compiler can analyze as
        // an induction (a wrapping sum defeats its dependence analysis, so no vectorization).
        if (e.op == "add_nw") return "(" + a(0) + " + " + a(1) + ")";
        if (e.op == "pow" || (e.op == "rem" && is_any_float(e.dtype))) {
          if (!is_any_float(e.dtype))
            throw std::runtime_error("not implemented: `" + e.op + "` on " + dt(e.dtype) + " on the CPU backend");
          return "kir_random::host_binary<" + T + ">(call, " + (e.op == "pow" ? "KIR_BINARY_POW" : "KIR_BINARY_REM") +
                 ", " + std::to_string(static_cast<int>(e.dtype)) + ", " + a(0) + ", " + a(1) + ")";
        }
        if (e.op == "add" && (e.dtype == DType::F32 || e.dtype == DType::F64) && mutant_active(MutantId::FmaContraction))
          for (size_t i = 0; i < 2; ++i)
            if (e.args[i]->kind == ExprKind::Binary && e.args[i]->op == "mul" && e.args[i]->dtype == e.dtype)
              return "kir_rt::canon_" + dt(e.dtype) + "(std::fma(" + expr(*e.args[i]->args[0]) + ", " +
                     expr(*e.args[i]->args[1]) + ", " + a(1 - i) + "))";
        bool fallible = is_integer(e.dtype) && (e.op == "div" || e.op == "rem" || e.op == "shl" || e.op == "shr");
        std::string f = "kir_rt::" + e.op + "_" + dt(e.dtype);
        if (!fallible) return f + "(" + a(0) + ", " + a(1) + ")";
        return "kir_gen::fl<" + T + ">(st_, " + std::to_string(e.op_id) + ", [&](" + T + "* o_) { return " + f + "(" +
               a(0) + ", " + a(1) + ", o_); })";
      }
      case ExprKind::Compare:
        return "uint8_t(kir_rt::" + e.op + "_" + dt(e.from) + "(" + a(0) + ", " + a(1) + "))";
      case ExprKind::Select:
        // A KIR select (it has an op) whose operand can fault evaluates both operands, as the
        // interpreter does; a guard the backend made (a masked load's fill) evaluates only one.
        if (e.op_id >= 0 && (may_fault(*e.args[1]) || may_fault(*e.args[2])))
          return "kir_gen::sel<" + T + ">(" + a(0) + ", " + a(1) + ", " + a(2) + ")";
        return "(" + a(0) + " ? " + a(1) + " : " + a(2) + ")";
      case ExprKind::Cast: {
        std::string f = "kir_rt::cast_" + dt(e.from) + "_" + dt(e.dtype);
        if (!cast_can_fail(e.from, e.dtype)) return f + "(" + a(0) + ")";
        return "kir_gen::fl<" + T + ">(st_, " + std::to_string(e.op_id) + ", [&](" + T + "* o_) { return " + f + "(" +
               a(0) + ", o_); })";
      }
      case ExprKind::Bitcast: return "kir_rt::bitcast<" + T + ">(" + a(0) + ")";
      case ExprKind::Math: {
        auto fn = num::parse_math_fn(e.op);
        if (!fn) throw std::runtime_error("not implemented: math function `" + e.op + "` on the CPU backend");
        // The vectorizable correctly rounded versions (rt/kir_vmath.h) where there is one.
        // (Not sigmoid: evaluated in double it misrounds near 0, where 1/2 + x/4 is an f32 midpoint.)
        if (e.dtype == DType::F32 && (*fn == num::MathFn::Exp || *fn == num::MathFn::Exp2 || *fn == num::MathFn::Erf ||
                                      *fn == num::MathFn::Tanh || *fn == num::MathFn::Log || *fn == num::MathFn::Log1p ||
                                      *fn == num::MathFn::Sin || *fn == num::MathFn::Cos || *fn == num::MathFn::Rsqrt))
          return "kir_vmath::" + std::string(num::name(*fn)) + "_f32(" + a(0) + ")";
        return "kir_gen::math<" + T + ">(call, " + std::to_string(static_cast<int>(*fn)) + ", " +
               std::to_string(static_cast<int>(e.dtype)) + ", " + a(0) + ")";
      }
      case ExprKind::Random: {
        // An index counter is checked (negative: invalid value); a u64 counter is taken as is.
        std::string ctr = "kir_random::counter(" + a(1) + ")";
        if (e.args[1]->dtype == DType::Index)
          ctr = "kir_gen::fl<uint64_t>(st_, " + std::to_string(e.op_id) + ", [&](uint64_t* o_) { return kir_random::counter(" +
                a(1) + ", o_); })";
        if (mutant_active(MutantId::RandomCounterOffByOne)) ctr = "(" + ctr + " + 1u)";
        std::string bits = "kir_random::bits(" + a(0) + ", " + ctr + ")";
        if (e.op == "bits") return bits;
        return "kir_random::uniform_" + dt(e.dtype) + "(" + bits + ")";
      }
    }
    return "";
  }

  // Leaves the call (or the task) after a fault: every fault ends the run.
  std::string leave() const { return task_depth ? "return;" : "return 1;"; }
  bool runs_on() const { return mutant_active(MutantId::FaultRunsOn); }

  void check_status() {
    line() << "if (__builtin_expect(st_ != 0, 0)) { kir_gen::fault(call, st_, {";
    for (size_t i = 0; i < coords.size(); ++i) out << (i ? ", " : "") << var(coords[i]);
    out << "}" << order_arg() << "); " << (runs_on() ? "st_ = 0;" : leave())
        << " }\n";
  }

  // Inside a task, a fault elsewhere ends this task's work too (kir_gen::stopped).
  void check_stopped() {
    if (task_depth && !runs_on())
      line() << "if (__builtin_expect(kir_gen::stopped(call" << order_arg()
             << "), 0)) return;\n";
  }

  // Whether a loop's body asks check_stopped: it holds more loops or something that can fault
  // (a loop of plain arithmetic alone stays free of it, for the C++ compiler's vectorizer).
  static bool asks_stopped(const Stmt& loop) {
    bool nested = false;
    walk_stmts(loop.body, [&](const Stmt& c) {
      nested = nested || c.kind == StmtKind::Loop || c.kind == StmtKind::Tasks || c.kind == StmtKind::While;
    });
    if (nested) return true;
    for (const auto& c : loop.body)
      if (may_fault(*c)) return true;
    return false;
  }

  // Carry variables assigned in `list` outside nested Tasks: declared at the top of the body.
  void declare_carries(const std::vector<StmtP>& list) {
    std::vector<VarId> seen;
    std::function<void(const std::vector<StmtP>&)> scan = [&](const std::vector<StmtP>& l) {
      for (const auto& s : l) {
        if (s->kind == StmtKind::Tasks) continue;
        if (s->kind == StmtKind::Assign && P.var(s->var).role == VarRole::Carry &&
            std::find(seen.begin(), seen.end(), s->var) == seen.end())
          seen.push_back(s->var);
        scan(s->body);
        scan(s->orelse);
      }
    };
    scan(list);
    for (VarId v : seen) line() << cpp_type(P.var(v).dtype) << " " << var(v) << "{};\n";
  }

  // The element count of a resource, from the extents its Alloc declared.
  std::optional<int64_t> constant_elements(BufId b) const {
    int64_t n = 1;
    for (const auto& e : P.buf(b).shape) {
      auto c = const_index(e);
      if (!c || *c < 0 || *c > 4096) return std::nullopt;
      n *= *c;
    }
    return n;
  }

  std::string element_count(BufId b) const {
    std::string n = "1";
    for (size_t k = 0; k < P.buf(b).shape.size(); ++k) n += " * " + buf(b) + "_n" + std::to_string(k);
    return n;
  }

  void extents_and_strides(BufId b) {
    const Buffer& B = P.buf(b);
    for (size_t k = 0; k < B.shape.size(); ++k)
      line() << "const int64_t " << buf(b) << "_n" << k << " = " << expr(*B.shape[k]) << ";\n";
    // Row-major strides.
    for (size_t k = B.shape.size(); k-- > 0;) {
      line() << "const int64_t " << buf(b) << "_s" << k << " = ";
      if (k + 1 == B.shape.size()) out << "1;\n";
      else out << buf(b) << "_s" << (k + 1) << " * " << buf(b) << "_n" << (k + 1) << ";\n";
    }
  }

  void stmts(const std::vector<StmtP>& list) {
    for (const auto& s : list) stmt(*s);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Block:
        line() << "{\n";
        ++indent;
        stmts(s.body);
        --indent;
        line() << "}\n";
        return;
      case StmtKind::Loop:
        line() << "for (int64_t " << var(s.var) << " = " << expr(*s.lo) << ", " << var(s.var) << "_end = " << expr(*s.hi)
               << "; " << var(s.var) << " < " << var(s.var) << "_end; " << var(s.var) << " += " << expr(*s.step) << ") {\n";
        ++indent;
        if (asks_stopped(s)) check_stopped();
        coords.push_back(s.var);
        stmts(s.body);
        coords.pop_back();
        --indent;
        line() << "}\n";
        return;
      case StmtKind::Tasks: {
        std::string name = "task" + std::to_string(s.var);
        line() << "{  // tasks: workset [0, n), captures";
        for (BufId b : s.captures) out << " " << P.buf(b).name;
        out << "; outputs";
        for (BufId b : s.outputs) out << " " << P.buf(b).name;
        out << (s.unique_writes ? "; unique writes" : "") << "\n";
        ++indent;
        line() << "auto " << name << " = [&](int64_t " << var(s.var) << ") {\n";
        ++indent;
        line() << "kir_gen::Status st_ = 0;\n";
        ++task_depth;
        // The blocks of a partitioned loop run in the language's order of the loop: the fault of
        // the lowest block is the first (its tasks are an ordered partition).
        const std::string outer = fault_order;
        if (s.unique_writes && fault_order == kUnordered) fault_order = var(s.var);
        check_stopped();
        declare_carries(s.body);
        // A `parallel` point is a fault coordinate; the blocks of a partitioned loop are not
        // (the loop's own variable inside says which element).
        if (!s.unique_writes) coords.push_back(s.var);
        stmts(s.body);
        if (!s.unique_writes) coords.pop_back();
        fault_order = outer;
        --task_depth;
        --indent;
        line() << "};\n";
        line() << "kir_gen::run_tasks(call, " << expr(*s.hi) << ", " << name << ");\n";
        if (!runs_on()) {
          if (task_depth) check_stopped();
          else line() << "if (__builtin_expect(call->faulted != 0, 0)) return 1;\n";
        }
        --indent;
        line() << "}\n";
        return;
      }
      case StmtKind::If:
        line() << "if (" << expr(*s.value) << ") {\n";
        ++indent;
        stmts(s.body);
        --indent;
        if (!s.orelse.empty()) {
          line() << "} else {\n";
          ++indent;
          stmts(s.orelse);
          --indent;
        }
        line() << "}\n";
        return;
      case StmtKind::While:
        // A runaway loop is a located fault, not a hang (the interpreter's step budget).
        line() << "for (int64_t it_" << s.op_id << "_" << indent << " = 0;; ++it_" << s.op_id << "_" << indent << ") {\n";
        ++indent;
        if (runs_on())
          line() << "if (it_" << s.op_id << "_" << indent - 1 << " >= 2000000000 || call->faulted) { "
                 << "if (!call->faulted) kir_gen::fault(call, (kir_gen::Status(" << s.op_id << ") << 8) | KIR_FAULT_BUDGET, {}); break; }\n";
        else
          line() << "if (it_" << s.op_id << "_" << indent - 1 << " >= 2000000000) { kir_gen::fault(call, (kir_gen::Status("
                 << s.op_id << ") << 8) | KIR_FAULT_BUDGET, {}" << order_arg()
                 << "); " << leave() << " }\n";
        check_stopped();
        stmts(s.body);
        --indent;
        line() << "}\n";
        return;
      case StmtKind::Break: line() << "break;\n"; return;
      case StmtKind::Continue: line() << "continue;\n"; return;
      case StmtKind::Let:
        if (P.var(s.var).name.ends_with("_probe"))  // passes/fusion.cpp probe_of
          line() << "// %" << P.var(s.var).name << ": evaluated for its faults alone\n";
        line() << "const " << cpp_type(P.var(s.var).dtype) << " " << var(s.var) << " = " << expr(*s.value) << ";\n";
        if (exprs_may_fault(s)) check_status();
        return;
      case StmtKind::Assign:
        line() << var(s.var) << " = " << expr(*s.value) << ";\n";
        if (exprs_may_fault(s)) check_status();
        return;
      case StmtKind::Store: {
        std::string dst = buf(s.buf) + "[" + offset(s.buf, s.index) + "]";
        if (s.op_id >= 0) {
          line() << "if (" << in_bounds(s.buf, s.index) << ") " << dst << " = " << expr(*s.value)
                 << "; else kir_gen::note(st_, " << s.op_id << ", KIR_FAULT_OUT_OF_BOUNDS);\n";
          check_status();
        } else {
          line() << dst << " = " << expr(*s.value) << ";\n";
          if (exprs_may_fault(s)) check_status();
        }
        return;
      }
      case StmtKind::Check:
        line() << "if (!(" << expr(*s.value) << ")) kir_gen::note(st_, " << s.op_id << ", " << s.fault << ");\n";
        check_status();
        if (s.stops) line() << "if (call->faulted) return" << (task_depth ? "" : " 1") << ";\n";
        return;
      case StmtKind::Alloc: {
        const Buffer& B = P.buf(s.buf);
        line() << "// " << B.name << ": owner " << B.owner << ", lifetime [" << B.first_use << ", " << B.last_use << "]\n";
        extents_and_strides(s.buf);
        if (B.reuses != kNone) {  // the storage of an earlier buffer whose lifetime has ended
          line() << "auto& " << buf(s.buf) << " = " << buf(B.reuses) << ";\n";
          return;
        }
        // Small scratch of a constant size (lane accumulators) lives on the stack, where the C++
        // compiler can keep it in registers.
        if (auto n = constant_elements(s.buf); B.kind == BufKind::Scratch && n && *n * ((info(B.dtype).bits + 7) / 8) <= 4096) {
          line() << "kir_gen::StackBuf<" << cpp_type(B.dtype) << ", " << *n << "> " << buf(s.buf) << ";\n";
          return;
        }
        line() << "kir_gen::Buf<" << cpp_type(B.dtype) << "> " << buf(s.buf) << "(call, " << element_count(s.buf) << ");\n";
        // A failed allocation is a fault (already recorded): nothing may touch the storage.
        line() << "if (!" << buf(s.buf) << ".data()) return" << (task_depth ? "" : " 1") << ";\n";
        return;
      }
      case StmtKind::Free:
        if (P.buf(s.buf).reuses != kNone) line() << "// " << P.buf(s.buf).name << " ends (storage of " << P.buf(P.buf(s.buf).reuses).name << ")\n";
        else line() << buf(s.buf) << ".reset();\n";
        return;
      case StmtKind::Copy:
        line() << "kir_gen::copy(" << buf(s.buf) << ".data(), " << buf(s.src) << ".data(), " << element_count(s.buf) << ");\n";
        return;
      case StmtKind::Atomic: atomic(s); return;
      case StmtKind::Kernel: kernel(s); return;
      case StmtKind::Cover:
        line() << "if (call->cover) kir_gen::cover(call, " << s.cell << (s.value ? " + " + expr(*s.value) : std::string()) << ");\n";
        return;
      case StmtKind::Compute:
      case StmtKind::Structured:
        throw std::runtime_error("internal: the serializer met an unlegalized statement");
    }
  }

  // The row and column strides of a micro-kernel's C block: its last two axes.
  std::string block_strides(BufId b) {
    const size_t r = P.buf(b).shape.size();
    return buf(b) + "_s" + std::to_string(r - 2) + ", " + buf(b) + "_s" + std::to_string(r - 1);
  }

  // One Kernel statement: a call of the catalog's micro-kernel (ir/ukernels.h, rt/kir_uk.h).
  void kernel(const Stmt& s) {
    auto addr = [&](const Expr& e) { return "&" + buf(e.buf) + "[" + offset(e.buf, e.args) + "]"; };
    // The stride of e's buffer along the axis the constant detail[i] names.
    auto stride = [&](const Expr& e, size_t i) { return buf(e.buf) + "_s" + std::to_string(*const_index(s.detail[i])); };
    if (auto k = parse_pack_ukernel(s.op)) {
      const Expr& src = *s.detail[0];
      const std::string S = cpp_type(k->src), T = cpp_type(k->panel);
      // The exact conversion into the panel's form (the catalog's convert).
      std::string convert = "x";
      if (k->bf16()) {
        line() << "kir_uk::pack_bf16<" << k->w << ">(&" << buf(s.buf) << "[" << offset(s.buf, s.index) << "], "
               << addr(src) << ", " << stride(src, 1) << ", " << stride(src, 2) << ", " << expr(*s.detail[3]) << ", "
               << expr(*s.detail[4]) << ", " << expr(*s.detail[5]) << ", " << addr(*s.detail[6]) << ", "
               << expr(*s.detail[7]) << ");\n";
        return;
      }
      if (k->integer() && k->src != k->panel) convert = T + "(uint8_t(x) ^ 0x80u)";
      else if (k->src != k->panel) convert = "kir_rt::cast_" + dt(k->src) + "_" + dt(k->panel) + "(x)";
      line() << "kir_uk::pack<" << k->w << ", " << k->group() << ">(&" << buf(s.buf) << "[" << offset(s.buf, s.index)
             << "], " << addr(src) << ", " << stride(src, 1) << ", " << stride(src, 2) << ", " << expr(*s.detail[3]) << ", " << expr(*s.detail[4]) << ", "
             << expr(*s.detail[5]) << ", [](" << S << " x) { return " << convert << "; }";
      if (k->integer()) out << ", " << addr(*s.detail[6]) << ", " << expr(*s.detail[7]);
      out << ");\n";
      return;
    }
    if (auto v = parse_gemv_ukernel(s.op)) {
      const Expr& A = *s.detail[0];
      const Expr& B = *s.detail[3];
      const std::string C = buf(s.buf);
      line() << "kir_uk::gemv<" << cpp_type(v->dtype) << ">(&" << C << "["
             << offset(s.buf, s.index) << "], " << block_strides(s.buf) << ", " << addr(A) << ", " << stride(A, 1) << ", "
             << stride(A, 2) << ", " << addr(B) << ", " << stride(B, 4) << ", " << stride(B, 5) << ", "
             << expr(*s.detail[6]) << ", " << expr(*s.detail[7]) << ", " << expr(*s.detail[8]) << ");\n";
      return;
    }
    if (auto q = parse_qdot_ukernel(s.op)) {
      // Each field's address and strides (ir/ukernels.h): d and dmin one stride along their last
      // axis; the others a block stride and an element stride, from [..., NB, per] (one rank
      // more than their record's d) or [..., NB * per].
      line() << "kir_uk::qdot_q4k_q8k_" << q->isa << "(&" << buf(s.buf) << "[" << offset(s.buf, s.index) << "]";
      for (size_t i = 0; i < 7; ++i) {
        const Expr& e = *s.detail[i];
        const size_t r = P.buf(e.buf).shape.size(), rd = P.buf(s.detail[i < 4 ? 0 : 4]->buf).shape.size();
        const std::string B = buf(e.buf), last = B + "_s" + std::to_string(r - 1);
        out << ", " << addr(e) << ", ";
        const int64_t per = qdot_field_per_block(i);
        if (per == 1) out << last;
        else if (r == rd + 1) out << B << "_s" << (r - 2) << ", " << last;
        else out << per << " * " << last << ", " << last;
      }
      out << ", " << expr(*s.detail[7]) << ");\n";
      return;
    }
    auto g = parse_gemm_ukernel(s.op);
    if (!g) throw std::runtime_error("internal: unknown micro-kernel `" + s.op + "`");
    const std::string C = buf(s.buf);
    const std::string tmpl = g->integer() ? "kir_uk::igemm_" + g->isa + "<"
                             : g->bf16    ? "kir_uk::bgemm_" + g->isa + "<"
                             : g->sparse  ? "kir_uk::sgemm_" + g->isa + "<" + cpp_type(g->dtype) + ", "
                                          : "kir_uk::gemm_" + g->isa + "<" + cpp_type(g->dtype) + ", ";
    line() << tmpl << g->mr << ", " << g->nv << ">(&" << C << "[" << offset(s.buf, s.index) << "], " << block_strides(s.buf)
           << ", " << addr(*s.detail[0]) << ", " << addr(*s.detail[1]) << ", " << expr(*s.detail[2]) << ", "
           << expr(*s.detail[3]) << ", " << expr(*s.detail[4]) << ", " << expr(*s.detail[5]);
    if (g->side_args()) out << ", " << addr(*s.detail[6]) << ", " << addr(*s.detail[7]);
    if (g->sparse) out << ", " << addr(*s.detail[6]);
    if (!g->integer()) out << ", " << expr(*s.detail[g->last_arg()]);
    out << ");\n";
  }

  // One Atomic statement (cpu_ir.h): the operands are evaluated once, then the access is one
  // kir_atomic.h call on the element (none when the index is outside buf and op_id is set).
  void atomic(const Stmt& s) {
    const Buffer& B = P.buf(s.buf);
    const std::string T = cpp_type(B.dtype), d = dt(B.dtype);
    const size_t dot = s.op.rfind('.');
    const std::string what = s.op.substr(0, dot), ord = dot == std::string::npos ? "" : s.op.substr(dot + 1);
    std::string order;
    if (ord == "relaxed") order = "__ATOMIC_RELAXED";
    else if (ord == "acquire") order = "__ATOMIC_ACQUIRE";
    else if (ord == "release") order = "__ATOMIC_RELEASE";
    else if (ord == "acq_rel") order = "__ATOMIC_ACQ_REL";
    else throw std::runtime_error("internal: atomic `" + s.op + "` without a memory order");
    std::vector<ExprP> at = s.index;
    if (!at.empty() && mutant_active(MutantId::AtomicWrongElement)) at.back() = make_index(0);
    const std::string ptr = "&" + buf(s.buf) + "[" + offset(s.buf, at) + "]";
    if (s.var != kNone && what != "update") line() << T << " " << var(s.var) << "{};\n";
    if (s.var2 != kNone) line() << "uint8_t " << var(s.var2) << "{};\n";
    line() << "{\n";
    ++indent;
    if (s.value && what != "update") line() << "const " << T << " a_ = " << expr(*s.value) << ";\n";
    if (!s.detail.empty()) line() << "const " << T << " d_ = " << expr(*s.detail[0]) << ";\n";
    std::string res = s.var != kNone && what != "update" ? var(s.var) + " = " : "";
    std::string call;
    auto via_update = [&](const std::string& f) {
      return "kir_atomic::update(" + ptr + ", [&](" + T + " o_) { return kir_rt::" + f + "_" + d + "(o_, a_); }, " + order + ")";
    };
    const bool native = is_integer(B.dtype);  // wrapping fetch-ops compute the language's result
    if (what == "load") call = "kir_atomic::load(" + ptr + ", " + order + ")";
    else if (what == "store") call = "kir_atomic::store(" + ptr + ", a_, " + order + ")";
    else if (what == "rmw.exchange") call = "kir_atomic::exchange(" + ptr + ", a_, " + order + ")";
    else if (what == "rmw.add") call = native ? "kir_atomic::fetch_add(" + ptr + ", a_, " + order + ")" : via_update("add");
    else if (what == "rmw.and" || what == "rmw.or" || what == "rmw.xor")
      call = "kir_atomic::fetch_" + what.substr(4) + "(" + ptr + ", a_, " + order + ")";
    else if (what == "rmw.max" || what == "rmw.min") call = via_update(what.substr(4));
    else if (what == "cas") call = "kir_atomic::cas(" + ptr + ", a_, d_, " + order + ", &" + var(s.var2) + ")";
    else if (what == "update")
      call = "kir_atomic::update(" + ptr + ", [&](" + T + " " + var(s.var) + ") { return " + expr(*s.value) + "; }, " + order + ")";
    else throw std::runtime_error("internal: unknown atomic `" + s.op + "`");
    if ((what == "update" || (what.rfind("rmw.", 0) == 0 && what != "rmw.exchange")) &&
        mutant_active(MutantId::AtomicPlainRmw)) {  // load, compute, store: not indivisible
      const std::string o = what == "update" ? var(s.var) : "o_";
      const std::string nv = what == "update" ? expr(*s.value) : "kir_rt::" + what.substr(4) + "_" + d + "(o_, a_)";
      call = "[&] { const " + T + " " + o + " = kir_atomic::load(" + ptr + ", __ATOMIC_RELAXED); kir_atomic::store(" +
             ptr + ", " + T + "(" + nv + "), __ATOMIC_RELAXED); return " + o + "; }()";
    }
    if (s.op_id >= 0) {
      line() << "if (" << in_bounds(s.buf, s.index) << ") " << res << call << "; else kir_gen::note(st_, " << s.op_id
             << ", KIR_FAULT_OUT_OF_BOUNDS);\n";
    } else {
      line() << res << call << ";\n";
    }
    --indent;
    line() << "}\n";
    if (s.op_id >= 0 || exprs_may_fault(s)) check_status();
  }

  void function(const std::string& entry) {
    out << "extern \"C\" __attribute__((visibility(\"default\"))) int " << entry << "(kir_call* call) {\n";
    line() << "kir_gen::Status st_ = 0;\n";
    for (size_t i = 0; i < P.symbol_vars.size(); ++i)
      line() << "const int64_t " << var(P.symbol_vars[i]) << " = call->extents[" << i << "];  // " << P.symbols[i] << "\n";
    for (size_t i = 0; i < P.scalar_params.size(); ++i) {
      VarId v = P.scalar_params[i];
      line() << "const " << cpp_type(P.var(v).dtype) << " " << var(v) << " = kir_gen::scalar<" << cpp_type(P.var(v).dtype)
             << ">(call->scalars[" << i << "]);  // %" << P.var(v).name << "\n";
    }
    for (size_t i = 0; i < P.view_params.size(); ++i) {
      BufId b = P.view_params[i];
      const Buffer& B = P.buf(b);
      std::string T = cpp_type(B.dtype);
      line() << "// %" << B.name << ": " << access_name(B.access) << " view\n";
      line() << (B.access == Access::In ? "const " : "") << T << "* const " << buf(b) << " = static_cast<"
             << (B.access == Access::In ? "const " : "") << T << "*>(call->views[" << i << "].data)"
             << (mutant_active(MutantId::ViewOffsetIgnored) ? "" : " + call->views[" + std::to_string(i) + "].offset") << ";\n";
      for (size_t k = 0; k < B.shape.size(); ++k) {
        line() << "const int64_t " << buf(b) << "_n" << k << " = call->views[" << i << "].shape[" << k << "];\n";
        line() << "const int64_t " << buf(b) << "_s" << k << " = ";
        if (B.static_strides && (*B.static_strides)[k] != kDynamicStride) out << (*B.static_strides)[k] << ";\n";
        else out << "call->views[" << i << "].strides[" << k << "];\n";
      }
    }
    declare_carries(P.body.body);
    stmts(P.body.body);
    line() << "(void)st_;\n";
    line() << "return call->faulted ? 1 : 0;\n";
    out << "}\n";
  }
};

}  // namespace

std::string cpp_type(DType d) {
  switch (d) {
    case DType::Bool: return "uint8_t";
    case DType::I8: return "int8_t";
    case DType::I16: return "int16_t";
    case DType::I32: return "int32_t";
    case DType::I64: return "int64_t";
    case DType::U8: return "uint8_t";
    case DType::U16: return "uint16_t";
    case DType::U32: return "uint32_t";
    case DType::U64: return "uint64_t";
    case DType::Index: return "int64_t";
    case DType::F16:
    case DType::BF16: return "uint16_t";
    case DType::F32: return "float";
    case DType::F64: return "double";
    default: return "uint8_t";
  }
}

std::string cpp_prelude() {
  // A runtime-header mutant (mutants.h) is selected by a #define before the headers.
  return "// Generated by kir's CPU backend (C++ provider). Do not edit: the artifact cache is keyed by it.\n" +
         mutant_defines() +
         "#include \"kir_gen.h\"\n"
         "#include \"kir_atomic.h\"\n\n";
}

std::string serialize_cpp(const Program& p, const std::string& entry) {
  Writer w(p);
  w.out << "// kernel @" << p.kernel << "\n";
  w.function(entry);
  return w.out.str();
}

}  // namespace kir::cpu
