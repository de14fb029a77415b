// Implementations of structured computations (checklist C6, C7, C11): each declares the
// computation it realizes and the numeric contract it keeps, when it applies (a reason when it
// does not), and its expansion into real CPU IR (loops, scalars, stores) that goes on through
// the later passes and the verifier. Selection (passes/select_expand.cpp) binds exactly one
// applicable implementation per Structured op and writes the binding into the op; expansion
// (same file) replaces the op by the implementation's statements.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "backends/cpu/ir/cpu_ir.h"

namespace kir::cpu {

// A finite parameter of an implementation: a local one (micro-tile, unroll ...) or one of the
// config row's five shared outer bindings it reads (task_m, task_n, mc, nc, kc). Its domain
// is lo..hi in steps of `step`.
struct ParamDomain {
  std::string name;
  int64_t lo = 1, hi = 1, step = 1;
  bool shared = false;
  bool contains(int64_t v) const { return v >= lo && v <= hi && (v - lo) % step == 0; }
};

// What an implementation needs from the program around it, stated for dumps and docs; the
// expansion creates these resources itself as ordinary CPU IR.
struct Requirements {
  std::string outer_block;  // the blocking it works under
  std::string input_form;   // e.g. packed panels it builds
  std::string scratch;      // scratch buffers and their owner
  std::string output;       // the form of the result it writes
};

struct Implementation {
  std::string name;         // "reduce.fold", written into StructuredOp::implementation
  std::string computation;  // the Structured kind it realizes
  std::string contract;     // the numeric contract it keeps, in words (docs, dumps)
  // "" when applicable, otherwise why not (dtype, format, shape, parameters ...). Called with
  // the candidate's parameter values already in st.params.
  std::function<std::string(const Program&, const StructuredOp&)> applicable;
  // The statements replacing the Structured statement `s` (its binding in s.structured).
  std::function<std::vector<StmtP>(Program&, const Stmt& s)> expand;
  std::vector<ParamDomain> params;
  std::string capability;   // the host capability it needs ("" none), e.g. "avx512f"
  // The accumulation order of its float results: "sequential" (each product rounded once, then
  // added, in row-major order over the reduce pairs), "sequential-fused" (the same order with
  // one fma per term), "lanes" (a reduce in the lanes and blocks of its `lanes` and `block`
  // parameters, interp::LanesOrder) or "" (its results are bitwise defined).
  std::string order;
  Requirements needs;
  // Whether the expansion applies a pointwise epilogue (StructuredOp::epilogue) to each final
  // block of its result (epilogue_block below); the epilogue pass hands one only to these.
  bool takes_epilogue = false;
};

// The index pairs of attribute `key` (a contract's "reduce" or "batch"); none when absent.
std::vector<std::pair<int64_t, int64_t>> pairs_of(const StructuredOp& st, const char* key);
// The value of parameter `name` in a bound op (std::logic_error when the binding lacks it).
int64_t param(const StructuredOp& st, const std::string& name);

const std::vector<Implementation>& implementations();
// The families' implementations (each file adds its own; implementations() concatenates them).
std::vector<Implementation> fold_implementations();    // fold_loops.cpp
std::vector<Implementation> contract_implementations();  // contract_loops.cpp
std::vector<Implementation> format_implementations();  // format_*.cpp: scaled/sparse/quantized, histogram
std::vector<Implementation> effect_implementations();  // effects_*.cpp
std::vector<Implementation> packed_contract_implementations();  // contract_packed.cpp
std::vector<Implementation> qdot_packed_implementations();  // qdot_packed.cpp
const Implementation* find_implementation(const std::string& name);

// Shared by the expansions: a loop nest over `extents` with the given coordinate variables
// (created when `vars` is empty); `body` receives the innermost body list. A `result_nest`
// visits each result element in exactly one iteration of its outermost loop: that loop
// carries the unique-write fact the task partition relies on (never set it on a reduction).
StmtP loop_nest(Program& P, std::vector<VarId>& vars, const std::vector<ExprP>& extents,
                const std::function<void(std::vector<StmtP>&)>& body, bool result_nest = false);
VarId let_var(Program& P, std::vector<StmtP>& into, const std::string& name, ExprP value);
// The epilogue `epi` (a 2-D pointwise Compute over the result's coordinates) applied to the
// block [r0, r0 + rows) x [c0, c0 + cols) of the result: a loop nest storing its value at those
// coordinates (passes/epilogue.cpp).
StmtP epilogue_block(Program& P, const Stmt& epi, ExprP r0, ExprP c0, ExprP rows, ExprP cols);
// The kind of an epilogue: the operations of its value outside its loads, e.g. "add+max" or
// "cast.f32.bf16" (passes/epilogue.cpp).
std::string epilogue_kind(const Stmt& epi);
// A Cover of `<implementation>/epilogue:<kind>@<path>` (the implementation bound in `st`).
StmtP cover_epilogue(Program& P, const StructuredOp& st, const Stmt& epi, const std::string& path);

// A float sum folded from its first term: the accumulator starts at -0 (-0 + t = t for every t,
// so no extra term enters — a +0 start would turn a sum of -0 terms into +0), and a sum of no
// terms is +0. Integer accumulators start at 0.
ExprP sum_start(DType acc);
// The typed kind reduce.lanes realizes (fold_loops.cpp): a reduce of one component (any scalar
// dtype, the source's dtype the result's) over at least one axis; reduce.fold takes every other
// reduce.
bool lane_foldable(const Program& P, const StructuredOp& st);
// Products rounded once (contract_loops.cpp): significand bits of a dtype, and whether every
// value of `x` is exactly a value of `acc` (so a cast does not round).
int precision(DType d);
bool embeds(DType x, DType acc);
ExprP sum_result(ExprP acc, ExprP term_count);

// The typed computation kind of a contract the packed implementations realize (contract_packed
// .cpp): a float accumulator of f32 or f64 into which both operands embed exactly, and each
// operand with exactly one free axis (neither batch nor reduced). "" when `st` is of that kind,
// otherwise why not. contract.sequential realizes every contract of neither kind.
std::string matmul_form(const Program& P, const StructuredOp& st);
// The integer kind the packed implementations realize: i8/u8 operands into an i32 accumulator,
// the same shape rules (contract.packed_i8.*).
std::string int8_matmul_form(const Program& P, const StructuredOp& st);
// bf16 x bf16 into f32 with one reduce pair, the same shape rules (contract.packed_bf16.*);
// matmul_form excludes it.
std::string bf16_matmul_form(const Program& P, const StructuredOp& st);
// A quantized_dot of q4_K x q8_K record fields with their dtypes and ranks (format_impls.cpp):
// "" when `st` is one, otherwise why not. Every quantized_dot implementation takes exactly these.
std::string q4k_q8k_dot_form(const Program& P, const StructuredOp& st);

}  // namespace kir::cpu
