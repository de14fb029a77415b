// The reference interpreter's public API (issue 4): run a kernel of a verified canonical KIR
// module on external views, runtime scalars and constexpr specializations, or call a helper
// directly. Every value is computed with the numerics library (exact: rounded once per the
// language's rules). Faults raise interp::RuntimeError naming op, location and coordinates.
// Options choose the freedoms (parallel point order, atomic interleaving) and law checking of
// the region_fold/region_scan ops executed (check_region_fold_laws, Options::check_laws).
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "interp/error.h"
#include "interp/value.h"
#include "kir/ir.h"

namespace kir::interp {

// An external view handed to a kernel: element storage plus the logical shape, strides (in
// elements; empty = row-major) and offset. Out views start with every element undefined unless
// `defined` is set. After the run, `storage` holds what the kernel wrote.
struct HostView {
  std::shared_ptr<Storage> storage;
  Shape shape;
  Shape strides;
  int64_t offset = 0;
  // An omitted optional input (seed 004 §1) handed to a kernel that still takes the parameter:
  // every element starts undefined, so a read is a located run-time error instead of data.
  bool absent = false;
};

// A dense row-major host view of `shape` filled with the given bits (or zeros).
HostView make_host_view(DType dtype, const Shape& shape, std::vector<uint64_t> bits = {});

// The value of one kernel parameter: a view, a scalar (runtime or constexpr bool/integer), or an
// enum member name ("causal" or "@Mode::causal") for a constexpr enum parameter.
struct EnumArg {
  std::string member;
};
using KernelArg = std::variant<HostView, Scalar, EnumArg>;

// The order in which the points of a `parallel` run (the language leaves it free): canonical
// (increasing logical coordinate), reverse, or a seeded shuffle (policy_seed; each executed
// parallel op draws its own permutation from the seed and its execution count).
enum class ParallelOrder { Canonical, Reverse, Shuffle };

class EnvelopeLog;

// How the atomics of the points of a `parallel` interleave (the language leaves it free):
// Sequential runs each point to completion in the ParallelOrder; Interleaved runs the points as
// cooperatively scheduled tasks switched before every atomic op, the next atomic op's point
// drawn from atomic_seed (atomic_schedule.cpp; same seed, same interleaving).
enum class AtomicSchedule { Sequential, Interleaved };

// How region_fold / region_scan cut their source (the language allows any contiguous, ordered,
// covering segmentation, seed 000 §9): the whole source as one segment (canonical), one segment
// per element, seeded random segments (policy_seed; each executed region op draws its own), or
// blocks of `region_block` elements from the start, the last one shorter (the CPU backend's
// region_fold.blocks; per op by Options::region_blocks_at).
enum class Segmentation { Whole, PerElement, Random, Blocks };

// How contract / sparse_contract / scaled_contract accumulate a float result element (the
// language allows any order): Canonical is the exact sum of the exact products rounded once;
// Sequential is one declared legal order, for bit-exact comparison with a backend using it:
// acc = +0; per reduce point, row-major over the `reduce` pairs as listed (sparse: kept positions
// only), acc = round(acc + round(exact product)), both roundings into the accumulator dtype.
// Integer accumulators and quantized_dot are order-independent / bitwise-defined either way.
// How float contract / sparse / scaled contract elements are accumulated (docs/numerics.md):
// Canonical — the exact sum rounded once; Sequential — a left fold of the products each rounded
// once into acc, row-major over the reduce pairs; SequentialFused — the same fold with one fma
// per term after the first (f32/f64 accumulators with operands that embed in them), the order
// the CPU backend's packed contract declares; SequentialFusedPairs — the fused fold with the
// terms taken in pairs of reduce points (0, 1), (2, 3), ... of the row-major order, the second
// of each pair first (a last point without a partner comes last), the order of AVX512-BF16's
// pair dot product (contract.packed_bf16).
enum class AccumulationOrder { Canonical, Sequential, SequentialFused, SequentialFusedPairs };

// The declared lanes order of a reduce: along the last reduced axis, coordinate c lies in block
// c / block (one block when block is 0; block is a multiple of lanes) and goes to lane c mod
// lanes of its block; each lane folds its points in row-major order starting from the identity;
// a block's partial is the left fold of its lanes that received a point, and the result is the
// left fold of the partials (the identity when there are no points). lanes = 1, block = 0 is the
// canonical fold.
struct LanesOrder {
  int64_t lanes = 1;
  int64_t block = 0;
};

struct Options {
  std::ostream* trace = nullptr;  // one line per executed op when set
  bool break_on_nan = false;      // stop at the first op whose result has a NaN
  bool break_on_inf = false;      // ... or an infinity
  // Budgets, each exhausted with a located Limit error (a runaway while is an error, not a hang).
  // max_steps counts over the Interpreter's life (steps()); a step is one executed op, one region
  // entered, or one element of work: each element an op produces (tensor results, buffers) or
  // stores, each multiply-add of contract/sparse_contract/scaled_contract/quantized_dot, each
  // element histogram counts; reduce/scan/scatter_reduce/region ops pay for their helper calls.
  uint64_t max_steps = 2'000'000'000ull;
  double time_limit = 0;  // seconds of wall-clock time per run_kernel/call_helper; <= 0: none
  // When set, a run longer than a second rewrites one progress line there twice a second
  // ("\r... 3.5 s, 1200000000 steps; at `add` f.kir:7:3 (in for %t = 40)"); the caller ends it.
  std::ostream* progress = nullptr;
  // Regions executing at once: every helper call's body and every nested region (if branch,
  // loop body, parallel point, helper of reduce/scan/...) is one level. Bounds the evaluator's
  // recursion (measured 1.2-1.7 KiB of stack per level optimized, 6-6.8 KiB under
  // AddressSanitizer), so 1000 levels fit the 8 MiB default stack of the main thread and of the
  // worker threads of interleaved atomics.
  int max_depth = 1000;
  ParallelOrder parallel_order = ParallelOrder::Canonical;
  uint64_t policy_seed = 0;       // seed of the Shuffle order
  Segmentation segmentation = Segmentation::Whole;
  uint64_t segmentation_seed = 0;  // seed of the Random segmentation
  int64_t region_block = 0;        // elements per segment of the Blocks segmentation (> 0)
  // Per region op, by its location: the blocks segmentation a backend declares for it (B > 0
  // elements per segment, the last one shorter); ops not listed use `segmentation`.
  std::map<std::string, int64_t> region_blocks_at;
  AccumulationOrder accumulation = AccumulationOrder::Canonical;
  // Per op, by its location ("file:line:col"): the order a backend declares for that op (the
  // oracle fills it from the backend's bindings); ops not listed use `accumulation`.
  std::map<std::string, AccumulationOrder> accumulation_at;
  // Per reduce op, by its location: the lanes order a backend declares for it (LanesOrder,
  // docs/numerics.md "Declared lanes order"). Reduces not listed fold canonically.
  std::map<std::string, LanesOrder> reduce_lanes_at;
  // ... and the order of every reduce not listed there (`kir run --policy lanes=L[:C]`).
  LanesOrder reduce_lanes;
  // Per scan op, by its location: the blocks order a backend declares for it (a block of C > 0
  // points; docs/numerics.md "Declared blocks order of scan"): along the scan order, each block
  // scanned from the identity, the blocks' totals folded left to right into the prefix P_b
  // before block b, and every element of block b > 0 combined with P_b on its left (an
  // exclusive scan's first element of block b is P_b itself). Scans not listed use scan_block
  // (0: the canonical fold; `kir run --policy scan=blocks:C`).
  std::map<std::string, int64_t> scan_blocks_at;
  int64_t scan_block = 0;
  // Values (names without '%') printed to dump_out, elements and all, each time an op defines one.
  std::vector<std::string> dump;
  std::ostream* dump_out = nullptr;
  // When set, every executed reduce/scan/contract-family op adds a record (envelope_log.h).
  EnvelopeLog* envelopes = nullptr;
  AtomicSchedule atomic_schedule = AtomicSchedule::Sequential;
  uint64_t atomic_seed = 0;       // seed of the Interleaved schedule
  int atomic_window = 8;          // Interleaved: points live at once (each on its own thread)
  bool check_laws = false;        // check the laws of every region_fold/region_scan executed (law_report())
  uint64_t law_seed = 0;          // seed of the random segmentations of law checking
  // When set, called after every atomic.rmw with the storage and storage index it updated and
  // its operand (the oracle collects the values of commutative atomics, oracle/verdict.h).
  std::function<void(const Operation& op, const Storage& storage, int64_t index, const Scalar& operand)> on_atomic_rmw;
};

// Law checking of region_fold and region_scan (seed section 9; issue 4 item 3): one broken law
// found while a region op ran, with the smallest segments (half-open ranges along the source
// axis) that show it. Laws of both: "homomorphism" (summarize(A ++ B) == combine(summarize A,
// summarize B)), "left identity" (combine(identity, s) == s), "right identity" (combine(s,
// identity) == s). Of region_scan also: "apply identity" (apply(identity, state) == state),
// "action composition" (apply(combine(a, b), state) == apply(b, apply(a, state))) and "emit
// concatenation" (emit(A ++ B, state) == emit(A, state) ++ emit(B, apply(summarize A, state))).
// The two sides are compared under the numerics contract (laws.h, docs/numerics.md "Law checking
// under the contract"): equal bits, or enclosures that meet, so rounding alone is never a break.
struct LawViolation {
  std::string law;
  std::string op_location;                            // the region op's file:line:col
  std::vector<std::pair<int64_t, int64_t>> segments;  // smallest witness, [begin, end) each
  std::string detail;                                 // the differing values and segmentations
  std::string op;                                     // "region_fold" or "region_scan"
};
struct LawReport {
  int64_t folds_checked = 0;  // region_fold executions examined
  int64_t scans_checked = 0;  // region_scan executions examined
  std::vector<LawViolation> violations;  // at most one per (op, law)
  bool ok() const { return violations.empty(); }
  std::string str() const;  // one line per violation ("ok" when none)
};

class Engine;

class Interpreter {
 public:
  explicit Interpreter(const Module& m, Options opts = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Runs kernel `name`. `args` maps parameter names (without '%') to arguments; constexpr
  // parameters with defaults may be omitted. Extent symbols are bound from the view shapes and
  // must agree across parameters (an error names both). Views share storage with the caller.
  void run_kernel(const std::string& name, const std::map<std::string, KernelArg>& args);

  // Calls helper `name` with runtime values (extent symbols bound by unification).
  std::vector<Value> call_helper(const std::string& name, const std::vector<Value>& args);

  uint64_t steps() const;  // ops executed so far

  // Calls helper `name` like call_helper while checking the laws of every region_fold and
  // region_scan it executes: each is also evaluated under segmentation per element, two
  // segments and `random_splits` seeded random splits and compared with the whole segmentation;
  // identity neutrality is checked per element. A break is searched down to the smallest pair of
  // adjacent segments showing it.
  LawReport check_region_fold_laws(const std::string& name, const std::vector<Value>& args, uint64_t seed = 0,
                                   int random_splits = 3);

  // With Options::check_laws: the laws broken by the region ops executed so far (run_kernel,
  // call_helper), checked as by check_region_fold_laws with Options::law_seed.
  const LawReport& law_report() const;

 private:
  std::unique_ptr<Engine> engine_;
};

// The extent bindings a kernel invocation implies: every plain extent symbol of a view parameter
// bound from the given view shapes (missing views are skipped). Conflicts throw RuntimeError
// (Binding) naming both parameters.
std::map<std::string, int64_t> bind_kernel_extents(const Function& kernel, const std::map<std::string, KernelArg>& args);

// The concrete shape of a view parameter's tensor type under `dims`; nullopt if some extent is
// unbound (the caller may ask the user for --dim).
std::optional<Shape> param_shape(const kir::Value& param, const std::map<std::string, int64_t>& dims,
                                 std::string* missing = nullptr);

}  // namespace kir::interp
