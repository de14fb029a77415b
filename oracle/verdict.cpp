// The oracle's verdict (verdict.h): interpreter runs under the legal policies a rule needs, the
// backend's outputs compared element by element against the allowed set.
#include "oracle/verdict.h"

#include <deque>
#include <optional>
#include <sstream>

#include "interp/envelope_log.h"
#include "numerics/format.h"
#include "numerics/value_text.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"

namespace kir::oracle {
namespace {

constexpr size_t kMaxDiffs = 8;

std::string fmt(DType d, uint64_t bits) { return num::format_value(num::Scalar{d, bits}); }

// Runs the interpreter on a copy of `args`; returns the error message ("" on success).
std::string run_interp(const Module& m, const std::string& name, std::map<std::string, interp::KernelArg>& args,
                       const interp::Options& o) {
  try {
    interp::Interpreter it(m, o);
    it.run_kernel(name, args);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

bool is_atomic_op(const std::string& n) { return n.rfind("atomic.", 0) == 0 || n == "scatter_reduce"; }

bool has_atomics(const Function& k) {
  bool any = false;
  walk(k.body, [&](const Operation& op) { any = any || is_atomic_op(op.name); });
  return any;
}

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
  if (!rule.empty()) s << " [" << rule << "]";
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

Verdict judge(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
              const cpu::NativeKernel& native, const JudgeOptions& o, std::map<std::string, interp::KernelArg>* got_out,
              std::map<std::string, interp::KernelArg>* expected_out) {
  auto bargs = clone_args(args);
  std::string berr;
  try {
    call_on_backend(native, m, name, bargs);
  } catch (const std::exception& e) {
    berr = e.what();
  }
  if (got_out) *got_out = bargs;
  JudgeOptions od = o;
  od.declared = declared_order_options(native.program());
  return judge_result(m, name, args, bargs, berr, od, expected_out);
}

Verdict judge_result(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                     const std::map<std::string, interp::KernelArg>& bargs, const std::string& berr, const JudgeOptions& o,
                     std::map<std::string, interp::KernelArg>* expected_out) {
  Verdict v;
  const Function* k = m.find_function(name);
  if (!k) throw std::runtime_error("no kernel @" + name);
  auto iargs = clone_args(args);
  const interp::Options seq = o.declared;
  const std::string ierr = run_interp(m, name, iargs, seq);
  if (expected_out) *expected_out = iargs;
  if (!ierr.empty() || !berr.empty()) {
    v.rule = "error agreement";
    if (!ierr.empty() && !berr.empty()) {
      v.detail = "both report an error\ninterpreter: " + ierr + "\nbackend: " + berr;
      return v;
    }
    v.outcome = ierr.empty() ? Outcome::SpuriousError : Outcome::MissedError;
    v.detail = ierr.empty() ? "the backend fails where the interpreter succeeds: " + berr
                            : "the backend returns a result where the interpreter reports: " + ierr;
    return v;
  }

  // Lazily computed legal alternatives.
  std::optional<interp::EnvelopeLog> log;
  std::optional<std::map<std::string, interp::KernelArg>> canon;
  std::vector<std::map<std::string, interp::KernelArg>> schedules;
  auto ensure_envelopes = [&] {
    if (log) return;
    log.emplace();
    canon = clone_args(args);
    interp::Options c;
    c.envelopes = &*log;
    if (!run_interp(m, name, *canon, c).empty()) log->records.clear();
  };
  auto ensure_schedules = [&] {
    if (!schedules.empty() || !has_atomics(*k)) return;
    for (int s = 0; s < o.interleavings; ++s) {
      auto a = clone_args(args);
      interp::Options io = seq;
      io.atomic_schedule = interp::AtomicSchedule::Interleaved;
      io.atomic_seed = static_cast<uint64_t>(s) * 7919u + 1u;
      io.parallel_order = s % 3 == 0 ? interp::ParallelOrder::Canonical
                          : s % 3 == 1 ? interp::ParallelOrder::Reverse
                                       : interp::ParallelOrder::Shuffle;
      io.policy_seed = static_cast<uint64_t>(s);
      if (run_interp(m, name, a, io).empty()) schedules.push_back(std::move(a));
    }
  };

  const auto outs = outputs(*k, bargs, iargs);
  bool any_mismatch = false;
  for (const auto& out : outs) {
    v.compared += static_cast<int64_t>(out.interp->storage->bits.size());
    any_mismatch = any_mismatch || !mismatches(*out.backend, *out.interp).empty();
  }
  if (!any_mismatch) {
    v.rule = "bit-exact";
    return v;
  }
  // Another reachable interleaving of the atomics: one schedule must explain every output.
  const bool atomics = has_atomics(*k);
  if (atomics) {
    ensure_schedules();
    for (const auto& s : schedules) {
      bool all = true;
      for (const auto& out : outs)
        all = all && mismatches(*out.backend, std::get<interp::HostView>(s.at(out.param->name))).empty();
      if (all) {
        v.rule = "atomic interleaving";
        return v;
      }
    }
  }
  std::string first_rule, accepted_by;  // the rule of the first wrong output / of a legal difference
  for (const auto& out : outs) {
    const DType d = out.interp->storage->dtype;
    auto bad = mismatches(*out.backend, *out.interp);
    if (bad.empty()) continue;
    std::string rule = atomics ? "atomic interleaving" : "bit-exact";
    // Reassociation envelope of a stored reduce/scan/contract result.
    ensure_envelopes();
    const interp::EnvelopeComponent* comp =
        log && canon ? stored_component(*log, std::get<interp::HostView>(canon->at(out.param->name))) : nullptr;
    if (comp) {
      rule = "reassociation envelope";
      std::vector<size_t> still;
      for (size_t e : bad)
        if (!interp::accepts(comp->elements[e], comp->kind, d, out.backend->storage->bits[e])) still.push_back(e);
      bad = std::move(still);
      if (bad.empty()) accepted_by = rule;
    }
    if (bad.empty()) continue;
    v.outcome = Outcome::Wrong;
    v.wrong += static_cast<int64_t>(bad.size());
    if (first_rule.empty()) {
      first_rule = rule;
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
      diff.allowed = comp ? envelope_words(comp->elements[e], d)
                          : "exactly " + diff.expected + (is_any_float(d) ? " (any NaN matches NaN)" : "");
      v.diffs.push_back(diff);
    }
  }
  v.rule = !first_rule.empty() ? first_rule : !accepted_by.empty() ? accepted_by : "bit-exact";
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
