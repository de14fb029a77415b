// Structured control (seed 000 §5-§6) and helper calls (§1): if, for over a domain/subregion in
// logical order with carries, while, break/continue carrying the loop's values, parallel (points
// executed one after another in the Options order: canonical = increasing logical coordinate,
// reverse, or seeded shuffle, or interleaved at atomic ops by atomic_schedule.cpp; plain
// accesses checked for conflicts between points), and call. Each
// carry keeps its schema: a yielded value whose dtype/shape differs from the init at run time
// (dynamic extents) is a shape-mismatch error naming the carry.
#include "interp/engine.h"

namespace kir::interp {
namespace {

std::string schema_diff(const Value& a, const Value& b) {
  if (a.v.index() != b.v.index()) return "a different kind of value";
  if (a.is_scalar() && a.scalar().dtype != b.scalar().dtype) return "a different dtype";
  if (a.is_tensor()) {
    if (a.tensor().dtype != b.tensor().dtype) return "a different dtype";
    if (a.tensor().shape != b.tensor().shape) return "shape " + shape_str(b.tensor().shape) + " instead of " + shape_str(a.tensor().shape);
  }
  if (a.is_tuple()) {
    if (a.tuple().elems.size() != b.tuple().elems.size()) return "a different tuple size";
    for (size_t i = 0; i < a.tuple().elems.size(); ++i) {
      auto d = schema_diff(a.tuple().elems[i], b.tuple().elems[i]);
      if (!d.empty()) return "component " + std::to_string(i) + ": " + d;
    }
  }
  if (a.is_record()) {
    for (size_t i = 0; i < a.record().elems.size() && i < b.record().elems.size(); ++i) {
      auto d = schema_diff(a.record().elems[i], b.record().elems[i]);
      if (!d.empty()) return "field " + a.record().names[i] + ": " + d;
    }
  }
  return "";
}

void check_carries(const Operation& op, const std::vector<Value>& init, const std::vector<Value>& next) {
  if (init.size() != next.size()) fail(op, ErrorKind::ShapeMismatch, "loop yields " + std::to_string(next.size()) + " carries, expected " + std::to_string(init.size()));
  for (size_t i = 0; i < init.size(); ++i) {
    auto d = schema_diff(init[i], next[i]);
    if (!d.empty()) fail(op, ErrorKind::ShapeMismatch, "carry " + std::to_string(i) + " has " + d + " in the yield");
  }
}

Flow op_if(Engine& E, Frame& f, const Operation& op) {
  bool c = E.operand(f, op, 0).scalar().bits != 0;
  if (op.regions.size() != 2) fail(op, ErrorKind::InvalidValue, "if needs two regions");
  Flow fl = E.run_region(f, *op.regions[c ? 0 : 1], {});
  if (fl.kind == FlowKind::Break || fl.kind == FlowKind::Continue) return fl;  // to the enclosing loop
  for (size_t i = 0; i < op.results.size() && i < fl.values.size(); ++i) E.set(f, op, i, fl.values[i]);
  return {};
}

// Runs one iteration of a loop (or one parallel point) whose index is `at`: a run-time error
// raised inside names it ("for %t = 0"), and with --trace the iteration is announced.
Flow run_iteration(Engine& E, Frame& f, const Operation& op, const std::vector<Value>& args, const char* kind,
                   int64_t at) {
  const Region& body = *op.regions.at(0);
  const std::string name = body.args.empty() ? std::string("?") : "%" + body.args[0]->name;
  if (E.opts.trace) *E.opts.trace << op.loc.str() << ": " << kind << " " << name << " = " << at << "\n";
  try {
    return E.run_region(f, body, args);
  } catch (RuntimeError& e) {
    e.add_loop(std::string(kind) + " " + name + " = " + std::to_string(at));
    throw;
  }
}

Flow op_for(Engine& E, Frame& f, const Operation& op) {
  const DomainV d = E.operand(f, op, 0).domain();
  std::vector<Value> carries;
  for (size_t i = 1; i < op.operands.size(); ++i) carries.push_back(E.operand(f, op, i));
  const std::vector<Value> init = carries;
  std::vector<Value> args(carries.size() + 1);
  for (int64_t k = 0; k < d.count; ++k) {
    args[0] = Scalar{DType::Index, static_cast<uint64_t>(d.member(k))};
    for (size_t i = 0; i < carries.size(); ++i) args[i + 1] = carries[i];
    Flow fl = run_iteration(E, f, op, args, "for", d.member(k));
    if (fl.kind != FlowKind::Normal) {
      check_carries(op, init, fl.values);
      carries = std::move(fl.values);
    }
    if (fl.kind == FlowKind::Break) break;
  }
  for (size_t i = 0; i < op.results.size(); ++i) E.set(f, op, i, carries.at(i));
  return {};
}

// Registers an executing while and its iteration count for budget messages (Engine::loops).
struct LoopScope {
  Engine& E;
  uint64_t iterations = 0;
  LoopScope(Engine& e, const Operation& op) : E(e) { E.loops.push_back({&op, &iterations}); }
  ~LoopScope() {
    for (size_t i = E.loops.size(); i-- > 0;)
      if (E.loops[i].iterations == &iterations) {
        E.loops.erase(E.loops.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }
  LoopScope(const LoopScope&) = delete;
  LoopScope& operator=(const LoopScope&) = delete;
};

Flow op_while(Engine& E, Frame& f, const Operation& op) {
  std::vector<Value> carries;
  for (size_t i = 0; i < op.operands.size(); ++i) carries.push_back(E.operand(f, op, i));
  const std::vector<Value> init = carries;
  std::vector<Value> results;
  LoopScope loop(E, op);
  for (;; ++loop.iterations) {
    Flow c = E.run_region(f, *op.regions.at(0), carries);
    if (c.kind != FlowKind::Condition || c.values.empty()) fail(op, ErrorKind::InvalidValue, "while condition region did not end in condition");
    const bool go = c.values[0].scalar().bits != 0;
    std::vector<Value> vals(c.values.begin() + 1, c.values.end());
    check_carries(op, init, vals);
    if (!go) { results = std::move(vals); break; }
    Flow fl = E.run_region(f, *op.regions.at(1), vals);
    if (fl.kind == FlowKind::Normal) fl.values = vals;
    check_carries(op, init, fl.values);
    if (fl.kind == FlowKind::Break) { results = std::move(fl.values); break; }
    carries = std::move(fl.values);
  }
  for (size_t i = 0; i < op.results.size(); ++i) E.set(f, op, i, results.at(i));
  return {};
}

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Pops the conflict tracker of a parallel also when a point throws.
struct TrackerScope {
  Engine& E;
  TrackerScope(Engine& e, ParallelTracker& t) : E(e) { E.parallels.push_back(&t); }
  ~TrackerScope() { E.parallels.pop_back(); }
  TrackerScope(const TrackerScope&) = delete;
  TrackerScope& operator=(const TrackerScope&) = delete;
};

Flow op_parallel(Engine& E, Frame& f, const Operation& op) {
  const DomainV d = E.operand(f, op, 0).domain();
  const uint64_t run = ++E.parallel_runs;
  ParallelTracker tracker;
  tracker.op = &op;
  TrackerScope scope(E, tracker);
  if (run_interleaved(E, f, op, tracker, d, run)) return {};  // atomics interleaved (atomic_schedule.cpp)
  auto run_point = [&](int64_t k) {
    tracker.point = d.member(k);
    run_iteration(E, f, op, {Scalar{DType::Index, static_cast<uint64_t>(tracker.point)}}, "parallel", tracker.point);
  };
  switch (E.opts.parallel_order) {
    case ParallelOrder::Canonical:  // increasing logical coordinate
      for (int64_t k = 0; k < d.count; ++k) run_point(k);
      break;
    case ParallelOrder::Reverse:
      for (int64_t k = d.count; k-- > 0;) run_point(k);
      break;
    case ParallelOrder::Shuffle: {  // Fisher-Yates with splitmix64: the same permutation everywhere
      std::vector<int64_t> order(static_cast<size_t>(d.count));
      for (int64_t k = 0; k < d.count; ++k) order[static_cast<size_t>(k)] = k;
      uint64_t state = E.opts.policy_seed ^ (run * 0xD1B54A32D192ED03ull);
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[splitmix64(state) % i]);
      for (int64_t k : order) run_point(k);
      break;
    }
  }
  return {};
}

Flow op_call(Engine& E, Frame& f, const Operation& op) {
  const Function& fn = E.helper(op, "callee");
  if (fn.is_kernel()) fail(op, ErrorKind::InvalidValue, "calling a kernel is a kernel launch");
  std::vector<Value> args;
  for (size_t i = 0; i < op.operands.size(); ++i) args.push_back(E.operand(f, op, i));
  auto res = E.call_function(fn, args, op);
  for (size_t i = 0; i < op.results.size() && i < res.size(); ++i) E.set(f, op, i, std::move(res[i]));
  return {};
}

}  // namespace

void register_control_ops(HandlerTable& t) {
  t["if"] = op_if;
  t["for"] = op_for;
  t["while"] = op_while;
  t["parallel"] = op_parallel;
  t["call"] = op_call;
}

}  // namespace kir::interp
