// `kir compile` and `kir backend info`: the CPU backend from the command line. compile runs the
// whole pipeline (construction, passes, selection and expansion, serialization), builds the
// artifact through the on-disk cache and loads it — nothing is executed — and says where the
// generated source and the shared object are; info prints the detected capabilities (typed
// facts), the toolchain and the cache directory.
#include <iostream>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/provider/toolchain.h"
#include "backends/cpu/runtime/capabilities.h"
#include "backends/cpu/runtime/worker_pool.h"
#include "kir/load.h"
#include "oracle/backend_run.h"
#include "tools/backend_flags.h"
#include "tools/commands.h"
#include "tools/kernel_inputs.h"

namespace kir::tools {
namespace {

struct CompileArgs {
  std::string path, kernel, emit_source;
  std::vector<std::string> consts;
  bool print_after_all = false;
  BackendFlags flags;
};

int run_compile(const CompileArgs& a) {
  Diagnostics diags;
  std::string source;
  auto m = load_canonical(a.path, diags, source);
  if (!m) {
    std::cerr << diags.render(source);
    return 1;
  }
  cpu::CompileOptions opt;
  opt.emit_source_dir = a.emit_source;
  if (a.print_after_all) opt.print_after_all = &std::cout;
  if (std::string e = apply_backend_flags(a.flags, opt); !e.empty()) {
    std::cerr << e << "\n";
    return 1;
  }
  std::vector<const Function*> kernels;
  for (const auto& f : m->functions)
    if (f->is_kernel() && (a.kernel.empty() || f->name == a.kernel)) kernels.push_back(f.get());
  if (kernels.empty()) {
    std::cerr << "kir compile: " << (a.kernel.empty() ? "no kernel in " + a.path : "no kernel @" + a.kernel + " in " + a.path)
              << "\n";
    return 1;
  }
  std::map<std::string, std::map<std::string, interp::KernelArg>> consts;
  if (std::string e = parse_const_args(*m, kernels, a.consts, consts); !e.empty()) {
    std::cerr << "kir compile: " << e << "\n";
    return 2;
  }
  int failed = 0;
  for (const Function* f : kernels) {
    try {
      opt.spec = oracle::specialization_of(*m, *f, consts[f->name]);
      auto k = cpu::build_kernel(*m, f->name, opt);
      const auto& art = k->artifact();
      std::cout << "@" << f->name << ": " << (art.compiled ? "compiled" : "loaded from the cache") << " (config row "
                << k->program().config_row << ")\n"
                << "  source: " << art.source.string() << "\n"
                << "  object: " << art.object.string() << "\n";
    } catch (const std::exception& e) {
      ++failed;
      std::cerr << e.what() << "\n";
    }
  }
  return failed ? 1 : 0;
}

int run_info() {
  const auto& caps = cpu::rt::host_capabilities();
  auto tc = cpu::detect_toolchain(caps.march_flags());
  std::cout << "capabilities: " << caps.str() << "\n"
            << "target flags: " << caps.march_flags() << "\n"
            << "compiler: " << tc.compiler << " (" << tc.version << ")\n"
            << "flags:";
  for (const auto& f : tc.flags) std::cout << " " << f;
  std::cout << "\n"
            << "threads: " << cpu::rt::WorkerPool::global().threads() << "\n"
            << "artifact cache: " << cpu::ArtifactCache::default_dir().string() << "\n";
  return 0;
}

// The seeded mutants (backends/cpu/mutants/mutants.h): name, site and the bug each models.
int run_mutants() {
  const auto& all = cpu::mutants();
  std::cout << all.size() << " seeded mutants (select one with KIR_MUTANT=<name>)"
            << (cpu::mutants_compiled_in() ? "" : "; this build has none compiled in (-DKIR_MUTANTS=OFF)") << "\n";
  for (const auto& m : all) std::cout << "  " << m.name << "\n      " << m.bug << "\n      at " << m.where << "\n";
  try {
    if (const auto* a = cpu::active_mutant()) std::cout << "active: " << a->name << "\n";
  } catch (const std::exception& e) {
    std::cerr << "kir backend mutants: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

void register_backend_commands(CLI::App& app, int& exit_code) {
  static CompileArgs args;
  auto* c = app.add_subcommand("compile", "Compile kernels with the CPU backend (through the artifact cache)");
  c->add_option("FILE", args.path, "KIR text file")->required()->check(CLI::ExistingFile);
  c->add_option("--kernel", args.kernel, "Only this kernel (default: every kernel)");
  c->add_option("--emit-source", args.emit_source, "Also write the generated C++ to DIR/<kernel>.cpp");
  c->add_option("--const", args.consts,
                "NAME=VALUE for a constexpr or enum parameter, parsed as --input parses it (default: its default)");
  c->add_flag("--print-after-all", args.print_after_all, "Print the CPU IR after construction and after every pass");
  add_backend_flags(c, args.flags);
  c->callback([&] { exit_code = run_compile(args); });
  auto* b = app.add_subcommand("backend", "The CPU backend");
  b->require_subcommand(1);
  auto* info = b->add_subcommand("info", "Detected CPU capabilities, toolchain, threads and artifact cache");
  info->callback([&] { exit_code = run_info(); });
  auto* mut = b->add_subcommand("mutants", "The seeded mutants of the CPU backend (mutation score; KIR_MUTANT=<name>)");
  mut->callback([&] { exit_code = run_mutants(); });
}

}  // namespace kir::tools
