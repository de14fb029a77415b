// The C++ toolchain the provider compiles generated kernels with: which compiler, its version
// and the exact flags. Its identity() is part of every artifact key, so a different compiler,
// version or flag set never reuses an object built by another. The flags keep IEEE semantics
// (no fast-math, no contraction, no denormal flushing): generated code must compute the same
// bits as the reference interpreter.
#pragma once
#include <string>
#include <vector>

namespace kir::cpu {

struct Toolchain {
  std::string compiler;            // a path, or a name posix_spawnp finds on PATH
  std::string version;             // first line of `compiler --version`
  std::vector<std::string> flags;  // every flag of the compile command except -I/-o/source
  std::string identity() const;    // compiler path + version + flags
};

// The compiler from $KIR_CXX, else `c++` or `g++` found on PATH, probed once per process (per
// compiler); flags: kir's fixed set plus target_flags (space-separated, e.g. "-mavx2 -mfma").
// Throws std::runtime_error if no compiler is found or the probe fails, std::invalid_argument
// if target_flags contains a flag that would change floating-point semantics.
Toolchain detect_toolchain(const std::string& target_flags);

// Runs argv (argv[0] looked up on PATH) with stdout and stderr captured into `output`; returns
// the exit status (or 128 + signal), -1 if the process could not be started (output says why).
int run_command(const std::vector<std::string>& argv, std::string& output);

}  // namespace kir::cpu
