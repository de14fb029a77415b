// The C++ provider's compile/load half: the on-disk artifact cache (keys, reuse, separate source
// and object, compile errors, cache location) and loading a compiled object. Every test uses its
// own temporary cache directory.
#include <stdlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/provider/artifact_cache.h"
#include "backends/cpu/provider/loader.h"
#include "backends/cpu/provider/toolchain.h"
#include "backends/cpu/rt/kir_abi.h"

namespace fs = std::filesystem;
using namespace kir::cpu;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/kir-artifact-test-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Sets (or unsets, value = nullopt) an environment variable for the scope of the object.
struct EnvGuard {
  std::string name;
  std::optional<std::string> old;
  EnvGuard(std::string n, const std::optional<std::string>& value) : name(std::move(n)) {
    if (const char* v = ::getenv(name.c_str())) old = v;
    if (value) ::setenv(name.c_str(), value->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
  ~EnvGuard() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

// The entry point must be exported explicitly: objects are compiled with -fvisibility=hidden.
const std::string kEntrySource = R"(#include "kir_abi.h"
extern "C" __attribute__((visibility("default"))) int kir_entry_test(kir_call*) { return 42; }
)";

}  // namespace

TEST_CASE("a built artifact is reused; its key covers key material and toolchain", "[C12]") {
  TempDir tmp;
  ArtifactCache cache(tmp.path);
  Toolchain tc = detect_toolchain("");
  const std::string material = "kernel add; view a: f32[n] stride 1; view b: f32[n] stride 1";

  ArtifactCache::Artifact first = cache.build(kEntrySource, material, tc);
  CHECK(first.compiled);
  CHECK(cache.compiled_count() == 1);
  CHECK(cache.loaded_count() == 0);
  CHECK(first.key.size() == 64);

  ArtifactCache::Artifact second = cache.build(kEntrySource, material, tc);
  CHECK_FALSE(second.compiled);
  CHECK(second.key == first.key);
  CHECK(second.object == first.object);
  CHECK(cache.compiled_count() == 1);
  CHECK(cache.loaded_count() == 1);

  // Another cache on the same directory (another process, say) finds the object too.
  ArtifactCache again(tmp.path);
  CHECK_FALSE(again.build(kEntrySource, material, tc).compiled);
  CHECK(again.compiled_count() == 0);

  // One byte of key material (a different view fact) is a different key and a new object.
  std::string other = material;
  other.back() = '2';
  CHECK(cache.key(kEntrySource, other, tc) != first.key);
  ArtifactCache::Artifact third = cache.build(kEntrySource, other, tc);
  CHECK(third.compiled);
  CHECK(third.key != first.key);
  CHECK(cache.compiled_count() == 2);

  // So is a different flag set, a different compiler, or a different source.
  Toolchain tc2 = detect_toolchain("-mno-avx");
  CHECK(tc2.identity() != tc.identity());
  CHECK(cache.key(kEntrySource, material, tc2) != first.key);
  Toolchain tc3 = tc;
  tc3.version += " (patched)";
  CHECK(cache.key(kEntrySource, material, tc3) != first.key);
  CHECK(cache.key(kEntrySource + "\n", material, tc) != first.key);
  CHECK(cache.key(kEntrySource, material, tc) == first.key);
}

TEST_CASE("key_hash is SHA-256 in hex", "[C12]") {
  CHECK(key_hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(key_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(key_hash(std::string(1000, 'a')) ==
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("the toolchain keeps IEEE semantics", "[C12]") {
  Toolchain tc = detect_toolchain("-mavx2  -mfma");
  CHECK_FALSE(tc.compiler.empty());
  CHECK_FALSE(tc.version.empty());
  auto has = [&](const std::string& f) {
    return std::find(tc.flags.begin(), tc.flags.end(), f) != tc.flags.end();
  };
  CHECK(has("-ffp-contract=off"));
  CHECK(has("-fno-fast-math"));
  CHECK(has("-mavx2"));
  CHECK(has("-mfma"));
  CHECK_FALSE(has("-ffast-math"));
  CHECK_FALSE(has(""));
  // GCC's phiopt miscompiles guarded divisions (see toolchain.cpp); clang does not get the flag.
  CHECK(has("-fno-ssa-phiopt") == (tc.version.find("clang") == std::string::npos));
  CHECK_THROWS_AS(detect_toolchain("-mavx2 -ffast-math"), std::invalid_argument);
  CHECK_THROWS_AS(detect_toolchain("-Ofast"), std::invalid_argument);
}

TEST_CASE("source and object are separate files; the object loads and runs", "[C15]") {
  TempDir tmp;
  ArtifactCache cache(tmp.path);
  Toolchain tc = detect_toolchain("");
  ArtifactCache::Artifact a = cache.build(kEntrySource, "entry test", tc);
  CHECK(a.source != a.object);
  CHECK(fs::is_regular_file(a.source));
  CHECK(fs::is_regular_file(a.object));
  CHECK(a.source.extension() == ".cpp");
  CHECK(a.object.extension() == ".so");
  CHECK(a.source.parent_path() != a.object.parent_path());
  // The runtime headers were materialized where the compiler found kir_abi.h.
  CHECK(fs::is_regular_file(fs::directory_iterator(tmp.path / "include")->path() / "kir_abi.h"));

  std::shared_ptr<LoadedObject> obj = load_object(a.object);
  CHECK(load_object(a.object) == obj);  // one handle per artifact
  auto entry = reinterpret_cast<int (*)(kir_call*)>(obj->symbol("kir_entry_test"));
  kir_call call{};
  CHECK(entry(&call) == 42);

  try {
    obj->symbol("kir_entry_missing");
    FAIL("expected a missing-symbol error");
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    CHECK(msg.find("kir_entry_missing") != std::string::npos);
    CHECK(msg.find(a.object.string()) != std::string::npos);
  }
  CHECK_THROWS_WITH(LoadedObject(tmp.path / "no-such.so"), Catch::Contains("no-such.so"));
}

TEST_CASE("a source that does not compile raises CompileError with the diagnostics", "[C15]") {
  TempDir tmp;
  ArtifactCache cache(tmp.path);
  Toolchain tc = detect_toolchain("");
  const std::string bad = "extern \"C\" int kir_entry_bad() { return undeclared_thing_42; }\n";
  try {
    cache.build(bad, "bad", tc);
    FAIL("expected CompileError");
  } catch (const CompileError& e) {
    std::string msg = e.what();
    CHECK(msg.find("undeclared_thing_42") != std::string::npos);
    CHECK(msg.find("error") != std::string::npos);
    CHECK(msg.find(e.source().string()) != std::string::npos);
    CHECK(fs::is_regular_file(e.source()));  // kept for inspection
  }
  CHECK(cache.compiled_count() == 0);
  CHECK(fs::is_empty(tmp.path / "obj"));  // no object, no leftover temporary
}

TEST_CASE("concurrent builds of one artifact all get a complete object", "[C15]") {
  TempDir tmp;
  Toolchain tc = detect_toolchain("");
  std::vector<ArtifactCache::Artifact> results(3);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      ArtifactCache cache(tmp.path);  // as if each were its own process
      results[i] = cache.build(kEntrySource, "shared", tc);
    });
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) CHECK(r.object == results[0].object);
  auto entries = std::distance(fs::directory_iterator(tmp.path / "obj"), fs::directory_iterator());
  CHECK(entries == 1);  // the object only: every temporary was renamed or removed
  auto entry = reinterpret_cast<int (*)(kir_call*)>(
      load_object(results[0].object)->symbol("kir_entry_test"));
  kir_call call{};
  CHECK(entry(&call) == 42);
}

TEST_CASE("the cache directory follows KIR_CACHE_DIR, XDG_CACHE_HOME, HOME", "[C15]") {
  EnvGuard home("HOME", std::string("/tmp/kir-home"));
  {
    EnvGuard cache("KIR_CACHE_DIR", std::string("/tmp/kir-explicit-cache"));
    EnvGuard xdg("XDG_CACHE_HOME", std::string("/tmp/kir-xdg"));
    CHECK(ArtifactCache::default_dir() == fs::path("/tmp/kir-explicit-cache"));
  }
  {
    EnvGuard cache("KIR_CACHE_DIR", std::nullopt);
    EnvGuard xdg("XDG_CACHE_HOME", std::string("/tmp/kir-xdg"));
    CHECK(ArtifactCache::default_dir() == fs::path("/tmp/kir-xdg/kir"));
  }
  {
    EnvGuard cache("KIR_CACHE_DIR", std::nullopt);
    EnvGuard xdg("XDG_CACHE_HOME", std::nullopt);
    CHECK(ArtifactCache::default_dir() == fs::path("/tmp/kir-home/.cache/kir"));
  }
}
