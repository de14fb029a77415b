// Construction of the CPU IR from verified canonical KIR (checklist C4): the one place that
// reads KIR. Every KIR value gets a compile-time description (CValue): a scalar expression, a
// tensor held in a buffer, a view, a domain, a relation, or an aggregate (tuple/record/enum).
// Tensor ops become Compute statements over a new buffer (fusion later inlines them), scalar
// ops become Let-bound variables, structured ops become Structured statements, control ops
// become ordered control with explicit carries, parallel becomes Tasks, and helper calls are
// inlined with their extent symbols bound. Ops are handled by family files (ops_*.cpp), each
// registering its handlers; an op without a handler is a located "not implemented" error.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/ir/cpu_ir.h"
#include "kir/ir.h"

namespace kir::cpu {

// A located compile-time error of the backend ("not implemented: ...", unsupported form, ...).
struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Selection found no config row that gives every computation exactly one applicable
// implementation (with a forced row: that row is rejected); the message lists every reason.
struct RowRejected : BackendError {
  using BackendError::BackendError;
};

struct CValue {
  enum class Kind { None, Scalar, Tensor, View, LogicalBuffer, Tuple, Record, Enum, Domain, Relation };
  Kind kind = Kind::None;
  ExprP scalar;                 // Scalar (also Enum: its integer value)
  BufId buf = kNone;            // Tensor, View, LogicalBuffer
  std::vector<CValue> elems;    // Tuple, Record (field order of the type)
  std::vector<std::string> names;  // Record field names
  // Domain / subregion members: begin + k * step for k in [0, count).
  ExprP begin, count, step;
  // Relation: one coordinate per source axis (scalar or tensor CValue of the relation's shape),
  // the relation's shape, and an optional validity (scalar or bool tensor).
  std::vector<CValue> coords;
  std::vector<ExprP> rel_shape;
  std::shared_ptr<CValue> valid;

  static CValue of_scalar(ExprP e) { CValue v; v.kind = Kind::Scalar; v.scalar = std::move(e); return v; }
  static CValue of_tensor(BufId b) { CValue v; v.kind = Kind::Tensor; v.buf = b; return v; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_tensor() const { return kind == Kind::Tensor; }
};

class Builder;
using OpHandler = std::function<void(Builder&, const Operation&)>;

// Registration of a family's handlers (called once from construct.cpp's table).
void register_value_ops(std::map<std::string, OpHandler>& t);
void register_domain_ops(std::map<std::string, OpHandler>& t);
void register_control_ops(std::map<std::string, OpHandler>& t);
void register_memory_ops(std::map<std::string, OpHandler>& t);
void register_structured_ops(std::map<std::string, OpHandler>& t);
void register_format_ops(std::map<std::string, OpHandler>& t);  // ops_formats.cpp: scaled/sparse/quantized, histogram
void register_region_ops(std::map<std::string, OpHandler>& t);  // ops_region.cpp: region_fold, region_scan
void register_effect_ops(std::map<std::string, OpHandler>& t);  // ops_effects.cpp: atomics, scatter_reduce, random

// Regions executing at once that a program may nest: the kernel body, every helper body and
// every nested region (loop body, branch, parallel point, combine helper) is one level. The
// interpreter's default limit (interp::Options::max_depth), which bounds its recursion; the
// backend inlines every helper, so it counts the deepest nesting of the program text.
inline constexpr int kMaxRegionDepth = 1000;

// Constexpr and enum arguments of a kernel specialization (by parameter name), as integer bits
// (bool 0/1; enum members by value).
struct Specialization {
  std::map<std::string, uint64_t> constexprs;
  // View facts of the call (C8): the views (by parameter name) whose innermost axis has stride 1.
  // The program is specialized on them — the stride is compiled in, so inner loops are unit
  // stride — and the call checks that the views it binds have them.
  std::map<std::string, bool> unit_inner_stride;
};

class Builder {
 public:
  Builder(const Module& m, Program& p);

  // Builds the kernel into the program (entry point of construction).
  void build_kernel(const Function& kernel, const Specialization& spec);
  // Rows per segment of region_fold (region_fold.blocks, the config row's region_block; 0: the
  // whole source as one segment). Set before build_kernel.
  void set_region_block(int64_t b) { region_block_ = b; }
  int64_t region_block() const { return region_block_; }

  // ---- values
  const CValue& get(const kir::Value* v) const;
  void set(const kir::Value* v, CValue c);
  Program& program() { return prog_; }
  const Module& module() const { return module_; }

  // ---- statements: appended to the current block
  void emit(StmtP s);
  std::vector<StmtP>* block() { return block_; }
  // Runs `f` with `into` as the current block.
  void with_block(std::vector<StmtP>& into, const std::function<void()>& f);

  // ---- helpers for handlers
  int32_t origin(const Operation& op);
  [[noreturn]] void fail(const Operation& op, const std::string& message) const;
  // A located error of another kind than `backend` (`limit`: a limit the interpreter shares).
  [[noreturn]] void fail_kind(const Operation& op, const std::string& kind, const std::string& message) const;
  [[noreturn]] void not_implemented(const Operation& op, const std::string& what) const;
  // The extents of a tensor type as index expressions under the current symbol binding.
  std::vector<ExprP> shape_of(const Operation& op, const Type& t);
  ExprP extent_expr(const Operation& op, const Extent& e);
  // shape_of for an op that creates a value of that shape from runtime extents (full, broadcast,
  // reshape, relation, buffer.alloc): an extent that may be negative is checked at run time, a
  // located shape-mismatch fault at `op`, as the interpreter reports it.
  std::vector<ExprP> runtime_shape(const Operation& op, const Type& t);
  // The value of extent `e` (a single floordiv atom: a stepped domain's type extent) in the
  // current block and the blocks nested in it; extent_expr uses it instead of recomputing it.
  void bind_extent(const Extent& e, ExprP value);
  static bool floordiv_atom(const Extent& e);  // e is one floordiv atom (coefficient 1)
  // Marks a let-bound index variable as never negative (a domain's point count).
  void note_nonnegative(const ExprP& e);
  bool nonnegative(const Expr& e) const;  // provably, from its form (runtime_shape's test)
  // A new Local buffer for a tensor value, named after `name`.
  BufId new_local(const std::string& name, DType d, std::vector<ExprP> shape);
  // The element of a scalar/tensor value at `coords` (a scalar ignores them; a rank-0 tensor
  // is read with no index).
  ExprP element(const CValue& v, const std::vector<ExprP>& coords) const;
  // Defines a tensor result: a Compute over a new buffer of `shape`, the value given per
  // coordinate vector. Returns the tensor CValue.
  CValue compute(const Operation& op, const std::string& name, DType d, std::vector<ExprP> shape,
                 const std::function<ExprP(const std::vector<ExprP>&)>& value);
  // Defines a scalar result: a Let (or the expression itself in scalar mode / for leaves).
  CValue let(const std::string& name, ExprP e);
  // Scalar mode: tensors of combine helpers are treated element by element (pure expressions,
  // no statements). Handlers producing statements must check it.
  bool scalar_mode() const { return scalar_mode_ > 0; }

  // ---- functions
  // Inlines helper `fn` with argument values; returns its results.
  std::vector<CValue> inline_call(const Operation& site, const Function& fn, const std::vector<CValue>& args);
  // Lowers a combine-like helper element by element: arguments are scalar expressions (one per
  // leaf of each parameter), results are scalar expressions (one per leaf of each result).
  std::vector<ExprP> inline_scalar(const Operation& site, const Function& fn, const std::vector<CValue>& args);
  // Constructs the ops of a region (the region's arguments must be set already). Returns the
  // terminator op (yield/return/condition/break/continue) or null.
  const Operation* build_region(const Region& r);
  const Function& helper(const Operation& op, const std::string& attr) const;

  // The loop being constructed (innermost last): where yield/break/continue put their values.
  struct LoopCtx {
    std::vector<CValue> carries;  // leaves: Carry vars (scalars) or carry buffers (tensors)
    std::vector<CValue> results;  // while: the result slots `condition` and `break` fill
    bool is_while = false;
  };
  std::vector<LoopCtx> loops;

  // Flattening of tuple/record values and types into leaves (scalars/tensors).
  static void leaves(const CValue& v, std::vector<const CValue*>& out);
  static std::vector<CValue> leaf_values(const CValue& v);  // the leaves, copied
  static void type_leaves(const Type& t, std::vector<Type>& out);
  // Rebuilds an aggregate of type `t` from leaves (consumed from `it`).
  static CValue from_leaves(const Type& t, std::vector<CValue>::const_iterator& it);

 private:
  struct Frame {
    std::map<const kir::Value*, CValue> values;
    std::map<std::string, ExprP> symbols;  // extent symbols and %value atoms bound in this function
    std::map<std::string, ExprP> extents;  // floordiv atoms bound by bind_extent (scoped to blocks)
    const Function* fn = nullptr;
    const Operation* site = nullptr;  // the call being inlined (null for the kernel)
  };
  const Module& module_;
  Program& prog_;
  std::vector<Frame> frames_;
  std::vector<StmtP>* block_ = nullptr;
  int scalar_mode_ = 0;
  int depth_ = 0;  // regions being constructed, nested (the interpreter's nesting depth)
  std::set<VarId> nonnegative_;  // index variables never negative (nonnegative())
  int64_t region_block_ = 0;
  std::map<std::string, OpHandler> handlers_;

  void build_op(const Operation& op);
  void bind_symbols(const Type& param, const CValue& arg);
  [[noreturn]] void depth_exceeded(const Operation& site) const;
};

// Loop-carried storage (ops_control.cpp): a slot able to hold `leaf` (a Carry variable for a
// scalar, a carry buffer of the same shape for a tensor), and slots := values, leaf by leaf,
// reading every source before writing any slot.
CValue make_slot(Builder& B, const CValue& leaf, const std::string& name);
void assign_slots(Builder& B, const Operation& op, const std::vector<CValue>& slots, const std::vector<CValue>& values);

// Tensor leaf helpers shared by the handlers.
DType value_dtype(const Type& t);

}  // namespace kir::cpu
