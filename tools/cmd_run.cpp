// `kir run FILE`: run a kernel in the reference interpreter (issue 4 item 4). Inputs come from
// .npy files, literal scalars or a seed (inputs not given are generated from --seed); extents not
// fixed by the inputs come from --dim NAME=N (default 8, with a note). Prints a summary of every
// Out/InOut view (shape, dtype, min/max, NaN count, undefined elements) and writes them as .npy
// to --output DIR. --trace prints one line per executed op; --break-on nan|inf stops at the
// first op producing one. Surface files are normalized first. Exit: 0 ok, 1 error, 2 usage.
#include <filesystem>
#include <iostream>
#include <map>

#include "interp/interpreter.h"
#include "interp/npy.h"
#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "numerics/philox.h"
#include "numerics/value_text.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

struct RunArgs {
  std::string path, kernel, output;
  std::vector<std::string> inputs, dims, break_on;
  uint64_t seed = 0;
  bool trace = false;
};

uint64_t name_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A deterministic pseudo-random element of dtype d: floats in [-2, 2), integers in [0, 8),
// bools 0/1, e8m0 scales near 1.
uint64_t random_elem(DType d, uint64_t seed, uint64_t i) {
  const uint32_t w = num::random_bits(seed, i);
  if (d == DType::Bool) return w & 1;
  if (d == DType::E8M0) return 120 + w % 15;
  if (is_any_float(d)) {
    const double u = static_cast<double>(w) / 4294967296.0;
    return num::from_double(4.0 * u - 2.0, d);
  }
  return w % 8;
}

int fail_usage(const std::string& msg) {
  std::cerr << "kir run: " << msg << "\n";
  return 2;
}

int run(const RunArgs& a) {
  Diagnostics diags;
  std::string source;
  auto m = parse_file(a.path, diags, &source);
  if (!m) { std::cerr << diags.render(source); return 1; }
  if (!verify_module(*m, diags)) {
    Diagnostics d2;
    VerifyOptions surface;
    surface.allow_surface = true;
    auto m2 = parse_file(a.path, d2, nullptr);
    if (!m2 || !verify_module(*m2, d2, surface) || !normalize_module(*m2, d2) || !verify_module(*m2, d2)) {
      std::cerr << diags.render(source);
      return 1;
    }
    m = std::move(m2);
  }
  const Function* k = nullptr;
  std::vector<std::string> kernels;
  for (const auto& f : m->functions)
    if (f->is_kernel()) kernels.push_back(f->name);
  if (!a.kernel.empty()) {
    k = m->find_function(a.kernel);
    if (!k || !k->is_kernel()) return fail_usage("no kernel @" + a.kernel + " in " + a.path);
  } else if (kernels.size() == 1) {
    k = m->find_function(kernels[0]);
  } else {
    std::string list;
    for (const auto& n : kernels) list += " @" + n;
    return fail_usage(kernels.empty() ? a.path + " has no kernel" : "several kernels (" + list + " ); choose one with --kernel");
  }
  std::map<std::string, const kir::Value*> params;
  for (const kir::Value* p : k->params()) params[p->name] = p;

  std::map<std::string, interp::KernelArg> args;
  std::map<std::string, std::string> specs;
  for (const auto& in : a.inputs) {
    auto eq = in.find('=');
    if (eq == std::string::npos) return fail_usage("--input needs name=file.npy|random:SEED|VALUE, got '" + in + "'");
    std::string n = in.substr(0, eq);
    if (!n.empty() && n[0] == '%') n = n.substr(1);
    if (!params.count(n)) return fail_usage("kernel @" + k->name + " has no parameter %" + n);
    specs[n] = in.substr(eq + 1);
  }
  std::map<std::string, int64_t> dims;
  for (const auto& d : a.dims) {
    auto eq = d.find('=');
    try {
      if (eq == std::string::npos) throw std::invalid_argument("");
      long long v = std::stoll(d.substr(eq + 1));
      if (v < 0) throw std::invalid_argument("");
      dims[d.substr(0, eq)] = v;
    } catch (...) {
      return fail_usage("--dim needs NAME=N with N >= 0, got '" + d + "'");
    }
  }
  try {
    // Views given as .npy fix their extents first.
    for (const auto& [n, spec] : specs) {
      const kir::Value* p = params[n];
      if (!p->type.is(TypeKind::View)) continue;
      if (spec.rfind("random:", 0) == 0) continue;
      interp::Tensor t = interp::npy_to_tensor(interp::read_npy(spec), p->type.dtype());
      args[n] = interp::make_host_view(t.dtype, t.shape, std::move(t.bits));
    }
    auto bound = interp::bind_kernel_extents(*k, args);
    for (const auto& [s, v] : dims) bound[s] = v;
    for (const kir::Value* p : k->params()) {
      if (args.count(p->name)) continue;
      auto sit = specs.find(p->name);
      uint64_t seed = a.seed ^ name_hash(p->name);
      if (sit != specs.end() && sit->second.rfind("random:", 0) == 0) seed = std::stoull(sit->second.substr(7)) ^ name_hash(p->name);
      if (p->type.is(TypeKind::View)) {
        std::string missing;
        std::optional<interp::Shape> shape;
        while (!(shape = interp::param_shape(*p, bound, &missing))) {
          if (missing.empty() || missing[0] == '%') return fail_usage("cannot determine the shape of %" + p->name);
          std::cerr << "note: extent " << missing << " is not fixed by the inputs; using 8 (pass --dim " << missing << "=N)\n";
          bound[missing] = 8;
        }
        const DType d = p->type.dtype();
        interp::HostView h = interp::make_host_view(d, *shape);
        if (p->type.access() != Access::Out)
          for (size_t i = 0; i < h.storage->bits.size(); ++i) h.storage->bits[i] = random_elem(d, seed, i);
        args[p->name] = h;
      } else if (p->type.is(TypeKind::Enum)) {
        if (sit != specs.end()) args[p->name] = interp::EnumArg{sit->second};
        else if (!p->default_value) return fail_usage("constexpr enum %" + p->name + " needs --input " + p->name + "=MEMBER");
      } else if (p->type.is_scalar()) {
        const DType d = p->type.dtype();
        if (sit != specs.end() && sit->second.rfind("random:", 0) != 0) {
          auto v = num::parse_value(sit->second, d);
          if (!v) return fail_usage("--input " + p->name + ": " + v.error().message);
          args[p->name] = *v;
        } else if (!(p->is_constexpr && p->default_value && sit == specs.end())) {
          // Runtime scalars default to a benign value: floats in [0, 0.5), integers in [0, 8).
          uint64_t bits = random_elem(d, seed, 0);
          if (is_any_float(d)) bits = num::from_double(static_cast<double>(num::random_bits(seed, 1)) / 8589934592.0, d);
          args[p->name] = interp::Scalar{d, bits};
        }
      }
    }
    interp::Options opts;
    if (a.trace) opts.trace = &std::cout;
    for (const auto& b : a.break_on) {
      if (b == "nan") opts.break_on_nan = true;
      else if (b == "inf") opts.break_on_inf = true;
      else return fail_usage("--break-on takes nan or inf");
    }
    interp::Interpreter it(*m, opts);
    it.run_kernel(k->name, args);
    if (!a.output.empty()) std::filesystem::create_directories(a.output);
    for (const kir::Value* p : k->params()) {
      if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
      const auto& h = std::get<interp::HostView>(args[p->name]);
      interp::Tensor t;
      t.dtype = h.storage->dtype;
      t.shape = h.shape;
      t.bits = h.storage->bits;
      int64_t undefined = 0;
      for (size_t i = 0; i < h.storage->defined.size(); ++i) undefined += h.storage->defined[i] == 0;
      std::cout << "%" << p->name << ": " << interp::summarize(interp::Value(t));
      if (undefined) std::cout << " (" << undefined << " elements never written)";
      std::cout << "\n";
      if (!a.output.empty()) interp::write_npy((std::filesystem::path(a.output) / (p->name + ".npy")).string(), t.dtype, t.shape, t.bits);
    }
  } catch (const interp::RuntimeError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "kir run: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void register_run_command(CLI::App& app, int& exit_code) {
  static RunArgs args;
  auto* run_cmd = app.add_subcommand("run", "Run a kernel in the exact reference interpreter");
  run_cmd->add_option("FILE", args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  run_cmd->add_option("--kernel", args.kernel, "Kernel to run (default: the only kernel)");
  run_cmd->add_option("--input", args.inputs, "name=file.npy | name=random:SEED | name=VALUE (scalars, enum members)");
  run_cmd->add_option("--dim", args.dims, "NAME=N for extents the inputs do not fix (default 8)");
  run_cmd->add_option("--output", args.output, "Directory for the Out/InOut views as .npy");
  run_cmd->add_option("--seed", args.seed, "Seed of generated inputs (default 0)");
  run_cmd->add_flag("--trace", args.trace, "Print one line per executed op");
  run_cmd->add_option("--break-on", args.break_on, "Stop at the first op producing nan or inf");
  run_cmd->callback([&exit_code] { exit_code = run(args); });
}

}  // namespace kir::tools
