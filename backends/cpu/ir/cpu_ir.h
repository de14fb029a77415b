// The CPU IR (checklist C3, C4): the one program of the CPU backend, built once from verified
// canonical KIR (construct/) and afterwards only transformed by passes (passes/), expanded by
// implementations (impl/) and spelled as C++ by the provider (provider/). It holds:
//  * resources (Buffer): the ABI views with their facts (element type, rank, extents with their
//    identity, strides/offset, access, alias) and the materialized values, scratch and carries
//    with size, alignment, owner, initialization and lifetime;
//  * scalar variables (Var): extent symbols, runtime scalar parameters, loop and task
//    coordinates, let-bound scalars and loop carries;
//  * typed expression trees (Expr): pointwise arithmetic, compare, select, cast, bitcast, math,
//    loads through a buffer at index expressions — every dtype of the language;
//  * statements (Stmt): Compute (a value defined over the whole shape of a buffer, coordinate by
//    coordinate — the pre-loop form fusion works on), ordered control (If, For/While with
//    carries, Break, Continue), blocking loops with bounds and tails, Tasks (explicit parallel
//    work with workset, captures and output responsibility, joined before the call returns),
//    Store, Atomic, Let/Assign, Check (a located run-time fault condition), Alloc/Free, and Structured
//    (reduce, scan, contract … with their full numeric contract until an implementation expands
//    them into loops).
// Expressions are immutable and shared; statements are owned trees that passes rewrite in place.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kir/attribute.h"
#include "kir/type.h"
#include "numerics/dtype.h"

namespace kir {
class Operation;
}

namespace kir::cpu {

using VarId = int32_t;
using BufId = int32_t;
inline constexpr int32_t kNone = -1;
inline constexpr int64_t kDynamicStride = INT64_MIN;

// ---------------------------------------------------------------- expressions
enum class ExprKind {
  Const,    // bits (Scalar::bits layout of dtype)
  Var,      // var
  Load,     // buf[args...]: one index expression per axis
  ViewDim,  // extent `axis` of view buffer `buf` (bound at the call)
  Unary,    // op(args[0]): neg not abs sqrt floor
  Binary,   // op(args[0], args[1]): add sub mul div rem min max pow and or xor shl shr
  Compare,  // op(args[0], args[1]) -> bool: eq ne lt le gt ge
  Select,   // args[0] ? args[1] : args[2]
  Cast,     // cast(args[0] : from) -> dtype
  Bitcast,  // bitcast(args[0] : from) -> dtype
  Math,     // op(args[0]): exp log sin ... (the language's math set), correctly rounded
  Random,   // op "bits" or "uniform": Philox of args (seed, counter) -> dtype
};

struct Expr;
using ExprP = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::Const;
  DType dtype = DType::F32;  // result dtype
  DType from = DType::F32;   // Cast/Bitcast: source dtype; Compare: operand dtype
  uint64_t bits = 0;         // Const
  VarId var = kNone;         // Var
  BufId buf = kNone;         // Load, ViewDim
  int axis = 0;              // ViewDim
  std::string op;            // Unary/Binary/Compare/Math/Random op name as in KIR
  std::vector<ExprP> args;
  int32_t op_id = kNone;     // KIR op it realizes (fault locations); faulting ops need it
  // A copy of a value whose every element a probe has already evaluated for its faults
  // (passes/fusion.cpp): evaluating it here cannot fault, so may_fault does not look inside.
  bool probed = false;
};

ExprP make_const(DType d, uint64_t bits);
ExprP make_index(int64_t v);  // an index constant
ExprP make_var(VarId v, DType d);
ExprP make_load(BufId b, DType d, std::vector<ExprP> index);
ExprP make_view_dim(BufId b, int axis);
ExprP make_unary(const std::string& op, ExprP a, int32_t op_id = kNone);
ExprP make_binary(const std::string& op, ExprP a, ExprP b, int32_t op_id = kNone);
ExprP make_compare(const std::string& op, ExprP a, ExprP b);
// With op_id set, the select of a KIR `select` op: both operands are values of the kernel, so
// an operand that can fault is evaluated (and faults) whichever is chosen. Without, a guard the
// backend made (a masked load's fill): only the chosen operand is evaluated.
ExprP make_select(ExprP c, ExprP a, ExprP b, int32_t op_id = kNone);
ExprP make_cast(ExprP a, DType to, int32_t op_id = kNone);
ExprP make_bitcast(ExprP a, DType to);
ExprP make_math(const std::string& fn, ExprP a);
// Index arithmetic with constant folding (a + 0 = a, a * 1 = a, constants combined).
ExprP index_add(ExprP a, ExprP b);
// a + b where the caller has proved the sum cannot overflow (e.g. a loop start plus an offset
// below the loop's remaining extent): emitted as plain arithmetic the C++ compiler can analyze.
ExprP index_add_nw(ExprP a, ExprP b);
ExprP index_sub(ExprP a, ExprP b);
ExprP index_mul(ExprP a, ExprP b);
ExprP index_min(ExprP a, ExprP b);
std::optional<int64_t> const_index(const ExprP& e);  // the value of an index/integer constant

// Whether evaluating `e` may fault (integer div/rem/shift, float-to-integer cast, checked load,
// random bits of an index counter). The one predicate for fusion's dead-value rule and the
// serializer's status checks.
bool may_fault(const Expr& e);
// Whether executing statement `s` may fault: an expression it holds may (may_fault), or it is
// a Check, a checked Store/Atomic (op_id set with an index), a scatter Compute (its store is
// checked), a structured op, or a While (its step budget) — counting the statements nested in
// it. Fusion keeps faults in the language's order with it (a value's fault is an effect); the
// serializer checks the fault status after a statement whose own expressions may fault
// (`exprs_may_fault`).
struct Stmt;
bool may_fault(const Stmt& s);
bool exprs_may_fault(const Stmt& s);
// Whether `e` reads buffer `b` / any buffer.
bool reads_buffer(const Expr& e, BufId b);
bool has_load(const Expr& e);
// Replace every Var in `subst` (indexed by VarId; null entries kept) by its expression.
ExprP substitute(const ExprP& e, const std::vector<std::pair<VarId, ExprP>>& subst);
// Whether `e` mentions variable `v`.
bool mentions_var(const Expr& e, VarId v);
// `e` with every Load of buffer `b` replaced by `f(load)` (the load with its operands mapped).
ExprP map_loads(const ExprP& e, BufId b, const std::function<ExprP(const ExprP&)>& f);
// Structural equality of two expressions (same kinds, dtypes, ops, operands, variables).
bool same_expr(const Expr& a, const Expr& b);
// Number of nodes (fusion's cost model).
int expr_size(const Expr& e);

// ---------------------------------------------------------------- resources and variables
enum class BufKind {
  View,     // an ABI view parameter of the kernel (not owned by the program)
  Local,    // a materialized value of the program (owned, allocated per call)
  Scratch,  // working storage an implementation asked for (packing panels, partial sums)
};

enum class BufInit { None, Zero };

struct Buffer {
  BufId id = kNone;
  std::string name;       // KIR value name (or a generated one), for dumps and diagnostics
  BufKind kind = BufKind::Local;
  DType dtype = DType::F32;
  std::vector<ExprP> shape;  // extents (index expressions)
  // ABI facts of a view (C8): parameter position, access direction, the declared extents and
  // their identity (symbol names or constants), declared strides/offset if the type fixes them,
  // and the alias fact: views of distinct parameters may alias only if both are In (reads).
  int param = kNone;
  Access access = Access::In;
  std::vector<std::string> extent_names;
  // Per axis: the stride the view type fixes, or kDynamicStride (bound at the call).
  std::optional<std::vector<int64_t>> static_strides;
  std::optional<int64_t> static_offset;
  bool may_alias_outputs = false;  // set when the ABI does not exclude aliasing with an Out view
  // Per axis of a view: the call's extent is checked on entry to equal the declared one (`shape`),
  // so an index proven inside [0, shape[a]) is inside the view (passes/bounds.cpp).
  std::vector<bool> extent_checked;
  // Resource facts: alignment in bytes, initialization, owner (the statement or task owning
  // the storage: "call" or "task"), and lifetime (set by the lifetime pass: first and last
  // top-level statement index using it; -1 unknown) and the buffer whose storage it reuses.
  int64_t align = 64;
  BufInit init = BufInit::None;
  std::string owner = "call";
  int first_use = -1, last_use = -1;
  BufId reuses = kNone;
  bool dead = false;  // removed by a pass (no statement refers to it any more)
};

enum class VarRole { Symbol, Scalar, Loop, Task, Let, Carry };

struct Var {
  VarId id = kNone;
  std::string name;
  DType dtype = DType::Index;
  VarRole role = VarRole::Let;
  int param = kNone;  // Symbol: index into call->extents; Scalar: index into call->scalars
};

// ---------------------------------------------------------------- structured ops
struct Stmt;

// A structured computation with its full numeric contract, before an implementation expands
// it (C3, C6): the op kind, operand/result buffers, the KIR attributes (axes, reduce/batch
// pairs, formats, inclusive/reverse ...), the accumulator dtype and — for author combines —
// the combine as a scalar expression over two accumulator variables.
struct StructuredOp {
  std::string kind;             // "reduce", "scan", "contract", ...
  std::vector<BufId> operands;  // tensor operands (buffers)
  std::vector<ExprP> scalars;   // scalar operands (e.g. a scalar identity)
  std::vector<BufId> results;
  AttrMap attrs;
  DType acc = DType::F32;
  // Author combine lowered to scalars: result = combine(lhs var, rhs var) (one per component).
  std::vector<VarId> combine_lhs, combine_rhs;
  std::vector<ExprP> combine;
  // Initial accumulator per result leaf (the identity) as an expression over `coords`, one
  // coordinate variable per axis of the accumulator (reduce: the result; scan: the source less
  // its axis).
  std::vector<VarId> coords;
  std::vector<ExprP> init;
  // The binding written by selection (C11): the implementation's name ("" until selected) and
  // the values of its parameters and of the row's shared outer bindings it uses.
  std::string implementation;
  std::vector<std::pair<std::string, int64_t>> params;
  // A pointwise Compute over the result's coordinates that the epilogue pass handed to the
  // implementation (passes/epilogue.cpp): the expansion applies it to each block of the result
  // once the block is final. Null when there is none.
  std::shared_ptr<const Stmt> epilogue;
};

// ---------------------------------------------------------------- statements
enum class StmtKind {
  Block,       // body
  Compute,     // buf[coords] = value over the whole shape of buf, or a scatter through
               // `index` over `extents` (pre-loop form; see Stmt::extents)
  Loop,        // for var in [lo, hi) step: body. block > 0: a blocking loop whose body works on
               // [var, min(var + block, hi)) (the tail is the last, shorter block)
  Tasks,       // parallel: for var in [0, hi) as independent tasks; joined before continuing
  If,          // cond ? body : orelse
  While,       // loop { body; if (!cond) break }? — see `cond_first`
  Break,
  Continue,
  Let,         // var = value (defines a scalar)
  Assign,      // var = value (updates a carry)
  Store,       // buf[index...] = value
  Check,       // if (!value) fault(code, op_id, index...)
  Alloc,       // allocate buf (Local/Scratch) with its init
  Free,        // release buf
  Structured,  // a structured op awaiting expansion
  Copy,        // buf := src (whole buffer, same shape): loop carries of tensors
  Atomic,      // one indivisible access of buf[index...] (see Stmt::op); var = the old value
  Kernel,      // a micro-kernel of the runtime library (rt/kir_uk.h) named by `op`, writing the
               // block of buf that starts at buf[index...]; `detail` holds its other arguments:
               // a Load there is the address of that element (a packed panel), any other
               // expression a scalar. Its meaning is fixed by the catalog (ir/ukernels.h).
  Cover,       // counts one reach of coverage cell Program::cover_cells[cell + value] (value: an
               // index expression, none: 0) when the call asks for coverage; no other effect
};

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::Block;
  int32_t op_id = kNone;  // the KIR op it realizes
  VarId var = kNone;
  std::vector<VarId> coords;  // Compute: one coordinate var per axis of the iteration space
  // Compute: the iteration space (one extent per coordinate). With an empty `index` the
  // destination is buf[coords] and the extents are buf's shape; otherwise the Compute
  // scatters: buf[index(coords)] = value(coords) (view.store through a relation).
  std::vector<ExprP> extents;
  ExprP guard;                // Compute/Store: the element is written only where this holds
  ExprP lo, hi, step;         // Loop/Tasks bounds
  int64_t block = 0;          // Loop: blocking factor (0 = plain loop)
  bool cond_first = true;     // While: test before the body (while) or after (do-while)
  ExprP value;                // Compute/Let/Assign/Store value; Check/If/While condition
  BufId buf = kNone;          // Compute/Store/Alloc/Free/Copy destination
  BufId src = kNone;          // Copy source
  std::vector<ExprP> index;   // Store index; Check fault coordinates
  int32_t fault = 0;          // Check: kir_fault_code
  bool stops = false;         // Check: a failure ends the call at once (entry checks: nothing may run)
  std::vector<ExprP> detail;  // Check: up to two detail values (index, extent)
  std::vector<StmtP> body, orelse;
  std::shared_ptr<StructuredOp> structured;
  // Tasks: the workset facts the partition pass derived them from.
  std::vector<BufId> captures, outputs;
  bool unique_writes = false;  // each output element is written by one task only
  // Atomic: "<what>.<order>" with order relaxed|acquire|release|acq_rel and what one of
  //   load                     var = buf[index]
  //   store                    buf[index] = value
  //   rmw.<kind>               var = old; buf[index] = kind(old, value); kind exchange|add|max|
  //                            min|and|or|xor (the language's rules of the buffer's dtype)
  //   cas                      var = old; var2 (bool) = old bits == value bits (expected); if so
  //                            buf[index] = detail[0] (desired)
  //   update                   buf[index] = value, an expression over var = the current
  //                            contents (a CAS loop: value is recomputed until it lands); var
  //                            is in scope in value only
  // With op_id set an index outside buf is a located fault (nothing is accessed). The result
  // vars (Let role) of the other forms are defined from this statement to the end of its block.
  std::string op;
  VarId var2 = kNone;
  int32_t cell = 0;  // Cover: its first cell in Program::cover_cells
};

StmtP make_stmt(StmtKind k, int32_t op_id = kNone);
struct Program;
// A Cover statement counting cell `cells[which]` (`which` an index expression; none: cells[0]);
// the cells are appended to P.cover_cells. A `which` outside the cells counts nothing.
StmtP make_cover(Program& P, const std::vector<std::string>& cells, ExprP which = nullptr);
// The tail class of a loop over [0, extent) in blocks of `block` (> 0) as a Cover of `what`:
// what:empty (no iteration), what:none (whole blocks only), what:partial (whole blocks and a
// shorter last one), what:only-tail (one block shorter than `block`). Where the extent cannot be
// 0 (`nonempty`: inside the loop it sizes), the empty class is not a cell.
StmtP cover_tail(Program& P, const std::string& what, ExprP extent, int64_t block, bool nonempty = false);
// How `n` units split into tasks of `grain` (>= 1, any expression) units as a Cover of `what`:
// what:empty, what:one (one task), what:several (equal tasks), what:uneven (a shorter last task).
StmtP cover_split(Program& P, const std::string& what, ExprP n, ExprP grain);
// loop v = lo to hi step step.
StmtP make_loop(VarId v, ExprP lo, ExprP hi, ExprP step, int32_t op_id = kNone);

// The origin of an op id: the KIR op's name and location, for fault messages and dumps.
struct OpOrigin {
  std::string name;
  std::string location;  // file:line:col
};

struct Program {
  std::string kernel;
  // Deques: references to a buffer or variable stay valid while passes add more.
  std::deque<Var> vars;
  std::deque<Buffer> bufs;
  std::vector<OpOrigin> ops;
  // The bindings selection made (C11), kept after expansion for dumps, the artifact key and the
  // oracle: per structured op, the implementation with its parameters and the accumulation
  // order it declares ("sequential", "sequential-fused", "lanes" or "" when its result is
  // bitwise defined), and the config row the program was built from.
  struct Binding {
    int32_t op_id = kNone;
    std::string implementation;
    std::vector<std::pair<std::string, int64_t>> params;
    std::string order;
  };
  std::vector<Binding> bindings;
  std::string config_row;
  // The row's shared outer bindings read by the passes (task grain); 0 = the pass's default.
  int64_t task_grain = 0;
  std::vector<std::string> symbols;  // extent symbols bound at the call (call->extents order)
  std::vector<VarId> symbol_vars;
  // The coverage cells the Cover statements count (kir_call::cover has one counter per cell):
  // "<what>:<class>" names, e.g. "contract.packed.avx512/KC:partial" (docs/fuzzing.md "Coverage").
  std::vector<std::string> cover_cells;
  std::vector<BufId> view_params;    // call->views order
  std::vector<VarId> scalar_params;  // call->scalars order
  Stmt body;                          // a Block

  VarId add_var(std::string name, DType d, VarRole role);
  BufId add_buffer(Buffer b);
  int32_t add_origin(const Operation& op);
  Buffer& buf(BufId b) { return bufs.at(static_cast<size_t>(b)); }
  const Buffer& buf(BufId b) const { return bufs.at(static_cast<size_t>(b)); }
  Var& var(VarId v) { return vars.at(static_cast<size_t>(v)); }
  const Var& var(VarId v) const { return vars.at(static_cast<size_t>(v)); }
};

// Replaces every expression `s` and its nested statements hold directly (bounds, value, guard,
// extents, index, detail) by `f(expression)`.
void rewrite_exprs(Stmt& s, const std::function<ExprP(const ExprP&)>& f);

// Walk statements (pre-order) of a statement list, including nested bodies.
template <typename F>
void walk_stmts(std::vector<StmtP>& list, F&& f) {
  for (auto& s : list) {
    f(*s);
    walk_stmts(s->body, f);
    walk_stmts(s->orelse, f);
  }
}
template <typename F>
void walk_stmts(const std::vector<StmtP>& list, F&& f) {
  for (const auto& s : list) {
    f(static_cast<const Stmt&>(*s));
    walk_stmts(static_cast<const std::vector<StmtP>&>(s->body), f);
    walk_stmts(static_cast<const std::vector<StmtP>&>(s->orelse), f);
  }
}
// Visit every expression a statement holds directly (value, bounds, index, detail, scalars).
template <typename F>
void for_each_expr(const Stmt& s, F&& f) {
  for (const ExprP* e : {&s.lo, &s.hi, &s.step, &s.value, &s.guard})
    if (*e) f(**e);
  for (const auto& e : s.extents) f(*e);
  for (const auto& e : s.index) f(*e);
  for (const auto& e : s.detail) f(*e);
  if (s.structured) {
    for (const auto& e : s.structured->scalars) f(*e);
    for (const auto& e : s.structured->combine) f(*e);
    for (const auto& e : s.structured->init) f(*e);
  }
}

}  // namespace kir::cpu
