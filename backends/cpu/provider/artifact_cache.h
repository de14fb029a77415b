// The on-disk artifact cache of the C++ provider: generated source goes to <dir>/src/<key>.cpp,
// the shared object compiled from it to <dir>/obj/<key>.so (the source is never the callable
// artifact), and the embedded runtime headers to <dir>/include/<headers-hash>/. The key hashes
// everything the object depends on (key material, source, toolchain identity, runtime headers,
// ABI version), so an existing object is reused without compiling. Every file appears by an
// atomic rename: processes sharing a cache never see a half-written file. Compiling is one step;
// loading (loader.h) and calling are separate ones.
#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/cpu/provider/toolchain.h"

namespace kir::cpu {

// The runtime headers (backends/cpu/rt/*.h) as (file name, contents); generated rt_headers.cpp.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_rt_headers();

// SHA-256 of `data` as 64 lowercase hex digits.
std::string key_hash(std::string_view data);

// The compiler rejected a generated source: the message has the source path and the compiler's
// diagnostics (first 40 lines).
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& message, std::filesystem::path source, std::string diagnostics)
      : std::runtime_error(message), source_(std::move(source)), diagnostics_(std::move(diagnostics)) {}
  const std::filesystem::path& source() const { return source_; }
  const std::string& diagnostics() const { return diagnostics_; }  // the compiler's full output

 private:
  std::filesystem::path source_;
  std::string diagnostics_;
};

class ArtifactCache {
 public:
  struct Artifact {
    std::string key;
    std::filesystem::path source, object;
    bool compiled;  // false: the object was already in the cache
  };

  explicit ArtifactCache(std::filesystem::path dir);  // made absolute

  // $KIR_CACHE_DIR, else $XDG_CACHE_HOME/kir, else $HOME/.cache/kir.
  static std::filesystem::path default_dir();

  const std::filesystem::path& dir() const { return dir_; }

  // The key build() files `source` under.
  std::string key(const std::string& source, const std::string& key_material,
                  const Toolchain& tc) const;

  // The object for `source`, compiled with tc unless the cache already has it. Throws
  // CompileError if the compiler fails, std::runtime_error if the cache cannot be written.
  Artifact build(const std::string& source, const std::string& key_material, const Toolchain& tc);

  int64_t compiled_count() const { return compiled_; }
  int64_t loaded_count() const { return loaded_; }

 private:
  std::filesystem::path include_dir();  // materializes the runtime headers on first use
  // The runtime headers plus a precompiled kir_gen.h for toolchain `tc` (one directory per
  // toolchain identity; without the precompiled header when it cannot be built).
  std::filesystem::path pch_dir(const Toolchain& tc);

  std::filesystem::path dir_;
  std::mutex include_mu_;
  std::filesystem::path include_dir_;  // empty until materialized
  std::map<std::string, std::filesystem::path> pch_dirs_;  // toolchain identity -> directory
  std::atomic<int64_t> compiled_{0}, loaded_{0};
};

// The process-wide cache, rooted at ArtifactCache::default_dir() (read on first use).
ArtifactCache& default_artifact_cache();

}  // namespace kir::cpu
