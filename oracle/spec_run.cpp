// See spec_run.h. One function per step of a case after its arguments (spec_args.h): running the
// kernel (and the backend), checking the manifest's output rules, and comparing with the reference.
#include "oracle/spec_run.h"

#include <chrono>
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

// The paired kernel on the CPU backend with the same arguments, checked bit for bit against
// the interpreter under the backend's declared order (differential.h).
void run_backend_case(const Module& m, const Function& k, const std::map<std::string, interp::KernelArg>& args,
                      CaseResult& c) {
  Differential d = run_differential(m, k.name, args);
  c.compiled = d.compiled;
  if (d.ok()) {
    c.backend = Status::Pass;
    return;
  }
  c.backend = Status::Fail;
  c.backend_message = d.str();
  while (!c.backend_message.empty() && c.backend_message.back() == '\n') c.backend_message.pop_back();
}

void run_case(const specs::OpSpec& op, const specs::Call& call, const LoadedKernels& kern, const LoadedKernels& ref,
              bool inject_special, CaseResult* backend) {
  const Function& k = kernel_for_call(*kern.module, op.name, call, kern.path);
  kernel_for_call(*ref.module, op.name, call, ref.path);  // a missing reference kernel fails before any run
  specs::DataOptions dopt;
  dopt.inject_special = inject_special;
  const std::vector<specs::TensorData> data = generate_case_inputs(op, call, dopt);
  Invocation got = guarded("kernel @" + k.name, [&] { return build_args(k, call, data); });
  if (backend) run_backend_case(*kern.module, k, got.args, *backend);
  run_paired_kernel(op, call, *kern.module, k, got);
  for (const auto& t : compare_with_reference(op, call, ref, data, got))
    if (!t.comparison.ok())
      fail(std::string(t.output ? "output '" : "mutated input '") + t.tensor + "': " + t.comparison.str());
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
                                                        const Invocation& got) {
  const Function& r = kernel_for_call(*ref.module, op.name, call, ref.path);
  Invocation want = guarded("reference @" + r.name, [&] { return build_args(r, call, data); });
  run_kernel(*ref.module, r, want, "reference");
  std::vector<ReferenceComparison> out;
  for (const auto& t : call.tensors) {
    if (!t.present) continue;
    const specs::TensorDecl* decl = op.tensor(t.name);
    const bool is_output = t.role == specs::Role::Output;
    const bool compared = is_output ? !aliased_to_written_input(op, t.name, call) : decl && specs::input_written(*decl, call);
    if (!compared) continue;
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

SpecRunSummary run_spec_workloads(const std::vector<std::string>& paths, const SpecRunOptions& opts) {
  SpecRunSummary sum;
  SpecLoadOptions lopt;
  lopt.only_op = opts.only_op;
  lopt.only_row = opts.only_row;
  lopt.with_reference = true;
  std::unique_ptr<SpecSuite> suite = load_spec_suite(paths, lopt);
  sum.diagnostics = suite->diagnostics;
  if (suite->manifest_errors) {
    sum.manifest_errors = true;
    return sum;
  }
  size_t total = 0;
  for (const auto& w : suite->ops) total += (w.skip.empty() && w.error.empty()) ? w.calls.size() : 1;
  auto report = [&](CaseResult c) {
    sum.cases.push_back(std::move(c));
    if (opts.on_case) opts.on_case(sum.cases.back(), sum.cases.size(), total);
  };
  for (const SpecOp& w : suite->ops) {
    if (!w.skip.empty() || !w.error.empty()) {
      CaseResult c;
      c.op = w.op->name;
      c.status = w.skip.empty() ? Status::Fail : Status::Skip;
      c.message = w.skip.empty() ? w.error : w.skip;
      report(std::move(c));
      continue;
    }
    for (const auto& call : w.calls) {
      CaseResult c;
      c.op = w.op->name;
      c.label = call.label;
      c.case_id = call.case_id;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        run_case(*w.op, call, w.kern, w.ref, opts.inject_special, opts.backend_cpu ? &c : nullptr);
      } catch (const SpecCaseError& e) {
        c.status = Status::Fail;
        c.message = e.what();
      } catch (const std::exception& e) {
        c.status = Status::Fail;
        c.message = std::string("internal error: ") + e.what();
      }
      c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (c.backend != Status::Skip) ++(c.compiled ? sum.artifacts_compiled : sum.artifacts_loaded);
      report(std::move(c));
    }
  }
  return sum;
}

}  // namespace kir::oracle
