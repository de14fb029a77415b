// Region execution, helper calls with extent unification, extent evaluation, the op dispatch
// loop with its step budget, tracing and --break-on checks. Op semantics live in ops_*.cpp.
#include "interp/engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <new>
#include <ostream>
#include <set>
#include <stdexcept>

#include "kir/op_registry.h"
#include "numerics/format.h"
#include "numerics/result.h"
#include "numerics/value_text.h"

namespace kir::interp {

Engine::Engine(const Module& m, Options o) : module(m), opts(o) {
  register_pointwise_ops(handlers_);
  register_shape_ops(handlers_);
  register_domain_ops(handlers_);
  register_memory_ops(handlers_);
  register_control_ops(handlers_);
  register_structured_ops(handlers_);
  register_contract_ops(handlers_);
  register_random_ops(handlers_);
}

const Value& Engine::operand(Frame& f, const Operation& op, size_t i) const {
  if (i >= op.operands.size()) fail(op, ErrorKind::InvalidValue, "missing operand " + std::to_string(i));
  auto it = f.env.find(op.operands[i]);
  if (it == f.env.end()) fail(op, ErrorKind::InvalidValue, "operand %" + op.operands[i]->name + " has no value");
  return it->second;
}

Tensor* Engine::reusable_tensor(Frame& f, const Operation& op, size_t i) {
  if (opts.trace || (opts.dump_out && !opts.dump.empty()) || opts.break_on_nan || opts.break_on_inf) return nullptr;
  if (!dying_ || i >= op.operands.size()) return nullptr;
  const kir::Value* v = op.operands[i];
  if (std::count(op.operands.begin(), op.operands.end(), v) != 1 ||
      std::find(dying_->begin(), dying_->end(), v) == dying_->end())
    return nullptr;
  auto it = f.env.find(v);
  return it == f.env.end() ? nullptr : it->second.unique_tensor();
}

Value Engine::take_operand(Frame& f, const Operation& op, size_t i) {
  auto it = f.env.find(op.operands.at(i));
  Value v = std::move(it->second);
  f.env.erase(it);
  return v;
}

void Engine::set(Frame& f, const Operation& op, size_t i, Value v) const {
  if (i >= op.results.size()) fail(op, ErrorKind::InvalidValue, "missing result " + std::to_string(i));
  f.env[op.results[i].get()] = std::move(v);
}

const kir::Value* Engine::value_named(const Function* fn, const std::string& name) const {
  if (!fn) return nullptr;
  auto it = names_.find(fn);
  if (it == names_.end()) {
    auto& m = names_[fn];
    for (const auto& a : fn->body.args) m[a->name] = a.get();
    walk(fn->body, [&](const Operation& o) {
      for (const auto& r : o.results) m[r->name] = r.get();
      for (const auto& reg : o.regions)
        for (const auto& a : reg->args) m[a->name] = a.get();
    });
    it = names_.find(fn);
  }
  auto jt = it->second.find(name);
  return jt == it->second.end() ? nullptr : jt->second;
}

namespace {

std::string wide_str(kir::int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  auto u = neg ? static_cast<kir::uint128>(0) - static_cast<kir::uint128>(v) : static_cast<kir::uint128>(v);
  std::string s;
  for (; u; u /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  return neg ? "-" + s : s;
}

// The exact value of an extent polynomial, with 128-bit partial sums and products: an extent
// whose value fits in 64 bits evaluates even when a partial sum does not (a stepped domain's
// floordiv(%e - %b + %st - 1, %st) near the ends of the index range). Beyond 128 bits: a located
// Limit error. Empty when an atom has no value (`missing` names it) or a divisor is 0.
std::optional<kir::int128> eval_wide(const Extent& e, const std::function<std::optional<int64_t>(const std::string&)>& lookup,
                                     const Operation& op, std::string& missing) {
  auto too_big = [&]() -> std::optional<kir::int128> {
    fail(op, ErrorKind::Limit, "extent " + e.str() + " exceeds 128 bits while it is evaluated");
  };
  kir::int128 total = 0;
  for (const auto& [coef, atoms] : e.monomials()) {
    kir::int128 t = coef;
    for (const auto& a : atoms) {
      kir::int128 v = 0;
      if (a->kind == ExtentAtom::Kind::Symbol) {
        auto s = lookup(a->name);
        if (!s) {
          missing = a->name;
          return std::nullopt;
        }
        v = *s;
      } else {
        auto n = eval_wide(a->num, lookup, op, missing);
        auto d = n ? eval_wide(a->den, lookup, op, missing) : std::nullopt;
        if (!d || *d == 0) return std::nullopt;
        if (*d == -1 && *n == std::numeric_limits<kir::int128>::min()) return too_big();
        v = *n / *d;
        if (*n % *d != 0 && ((*n < 0) != (*d < 0))) --v;  // floor
      }
      if (__builtin_mul_overflow(t, v, &t)) return too_big();
    }
    if (__builtin_add_overflow(total, t, &total)) return too_big();
  }
  return total;
}

}  // namespace

kir::int128 Engine::eval_extent_wide(Frame& f, const Extent& e, const Operation& op) const {
  std::string missing;
  auto v = eval_wide(e, [&](const std::string& name) -> std::optional<int64_t> {
    if (!name.empty() && name[0] == '%') {
      const kir::Value* kv = value_named(f.fn, name.substr(1));
      auto it = kv ? f.env.find(kv) : f.env.end();
      if (it == f.env.end() || !it->second.is_scalar()) return std::nullopt;
      return index_of(it->second);
    }
    auto it = f.symbols.find(name);
    if (it == f.symbols.end()) return std::nullopt;
    return it->second;
  }, op, missing);
  if (!v) {
    if (!missing.empty()) fail(op, ErrorKind::ShapeMismatch, "extent " + missing + " has no value here");
    fail(op, ErrorKind::ShapeMismatch, "extent " + e.str() + " cannot be evaluated (division by zero)");
  }
  return *v;
}

int64_t Engine::eval_extent(Frame& f, const Extent& e, const Operation& op) const {
  const kir::int128 v = eval_extent_wide(f, e, op);
  if (v < INT64_MIN || v > INT64_MAX)
    fail(op, ErrorKind::Limit, "extent " + e.str() + " evaluates to " + wide_str(v) + ", outside the 64-bit index range");
  return static_cast<int64_t>(v);
}

// A negative extent is a shape mismatch whatever its magnitude; a positive one beyond the index
// range is a Limit error.
Shape Engine::eval_shape(Frame& f, const std::vector<Extent>& shape, const Operation& op) const {
  Shape s;
  for (const auto& e : shape) {
    const kir::int128 v = eval_extent_wide(f, e, op);
    if (v < 0) fail(op, ErrorKind::ShapeMismatch, "extent " + e.str() + " evaluates to " + wide_str(v) + " < 0");
    if (v > INT64_MAX)
      fail(op, ErrorKind::Limit, "extent " + e.str() + " evaluates to " + wide_str(v) + ", beyond the 64-bit index range");
    s.push_back(static_cast<int64_t>(v));
  }
  checked_numel(s);
  return s;
}

namespace {

void unify_shape(const std::vector<Extent>& decl, const Shape& actual, std::map<std::string, int64_t>& b,
                 std::vector<std::pair<Extent, int64_t>>& deferred, const std::string& what, const Operation& site) {
  if (decl.size() != actual.size())
    fail(site, ErrorKind::ShapeMismatch, what + " has rank " + std::to_string(actual.size()) + ", expected " + std::to_string(decl.size()));
  for (size_t i = 0; i < decl.size(); ++i) {
    const Extent& e = decl[i];
    if (e.is_symbol() && e.symbol_name()[0] != '%') {
      auto [it, fresh] = b.emplace(e.symbol_name(), actual[i]);
      if (!fresh && it->second != actual[i])
        fail(site, ErrorKind::ShapeMismatch,
             "extent " + e.symbol_name() + " is " + std::to_string(it->second) + " but " + what + " has " +
                 std::to_string(actual[i]) + " on axis " + std::to_string(i));
    } else {
      deferred.emplace_back(e, actual[i]);
    }
  }
}

void unify_rec(const Type& t, const Value& v, std::map<std::string, int64_t>& b,
               std::vector<std::pair<Extent, int64_t>>& deferred, const std::string& what, const Operation& site) {
  switch (t.kind()) {
    case TypeKind::Tensor:
      if (!v.is_tensor()) fail(site, ErrorKind::ShapeMismatch, what + " is not a tensor");
      if (v.tensor().dtype != t.dtype()) fail(site, ErrorKind::ShapeMismatch, what + " has dtype " + std::string(name(v.tensor().dtype)));
      unify_shape(t.shape(), v.tensor().shape, b, deferred, what, site);
      return;
    case TypeKind::Scalar:
      if (!v.is_scalar()) fail(site, ErrorKind::ShapeMismatch, what + " is not a scalar");
      return;
    case TypeKind::View:
    case TypeKind::Buffer:
      if (!v.is_view()) fail(site, ErrorKind::ShapeMismatch, what + " is not a view or buffer");
      unify_shape(t.shape(), v.view().shape, b, deferred, what, site);
      return;
    case TypeKind::Relation:
      if (!v.is_relation()) fail(site, ErrorKind::ShapeMismatch, what + " is not a relation");
      unify_shape(t.shape(), v.relation().shape, b, deferred, what, site);
      return;
    case TypeKind::Domain:
    case TypeKind::Subregion:
      if (!v.is_domain()) fail(site, ErrorKind::ShapeMismatch, what + " is not a domain");
      unify_shape({t.extent()}, {v.domain().count}, b, deferred, what, site);
      return;
    case TypeKind::Tuple: {
      if (!v.is_tuple() || v.tuple().elems.size() != t.elements().size())
        fail(site, ErrorKind::ShapeMismatch, what + " does not match " + t.str());
      for (size_t i = 0; i < t.elements().size(); ++i)
        unify_rec(t.elements()[i], v.tuple().elems[i], b, deferred, what + "." + std::to_string(i), site);
      return;
    }
    case TypeKind::Record: {
      if (!v.is_record() || v.record().elems.size() != t.fields().size())
        fail(site, ErrorKind::ShapeMismatch, what + " does not match " + t.str());
      for (size_t i = 0; i < t.fields().size(); ++i)
        unify_rec(t.fields()[i].second, v.record().elems[i], b, deferred, what + "." + t.fields()[i].first, site);
      return;
    }
    case TypeKind::Enum:
      if (!v.is_enum()) fail(site, ErrorKind::ShapeMismatch, what + " is not an enum value");
      return;
  }
}

}  // namespace

void Engine::unify(const Type& declared, const Value& actual, std::map<std::string, int64_t>& binding,
                   const std::string& what, const Operation& site) const {
  std::vector<std::pair<Extent, int64_t>> deferred;
  unify_rec(declared, actual, binding, deferred, what, site);
  for (const auto& [e, val] : deferred) {
    bool unbound = false;
    auto r = e.evaluate([&](const std::string& n) -> std::optional<int64_t> {
      auto it = binding.find(n);
      if (it == binding.end()) { unbound = true; return std::nullopt; }
      return it->second;
    });
    if (r && *r != val)
      fail(site, ErrorKind::ShapeMismatch,
           "extent " + e.str() + " is " + std::to_string(*r) + " but " + what + " has " + std::to_string(val));
  }
}

const Function& Engine::helper(const Operation& op, const std::string& attr) const {
  const Attribute* a = op.attr(attr);
  if (!a || a->kind != Attribute::Kind::Symbol) fail(op, ErrorKind::InvalidValue, "missing symbol attribute '" + attr + "'");
  // Module::find_function scans the module: cached per symbol, so a call costs the same in a
  // module of thousands of helpers.
  auto it = helpers_.find(a->s);
  if (it == helpers_.end()) it = helpers_.emplace(a->s, module.find_function(a->s)).first;
  if (!it->second) fail(op, ErrorKind::InvalidValue, "unknown helper @" + a->s);
  return *it->second;
}

Engine::CallScope::CallScope(Engine& e, const Function& fn, const Operation& site) : E(e), call{&fn, &site} {
  E.calls.push_back(call);
}

Engine::CallScope::~CallScope() {
  for (size_t i = E.calls.size(); i-- > 0;)
    if (E.calls[i].fn == call.fn && E.calls[i].site == call.site) {
      E.calls.erase(E.calls.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

std::vector<Value> Engine::call_function(const Function& fn, const std::vector<Value>& args, const Operation& site) {
  const auto& params = fn.body.args;
  if (params.size() != args.size())
    fail(site, ErrorKind::ShapeMismatch, "@" + fn.name + " takes " + std::to_string(params.size()) + " arguments, got " + std::to_string(args.size()));
  Frame nf;
  nf.fn = &fn;
  for (size_t i = 0; i < params.size(); ++i) {
    unify(params[i]->type, args[i], nf.symbols, "argument %" + params[i]->name + " of @" + fn.name, site);
    nf.env[params[i].get()] = args[i];
  }
  CallScope call(*this, fn, site);
  Flow fl = run_region(nf, fn.body, {});
  if (fl.kind != FlowKind::Return) fail(site, ErrorKind::InvalidValue, "@" + fn.name + " ended without return");
  if (fl.values.size() != fn.result_types.size())
    fail(site, ErrorKind::ShapeMismatch, "@" + fn.name + " returned " + std::to_string(fl.values.size()) + " values");
  for (size_t i = 0; i < fl.values.size(); ++i)
    unify(fn.result_types[i], fl.values[i], nf.symbols, "result " + std::to_string(i) + " of @" + fn.name, site);
  return std::move(fl.values);
}

namespace {

void note_uses(const Operation& op, size_t i, std::unordered_map<const kir::Value*, size_t>& last) {
  for (const kir::Value* v : op.operands) last[v] = i;
  for (const auto& reg : op.regions)
    for (const auto& o : reg->ops) note_uses(*o, i, last);
}

}  // namespace

const std::vector<std::vector<const kir::Value*>>& Engine::dead_after(const Region& r) {
  auto it = dead_after_.find(&r);
  if (it != dead_after_.end()) return it->second;
  std::unordered_map<const kir::Value*, size_t> last;
  for (size_t i = 0; i < r.ops.size(); ++i) note_uses(*r.ops[i], i, last);
  std::vector<std::vector<const kir::Value*>> dead(r.ops.size());
  auto add = [&](const kir::Value* v, size_t def) {
    auto u = last.find(v);
    dead[u == last.end() ? def : u->second].push_back(v);
  };
  if (!r.ops.empty())
    for (const auto& a : r.args) add(a.get(), 0);
  for (size_t i = 0; i < r.ops.size(); ++i)
    for (const auto& res : r.ops[i]->results) add(res.get(), i);
  return dead_after_.emplace(&r, std::move(dead)).first->second;
}

Flow Engine::run_region(Frame& f, const Region& r, const std::vector<Value>& args) {
  // The op that runs the region (a helper body: the call site) locates budget errors.
  static const Operation kNoSite;
  const Operation& site = r.parent ? *r.parent : calls.empty() ? kNoSite : *calls.back().site;
  struct DepthScope {
    int& d;
    ~DepthScope() { --d; }
  } depth_scope{++depth};
  if (depth > opts.max_depth) depth_exceeded(site);
  // Entering a region counts as a step too, so that loops of bare terminators still end.
  charge(site, 1);
  for (size_t i = 0; i < r.args.size() && i < args.size(); ++i) f.env[r.args[i].get()] = args[i];
  const auto& dead = dead_after(r);
  for (size_t oi = 0; oi < r.ops.size(); ++oi) {
    const Operation& op = *r.ops[oi];
    FlowKind k = FlowKind::Normal;
    if (op.name == "yield") k = FlowKind::Yield;
    else if (op.name == "break") k = FlowKind::Break;
    else if (op.name == "continue") k = FlowKind::Continue;
    else if (op.name == "return") k = FlowKind::Return;
    else if (op.name == "condition") k = FlowKind::Condition;
    if (k != FlowKind::Normal) {
      Flow fl{k, {}};
      for (size_t i = 0; i < op.operands.size(); ++i) fl.values.push_back(operand(f, op, i));
      return fl;
    }
    dying_ = &dead[oi];
    Flow fl = exec(f, op);
    if (fl.kind != FlowKind::Normal) return fl;
    for (const kir::Value* v : dead[oi]) {
      auto it = f.env.find(v);
      if (it != f.env.end() && (it->second.is_tensor() || it->second.is_relation())) f.env.erase(it);
    }
  }
  return {};
}

namespace {

// Elements of work of an op result: tensor elements, buffer elements, their sum over tuples and
// records; relations, domains and scalars are free.
uint64_t elements_of(const Value& v) {
  if (v.is_tensor()) return static_cast<uint64_t>(v.tensor().size());
  if (v.is_view()) {
    uint64_t n = 1;
    for (int64_t e : v.view().shape) n *= static_cast<uint64_t>(e);
    return n;
  }
  uint64_t n = 0;
  if (v.is_tuple())
    for (const auto& e : v.tuple().elems) n += elements_of(e);
  if (v.is_record())
    for (const auto& e : v.record().elems) n += elements_of(e);
  return n;
}

}  // namespace

Flow Engine::exec(Frame& f, const Operation& op) {
  charge(op, 1);
  auto it = handlers_.find(op.name);
  if (it == handlers_.end()) {
    const OpInfo* info = find_op(op.name);
    if (info && info->status != OpStatus::Canonical)
      fail(op, ErrorKind::NotImplemented, "not canonical KIR: run `kir normalize` first");
    fail(op, ErrorKind::NotImplemented, "not implemented: " + op.name);
  }
  Flow fl;
  try {
    fl = it->second(*this, f, op);
  } catch (const RuntimeError& e) {
    if (!e.op().empty()) throw;
    throw RuntimeError(e.kind(), op.name, op.loc.str(), e.message(), e.coords());
  } catch (const std::bad_alloc&) {
    fail(op, ErrorKind::Limit, "out of memory");
  } catch (const std::length_error& e) {
    fail(op, ErrorKind::Limit, std::string("size limit exceeded (") + e.what() + ")");
  } catch (const ExtentOverflow& e) {
    fail(op, ErrorKind::Limit, e.what());
  } catch (const std::logic_error& e) {
    fail(op, ErrorKind::InvalidValue, std::string("internal: ") + e.what());
  }
  // Element work: the elements of the results (ops with regions and calls pay inside).
  if (op.regions.empty() && op.name != "call") {
    uint64_t n = 0;
    for (const auto& r : op.results) {
      auto rt = f.env.find(r.get());
      if (rt != f.env.end()) n += elements_of(rt->second);
    }
    if (n) charge(op, n);
  }
  after_op(f, op);
  return fl;
}

// ---- budgets ----

void Engine::start_clock() {
  started_ = std::chrono::steady_clock::now();
  next_clock_check_ = opts.time_limit > 0 || opts.progress ? steps : UINT64_MAX;
  next_progress_ = 1.0;
}

namespace {

std::string loop_note(const std::vector<Engine::Loop>& loops) {
  const Engine::Loop* best = nullptr;
  for (const auto& l : loops)
    if (!best || *l.iterations > *best->iterations) best = &l;
  if (!best) return "";
  return best->op->name + " at " + best->op->loc.str() + " still running after " + std::to_string(*best->iterations) +
         " iterations: ";
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

}  // namespace

void Engine::check_budget(const Operation& op) {
  if (steps > opts.max_steps)
    fail(op, ErrorKind::Limit,
         loop_note(loops) + "step budget of " + std::to_string(opts.max_steps) +
             " exhausted (a step is one executed op or one element of work); raise it with --max-steps");
  if (opts.time_limit <= 0 && !opts.progress) {
    next_clock_check_ = UINT64_MAX;
    return;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (opts.progress && elapsed >= next_progress_) {
    std::string where = "`" + op.name + "` " + op.loc.str();
    if (!loops.empty())
      where += " (in " + loops.back().op->name + " at " + loops.back().op->loc.str() + ", iteration " +
               std::to_string(*loops.back().iterations) + ")";
    *opts.progress << "\rkir run: " << seconds(elapsed) << ", " << steps << " steps; at " << where << "\033[K" << std::flush;
    next_progress_ = elapsed + 0.5;
  }
  if (opts.time_limit > 0 && elapsed > opts.time_limit)
    fail(op, ErrorKind::Limit,
         loop_note(loops) + "time limit of " + seconds(opts.time_limit) + " exceeded (" + seconds(elapsed) +
             " elapsed); raise it with --time-limit");
  next_clock_check_ = steps > UINT64_MAX - 4096 ? UINT64_MAX : steps + 4096;
}

void Engine::depth_exceeded(const Operation& site) {
  std::vector<const Function*> fns;
  for (const auto& c : calls) fns.push_back(c.fn);
  const std::string chain = call_chain_text(fns);
  fail(site, ErrorKind::Limit,
       "nesting depth limit of " + std::to_string(opts.max_depth) +
           " exceeded (helper calls and nested regions executing at once); calls: " + chain +
           "; raise it with --max-depth");
}

namespace {

// First NaN/Inf element of a value (flat index), or -1.
int64_t first_bad(const Value& v, bool nan, bool inf) {
  auto bad = [&](DType d, uint64_t b) {
    if (!is_any_float(d)) return false;
    auto c = num::classify(b, d);
    return (nan && c == num::FpClass::NaN) || (inf && c == num::FpClass::Infinite);
  };
  if (v.is_scalar()) return bad(v.scalar().dtype, v.scalar().bits) ? 0 : -1;
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    for (int64_t i = 0; i < t.size(); ++i)
      if (bad(t.dtype, t.bits[static_cast<size_t>(i)])) return i;
  }
  return -1;
}

std::string element_at(const Value& v, int64_t i, const Shape& shape) {
  if (v.is_scalar()) return num::format_value(v.scalar());
  if (v.is_tensor() && v.tensor().shape == shape && i < v.tensor().size()) return num::format_value(v.tensor().at(i));
  return summarize(v);
}

}  // namespace

void Engine::after_op(Frame& f, const Operation& op) {
  if (opts.trace) {
    *opts.trace << op.loc.str() << ": " << op.name;
    for (const auto& r : op.results) {
      auto it = f.env.find(r.get());
      if (it != f.env.end()) *opts.trace << " %" << r->name << " = " << summarize(it->second);
    }
    *opts.trace << "\n";
  }
  if (opts.dump_out && !opts.dump.empty())
    for (const auto& r : op.results)
      if (std::find(opts.dump.begin(), opts.dump.end(), r->name) != opts.dump.end()) {
        auto it = f.env.find(r.get());
        if (it != f.env.end())
          *opts.dump_out << op.loc.str() << ": %" << r->name << " = " << summarize(it->second) << "\n  "
                         << render_elements(it->second) << "\n";
      }
  if (!opts.break_on_nan && !opts.break_on_inf) return;
  // Stop only where a NaN/inf originates in a computation: not at constants and the ops that
  // move or regroup values (an identity of -inf, its `full`, a broadcast), not at control ops
  // whose results were yielded from inside, and not where an operand already holds one (a
  // masked read's -inf fill, a propagated value): that value was reported where it arose, or it
  // is one the author or the language put there on purpose.
  static const std::set<std::string_view> moves = {"const",   "full",  "broadcast", "reshape", "transpose",
                                                   "join",    "tuple", "tuple.get", "record",  "record.get",
                                                   "select",  "for",   "while",     "if",      "call",
                                                   "parallel", "region_fold", "region_scan"};
  if (moves.count(op.name)) return;
  for (const kir::Value* o : op.operands) {
    auto jt = f.env.find(o);
    if (jt != f.env.end() && first_bad(jt->second, opts.break_on_nan, opts.break_on_inf) >= 0) return;
  }
  for (const auto& r : op.results) {
    auto it = f.env.find(r.get());
    if (it == f.env.end()) continue;
    int64_t i = first_bad(it->second, opts.break_on_nan, opts.break_on_inf);
    if (i < 0) continue;
    Shape shape = it->second.is_tensor() ? it->second.tensor().shape : Shape{};
    std::string msg = "result %" + r->name + " is " + element_at(it->second, i, shape) + "; operands:";
    for (size_t k = 0; k < op.operands.size(); ++k) {
      auto jt = f.env.find(op.operands[k]);
      msg += " %" + op.operands[k]->name + " = " + (jt == f.env.end() ? "?" : element_at(jt->second, i, shape));
    }
    fail(op, ErrorKind::BreakOn, msg, coord_str(unravel(i, shape)));
  }
}

// ---- small helpers shared by handlers ----

int64_t index_of(const Value& v) {
  Scalar s = v.scalar();
  if (s.dtype == DType::Bool) return static_cast<int64_t>(s.bits);
  if (is_unsigned_integer(s.dtype)) {
    if (s.bits > static_cast<uint64_t>(INT64_MAX))
      throw RuntimeError(ErrorKind::OutOfBounds, "", "", "index value " + std::to_string(s.bits) + " exceeds the i64 range");
    return static_cast<int64_t>(s.bits);
  }
  if (!is_integer(s.dtype)) throw std::logic_error("index value of dtype " + std::string(name(s.dtype)));
  return num::as_signed(s);
}

Tensor make_tensor(DType d, const Shape& shape) {
  Tensor t;
  t.dtype = d;
  t.shape = shape;
  t.bits.assign(static_cast<size_t>(checked_numel(shape)), 0);
  return t;
}

Value make_shaped(DType d, const Shape& shape, std::vector<uint64_t> bits, bool as_scalar) {
  if (as_scalar) return Scalar{d, bits.empty() ? 0 : bits[0]};
  Tensor t;
  t.dtype = d;
  t.shape = shape;
  t.bits = std::move(bits);
  return Value(std::move(t));
}

int64_t attr_int(const Operation& op, const std::string& key, int64_t dflt) {
  const Attribute* a = op.attr(key);
  if (!a) return dflt;
  if (!a->is_int()) fail(op, ErrorKind::InvalidValue, "attribute '" + key + "' is not an integer");
  return static_cast<int64_t>(a->i);
}

bool attr_bool(const Operation& op, const std::string& key, bool dflt) {
  const Attribute* a = op.attr(key);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::Bool) fail(op, ErrorKind::InvalidValue, "attribute '" + key + "' is not a bool");
  return a->b;
}

std::string attr_keyword(const Operation& op, const std::string& key) {
  const Attribute* a = op.attr(key);
  if (!a) return "";
  return a->s;
}

std::vector<int64_t> attr_ints(const Operation& op, const std::string& key) {
  const Attribute* a = op.attr(key);
  if (!a) return {};
  if (!a->is_int_list()) fail(op, ErrorKind::InvalidValue, "attribute '" + key + "' is not an integer list");
  return a->ints();
}

std::vector<std::pair<int64_t, int64_t>> attr_pairs(const Operation& op, const std::string& key) {
  const Attribute* a = op.attr(key);
  if (!a) return {};
  if (a->kind == Attribute::Kind::List && a->list.empty()) return {};
  if (!a->is_int_pair_list()) fail(op, ErrorKind::InvalidValue, "attribute '" + key + "' is not a list of pairs");
  return a->int_pairs();
}

void numeric_fail(const Operation& op, int status, const std::string& message, const std::string& coords) {
  ErrorKind k = ErrorKind::InvalidValue;
  switch (static_cast<num::Status>(status)) {
    case num::Status::DivideByZero: k = ErrorKind::DivisionByZero; break;
    case num::Status::IntOverflow:
    case num::Status::ShiftOutOfRange: k = ErrorKind::IntOverflow; break;
    case num::Status::InvalidCast: k = ErrorKind::InvalidCast; break;
    case num::Status::NotImplemented: k = ErrorKind::NotImplemented; break;
    default: break;
  }
  fail(op, k, message, coords);
}

}  // namespace kir::interp
