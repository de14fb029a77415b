#include "backends/cpu/provider/toolchain.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace kir::cpu {
namespace {

std::vector<std::string> split_spaces(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    std::filesystem::path p = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

// Flags that would let the compiler change floating-point results (or flush denormals at load).
bool changes_fp_semantics(const std::string& f) {
  static const char* const bad[] = {"-ffast-math", "-Ofast", "-funsafe-math-optimizations",
                                    "-ffinite-math-only", "-fno-signed-zeros", "-freciprocal-math",
                                    "-fassociative-math", "-ffp-contract=fast", "-ffp-contract=on",
                                    "-mdaz-ftz", "-fcx-limited-range"};
  for (const char* b : bad)
    if (f == b) return true;
  return false;
}

std::string probe_version(const std::string& compiler) {
  static std::mutex mu;
  static std::map<std::string, std::string> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(compiler); it != cache.end()) return it->second;
  std::string out;
  int status = run_command({compiler, "--version"}, out);
  if (status != 0)
    throw std::runtime_error("cannot run the C++ compiler '" + compiler + "' (`" + compiler +
                             " --version` exited with " + std::to_string(status) + "): " + out);
  std::string first = out.substr(0, out.find('\n'));
  cache.emplace(compiler, first);
  return first;
}

}  // namespace

std::string Toolchain::identity() const {
  std::string s = "compiler=" + compiler + "\nversion=" + version + "\nflags=";
  for (const std::string& f : flags) s += f + ' ';
  return s;
}

Toolchain detect_toolchain(const std::string& target_flags) {
  Toolchain tc;
  if (const char* env = std::getenv("KIR_CXX"); env && *env) {
    tc.compiler = env;
  } else {
    for (const char* name : {"c++", "g++"})
      if (tc.compiler = find_on_path(name); !tc.compiler.empty()) break;
    if (tc.compiler.empty())
      throw std::runtime_error("no C++ compiler: set KIR_CXX or put c++ or g++ on PATH");
  }
  tc.version = probe_version(tc.compiler);
  // -fno-trapping-math (clang's default) changes no value: kernels run with every floating-point
  // exception masked (runtime/fp_env.h), so no operation can trap, and GCC may then evaluate a
  // float conversion or comparison on both sides of a select — which is what lets it vectorize
  // loops with selects (canonical NaNs, clamps) instead of giving up on "control flow".
  tc.flags = {"-std=c++20",      "-O3",           "-fPIC",          "-shared", "-fno-fast-math",
              "-ffp-contract=off", "-fno-math-errno", "-fno-trapping-math", "-fvisibility=hidden", "-w"};
  // GCC (seen with 12.2) miscompiles the guarded divisions generated code is full of: its phiopt
  // pass rewrites `s = b == 0 ? 1 : b; s == -1` into `b == -1` but gives b the select's nonzero
  // range, and a later pass then drops the `b == 0` guard — the kernel divides by zero
  // (tests/backend/test_pipeline_small.cpp, "guarded integer division"). Clang is not affected.
  if (tc.version.find("clang") == std::string::npos) tc.flags.push_back("-fno-ssa-phiopt");
  for (std::string& f : split_spaces(target_flags)) {
    if (changes_fp_semantics(f))
      throw std::invalid_argument("target flag '" + f + "' would change floating-point semantics");
    tc.flags.push_back(std::move(f));
  }
  return tc;
}

int run_command(const std::vector<std::string>& argv, std::string& output) {
  output.clear();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    output = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int err = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (err != 0) {
    ::close(fds[0]);
    output = "cannot start '" + argv[0] + "': " + std::strerror(err);
    return -1;
  }
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      output.append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace kir::cpu
