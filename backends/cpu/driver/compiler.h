// The CPU backend's public API (checklist C2, C12, C14): compile a kernel of a verified
// canonical KIR module — construct the CPU IR, run the shared passes (verifying after each),
// select and expand implementations, legalize, serialize C++ — build the artifact through the
// on-disk cache, load it, and call it. Compile, load and call are separate steps; a call binds
// the declared resources (views, scalars, extents), runs the tasks and joins before returning.
#pragma once
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/construct/builder.h"
#include "backends/cpu/ir/cpu_ir.h"
#include "backends/cpu/provider/artifact_cache.h"
#include "backends/cpu/provider/loader.h"
#include "backends/cpu/provider/winner_cache.h"
#include "backends/cpu/rt/kir_abi.h"

namespace kir::cpu {

struct CompileOptions {
  Specialization spec;
  std::ostream* print_after_all = nullptr;  // the program after construction and every pass
  bool verify_each_pass = true;
  std::string emit_source_dir;              // also write the generated C++ there
  ArtifactCache* cache = nullptr;           // default_artifact_cache() when null
  // Optional passes left out ("fusion", "epilogue", "row-fusion", "task-partition"), to tell which pass a wrong result
  // depends on (differential campaigns attribute findings this way). Other names: invalid_argument.
  std::vector<std::string> skip_passes;
  // The config row to build from (impl/config.h); empty: the winner `kir tune` stored for this
  // kernel in `winners` when one is given and has one, else the selection policy's choice.
  std::string config_row;
  WinnerCache* winners = nullptr;
};

// A legalized program and its generated source (compile step).
struct CompiledSource {
  Program program;
  std::string source;       // the whole translation unit
  std::string body;         // the entry function alone (batches concatenate bodies after one prelude)
  std::string entry;        // the entry point's symbol
  std::string key_material;  // what the artifact depends on besides source and toolchain
  std::string winner_key;    // the winner cache's key of the constructed program (winner_key());
                             // computed only when CompileOptions::winners is set
};

CompiledSource compile_to_source(const Module& m, const std::string& kernel, const CompileOptions& opt = {});
// The two halves of compile_to_source: construction reads the module once (C4); lowering
// (passes, verification, serialization) works on the program alone — the module may be gone.
// region_block: rows per segment of every region_fold (0: the whole source; region_block_of).
Program construct_program(const Module& m, const std::string& kernel, const Specialization& spec = {},
                          int64_t region_block = 0);
// The region_block of a config row of the active table ("" : its first row): the row's value
// when its set lists region_fold.blocks, else 0.
int64_t region_block_of(const std::string& row_name);
CompiledSource lower_program(Program p, const CompileOptions& opt = {});

// A loaded artifact (load step).
class NativeKernel {
 public:
  NativeKernel(CompiledSource src, ArtifactCache::Artifact artifact, std::shared_ptr<LoadedObject> object);
  const Program& program() const { return src_.program; }
  const CompiledSource& source() const { return src_; }
  const ArtifactCache::Artifact& artifact() const { return artifact_; }
  // Call step: binds the views (parameter order), the runtime scalars (bit patterns, parameter
  // order) and the extent symbols (program().symbols order), runs under the default FP
  // environment (the caller's is restored), and returns the fault (code 0 when none).
  kir_fault call(std::vector<kir_view>& views, const std::vector<uint64_t>& scalars,
                 const std::vector<int64_t>& extents) const;
  // "f.kir:3:5: `div`" for a fault's op.
  std::string fault_origin(const kir_fault& f) const;

 private:
  CompiledSource src_;
  ArtifactCache::Artifact artifact_;
  std::shared_ptr<LoadedObject> object_;
  int (*entry_)(kir_call*) = nullptr;
};

// The winner cache's key of a kernel as construction left it (before any pass): its CPU IR
// (specialization and view facts), the toolchain, the capabilities, the config rows and the
// implementation definitions — everything but the bindings being chosen.
std::string winner_key(const Program& constructed);

// Compile, build through the cache, load.
std::shared_ptr<NativeKernel> build_kernel(const Module& m, const std::string& kernel, const CompileOptions& opt = {});

// Batching: many compiled programs built as ONE shared object (one compiler run, one cache
// entry keyed by all of them) and loaded once; the kernels share the object. Entry symbols are
// named after each program, so programs never collide. Throws CompileError like build_kernel;
// a caller that must isolate a bad program retries the batch one program at a time.
std::vector<std::shared_ptr<NativeKernel>> build_kernels(std::deque<CompiledSource> sources, ArtifactCache* cache = nullptr);

// The optimization level (0..3, default 3) the generated C++ of this process is compiled at from
// now on. The backend's own passes run the same at every level; below 3 only the C++ compiler
// optimizes less, which makes compiling several times faster (differential campaigns compile
// most batches at 0 and some at 3). The level is part of the toolchain identity, so artifacts
// of different levels never mix in the cache. Throws std::invalid_argument outside 0..3.
void set_cxx_opt_level(int level);
int cxx_opt_level();

// A fault as a located message: "f.kir:3:5: error[backend]: integer division by zero in `div`
// at (2, 5) (native code of kernel @k)".
std::string fault_message(const NativeKernel& k, const kir_fault& f);
// The interpreter's kind of a native fault code (interp::kind_name: "histogram-range", "binding",
// "limit", ...); "" for 0 and unknown codes.
std::string fault_kind(int32_t code);

}  // namespace kir::cpu
