#include "backends/cpu/provider/artifact_cache.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "backends/cpu/rt/kir_abi.h"

namespace kir::cpu {
namespace fs = std::filesystem;
namespace {

// Bump when the layout of the cache or the meaning of a key changes.
constexpr int kCacheFormat = 1;

// FIPS 180-4 SHA-256.
class Sha256 {
 public:
  void update(std::string_view data) {
    for (char c : data) {
      block_[fill_++] = static_cast<uint8_t>(c);
      if (fill_ == 64) compress();
    }
    bits_ += 8 * static_cast<uint64_t>(data.size());
  }

  std::string hex() {
    uint64_t bits = bits_;
    block_[fill_++] = 0x80;
    if (fill_ > 56) {
      while (fill_ < 64) block_[fill_++] = 0;
      compress();
    }
    while (fill_ < 56) block_[fill_++] = 0;
    for (int i = 7; i >= 0; --i) block_[fill_++] = static_cast<uint8_t>(bits >> (8 * i));
    compress();
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (uint32_t w : h_)
      for (int i = 28; i >= 0; i -= 4) out += digits[(w >> i) & 0xf];
    return out;
  }

 private:
  static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

  void compress() {
    static constexpr uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t{block_[4 * i]} << 24 | uint32_t{block_[4 * i + 1]} << 16 |
             uint32_t{block_[4 * i + 2]} << 8 | uint32_t{block_[4 * i + 3]};
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    uint32_t add[8] = {a, b, c, d, e, f, g, h};
    for (int i = 0; i < 8; ++i) h_[i] += add[i];
    fill_ = 0;
  }

  std::array<uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> block_{};
  size_t fill_ = 0;
  uint64_t bits_ = 0;
};

// Length-prefixed, so no two different field lists hash the same bytes.
void add_field(Sha256& h, std::string_view field) {
  h.update(std::to_string(field.size()));
  h.update(":");
  h.update(field);
}

const std::string& headers_hash() {
  static const std::string hash = [] {
    Sha256 h;
    for (const auto& [name, text] : embedded_rt_headers()) {
      add_field(h, name);
      add_field(h, text);
    }
    return h.hex();
  }();
  return hash;
}

// A name next to `final` no other thread or process uses.
fs::path temp_name(const fs::path& final) {
  static std::atomic<uint64_t> counter{0};
  return fs::path(final.string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                  std::to_string(counter++));
}

void write_file(const fs::path& path, std::string_view contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_file_atomic(const fs::path& path, std::string_view contents) {
  fs::path tmp = temp_name(path);
  write_file(tmp, contents);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot create " + path.string() + ": " + ec.message());
  }
}

void make_dirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir))
    throw std::runtime_error("cannot create the cache directory " + dir.string() + ": " +
                             ec.message());
}

std::string first_lines(const std::string& text, int n) {
  size_t pos = 0;
  for (int i = 0; i < n && pos < text.size(); ++i) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) return text;
    pos = nl + 1;
  }
  return pos < text.size() ? text.substr(0, pos) + "[...]\n" : text;
}

}  // namespace

std::string key_hash(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex();
}

fs::path ArtifactCache::default_dir() {
  if (const char* d = std::getenv("KIR_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "kir";
  if (const char* d = std::getenv("HOME"); d && *d) return fs::path(d) / ".cache" / "kir";
  return fs::temp_directory_path() / "kir-cache";
}

ArtifactCache::ArtifactCache(fs::path dir) : dir_(fs::absolute(dir)) {}

std::string ArtifactCache::key(const std::string& source, const std::string& key_material,
                               const Toolchain& tc) const {
  Sha256 h;
  add_field(h, "kir-cpu-artifact");
  add_field(h, std::to_string(KIR_ABI_VERSION) + "." + std::to_string(kCacheFormat));
  add_field(h, key_material);
  add_field(h, tc.identity());
  add_field(h, headers_hash());
  add_field(h, source);
  return h.hex();
}

fs::path ArtifactCache::include_dir() {
  std::lock_guard<std::mutex> lock(include_mu_);
  if (!include_dir_.empty() && fs::is_directory(include_dir_)) return include_dir_;
  fs::path final = dir_ / "include" / headers_hash();
  if (!fs::is_directory(final)) {
    make_dirs(final.parent_path());
    fs::path tmp = temp_name(final);
    make_dirs(tmp);
    for (const auto& [name, text] : embedded_rt_headers()) write_file(tmp / name, text);
    std::error_code ec;
    fs::rename(tmp, final, ec);
    if (ec) {  // another process materialized the same headers first
      fs::remove_all(tmp, ec);
      if (!fs::is_directory(final))
        throw std::runtime_error("cannot create " + final.string());
    }
  }
  include_dir_ = final;
  return include_dir_;
}

fs::path ArtifactCache::pch_dir(const Toolchain& tc) {
  const fs::path headers = include_dir();
  std::lock_guard<std::mutex> lock(include_mu_);
  auto it = pch_dirs_.find(tc.identity());
  if (it != pch_dirs_.end() && fs::is_directory(it->second)) return it->second;
  // Every generated source starts with #include "kir_gen.h": parsing the runtime headers is
  // most of a small kernel's compile time, so they are compiled once per toolchain.
  fs::path final = headers.parent_path() / (headers.filename().string() + "-" + key_hash(tc.identity()).substr(0, 16));
  if (!fs::is_directory(final)) {
    fs::path tmp = temp_name(final);
    make_dirs(tmp);
    for (const auto& [name, text] : embedded_rt_headers()) write_file(tmp / name, text);
    std::vector<std::string> argv = {tc.compiler};
    for (const auto& f : tc.flags)
      if (f != "-shared") argv.push_back(f);
    argv.insert(argv.end(), {"-x", "c++-header", (tmp / "kir_gen.h").string(), "-o", (tmp / "kir_gen.h.gch").string()});
    std::string out;
    std::error_code ec;
    if (run_command(argv, out) != 0) fs::remove(tmp / "kir_gen.h.gch", ec);  // the headers alone still work
    fs::rename(tmp, final, ec);
    if (ec) {  // another process built the same directory first
      fs::remove_all(tmp, ec);
      if (!fs::is_directory(final)) return headers;
    }
  }
  pch_dirs_[tc.identity()] = final;
  return final;
}

ArtifactCache::Artifact ArtifactCache::build(const std::string& source,
                                             const std::string& key_material,
                                             const Toolchain& tc) {
  Artifact a;
  a.key = key(source, key_material, tc);
  a.source = dir_ / "src" / (a.key + ".cpp");
  a.object = dir_ / "obj" / (a.key + ".so");
  make_dirs(a.source.parent_path());
  make_dirs(a.object.parent_path());
  if (fs::exists(a.object)) {
    if (!fs::exists(a.source)) write_file_atomic(a.source, source);
    a.compiled = false;
    ++loaded_;
    return a;
  }
  write_file_atomic(a.source, source);
  fs::path tmp = temp_name(a.object);
  std::vector<std::string> argv = {tc.compiler};
  argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
  argv.insert(argv.end(), {"-I" + pch_dir(tc).string(), "-o", tmp.string(), a.source.string()});
  std::string diagnostics;
  int status = run_command(argv, diagnostics);
  std::error_code ec;
  if (status != 0 || !fs::exists(tmp)) {
    fs::remove(tmp, ec);
    std::string command;
    for (const std::string& s : argv) command += (command.empty() ? "" : " ") + s;
    throw CompileError("cannot compile generated source " + a.source.string() + " (exit status " +
                           std::to_string(status) + ")\n" + first_lines(diagnostics, 40) +
                           "command: " + command,
                       a.source, diagnostics);
  }
  fs::rename(tmp, a.object, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot create " + a.object.string() + ": " + ec.message());
  }
  a.compiled = true;
  ++compiled_;
  return a;
}

ArtifactCache& default_artifact_cache() {
  static ArtifactCache cache(ArtifactCache::default_dir());
  return cache;
}

}  // namespace kir::cpu
