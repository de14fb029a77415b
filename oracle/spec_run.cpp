// See spec_run.h. One function per step of a case after its arguments (spec_args.h): running the
// kernel (and the backend), checking the manifest's output rules, and comparing with the reference.
#include "oracle/spec_run.h"

#include <chrono>
#include <filesystem>
#include <map>

#include "interp/interpreter.h"
#include "oracle/compare.h"
#include "oracle/differential.h"
#include "oracle/spec_args.h"
#include "specs/src/instantiate.h"

namespace kir::oracle {
namespace {

using Status = CaseResult::Status;

// A case that cannot go on (spec_args.h): its message becomes the case's failure.
[[noreturn]] void fail(const std::string& msg) { throw SpecCaseError(msg); }

std::string coord_of(int64_t flat, const interp::Shape& shape) { return interp::coord_str(interp::unravel(flat, shape)); }

// Whether output `name` aliases an input this call writes (`alias: input` with the input
// mutated): then the result lives in the input and the output tensor is not written.
bool aliased_to_written_input(const specs::OpSpec& op, const std::string& name, const specs::Call& call) {
  const specs::TensorDecl* out = op.tensor(name);
  if (!out || out->alias.empty()) return false;
  const specs::TensorDecl* in = op.tensor(out->alias);
  return in && specs::input_written(*in, call);
}

// Manifest rules on the kernel's results: outputs fully written, non-mutated inputs untouched.
void check_manifest_rules(const specs::OpSpec& op, const specs::Call& call, const Invocation& inv,
                          const std::map<std::string, std::vector<uint64_t>>& before) {
  for (const auto& t : call.tensors) {
    if (!t.present) {
      // An omitted output (nullable, None for this call) must stay unwritten.
      auto a = inv.args.find(t.name);
      if (t.role != specs::Role::Output || a == inv.args.end()) continue;
      const auto* h = std::get_if<interp::HostView>(&a->second);
      for (size_t i = 0; h && i < h->storage->defined.size(); ++i)
        if (h->storage->defined[i])
          fail("output '" + t.name + "' is None for this call, but the kernel wrote its element " +
               coord_of(static_cast<int64_t>(i), h->shape));
      continue;
    }
    auto it = inv.views.find(t.name);
    if (it == inv.views.end()) continue;
    const interp::HostView& h = it->second;
    if (t.role == specs::Role::Output) {
      if (aliased_to_written_input(op, t.name, call)) continue;  // the output is that input
      int64_t undefined = 0, first = -1;
      for (size_t i = 0; i < h.storage->defined.size(); ++i)
        if (!h.storage->defined[i]) {
          if (first < 0) first = static_cast<int64_t>(i);
          ++undefined;
        }
      if (undefined)
        fail("output '" + t.name + "': " + std::to_string(undefined) + " of " + std::to_string(h.storage->bits.size()) +
             " elements never written (first at " + coord_of(first, h.shape) + ")");
      continue;
    }
    const specs::TensorDecl* decl = op.tensor(t.name);
    const bool may_mutate = decl && specs::input_written(*decl, call);
    auto b = before.find(t.name);
    if (may_mutate || b == before.end()) continue;
    for (size_t i = 0; i < b->second.size(); ++i)
      if (b->second[i] != h.storage->bits[i])
        fail("input '" + t.name + "' is not mutated (manifest) but the kernel changed element " +
             coord_of(static_cast<int64_t>(i), h.shape));
  }
}

void run_kernel(const Module& m, const Function& k, Invocation& inv, const std::string& who) {
  guarded(who + " @" + k.name, [&] {
    interp::Interpreter it(m);
    it.run_kernel(k.name, inv.args);
    return 0;
  });
}

// The paired kernel on the CPU backend with the same arguments, judged by the oracle's verdict
// against the interpreter under the backend's declared order (differential.h). The same fault
// on both sides passes (the interpreter's run fails the case).
void run_backend_case(const Module& m, const Function& k, const std::map<std::string, interp::KernelArg>& args,
                      CaseResult& c) {
  Differential d = run_differential(m, k.name, args);
  c.compiled = d.compiled;
  c.backend_rule = d.verdict.rule + (d.verdict.rule_detail.empty() ? "" : ": " + d.verdict.rule_detail);
  c.backend = d.agree() ? Status::Pass : Status::Fail;
  c.backend_message = d.str();
  while (!c.backend_message.empty() && c.backend_message.back() == '\n') c.backend_message.pop_back();
}

// Whether tensor `t` of the call is a result a case compares and keeps: a present output the
// kernel writes itself (not aliased to a written input), or an input the call writes.
bool result_tensor(const specs::OpSpec& op, const specs::Call& call, const specs::TensorCall& t) {
  if (!t.present) return false;
  if (t.role == specs::Role::Output) return !aliased_to_written_input(op, t.name, call);
  const specs::TensorDecl* decl = op.tensor(t.name);
  return decl && specs::input_written(*decl, call);
}

std::vector<SavedTensor> saved_views(const specs::OpSpec& op, const specs::Call& call, const Invocation& inv, bool results) {
  std::vector<SavedTensor> out;
  for (const auto& t : call.tensors) {
    auto it = inv.views.find(t.name);
    if (it == inv.views.end() || !t.present) continue;
    const bool keep = results ? result_tensor(op, call, t) : t.role != specs::Role::Output;
    if (keep) out.push_back(save_view(t.name, it->second));
  }
  return out;
}

// The reference step of a case: which reference (null: none) and why there is none.
struct ReferenceStep {
  const LoadedKernels* ref = nullptr;
  std::string missing;  // skip the step (no reference file)
  std::string error;    // fail the step (the reference does not load)
};

// For --keep-failures: the reference's results on the case's inputs, when it runs at all.
void record_reference(const specs::OpSpec& op, const specs::Call& call, const ReferenceStep& rs,
                      const std::vector<specs::TensorData>& data, const Invocation& got, CaseRecord& rec) {
  if (!rs.ref || !rec.reference.empty()) return;
  Invocation want;
  try {
    compare_with_reference(op, call, *rs.ref, data, got, &want);
  } catch (const std::exception&) {
  }
  rec.reference = saved_views(op, call, want, true);
}

// One case: the paired kernel and the manifest checks, then the reference step. Returns why the
// case is skipped ("" when it passes); throws SpecCaseError when it fails. `rec` (optional)
// receives what the case produced, as far as it got.
std::string run_case(const specs::OpSpec& op, const specs::Call& call, const LoadedKernels& kern, const ReferenceStep& rs,
                     bool inject_special, CaseResult* backend, CaseRecord* rec) {
  const Function& k = kernel_for_call(*kern.module, op.name, call, kern.path);
  if (rs.ref) kernel_for_call(*rs.ref->module, op.name, call, rs.ref->path);  // a missing reference kernel fails before any run
  specs::DataOptions dopt;
  dopt.inject_special = inject_special;
  const std::vector<specs::TensorData> data = generate_case_inputs(op, call, dopt);
  Invocation got = guarded("kernel @" + k.name, [&] { return build_args(k, call, data); });
  if (rec) rec->inputs = saved_views(op, call, got, false);
  if (backend) run_backend_case(*kern.module, k, got.args, *backend);
  try {
    run_paired_kernel(op, call, *kern.module, k, got);
  } catch (const SpecCaseError&) {
    if (rec) rec->kernel = saved_views(op, call, got, true);
    if (rec) record_reference(op, call, rs, data, got, *rec);
    throw;
  }
  if (rec) rec->kernel = saved_views(op, call, got, true);
  if (!rs.error.empty()) fail(rs.error);
  if (!rs.ref) return rs.missing.empty() ? "" : "reference step: " + rs.missing + "; the kernel passed the manifest checks (--no-reference runs without one)";
  Invocation want;
  const auto compared = compare_with_reference(op, call, *rs.ref, data, got, rec ? &want : nullptr);
  if (rec) rec->reference = saved_views(op, call, want, true);
  for (const auto& t : compared)
    if (!t.comparison.ok())
      fail(std::string(t.output ? "output '" : "mutated input '") + t.tensor + "': " + t.comparison.str());
  return "";
}

}  // namespace

void run_paired_kernel(const specs::OpSpec& op, const specs::Call& call, const Module& m, const Function& k, Invocation& inv) {
  std::map<std::string, std::vector<uint64_t>> before;
  for (const auto& [n, h] : inv.views) before[n] = h.storage->bits;
  run_kernel(m, k, inv, "kernel");
  check_manifest_rules(op, call, inv, before);
}

std::vector<ReferenceComparison> compare_with_reference(const specs::OpSpec& op, const specs::Call& call,
                                                        const LoadedKernels& ref, const std::vector<specs::TensorData>& data,
                                                        const Invocation& got, Invocation* want_out) {
  if (!ref.module) fail("reference " + ref.path + " does not load:\n" + ref.error);
  const Function& r = kernel_for_call(*ref.module, op.name, call, ref.path);
  Invocation want = guarded("reference @" + r.name, [&] { return build_args(r, call, data); });
  if (want_out) *want_out = want;  // the views share storage: the run below fills them
  run_kernel(*ref.module, r, want, "reference");
  std::vector<ReferenceComparison> out;
  for (const auto& t : call.tensors) {
    if (!result_tensor(op, call, t)) continue;
    const bool is_output = t.role == specs::Role::Output;
    auto g = got.views.find(t.name);
    auto w = want.views.find(t.name);
    if (g == got.views.end() || w == want.views.end()) continue;
    const interp::HostView& gv = g->second;
    const interp::HostView& wv = w->second;
    if (gv.storage->dtype != wv.storage->dtype || gv.shape != wv.shape)
      fail(t.name + ": kernel gives " + std::string(name(gv.storage->dtype)) + interp::shape_str(gv.shape) + ", reference " +
           std::string(name(wv.storage->dtype)) + interp::shape_str(wv.shape));
    out.push_back({t.name, is_output,
                   compare_elements(gv.storage->dtype, gv.shape, gv.storage->bits, wv.storage->bits, ref.tolerance)});
  }
  return out;
}

const char* status_name(CaseResult::Status s) {
  switch (s) {
    case Status::Pass: return "pass";
    case Status::Fail: return "FAIL";
    case Status::Skip: return "skip";
  }
  return "?";
}

size_t SpecRunSummary::count(CaseResult::Status s) const {
  size_t n = 0;
  for (const auto& c : cases) n += c.status == s;
  return n;
}

size_t SpecRunSummary::count_backend(CaseResult::Status s) const {
  size_t n = 0;
  for (const auto& c : cases) n += c.backend == s;
  return n;
}

namespace {

// Cases an op contributes: one per instantiated (and selected) call, so a kernel or reference that
// does not load fails each of them; one for the whole op when it is skipped (no paired kernel) or
// has an error and no call to run (rows that do not instantiate).
bool op_level(const SpecOp& w) { return !w.skip.empty() || w.rows_error || (!w.error.empty() && w.calls.empty()); }

bool selected(const specs::Call& call, const SpecRunOptions& opts) { return opts.only_case.empty() || call.case_id == opts.only_case; }

size_t count_cases(const SpecSuite& suite, const SpecRunOptions& opts) {
  size_t total = 0;
  for (const auto& w : suite.ops) {
    if (op_level(w)) {
      ++total;
      continue;
    }
    for (const auto& call : w.calls) total += selected(call, opts);
  }
  return total;
}

ReferenceStep reference_step(const SpecOp& w, const SpecRunOptions& opts) {
  ReferenceStep rs;
  if (opts.no_reference) return rs;
  rs.missing = w.ref_missing;
  rs.error = w.ref_error;
  if (rs.missing.empty() && rs.error.empty()) rs.ref = &w.ref;
  return rs;
}

// One instantiated call of `w` as a case: run (unless the op failed to load), timed, its failure
// made reproducible.
CaseResult run_call(const SpecOp& w, const specs::Call& call, const SpecRunOptions& opts, CaseRecord& rec) {
  CaseResult c;
  c.op = w.op->name;
  c.label = call.label;
  c.case_id = call.case_id;
  const bool keep = !opts.keep_failures.empty();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (!w.error.empty()) fail(w.error);  // the kernel does not load
    c.message = run_case(*w.op, call, w.kern, reference_step(w, opts), opts.inject_special, opts.backend_cpu ? &c : nullptr,
                         keep ? &rec : nullptr);
    if (!c.message.empty()) c.status = Status::Skip;
  } catch (const SpecCaseSkip& e) {  // no kernel variant fixes the row's param values
    c.status = Status::Skip;
    c.message = e.what();
  } catch (const SpecCaseError& e) {
    c.status = Status::Fail;
    c.message = e.what();
  } catch (const std::exception& e) {
    c.status = Status::Fail;
    c.message = std::string("internal error: ") + e.what();
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

// A failing case's reproducing command, and its folder under --keep-failures.
void make_reproducible(const SpecOp& w, const specs::Call* call, const SpecRunOptions& opts, const CaseRecord& rec, CaseResult& c) {
  if (c.status != Status::Fail && c.backend != Status::Fail) return;
  c.repro = repro_command(w.op->file, w.op->name, call ? call->label : "", call ? call->case_id : "",
                          {opts.inject_special, opts.backend_cpu, opts.no_reference});
  if (opts.keep_failures.empty()) return;
  std::string message = c.message;
  if (!c.backend_message.empty()) message += (message.empty() ? "" : "\n") + std::string("cpu: ") + c.backend_message;
  try {
    c.kept = keep_failure(opts.keep_failures, c.op, c.case_id, rec, c.repro, std::filesystem::current_path().string(), message);
  } catch (const std::exception& e) {
    c.message += std::string(c.message.empty() ? "" : "; ") + e.what();
  }
}

}  // namespace

SpecRunSummary run_spec_workloads(const std::vector<std::string>& paths, const SpecRunOptions& opts) {
  SpecRunSummary sum;
  SpecLoadOptions lopt;
  lopt.only_op = opts.only_op;
  lopt.only_row = opts.only_row;
  lopt.with_reference = !opts.no_reference;
  lopt.reference_optional = true;
  std::unique_ptr<SpecSuite> suite = load_spec_suite(paths, lopt);
  sum.diagnostics = suite->diagnostics;
  if (suite->manifest_errors) {
    sum.manifest_errors = true;
    return sum;
  }
  const size_t total = count_cases(*suite, opts);
  auto report = [&](CaseResult c) {
    sum.cases.push_back(std::move(c));
    if (opts.on_case) opts.on_case(sum.cases.back(), sum.cases.size(), total);
  };
  for (const SpecOp& w : suite->ops) {
    if (op_level(w)) {
      CaseResult c;
      c.op = w.op->name;
      c.status = w.skip.empty() ? Status::Fail : Status::Skip;
      c.message = w.skip.empty() ? w.error : w.skip;
      make_reproducible(w, nullptr, opts, {}, c);
      report(std::move(c));
      continue;
    }
    for (const auto& call : w.calls) {
      if (!selected(call, opts)) continue;
      CaseRecord rec;
      CaseResult c = run_call(w, call, opts, rec);
      if (c.backend != Status::Skip) ++(c.compiled ? sum.artifacts_compiled : sum.artifacts_loaded);
      make_reproducible(w, &call, opts, rec, c);
      report(std::move(c));
    }
  }
  return sum;
}

}  // namespace kir::oracle
