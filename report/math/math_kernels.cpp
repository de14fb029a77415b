// Building and running the math section's kernels on the CPU backend (see math_kernels.h). The
// kernels are ordinary canonical KIR, written the way a user would: an index domain over the view,
// a load, the math op, a store.
#include "report/math/math_kernels.h"

#include <deque>
#include <stdexcept>
#include <variant>

#include "interp/interpreter.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "oracle/backend_run.h"

namespace kir::report {
namespace {

std::map<std::string, interp::KernelArg> make_args(kir::DType d, std::vector<uint64_t> inputs) {
  const auto n = static_cast<int64_t>(inputs.size());
  std::map<std::string, interp::KernelArg> args;
  args.emplace("x", interp::make_host_view(d, {n}, std::move(inputs)));
  args.emplace("z", interp::make_host_view(d, {n}));
  return args;
}

}  // namespace

std::string math_kernel_name(num::MathFn fn, kir::DType d) {
  return "math_" + std::string(num::name(fn)) + "_" + std::string(kir::name(d));
}

std::string math_kernel_text(num::MathFn fn, kir::DType d) {
  const std::string t = std::string(kir::name(d));
  return "kernel @" + math_kernel_name(fn, d) + "(%x: In<" + t + "[N]>, %z: Out<" + t + "[N]>) {\n" +
         "  %zero = const() {value = 0} : index\n"
         "  %n = dim(%x) {axis = 0} : index\n"
         "  %d = domain(%zero, %n) : domain<N>\n"
         "  %i = indices(%d) : index[N]\n"
         "  %rel = relation(%i) : relation<1 -> [N]>\n"
         "  %a = view.load(%x, %rel) : " + t + "[N]\n"
         "  %e = " + std::string(num::name(fn)) + "(%a) : " + t + "[N]\n"
         "  view.store(%z, %rel, %e)\n"
         "}\n\n";
}

bool is_not_implemented(const std::string& message) { return message.find("not implemented") != std::string::npos; }

MathKernels build_math_kernels(const std::vector<std::pair<num::MathFn, kir::DType>>& rows) {
  std::string text;
  for (const auto& [fn, d] : rows) text += math_kernel_text(fn, d);
  MathKernels k;
  Diagnostics diags;
  k.module = parse_module(text, "math.kir", diags);
  if (!k.module || diags.has_errors() || !verify_module(*k.module, diags))
    throw std::logic_error("math section: the generated kernels are not valid KIR:\n" + diags.render(text));

  // One batch; a kernel the backend cannot compile or build carries its message (oracle::build_batch).
  auto compile = [&](num::MathFn fn, kir::DType d) {
    return oracle::compile_for_args(*k.module, math_kernel_name(fn, d), make_args(d, {0}));
  };
  const auto built = oracle::build_batch(rows.size(), [&](size_t i) { return compile(rows[i].first, rows[i].second); });
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string name = math_kernel_name(rows[i].first, rows[i].second);
    if (built[i].native) k.built[name] = built[i].native;
    else k.errors[name] = built[i].error;
  }
  return k;
}

std::vector<uint64_t> run_math_kernel(const MathKernels& k, const std::string& name, kir::DType d,
                                      const std::vector<uint64_t>& inputs) {
  auto it = k.built.find(name);
  if (it == k.built.end()) throw std::logic_error("math section: kernel @" + name + " was not built");
  auto args = make_args(d, inputs);
  oracle::call_on_backend(*it->second, *k.module, name, args);
  return std::get<interp::HostView>(args.at("z")).storage->bits;
}

}  // namespace kir::report
