// The evaluator's machinery (internal to interp/): frames, region execution with structured
// control flow signals, helper calls with extent unification, operand/result access, and the
// op handler table filled by the ops_*.cpp files (one file per op family).
#pragma once
#include <chrono>
#include <climits>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "interp/error.h"
#include "interp/interpreter.h"
#include "interp/value.h"
#include "kir/ir.h"

namespace kir::interp {

struct Frame {
  const Function* fn = nullptr;
  std::unordered_map<const kir::Value*, Value> env;
  std::map<std::string, int64_t> symbols;  // extent symbols (kernel: from views; helper: unified)
};

enum class FlowKind { Normal, Yield, Break, Continue, Return, Condition };
struct Flow {
  FlowKind kind = FlowKind::Normal;
  std::vector<Value> values;
};

class Engine;
using Handler = Flow (*)(Engine&, Frame&, const Operation&);
using HandlerTable = std::unordered_map<std::string, Handler>;

void register_pointwise_ops(HandlerTable& t);
void register_shape_ops(HandlerTable& t);
void register_domain_ops(HandlerTable& t);
void register_memory_ops(HandlerTable& t);
void register_control_ops(HandlerTable& t);
void register_structured_ops(HandlerTable& t);
void register_contract_ops(HandlerTable& t);
void register_random_ops(HandlerTable& t);

// Conflict tracking of one executing `parallel` (issue 4 item 2): per touched element (storage
// serial, storage index) the point that wrote it and up to two distinct points that read it (two
// suffice: a later writer differs from at least one of them). Points are their coordinates.
struct ParallelAccess {
  static constexpr int64_t kNone = INT64_MIN;
  int64_t writer = kNone;
  const Operation* wop = nullptr;
  int64_t reader[2] = {kNone, kNone};
  const Operation* rop[2] = {nullptr, nullptr};
};
// Atomic accesses of one element (atomic ops, scatter_reduce updates): up to two distinct points
// that updated it (atomic.store/rmw/compare_exchange, scatter_reduce) and up to two that only
// loaded it atomically. Atomic-with-atomic is legal; atomic-with-plain by two points is not.
struct ParallelAtomic {
  int64_t updater[2] = {ParallelAccess::kNone, ParallelAccess::kNone};
  const Operation* uop[2] = {nullptr, nullptr};
  int64_t loader[2] = {ParallelAccess::kNone, ParallelAccess::kNone};
  const Operation* lop[2] = {nullptr, nullptr};
};
struct ParallelTracker {
  struct KeyHash {
    size_t operator()(const std::pair<uint64_t, int64_t>& k) const {
      return std::hash<uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k.second));
    }
  };
  const Operation* op = nullptr;  // the parallel
  int64_t point = 0;              // coordinate of the point now executing
  std::unordered_map<std::pair<uint64_t, int64_t>, ParallelAccess, KeyHash> acc;
  // Elements accessed atomically (kept apart so plain-only parallels pay one empty() check).
  std::unordered_map<std::pair<uint64_t, int64_t>, ParallelAtomic, KeyHash> atomic;
};

class AtomicScheduler;  // atomic_schedule.cpp

class Engine {
 public:
  Engine(const Module& m, Options o);

  const Module& module;
  Options opts;
  // Budgets (Options::max_steps, time_limit, max_depth). A step is one executed op, one region
  // entered, or one element of work: the elements an op produces (tensor results, buffers) or
  // stores, the multiply-adds of the contract family. charge() adds n steps and ends the run
  // with a located Limit error when the step budget or (checked every 4096 steps) the time limit
  // is exhausted, naming the longest-running executing while loop and its iteration count.
  uint64_t steps = 0;
  void charge(const Operation& op, uint64_t n) {
    steps = n > UINT64_MAX - steps ? UINT64_MAX : steps + n;
    if (steps > opts.max_steps || steps >= next_clock_check_) check_budget(op);
  }
  void start_clock();  // at every entry (run_kernel, call_helper): the time limit counts from here
  // Regions executing at once (each helper body, loop body, branch... adds one level; a
  // RAII DepthScope in run_region); beyond Options::max_depth a located Limit error shows
  // `calls`, the helpers executing (outermost first) and their call sites.
  int depth = 0;
  struct Call {
    const Function* fn;
    const Operation* site;
  };
  std::vector<Call> calls;
  struct CallScope {  // pushes a call, removes it (by identity) on exit
    Engine& E;
    Call call;
    CallScope(Engine& e, const Function& fn, const Operation& site);
    ~CallScope();
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;
  };
  // Executing while loops and their iteration counts (LoopScope in ops_control.cpp). Entries are
  // removed by identity, so tasks of the Interleaved schedule interleaving their loops is safe.
  struct Loop {
    const Operation* op;
    const uint64_t* iterations;
  };
  std::vector<Loop> loops;
  int64_t next_domain_id = 1;
  uint64_t write_epoch = 0;  // one per store op, for collision detection
  uint64_t region_runs = 0;    // executed region ops (salts the Random segmentation per op)
  uint64_t parallel_runs = 0;  // executed parallel ops (seeds the Shuffle order per op)
  std::vector<ParallelTracker*> parallels;  // executing parallels, innermost last
  // Law checking of region_fold/region_scan (laws.cpp, scan_laws.cpp): active while `laws` is
  // set; `own_laws` collects the report of Options::check_laws.
  LawReport* laws = nullptr;
  uint64_t law_seed = 0;
  int law_splits = 3;
  LawReport own_laws;
  // Checks the laws of one region_fold execution (sources, identity, captures) into *laws.
  void check_fold_laws(const Operation& op, const std::vector<Value>& sources, const Value& identity,
                       const std::vector<Value>& captures, int64_t axis, int64_t n);
  // Checks the laws of one region_scan execution (n > 0) into *laws.
  void check_scan_laws(const Operation& op, const std::vector<Value>& sources, const Value& identity,
                       const Value& initial_state, const std::vector<Value>& captures, int64_t axis, int64_t n);

  // Interleaved atomics (atomic_schedule.cpp): the scheduler of the parallel whose points run
  // as tasks (null otherwise); before_atomic hands control back to it before every atomic op.
  AtomicScheduler* scheduler = nullptr;
  std::unordered_map<const Operation*, bool> atomic_bodies;  // parallel -> its body may run atomics
  void before_atomic();

  // Records a plain (non-atomic) access by `op` to element `idx` of `v`'s storage (logical
  // coordinate `elem`) against every executing parallel, innermost first; a write and another
  // access of the same element by two points of one parallel is a ParallelConflict error.
  void note_access(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool write) {
    if (!parallels.empty()) note_access_slow(op, v, idx, elem, write);
  }
  // Records an atomic access (an atomic op, or one element update of scatter_reduce; `update`:
  // it may write, false for atomic.load) likewise; an atomic access and a plain access of one
  // element by two points of one parallel (a plain read needs an atomic update to conflict) is
  // a ParallelConflict error. Atomic with atomic is never a conflict.
  void note_atomic(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool update) {
    if (!parallels.empty()) note_atomic_slow(op, v, idx, elem, update);
  }

  const Value& operand(Frame& f, const Operation& op, size_t i) const;
  // The tensor of operand i when `op` (the op now executing, before it runs any region) is its
  // last use, the frame holds the only reference to it, it appears once among the operands and
  // no trace/dump/break-on option prints operands after the op: the handler may write its result
  // over it and then bind it with take_operand. Null otherwise.
  Tensor* reusable_tensor(Frame& f, const Operation& op, size_t i);
  Value take_operand(Frame& f, const Operation& op, size_t i);  // moves it out of the frame
  size_t num_operands(const Operation& op) const { return op.operands.size(); }
  void set(Frame& f, const Operation& op, size_t i, Value v) const;

  Flow run_region(Frame& f, const Region& r, const std::vector<Value>& args);
  // Calls `fn` with values; binds its extent symbols by unification (mismatch: ShapeMismatch
  // at `site`), runs the body, checks the returned values against the result types.
  std::vector<Value> call_function(const Function& fn, const std::vector<Value>& args, const Operation& site);
  const Function& helper(const Operation& op, const std::string& attr) const;

  // Extents evaluate exactly (128-bit intermediates); a value outside the index range is a
  // located Limit error, a negative extent of a shape a ShapeMismatch.
  int64_t eval_extent(Frame& f, const Extent& e, const Operation& op) const;
  kir::int128 eval_extent_wide(Frame& f, const Extent& e, const Operation& op) const;
  Shape eval_shape(Frame& f, const std::vector<Extent>& shape, const Operation& op) const;
  // Binds/checks the extent symbols of `declared` against the runtime value `actual`.
  void unify(const Type& declared, const Value& actual, std::map<std::string, int64_t>& binding,
             const std::string& what, const Operation& site) const;

  // Kernel entry (interpreter.cpp).
  void run_kernel(const Function& k, const std::map<std::string, KernelArg>& args);

 private:
  void note_access_slow(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool write);
  void note_atomic_slow(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool update);
  HandlerTable handlers_;
  // Per region: after its op i, the values defined in the region (results, region arguments)
  // whose last use (directly or inside a nested region) is op i. run_region drops those holding
  // tensors or relations from the frame, so big temporaries are freed and their memory reused.
  std::unordered_map<const Region*, std::vector<std::vector<const kir::Value*>>> dead_after_;
  const std::vector<std::vector<const kir::Value*>>& dead_after(const Region& r);
  const std::vector<const kir::Value*>* dying_ = nullptr;  // dead_after of the op now executing
  uint64_t next_clock_check_ = UINT64_MAX;  // steps at which charge() next reads the clock
  double next_progress_ = 1.0;               // seconds at which the progress line is next written
  std::chrono::steady_clock::time_point started_;
  void check_budget(const Operation& op);
  [[noreturn]] void depth_exceeded(const Operation& site);
  Flow exec(Frame& f, const Operation& op);
  void after_op(Frame& f, const Operation& op);
  mutable std::unordered_map<const Function*, std::unordered_map<std::string, const kir::Value*>> names_;
  mutable std::unordered_map<std::string, const Function*> helpers_;  // helper(): symbol -> function
  const kir::Value* value_named(const Function* fn, const std::string& name) const;
};

// Runs the points of parallel `op` (domain `d`, body in frame `f`, conflicts into `tracker`,
// the parallel's execution count `run`) interleaved at atomic-op granularity when
// Options::atomic_schedule is Interleaved, the body may execute atomics and no interleaved
// parallel encloses this one; returns false (nothing run) otherwise (atomic_schedule.cpp).
bool run_interleaved(Engine& E, Frame& f, const Operation& op, ParallelTracker& tracker, const DomainV& d, uint64_t run);

// Small shared helpers for handlers.
// Steps of work a*b (multiply-adds of a contract: result elements * reduce points), saturating.
inline uint64_t work_product(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }
int64_t index_of(const Value& v);  // an integer/index scalar as int64
Value make_shaped(DType d, const Shape& shape, std::vector<uint64_t> bits, bool as_scalar);
Tensor make_tensor(DType d, const Shape& shape);  // zero bits, checked size
int64_t attr_int(const Operation& op, const std::string& key, int64_t dflt = 0);
bool attr_bool(const Operation& op, const std::string& key, bool dflt = false);
std::string attr_keyword(const Operation& op, const std::string& key);
std::vector<int64_t> attr_ints(const Operation& op, const std::string& key);
std::vector<std::pair<int64_t, int64_t>> attr_pairs(const Operation& op, const std::string& key);
// Map a numerics error to a RuntimeError at `op` with coordinates.
[[noreturn]] void numeric_fail(const Operation& op, int status, const std::string& message, const std::string& coords);

}  // namespace kir::interp
