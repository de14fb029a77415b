// The pipeline of the CPU backend (compiler.h): construct → fusion → select → expand → fusion
// → loop formation → task partition → lifetime → verify → serialize → build → load.
#include "backends/cpu/driver/compiler.h"

#include "backends/cpu/driver/coverage.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <stdexcept>

#include "backends/cpu/ir/printer.h"
#include "backends/cpu/ir/verifier.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/impl/config.h"
#include "backends/cpu/passes/pass.h"
#include "backends/cpu/provider/cpp_serializer.h"
#include "backends/cpu/provider/toolchain.h"
#include "backends/cpu/runtime/capabilities.h"
#include "backends/cpu/runtime/env.h"
#include "backends/cpu/runtime/fp_env.h"
#include "kir/rules/rule.h"

namespace kir::cpu {
namespace {

std::atomic<int> g_cxx_opt_level{3};

// The host toolchain at the current optimization level (one per level, made on first use).
const Toolchain& host_toolchain() {
  static std::mutex mu;
  static std::map<int, Toolchain> by_level;
  const int level = g_cxx_opt_level.load();
  std::lock_guard<std::mutex> lock(mu);
  auto it = by_level.find(level);
  if (it == by_level.end()) {
    Toolchain tc = detect_toolchain(rt::host_capabilities().march_flags());
    std::replace(tc.flags.begin(), tc.flags.end(), std::string("-O3"), "-O" + std::to_string(level));
    it = by_level.emplace(level, std::move(tc)).first;
  }
  return it->second;
}

}  // namespace

std::string winner_key(const Program& constructed) {
  std::string id = "kir-cpu-winner/1\n" + print(constructed);
  id += "toolchain " + host_toolchain().identity() + "\n";
  id += "capabilities " + rt::host_capabilities().str() + "\n";
  id += "config " + key_hash(active_config().text) + "\n";
  // The implementation definitions: the runtime headers never change within a process.
  static const std::string headers = [] {
    std::string h;
    for (const auto& [name, text] : embedded_rt_headers()) h += "header " + std::string(name) + " " + key_hash(text) + "\n";
    return h;
  }();
  return key_hash(id + headers);
}

void set_cxx_opt_level(int level) {
  if (level < 0 || level > 3) throw std::invalid_argument("C++ optimization level " + std::to_string(level) + " is not 0, 1, 2 or 3");
  g_cxx_opt_level.store(level);
}

int cxx_opt_level() { return g_cxx_opt_level.load(); }

Program construct_program(const Module& m, const std::string& kernel, const Specialization& spec, int64_t region_block) {
  const Function* fn = m.find_function(kernel);
  if (!fn || !fn->is_kernel()) throw BackendError("no kernel @" + kernel + " in the module");
  Program P;
  Builder b(m, P);
  b.set_region_block(region_block);
  b.build_kernel(*fn, spec);
  return P;
}

int64_t region_block_of(const std::string& row_name) {
  const ConfigTable& table = active_config();
  const ConfigRow* row = row_name.empty() ? (table.rows.empty() ? nullptr : &table.rows.front()) : table.find(row_name);
  if (!row || std::find(row->implementations.begin(), row->implementations.end(), "region_fold.blocks") == row->implementations.end())
    return 0;
  const int64_t* v = row->value("region_block");
  return v ? *v : 0;
}

// region_fold is segmented at construction (construct/ops_region.cpp), before selection picks
// the row: construction takes the forced row's region_block (else the first row's); when the
// row selection then takes has another one, the kernel is constructed again with it and lowered
// under that row (keeping the first construction's winner key, the key tuning stores under).
CompiledSource compile_to_source(const Module& m, const std::string& kernel, const CompileOptions& opt) {
  const int64_t guess = region_block_of(opt.config_row);
  CompiledSource out = lower_program(construct_program(m, kernel, opt.spec, guess), opt);
  const bool has_region = std::any_of(out.program.bindings.begin(), out.program.bindings.end(),
                                      [](const Program::Binding& b) { return b.implementation == "region_fold.blocks"; });
  const int64_t chosen = region_block_of(out.program.config_row);
  if (!has_region || chosen == guess) return out;
  CompileOptions forced = opt;
  forced.config_row = out.program.config_row;
  const std::string key = out.winner_key;
  out = lower_program(construct_program(m, kernel, opt.spec, chosen), forced);
  out.winner_key = key;
  return out;
}

CompiledSource lower_program(Program program, const CompileOptions& opt) {
  CompiledSource out;
  out.program = std::move(program);
  Program& P = out.program;
  const std::string kernel = P.kernel;
  auto dump = [&](const std::string& after) {
    if (opt.print_after_all) *opt.print_after_all << "// ----- CPU IR after " << after << "\n" << print(P) << "\n";
  };
  VerifyOptions vo;
  if (opt.winners) out.winner_key = winner_key(P);  // only a winner cache consults or stores it
  if (!opt.config_row.empty()) {
    P.config_row = opt.config_row;
  } else if (opt.winners) {
    if (auto w = opt.winners->lookup(out.winner_key); w && active_config().find(w->row)) P.config_row = w->row;
  }
  if (opt.verify_each_pass) verify_or_throw(P, vo, "construct");
  dump("construct");
  std::vector<Pass> pipeline = {fusion_pass(),         bounds_pass(),         select_pass(),
                                epilogue_pass(),       expand_pass(),         fusion_pass(),         bounds_pass(),
                                result_forwarding_pass(), loop_formation_pass(), row_fusion_pass(),     hoist_pass(),
                                task_partition_pass(),
                                lifetime_pass()};
  for (const std::string& s : opt.skip_passes)
    if (s != "fusion" && s != "epilogue" && s != "row-fusion" && s != "task-partition")
      throw std::invalid_argument("pass '" + s +
                                  "' cannot be skipped (only fusion, epilogue, row-fusion and task-partition are optional)");
  for (const auto& pass : pipeline) {
    if (std::find(opt.skip_passes.begin(), opt.skip_passes.end(), pass.name) != opt.skip_passes.end()) continue;
    pass.run(P);
    if (pass.name == "expand") vo.allow_structured = false;
    if (pass.name == "loop-formation") vo.allow_compute = false;
    if (pass.name == "lifetime") vo.require_resources = true;
    if (opt.verify_each_pass || pass.name == "lifetime") verify_or_throw(P, vo, pass.name);
    dump(pass.name);
  }
  // The entry point is named after the program itself, so that one shared object may hold
  // many programs (batching) and a symbol never resolves to another program's code.
  std::string body = serialize_cpp(P, "kir_entry");
  // The active seeded mutant (mutants.h) is key material: a mutated object is never reused
  // without the mutant, nor an unmutated one with it.
  out.key_material = "kir-cpu-provider/1\n" + mutant_key_material() + "row " + P.config_row + "\n";
  for (const auto& b : P.bindings) {
    out.key_material += "binding " + std::to_string(b.op_id) + " " + b.implementation;
    for (const auto& [k, v] : b.params) out.key_material += " " + k + "=" + std::to_string(v);
    out.key_material += "\n";
  }
  out.key_material += print(P);
  out.entry = "kir_entry_" + key_hash(body + out.key_material).substr(0, 24);
  out.body = serialize_cpp(P, out.entry);
  out.source = cpp_prelude() + out.body;
  if (!opt.emit_source_dir.empty()) {
    std::filesystem::create_directories(opt.emit_source_dir);
    std::ofstream(std::filesystem::path(opt.emit_source_dir) / (kernel + ".cpp")) << out.source;
  }
  return out;
}

NativeKernel::NativeKernel(CompiledSource src, ArtifactCache::Artifact artifact, std::shared_ptr<LoadedObject> object)
    : src_(std::move(src)), artifact_(std::move(artifact)), object_(std::move(object)) {
  entry_ = reinterpret_cast<int (*)(kir_call*)>(object_->symbol(src_.entry));
}

kir_fault NativeKernel::call(std::vector<kir_view>& views, const std::vector<uint64_t>& scalars,
                             const std::vector<int64_t>& extents) const {
  kir_fault fault{};
  kir_call c{};
  c.env = rt::default_env();
  c.views = views.data();
  c.nviews = static_cast<int64_t>(views.size());
  c.scalars = scalars.data();
  c.nscalars = static_cast<int64_t>(scalars.size());
  c.extents = extents.data();
  c.nextents = static_cast<int64_t>(extents.size());
  c.fault = &fault;
  if (views.size() != program().view_params.size() || scalars.size() != program().scalar_params.size() ||
      extents.size() != program().symbols.size())
    throw BackendError("native call of @" + program().kernel + ": wrong number of views, scalars or extents");
  CoverageMap* cov = active_coverage();
  std::vector<uint64_t> counts(cov ? program().cover_cells.size() : 0);
  if (cov) {
    c.cover = counts.data();
    c.ncover = static_cast<int64_t>(counts.size());
  }
  {
    rt::FpEnvGuard guard;
    entry_(&c);
  }
  if (cov) cov->add_counts(program().cover_cells, counts);
  return fault;
}

std::string NativeKernel::fault_origin(const kir_fault& f) const {
  if (f.op < 0 || static_cast<size_t>(f.op) >= program().ops.size()) return "<unknown op>";
  const auto& o = program().ops[static_cast<size_t>(f.op)];
  return o.location + ": `" + o.name + "`";
}

namespace {

// The interpreter's kind of each fault code (kir_abi.h), whose explanation a message points at.
constexpr const char* kFaultKinds[] = {"",        "division-by-zero", "integer-overflow", "integer-overflow",
                                       "invalid-cast", "out-of-bounds", "invalid-value",  "shape-mismatch",
                                       "limit",   "limit",            "undefined-read",   "parallel-conflict",
                                       "histogram-range", "binding",  "limit"};

}  // namespace

std::string fault_kind(int32_t code) {
  return code > 0 && static_cast<size_t>(code) < std::size(kFaultKinds) ? kFaultKinds[code] : "";
}

std::string fault_message(const NativeKernel& k, const kir_fault& f) {
  static const char* names[] = {"no fault",
                                "integer division by zero",
                                "integer overflow (INT_MIN / -1)",
                                "shift amount out of range",
                                "invalid cast (NaN, infinity or out of range)",
                                "index out of bounds",
                                "invalid value",
                                "shape mismatch",
                                "step budget exhausted (runaway while loop)",
                                "allocation failed",
                                "read of an undefined element",
                                "conflicting writes",
                                "histogram value outside [0, bins)",
                                "view extent differs from the declared extent",
                                "extent beyond the 64-bit index range"};
  static_assert(std::size(names) == std::size(kFaultKinds));
  const bool known = f.code >= 0 && static_cast<size_t>(f.code) < std::size(names);
  std::string what = known ? names[f.code] : "fault " + std::to_string(f.code);
  std::string loc = "<unknown>", op = "?";
  if (f.op >= 0 && static_cast<size_t>(f.op) < k.program().ops.size()) {
    loc = k.program().ops[static_cast<size_t>(f.op)].location;
    op = k.program().ops[static_cast<size_t>(f.op)].name;
  }
  std::string at;
  for (int64_t i = 0; i < f.rank && i < KIR_MAX_RANK; ++i) at += (i ? ", " : "") + std::to_string(f.coord[i]);
  return loc + ": error[backend]: " + what + " in `" + op + "`" + (f.rank > 0 ? " at (" + at + ")" : "") +
         " (native code of kernel @" + k.program().kernel + ")" +
         rules::explain_hint(known ? fault_kind(f.code) : "backend");
}

std::shared_ptr<NativeKernel> build_kernel(const Module& m, const std::string& kernel, const CompileOptions& opt) {
  CompiledSource src = compile_to_source(m, kernel, opt);
  ArtifactCache& cache = opt.cache ? *opt.cache : default_artifact_cache();
  auto art = cache.build(src.source, src.key_material, host_toolchain());
  auto obj = load_object(art.object);
  return std::make_shared<NativeKernel>(std::move(src), std::move(art), std::move(obj));
}

std::vector<std::shared_ptr<NativeKernel>> build_kernels(std::deque<CompiledSource> sources, ArtifactCache* cache_in) {
  std::vector<std::shared_ptr<NativeKernel>> out;
  if (sources.empty()) return out;
  // One program is filed exactly as build_kernel files it, so both share cache entries.
  std::string source = sources.front().source, key_material = sources.front().key_material;
  if (sources.size() > 1) {
    source = cpp_prelude();
    key_material = "kir-cpu-batch/1\n";
    std::set<std::string> entries;
    for (const auto& s : sources) {
      if (!entries.insert(s.entry).second) continue;  // the same program twice: one definition
      source += s.body + "\n";
      key_material += s.key_material + "\n";
    }
  }
  ArtifactCache& cache = cache_in ? *cache_in : default_artifact_cache();
  auto art = cache.build(source, key_material, host_toolchain());
  auto obj = load_object(art.object);
  for (auto& s : sources) out.push_back(std::make_shared<NativeKernel>(std::move(s), art, obj));
  return out;
}

}  // namespace kir::cpu
