// See spec_run.h. One function per step of a case: choosing the kernel of a dtype case, building
// its arguments from the instantiated call and the generated data, checking the manifest's output
// rules, and comparing with the reference.
#include "oracle/spec_run.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "interp/interpreter.h"
#include "kir/load.h"
#include "numerics/format.h"
#include "numerics/scalar.h"
#include "oracle/compare.h"
#include "specs/src/datagen.h"
#include "specs/src/dtypes.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/parity.h"
#include "specs/src/validator.h"

namespace kir::oracle {
namespace {

using Status = CaseResult::Status;

// A case that cannot go on: its message becomes the case's failure.
struct CaseFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& msg) { throw CaseFailure(msg); }

struct LoadedKernels {
  std::unique_ptr<Module> module;
  std::string path;
  std::string error;   // load/verify diagnostics, when module is null
  Tolerance tolerance;  // reference files: the `// compare:` directive
};

LoadedKernels load_kernels(const std::string& path) {
  LoadedKernels k;
  k.path = path;
  Diagnostics diags;
  std::string source;
  k.module = load_canonical(path, diags, source);
  if (!k.module) {
    k.error = diags.render(source);
    return k;
  }
  // `// compare: ulps=N [atol=X]` anywhere in the file (a comment: tooling metadata).
  static const std::regex directive(R"(//\s*compare:\s*ulps\s*=\s*(\d+)(?:\s+atol\s*=\s*([0-9.eE+-]+))?)");
  std::smatch mt;
  if (std::regex_search(source, mt, directive)) {
    k.tolerance.ulps = std::stoull(mt[1].str());
    if (mt[2].matched) k.tolerance.atol = std::stod(mt[2].str());
  }
  return k;
}

int64_t to_extent(const mpz_class& v, const std::string& what) {
  if (!v.fits_slong_p() || v < 0) fail(what + " has extent " + v.get_str() + ", not a usable size");
  return v.get_si();
}

interp::Shape call_shape(const specs::TensorCall& t) {
  interp::Shape s;
  for (const auto& d : t.shape) s.push_back(to_extent(d, "tensor '" + t.name + "'"));
  return s;
}

std::string present_name(const std::string& param) {
  static const std::string p = "present_";
  return param.rfind(p, 0) == 0 ? param.substr(p.size()) : "";
}

// Whether kernel `f` takes this call's present tensors: same dtypes and ranks, constant extents
// equal, and each extent symbol bound to one value across all views (so layout variants of one
// dtype case, e.g. A[M, K] x B[K, N] against B[N, K], choose themselves). Absent tensors do not
// constrain; extents that are expressions are left to the interpreter's binding check.
bool kernel_fits(const Function& f, const specs::Call& call) {
  std::map<std::string, int64_t> bound;
  for (const kir::Value* p : f.params()) {
    if (!p->type.is(TypeKind::View)) continue;
    const specs::TensorCall* t = call.tensor(p->name);
    if (!t || !t->present) continue;
    if (specs::kir_dtype_name(t->dtype) != std::string(name(p->type.dtype())) || p->type.rank() != t->shape.size()) return false;
    for (size_t i = 0; i < t->shape.size(); ++i) {
      const Extent& e = p->type.shape()[i];
      if (!t->shape[i].fits_slong_p()) return false;
      const int64_t n = t->shape[i].get_si();
      if (e.is_constant()) {
        if (e.evaluate([](const std::string&) { return std::optional<int64_t>(); }) != n) return false;
      } else if (e.is_symbol()) {
        auto [it, fresh] = bound.emplace(e.symbol_name(), n);
        if (!fresh && it->second != n) return false;
      }
    }
  }
  return true;
}

// The kernel of `m` for this call: the first `@Op` or `@Op__<dtypes>[__<variant>...]` that fits it.
const Function* kernel_for_call(const Module& m, const std::string& op, const specs::Call& call, const std::string& file) {
  std::string tried;
  for (const auto& f : m.functions) {
    if (!f->is_kernel() || !(f->name == op || f->name.rfind(op + "__", 0) == 0)) continue;
    if (kernel_fits(*f, call)) return f.get();
    tried += " @" + f->name;
  }
  std::string dts;
  for (const auto& t : call.tensors)
    if (t.present) {
      std::string shape;
      for (const auto& d : t.shape) shape += (shape.empty() ? "" : ", ") + d.get_str();
      dts += (dts.empty() ? "" : ", ") + t.name + ": " + t.dtype + "[" + shape + "]";
    }
  fail(file + " has no kernel for the dtypes and shapes {" + dts + "}" + (tried.empty() ? " (no kernel @" + op + " at all)" : " (tried" + tried + ")"));
}

interp::HostView view_from_data(DType d, const interp::Shape& shape, const specs::TensorData& data) {
  const int width = static_cast<int>(info(d).bits / 8);
  const int64_t n = interp::checked_numel(shape);
  if (width <= 0 || static_cast<int64_t>(data.bytes.size()) != n * width)
    fail("generated data of '" + data.name + "' (" + data.dtype + ", " + std::to_string(data.bytes.size()) +
         " bytes) does not fit " + std::string(name(d)) + interp::shape_str(shape));
  std::vector<uint64_t> bits(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t b = 0;
    for (int k = 0; k < width; ++k) b |= static_cast<uint64_t>(data.bytes[static_cast<size_t>(i * width + k)]) << (8 * k);
    bits[static_cast<size_t>(i)] = b;
  }
  return interp::make_host_view(d, shape, std::move(bits));
}

interp::KernelArg scalar_arg(const kir::Value& p, const specs::Value& v) {
  const std::string where = "param '" + p.name + "' = " + v.repr();
  if (p.type.is(TypeKind::Enum)) {
    if (v.t != specs::Value::T::Str) fail(where + " is no enum member name");
    return interp::EnumArg{v.s};
  }
  const DType d = p.type.dtype();
  if (d == DType::Bool) {
    if (v.t != specs::Value::T::Bool) fail(where + " is not a bool");
    return num::make_bool(v.b);
  }
  if (is_integer(d)) {
    if (!v.is_intlike() || !v.as_int().fits_slong_p()) fail(where + " is not an integer of " + std::string(name(d)));
    return num::make_int(d, static_cast<uint64_t>(v.as_int().get_si()));
  }
  if (is_any_float(d)) {
    if (!v.is_number()) fail(where + " is not a number");
    return num::Scalar{d, num::from_double(v.as_double(), d)};
  }
  fail(where + ": kernel parameter type " + p.type.str() + " cannot take it");
}

struct Invocation {
  std::map<std::string, interp::KernelArg> args;
  std::map<std::string, interp::HostView> views;  // present tensors by name
};

// Arguments of `k` for `call`, views filled from `data` (fresh storage every time).
Invocation build_args(const Function& k, const specs::Call& call, const std::map<std::string, const specs::TensorData*>& data) {
  Invocation inv;
  std::vector<const kir::Value*> absent;
  for (const kir::Value* p : k.params()) {
    if (p->type.is(TypeKind::View)) {
      const specs::TensorCall* t = call.tensor(p->name);
      if (!t) fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") is no tensor of the manifest");
      if (!t->present) {
        absent.push_back(p);
        continue;
      }
      const interp::Shape shape = call_shape(*t);
      interp::HostView h;
      if (t->role == specs::Role::Output) {
        h = interp::make_host_view(p->type.dtype(), shape);
      } else {
        auto it = data.find(t->name);
        if (it == data.end()) fail("no generated data for input '" + t->name + "'");
        h = view_from_data(p->type.dtype(), shape, *it->second);
      }
      inv.args[p->name] = h;
      inv.views[p->name] = h;
      continue;
    }
    if (std::string of = present_name(p->name); !of.empty() && p->is_constexpr && p->type.is_scalar() && p->type.dtype() == DType::Bool) {
      const specs::TensorCall* t = call.tensor(of);
      if (!t) fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") names no tensor '" + of + "' of the manifest");
      inv.args[p->name] = num::make_bool(t->present);
      continue;
    }
    const specs::Value* v = nullptr;
    for (const auto& [n, x] : call.params)
      if (n == p->name) v = &x;
    if (!v || v->is_none()) {
      if (p->default_value) continue;  // the kernel's own default
      fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") has no value in the call and no default");
    }
    inv.args[p->name] = scalar_arg(*p, *v);
  }
  // Omitted optional tensors: each axis the extent the present views bind (0 where it is
  // unbound, e.g. a dimension only the omitted tensor has), every element undefined.
  const auto bound = interp::bind_kernel_extents(k, inv.args);
  auto lookup = [&](const std::string& sym) -> std::optional<int64_t> {
    auto it = bound.find(sym);
    return it == bound.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  for (const kir::Value* p : absent) {
    interp::Shape shape;
    for (const Extent& e : p->type.shape()) shape.push_back(std::max<int64_t>(0, e.evaluate(lookup).value_or(0)));
    interp::HostView h = interp::make_host_view(p->type.dtype(), shape);
    h.absent = true;
    inv.args[p->name] = h;
  }
  return inv;
}

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

// Runs `make` with interpreter errors (extent binding, sizes) reported as this case's failure.
template <typename F>
auto guarded(const std::string& who, F&& make) {
  try {
    return make();
  } catch (const interp::RuntimeError& e) {
    fail(who + ": " + e.what());
  } catch (const std::length_error& e) {
    fail(who + ": " + e.what());
  }
}

void run_kernel(const Module& m, const Function& k, Invocation& inv, const std::string& who) {
  try {
    interp::Interpreter it(m);
    it.run_kernel(k.name, inv.args);
  } catch (const interp::RuntimeError& e) {
    fail(who + " @" + k.name + ": " + e.what());
  } catch (const std::length_error& e) {
    fail(who + " @" + k.name + ": " + e.what());
  }
}

void run_case(const specs::OpSpec& op, const specs::Call& call, const LoadedKernels& kern, const LoadedKernels& ref,
              bool inject_special) {
  const Function& k = *kernel_for_call(*kern.module, op.name, call, kern.path);
  const Function& r = *kernel_for_call(*ref.module, op.name, call, ref.path);
  specs::DataOptions dopt;
  dopt.inject_special = inject_special;
  std::vector<specs::TensorData> data;
  try {
    data = specs::generate_inputs(op, call, dopt);
  } catch (const std::exception& e) {
    fail(std::string("input generation: ") + e.what());
  }
  std::map<std::string, const specs::TensorData*> by_name;
  for (const auto& d : data) by_name[d.name] = &d;

  Invocation got = guarded("kernel @" + k.name, [&] { return build_args(k, call, by_name); });
  std::map<std::string, std::vector<uint64_t>> before;
  for (const auto& [n, h] : got.views) before[n] = h.storage->bits;
  run_kernel(*kern.module, k, got, "kernel");
  check_manifest_rules(op, call, got, before);

  Invocation want = guarded("reference @" + r.name, [&] { return build_args(r, call, by_name); });
  run_kernel(*ref.module, r, want, "reference");
  for (const auto& t : call.tensors) {
    if (!t.present) continue;
    const specs::TensorDecl* decl = op.tensor(t.name);
    const bool compared = t.role == specs::Role::Output ? !aliased_to_written_input(op, t.name, call)
                                                        : decl && specs::input_written(*decl, call);
    if (!compared) continue;
    auto g = got.views.find(t.name);
    auto w = want.views.find(t.name);
    if (g == got.views.end() || w == want.views.end()) continue;
    const interp::HostView& gv = g->second;
    const interp::HostView& wv = w->second;
    if (gv.storage->dtype != wv.storage->dtype || gv.shape != wv.shape)
      fail(t.name + ": kernel gives " + std::string(name(gv.storage->dtype)) + interp::shape_str(gv.shape) + ", reference " +
           std::string(name(wv.storage->dtype)) + interp::shape_str(wv.shape));
    Comparison c = compare_elements(gv.storage->dtype, gv.shape, gv.storage->bits, wv.storage->bits, ref.tolerance);
    if (!c.ok()) fail(std::string(t.role == specs::Role::Output ? "output '" : "mutated input '") + t.name + "': " + c.str());
  }
}

}  // namespace

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

std::string reference_path(const std::string& kernel_path) {
  const auto slash = kernel_path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : kernel_path.substr(0, slash);
  const std::string file = slash == std::string::npos ? kernel_path : kernel_path.substr(slash + 1);
  return dir + "/reference/" + file;
}

SpecRunSummary run_spec_workloads(const std::vector<std::string>& paths, const SpecRunOptions& opts) {
  SpecRunSummary sum;
  specs::Manifest m;
  specs::SpecDiags d;
  specs::load_paths(paths, m, d);
  specs::ValidateOptions vopt;
  vopt.only_op = opts.only_op;
  specs::validate(m, d, vopt);
  sum.diagnostics = d.render();
  if (d.has_errors()) {
    sum.manifest_errors = true;
    return sum;
  }
  struct Work {
    const specs::OpSpec* op;
    std::vector<specs::Call> calls;
    std::string skip, error;
    LoadedKernels kern, ref;
  };
  std::vector<Work> work;
  size_t total = 0;
  for (const auto& op : m.ops) {
    if (!opts.only_op.empty() && op.name != opts.only_op) continue;
    Work w;
    w.op = &op;
    const std::string kp = specs::paired_kernel_path(op);
    if (kp.empty()) {
      w.skip = "no paired kernel";
    } else {
      w.kern = load_kernels(kp);
      w.ref = load_kernels(reference_path(kp));
      if (!w.kern.module) w.error = "kernel " + kp + " does not load:\n" + w.kern.error;
      else if (!w.ref.module) w.error = "reference " + reference_path(kp) + " does not load:\n" + w.ref.error;
    }
    specs::InstantiateOptions iopt;
    iopt.only_label = opts.only_row;
    specs::SpecDiags rd;
    w.calls = specs::instantiate_op(op, m, rd, iopt);
    if (rd.has_errors()) w.error = rd.render();
    total += (w.skip.empty() && w.error.empty()) ? w.calls.size() : 1;
    work.push_back(std::move(w));
  }
  auto report = [&](CaseResult c) {
    sum.cases.push_back(std::move(c));
    if (opts.on_case) opts.on_case(sum.cases.back(), sum.cases.size(), total);
  };
  for (auto& w : work) {
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
        run_case(*w.op, call, w.kern, w.ref, opts.inject_special);
      } catch (const CaseFailure& e) {
        c.status = Status::Fail;
        c.message = e.what();
      } catch (const std::exception& e) {
        c.status = Status::Fail;
        c.message = std::string("internal error: ") + e.what();
      }
      c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      report(std::move(c));
    }
  }
  return sum;
}

}  // namespace kir::oracle
