// Loading manifest cases and building one case's variant (spec_cases.h).
#include "oracle/spec_cases.h"

#include <filesystem>
#include <stdexcept>

#include "kir/text/printer.h"
#include "oracle/spec_scale.h"
#include "specs/src/loader.h"
#include "specs/src/parity.h"
#include "specs/src/validator.h"

namespace kir::oracle {

namespace {

// The op's reference kernel: the first candidate file that exists (the first candidate when none
// does, so the load error names it). Problems go to `error` unless `optional`.
void load_reference(SpecOp& w, const std::string& kernel_path, bool optional) {
  const std::vector<std::string> where = reference_candidates(*w.op, kernel_path);
  std::string path = where.front();
  for (const auto& c : where)
    if (std::filesystem::is_regular_file(c)) {
      path = c;
      break;
    }
  if (optional && !std::filesystem::is_regular_file(path)) {
    std::string list;
    for (const auto& c : where) list += (list.empty() ? "" : ", ") + c;
    w.ref_missing = "no reference kernel (searched " + list + ")";
    return;
  }
  w.ref = load_kernels(path);
  if (w.ref.module) return;
  (optional ? w.ref_error : w.error) = "reference " + path + " does not load:\n" + w.ref.error;
}

}  // namespace

std::vector<std::string> reference_candidates(const specs::OpSpec& op, const std::string& kernel_path) {
  namespace fs = std::filesystem;
  std::vector<std::string> out{reference_path(kernel_path)};
  fs::path dir = fs::path(op.file).parent_path();
  if (dir.empty()) dir = ".";
  const std::string file = fs::path(kernel_path).filename().string();
  for (const fs::path& c : {dir / "kernels" / "reference" / file, dir / ".." / "kernels" / "reference" / file}) {
    const std::string p = c.lexically_normal().string();
    bool seen = false;
    for (const auto& o : out) seen = seen || fs::path(o).lexically_normal() == fs::path(p);
    if (!seen) out.push_back(p);
  }
  return out;
}

std::unique_ptr<SpecSuite> load_spec_suite(const std::vector<std::string>& paths, const SpecLoadOptions& opts) {
  auto suite = std::make_unique<SpecSuite>();
  specs::SpecDiags d;
  specs::load_paths(paths, suite->manifest, d);
  specs::ValidateOptions vopt;
  vopt.only_op = opts.only_op;
  specs::validate(suite->manifest, d, vopt);
  suite->diagnostics = d.render();
  if (d.has_errors()) {
    suite->manifest_errors = true;
    return suite;
  }
  for (const auto& op : suite->manifest.ops) {
    if (!opts.only_op.empty() && op.name != opts.only_op) continue;
    SpecOp w;
    w.op = &op;
    const std::string kp = specs::paired_kernel_path(op);
    if (kp.empty()) {
      w.skip = "no paired kernel";
    } else {
      w.kern = load_kernels(kp);
      if (opts.with_reference) load_reference(w, kp, opts.reference_optional);
      if (!w.kern.module) w.error = "kernel " + kp + " does not load:\n" + w.kern.error;
    }
    specs::InstantiateOptions iopt;
    iopt.only_label = opts.only_row;
    specs::SpecDiags rd;
    w.calls = specs::instantiate_op(op, suite->manifest, rd, iopt);
    if (rd.has_errors()) {
      w.error = rd.render();
      w.rows_error = true;
    }
    suite->ops.push_back(std::move(w));
  }
  return suite;
}

std::string reference_path(const std::string& kernel_path) {
  const auto slash = kernel_path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : kernel_path.substr(0, slash);
  const std::string file = slash == std::string::npos ? kernel_path : kernel_path.substr(slash + 1);
  return dir + "/reference/" + file;
}

SpecCases::SpecCases(const std::vector<std::string>& paths) : suite_(load_spec_suite(paths, {})) {
  auto trimmed = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  if (suite_->manifest_errors) throw std::runtime_error("manifests do not load:\n" + trimmed(suite_->diagnostics));
  std::string errors;
  for (size_t oi = 0; oi < suite_->ops.size(); ++oi) {
    const SpecOp& w = suite_->ops[oi];
    if (!w.error.empty()) errors += w.op->name + ": " + w.error + (w.error.back() == '\n' ? "" : "\n");
    if (!w.skip.empty() || !w.error.empty()) continue;
    for (size_t ci = 0; ci < w.calls.size(); ++ci)
      cases_.push_back({w.op->name, w.op->file, w.calls[ci].label, w.calls[ci].case_id, w.kern.path, oi, ci});
  }
  if (!errors.empty()) throw std::runtime_error("manifest cases cannot run:\n" + trimmed(errors));
  if (cases_.empty()) throw std::runtime_error("the manifests have no op with a paired kernel (specs/kernels/<Op>.kir)");
}

SpecInstance SpecCases::instantiate(size_t k, const SpecVariant& v) const {
  const SpecCaseRef& ref = at(k);
  const SpecOp& w = suite_->ops[ref.op_index];
  const specs::Call* call = &w.calls[ref.call_index];
  SpecInstance out;
  std::optional<ScaledCall> scaled;
  if (v.scale) {
    auto has_kernel = [&](const specs::Call& c) {
      try {
        kernel_for_call(*w.kern.module, w.op->name, c, w.kern.path);
        return true;
      } catch (const SpecCaseError&) {
        return false;
      }
    };
    scaled = scale_call(*w.op, suite_->manifest, *call, v.scale, has_kernel);
    if (scaled) {
      call = &scaled->call;
      out.scaled = scaled->change;
    }
  }
  const Function& kern = kernel_for_call(*w.kern.module, w.op->name, *call, w.kern.path);
  specs::DataOptions dopt;
  dopt.seed = v.seed;
  dopt.inject_special = v.special;
  const auto data = generate_case_inputs(*w.op, *call, dopt);
  Invocation inv = guarded("kernel @" + kern.name, [&] { return build_args(kern, *call, data); });
  out.kir = w.kern.normalized ? print_module(*w.kern.module) : w.kern.source;
  out.kernel = kern.name;
  out.args = std::move(inv.args);
  out.dims = guarded("kernel @" + kern.name, [&] { return interp::bind_kernel_extents(kern, out.args); });
  return out;
}

}  // namespace kir::oracle
