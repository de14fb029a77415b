// The oracle's verdict (verdict.h): interpreter runs under the legal policies a rule needs, the
// backend's outputs compared element by element against the allowed set.
#include "oracle/verdict.h"

#include <deque>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "interp/envelope_log.h"
#include "numerics/envelope.h"
#include "numerics/format.h"
#include "numerics/value_text.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"

namespace kir::oracle {
namespace {

constexpr size_t kMaxDiffs = 8;

std::string fmt(DType d, uint64_t bits) { return num::format_value(num::Scalar{d, bits}); }

// Runs the interpreter on `args`; returns its fault (empty on success).
Fault run_interp(const Module& m, const std::string& name, std::map<std::string, interp::KernelArg>& args,
                 const interp::Options& o) {
  try {
    interp::Interpreter it(m, o);
    it.run_kernel(name, args);
  } catch (const std::exception& e) {
    return current_fault(e);
  }
  return {};
}

bool is_atomic_op(const std::string& n) { return n.rfind("atomic.", 0) == 0 || n == "scatter_reduce"; }

bool has_op(const Function& k, bool (*pred)(const std::string&)) {
  bool any = false;
  walk(k.body, [&](const Operation& op) { any = any || pred(op.name); });
  return any;
}

bool has_atomics(const Function& k) { return has_op(k, is_atomic_op); }

// Whether the kernel leaves some order to the implementation (the points of a parallel, atomics,
// region segmentations): then another legal order may reach another fault first.
bool order_free(const Function& k) {
  return has_op(k, [](const std::string& n) {
    return n == "parallel" || is_atomic_op(n) || n == "region_fold" || n == "region_scan";
  });
}

// What the kernel's atomics allow (verdict.h, "atomic interleaving"). `independent`: no value of
// the run depends on the interleaving — no atomic's result is used, and every view an atomic
// writes is a kernel parameter nothing else reads or writes — so each such output is judged on
// its own. `commutative`: of those, the outputs only atomic.rmw of one commuting kind writes.
struct AtomicOutputs {
  bool independent = false;
  std::set<std::string> targets;                   // views the atomics write
  std::map<std::string, std::string> commutative;  // view -> the kind of its atomics
};

AtomicOutputs atomic_outputs(const Module& m, const Function& k) {
  AtomicOutputs ao;
  for (const auto& f : m.functions)  // atomics in a helper act on views the analysis cannot see
    if (f.get() != &k && has_atomics(*f)) return ao;
  std::map<const kir::Value*, int> uses, atomic_uses;
  walk(k.body, [&](const Operation& op) {
    if (op.name == "dim") return;  // reads the extent, not the elements
    for (const kir::Value* v : op.operands) ++uses[v];
  });
  bool ok = true;
  std::map<std::string, std::set<std::string>> kinds;  // view -> "op kind" of every atomic writing it
  walk(k.body, [&](const Operation& op) {
    if (!is_atomic_op(op.name)) return;
    for (const auto& r : op.results) ok = ok && !uses.count(r.get());
    const kir::Value* target = op.operands.empty() ? nullptr : op.operands[0];
    if (!target || target->def || target->owner != &k.body) {  // not a kernel parameter
      ok = false;
      return;
    }
    const Attribute* a = op.attr("kind");
    kinds[target->name].insert(op.name + " " + (a && a->kind == Attribute::Kind::Keyword ? a->s : ""));
    ++atomic_uses[target];
    ao.targets.insert(target->name);
  });
  for (const kir::Value* p : k.params())
    if (ao.targets.count(p->name) && uses[p] != atomic_uses[p]) ok = false;  // read or written otherwise too
  ao.independent = ok && !ao.targets.empty();
  for (const kir::Value* p : k.params()) {
    auto it = kinds.find(p->name);
    if (!ao.independent || it == kinds.end() || it->second.size() != 1) continue;
    const std::string& only = *it->second.begin();
    const bool fl = p->type.is(TypeKind::View) && is_any_float(p->type.dtype());
    const std::vector<std::string> commuting =
        fl ? std::vector<std::string>{"add", "min", "max"} : std::vector<std::string>{"add", "min", "max", "and", "or", "xor"};
    for (const auto& kind : commuting)
      if (only == "atomic.rmw " + kind) ao.commutative[p->name] = kind;
  }
  return ao;
}

// The operands of the atomics of the commutative outputs, per output and storage index, as the
// interpreter's run hands them over (Options::on_atomic_rmw).
using AtomicTerms = std::map<std::string, std::map<int64_t, std::vector<uint64_t>>>;

// The op a view's values come from as far as the program text tells: the definition of the
// value stored by the last store into it (or the store itself).
const Operation* producer_of(const Function& k, const std::string& view) {
  const Operation* last = nullptr;
  walk(k.body, [&](const Operation& op) {
    if (op.operands.empty() || op.operands[0]->name != view) return;
    if (op.name.find("store") == std::string::npos && !is_atomic_op(op.name)) return;
    last = &op;
  });
  if (!last) return nullptr;
  const kir::Value* v = last->operands.back();
  return v->def && !is_atomic_op(last->name) ? v->def : last;
}

struct OutputView {
  const kir::Value* param;
  const interp::HostView* backend;
  const interp::HostView* interp;
};

std::vector<OutputView> outputs(const Function& k, const std::map<std::string, interp::KernelArg>& b,
                                const std::map<std::string, interp::KernelArg>& i) {
  std::vector<OutputView> out;
  for (const kir::Value* p : k.params())
    if (p->type.is(TypeKind::View) && p->type.access() != Access::In)
      out.push_back({p, &std::get<interp::HostView>(b.at(p->name)), &std::get<interp::HostView>(i.at(p->name))});
  return out;
}

// Elements of one output where the backend differs from `want` (storage indices).
std::vector<size_t> mismatches(const interp::HostView& got, const interp::HostView& want) {
  std::vector<size_t> out;
  const DType d = want.storage->dtype;
  for (size_t e = 0; e < want.storage->bits.size(); ++e) {
    if (!want.storage->is_defined(static_cast<int64_t>(e))) continue;  // never written by the kernel
    if (!same_result(d, got.storage->bits[e], want.storage->bits[e])) out.push_back(e);
  }
  return out;
}

std::string envelope_words(const interp::ElementEnvelope& e, DType d) {
  std::ostringstream s;
  s << "within " << e.env.bound << " of the exact " << fmt(d, e.canonical) << " (reassociation envelope)";
  return s.str();
}

}  // namespace

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Wrong: return "wrong";
    case Outcome::MissedError: return "missed-error";
    case Outcome::SpuriousError: return "spurious-error";
    case Outcome::Unsupported: return "unsupported";
    case Outcome::Crash: return "crash";
    case Outcome::Timeout: return "timeout";
    case Outcome::InvalidProgram: return "invalid-program";
  }
  return "?";
}

// See verdict.h.
const interp::EnvelopeComponent* stored_component(const interp::EnvelopeLog& log, const interp::HostView& canon) {
  const auto& bits = canon.storage->bits;
  for (auto r = log.records.rbegin(); r != log.records.rend(); ++r)
    for (const auto& c : r->components) {
      if (c.dtype != canon.storage->dtype || c.elements.size() != bits.size() || bits.empty()) continue;
      bool same = true;
      for (size_t e = 0; e < bits.size() && same; ++e) same = same_result(c.dtype, c.elements[e].canonical, bits[e]);
      if (same) return &c;
    }
  return nullptr;
}

bool same_result(DType d, uint64_t a, uint64_t b) {
  return a == b || (is_any_float(d) && num::is_nan(a, d) && num::is_nan(b, d));
}

std::string Verdict::signature() const {
  return std::string(outcome_name(outcome)) + "|" + rule + "|" + op + "|" + dtype;
}

std::string Verdict::str() const {
  std::ostringstream s;
  s << outcome_name(outcome);
  if (!rule.empty()) s << " [" << rule << (rule_detail.empty() ? "" : ": " + rule_detail) << "]";
  if (!op.empty()) s << " op `" << op << "`" << (location.empty() ? "" : " at " + location);
  if (compared) s << ": " << wrong << " of " << compared << " elements outside the allowed set";
  s << "\n";
  if (!detail.empty()) s << detail << (detail.back() == '\n' ? "" : "\n");
  for (const auto& d : diffs) {
    s << "  %" << d.output << "(";
    for (size_t i = 0; i < d.coord.size(); ++i) s << (i ? ", " : "") << d.coord[i];
    s << "): got " << d.got << ", expected " << d.expected << "; allowed: " << d.allowed << "\n";
  }
  return s.str();
}

std::string Verdict::summary() const {
  std::ostringstream s;
  const std::string r = rule + (rule_detail.empty() ? "" : ": " + rule_detail);
  const std::string first_line = detail.substr(0, detail.find('\n'));
  if (outcome == Outcome::Pass) {
    s << "pass (" << r << ")";
    if (rule == "error agreement") return s.str();
    s << ": " << compared << (compared == 1 ? " element" : " elements");
    if (accepted == 0) s << " bit-identical to the interpreter";
    else s << ", " << accepted << " of them differ from the interpreter's declared order and are allowed";
    return s.str();
  }
  if (outcome == Outcome::Unsupported) return "unsupported (" + r + "): " + first_line;
  s << "FAIL (" << r << ") " << outcome_name(outcome);
  if (wrong) s << ": " << wrong << " of " << compared << " elements outside the allowed set";
  else if (!first_line.empty()) s << ": " << first_line;
  return s.str();
}

namespace {

std::string kind_at(const Fault& f) {
  std::string s = f.kind.empty() ? "an error" : f.kind;
  if (!f.coord.empty()) {
    s += " at (";
    for (size_t i = 0; i < f.coord.size(); ++i) s += (i ? ", " : "") + std::to_string(f.coord[i]);
    s += ")";
  }
  return s;
}

// The other legal policies under which the interpreter may reach another first fault: the point
// orders of parallel ops, interleavings of atomics, segmentations of region ops (verdict.h).
std::vector<std::pair<std::string, interp::Options>> fault_policies(const Function& k, const interp::Options& base) {
  std::vector<std::pair<std::string, interp::Options>> out;
  auto add = [&](const std::string& name, const auto& set) {
    interp::Options x = base;
    x.on_atomic_rmw = nullptr;
    set(x);
    out.emplace_back(name, x);
  };
  if (has_op(k, [](const std::string& n) { return n == "parallel"; })) {
    add("parallel=reverse", [](interp::Options& x) { x.parallel_order = interp::ParallelOrder::Reverse; });
    for (uint64_t seed = 1; seed <= 3; ++seed)
      add("parallel=shuffle:" + std::to_string(seed), [seed](interp::Options& x) {
        x.parallel_order = interp::ParallelOrder::Shuffle;
        x.policy_seed = seed;
      });
  }
  if (has_atomics(k))
    for (uint64_t seed = 1; seed <= 2; ++seed)
      add("atomics=interleaved:" + std::to_string(seed), [seed](interp::Options& x) {
        x.atomic_schedule = interp::AtomicSchedule::Interleaved;
        x.atomic_seed = seed;
      });
  if (has_op(k, [](const std::string& n) { return n == "region_fold" || n == "region_scan"; })) {
    add("region=element", [](interp::Options& x) { x.segmentation = interp::Segmentation::PerElement; });
    add("region=random:1", [](interp::Options& x) {
      x.segmentation = interp::Segmentation::Random;
      x.segmentation_seed = 1;
    });
  }
  return out;
}

// The "error agreement" rule: one side or both report an error.
Verdict error_agreement(const Module& m, const std::string& name, const Function& k,
                        const std::map<std::string, interp::KernelArg>& args, const JudgeOptions& o, const Fault& ifault,
                        const Fault& bfault) {
  Verdict v;
  v.rule = "error agreement";
  if (ifault.empty() || bfault.empty()) {
    v.outcome = ifault.empty() ? Outcome::SpuriousError : Outcome::MissedError;
    v.detail = ifault.empty() ? "the backend fails where the interpreter succeeds: " + bfault.message
                              : "the backend returns a result where the interpreter reports: " + ifault.message;
    return v;
  }
  if (same_fault(ifault, bfault)) {
    v.rule_detail = "both report " + kind_at(bfault);
    return v;
  }
  // The interpreter gave up (a size or step limit, a case it does not evaluate): it knows no
  // first fault to compare with.
  if (ifault.kind == "limit" || ifault.kind == "not-implemented") {
    v.rule_detail = "the interpreter stopped (" + ifault.kind + "), the backend reports " + kind_at(bfault);
    return v;
  }
  size_t tried = 0;
  if (order_free(k))
    for (const auto& [policy, opts] : fault_policies(k, o.declared)) {
      auto a = clone_args(args);
      ++tried;
      const Fault f = run_interp(m, name, a, opts);
      if (!f.empty() && same_fault(f, bfault)) {
        v.rule_detail = "both report " + kind_at(bfault) + ", the interpreter under " + policy;
        return v;
      }
    }
  v.outcome = Outcome::Wrong;
  v.op = ifault.op;
  v.location = ifault.location;
  v.detail = "the backend reports " + bfault.str() + "; the interpreter reports " + ifault.str() +
             (tried ? " (and under none of the " + std::to_string(tried) + " other legal orders tried the backend's)" : "") +
             "\ninterpreter: " + ifault.message + "\nbackend: " + bfault.message;
  return v;
}

// The legal values of element `e` of an output written only by float atomic adds: the
// reassociation envelope of its initial value and the adds' operands. nullopt when the dtype has
// no envelope.
std::optional<interp::ElementEnvelope> atomic_add_envelope(const interp::Storage& initial,
                                                           const std::map<int64_t, std::vector<uint64_t>>& terms,
                                                           size_t e, uint64_t canonical) {
  const DType d = initial.dtype;
  std::vector<double> t;
  if (initial.is_defined(static_cast<int64_t>(e))) t.push_back(num::to_double(initial.bits[e], d));
  if (auto it = terms.find(static_cast<int64_t>(e)); it != terms.end())
    for (uint64_t b : it->second) t.push_back(num::to_double(b, d));
  interp::ElementEnvelope env;
  env.canonical = canonical;
  try {
    env.env = num::sum_envelope(t, d, num::TermKind::AccValues);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  return env;
}

size_t adds_of(const std::map<int64_t, std::vector<uint64_t>>& terms, size_t e) {
  auto it = terms.find(static_cast<int64_t>(e));
  return it == terms.end() ? 0 : it->second.size();
}

}  // namespace

Verdict judge(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
              const cpu::NativeKernel& native, const JudgeOptions& o, std::map<std::string, interp::KernelArg>* got_out,
              std::map<std::string, interp::KernelArg>* expected_out) {
  auto bargs = clone_args(args);
  Fault bfault;
  try {
    call_on_backend(native, m, name, bargs);
  } catch (const std::exception& e) {
    bfault = current_fault(e);
  }
  if (got_out) *got_out = bargs;
  JudgeOptions od = o;
  od.declared = declared_order_options(native.program());
  return judge_result(m, name, args, bargs, bfault, od, expected_out);
}

Verdict judge_result(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                     const std::map<std::string, interp::KernelArg>& bargs, const std::string& berr, const JudgeOptions& o,
                     std::map<std::string, interp::KernelArg>* expected_out) {
  return judge_result(m, name, args, bargs, berr.empty() ? Fault{} : fault_from_message(berr), o, expected_out);
}

Verdict judge_result(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                     const std::map<std::string, interp::KernelArg>& bargs, const Fault& bfault, const JudgeOptions& o,
                     std::map<std::string, interp::KernelArg>* expected_out) {
  Verdict v;
  const Function* k = m.find_function(name);
  if (!k) throw std::runtime_error("no kernel @" + name);
  auto iargs = clone_args(args);
  const interp::Options seq = o.declared;
  // The declared-order run also collects the operands of commutative atomics.
  const AtomicOutputs ao = atomic_outputs(m, *k);
  AtomicTerms terms;
  interp::Options first = seq;
  if (!ao.commutative.empty()) {
    std::map<const interp::Storage*, std::string> output_of;
    for (const auto& [pname, kind] : ao.commutative)
      if (auto it = iargs.find(pname); it != iargs.end())
        if (const auto* h = std::get_if<interp::HostView>(&it->second)) output_of[h->storage.get()] = pname;
    first.on_atomic_rmw = [&terms, output_of](const Operation&, const interp::Storage& st, int64_t idx,
                                             const interp::Scalar& x) {
      if (auto it = output_of.find(&st); it != output_of.end()) terms[it->second][idx].push_back(x.bits);
    };
  }
  const Fault ifault = run_interp(m, name, iargs, first);
  if (expected_out) *expected_out = iargs;
  if (!ifault.empty() || !bfault.empty()) {
    v = error_agreement(m, name, *k, args, o, ifault, bfault);
    v.interp_fault = ifault;
    v.backend_fault = bfault;
    return v;
  }

  // Lazily computed legal alternatives.
  std::optional<interp::EnvelopeLog> log;
  std::optional<std::map<std::string, interp::KernelArg>> canon;
  std::vector<std::pair<int, std::map<std::string, interp::KernelArg>>> schedules;  // (seed index, results)
  auto ensure_envelopes = [&] {
    if (log) return;
    log.emplace();
    canon = clone_args(args);
    interp::Options c;
    c.envelopes = &*log;
    if (!run_interp(m, name, *canon, c).empty()) log->records.clear();
  };
  auto ensure_schedules = [&] {
    if (!schedules.empty()) return;
    for (int s = 0; s < o.interleavings; ++s) {
      auto a = clone_args(args);
      interp::Options io = seq;
      io.atomic_schedule = interp::AtomicSchedule::Interleaved;
      io.atomic_seed = static_cast<uint64_t>(s) * 7919u + 1u;
      io.parallel_order = s % 3 == 0 ? interp::ParallelOrder::Canonical
                          : s % 3 == 1 ? interp::ParallelOrder::Reverse
                                       : interp::ParallelOrder::Shuffle;
      io.policy_seed = static_cast<uint64_t>(s);
      if (run_interp(m, name, a, io).empty()) schedules.emplace_back(s, std::move(a));
    }
  };

  const auto outs = outputs(*k, bargs, iargs);
  int64_t differ = 0;
  for (const auto& out : outs) {
    v.compared += static_cast<int64_t>(out.interp->storage->bits.size());
    differ += static_cast<int64_t>(mismatches(*out.backend, *out.interp).size());
  }
  if (differ == 0) {
    v.rule = "bit-exact";
    return v;
  }
  const bool atomics = has_atomics(*k);
  const bool independent = atomics && ao.independent;
  // Another reachable interleaving of the atomics: one schedule must explain every output.
  if (atomics && !independent) {
    ensure_schedules();
    for (const auto& [seed_index, s] : schedules) {
      bool all = true;
      for (const auto& out : outs)
        all = all && mismatches(*out.backend, std::get<interp::HostView>(s.at(out.param->name))).empty();
      if (all) {
        v.rule = "atomic interleaving";
        v.rule_detail = "schedule " + std::to_string(seed_index + 1) + " of " + std::to_string(o.interleavings);
        v.accepted = differ;
        return v;
      }
    }
  }
  std::string first_rule, first_detail, accepted_by, accepted_detail;  // the rule of the first wrong output / of a legal difference
  for (const auto& out : outs) {
    const DType d = out.interp->storage->dtype;
    auto bad = mismatches(*out.backend, *out.interp);
    if (bad.empty()) continue;
    const size_t differing = bad.size();
    std::string rule = atomics && !independent ? "atomic interleaving" : "bit-exact", rule_words;
    const interp::EnvelopeComponent* comp = nullptr;
    std::map<size_t, std::string> allowed;  // words of the allowed set where not "exactly"
    const auto ck = independent ? ao.commutative.find(out.param->name) : ao.commutative.end();
    if (ck != ao.commutative.end()) {
      // Commutative atomics: every order of the element's atomics is legal.
      rule = "atomic interleaving";
      const bool float_add = ck->second == "add" && is_any_float(d);
      rule_words = float_add ? "any order of the atomic adds" : "the atomic " + ck->second + " gives one result in any order";
      if (float_add) {
        const auto& initial = *std::get<interp::HostView>(args.at(out.param->name)).storage;
        const auto& elem_terms = terms[out.param->name];
        std::vector<size_t> still;
        for (size_t e : bad) {
          const auto env = atomic_add_envelope(initial, elem_terms, e, out.interp->storage->bits[e]);
          if (env && interp::accepts(*env, interp::Uniqueness::Envelope, d, out.backend->storage->bits[e])) continue;
          still.push_back(e);
          if (env) {
            std::ostringstream w;
            w << "within " << env->env.bound << " of the exact "
              << fmt(d, num::from_double(env->env.exact_rounded, d)) << " (reassociation envelope of "
              << adds_of(elem_terms, e) << " atomic adds in any order)";
            allowed[e] = w.str();
          }
        }
        bad = std::move(still);
      }
    } else if (independent && ao.targets.count(out.param->name)) {
      // Other atomics on a view nothing else touches: this output as one reachable schedule leaves it.
      rule = "atomic interleaving";
      ensure_schedules();
      for (const auto& [seed_index, sched] : schedules)
        if (mismatches(*out.backend, std::get<interp::HostView>(sched.at(out.param->name))).empty()) {
          rule_words = "schedule " + std::to_string(seed_index + 1) + " of " + std::to_string(o.interleavings);
          bad.clear();
          break;
        }
    } else {
      // Reassociation envelope of a stored reduce/scan/contract result.
      ensure_envelopes();
      comp = log && canon ? stored_component(*log, std::get<interp::HostView>(canon->at(out.param->name))) : nullptr;
      if (comp) {
        rule = "reassociation envelope";
        std::vector<size_t> still;
        for (size_t e : bad)
          if (!interp::accepts(comp->elements[e], comp->kind, d, out.backend->storage->bits[e])) still.push_back(e);
        bad = std::move(still);
        for (size_t e : bad) allowed[e] = envelope_words(comp->elements[e], d);
      }
    }
    if (bad.size() < differing) {
      v.accepted += static_cast<int64_t>(differing - bad.size());
      if (accepted_by.empty()) {
        accepted_by = rule;
        accepted_detail = rule_words;
      }
    }
    if (bad.empty()) continue;
    v.outcome = Outcome::Wrong;
    v.wrong += static_cast<int64_t>(bad.size());
    if (first_rule.empty()) {
      first_rule = rule;
      first_detail = rule_words;
      v.dtype = std::string(kir::name(d));
      if (const Operation* p = producer_of(*k, out.param->name)) {
        v.op = p->name;
        v.location = p->loc.str();
      }
    }
    for (size_t e : bad) {
      if (v.diffs.size() >= kMaxDiffs) break;
      ElementDiff diff;
      diff.output = out.param->name;
      diff.coord = interp::unravel(static_cast<int64_t>(e), out.interp->shape);
      diff.got = fmt(d, out.backend->storage->bits[e]);
      diff.expected = fmt(d, out.interp->storage->bits[e]);
      auto w = allowed.find(e);
      diff.allowed = w != allowed.end() ? w->second
                                        : "exactly " + diff.expected + (is_any_float(d) ? " (any NaN matches NaN)" : "");
      v.diffs.push_back(diff);
    }
  }
  if (!first_rule.empty()) {
    v.rule = first_rule;
    v.rule_detail = first_detail;
  } else {
    v.rule = accepted_by.empty() ? "bit-exact" : accepted_by;
    v.rule_detail = accepted_detail;
  }
  return v;
}

Verdict judge_compiling(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                        const JudgeOptions& o, std::map<std::string, interp::KernelArg>* got,
                        std::map<std::string, interp::KernelArg>* expected) {
  std::shared_ptr<cpu::NativeKernel> native;
  try {
    std::deque<cpu::CompiledSource> one;
    cpu::CompileOptions co;
    co.skip_passes = o.skip_passes;
    one.push_back(compile_for_args(m, name, args, co));
    native = cpu::build_kernels(std::move(one)).front();
  } catch (const std::exception& e) {
    return compile_failure_verdict(e.what());
  }
  return judge(m, name, args, *native, o, got, expected);
}

Verdict compile_failure_verdict(const std::string& what) {
  Verdict v;
  const bool unsupported = what.find("not implemented") != std::string::npos;
  v.outcome = unsupported ? Outcome::Unsupported : Outcome::SpuriousError;
  v.rule = unsupported ? "not implemented" : "compile error";
  v.detail = what;
  return v;
}

}  // namespace kir::oracle
