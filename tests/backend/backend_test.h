// Helpers for backend tests: parse + verify KIR text, build dense host views, run a kernel on
// the CPU backend and the interpreter side by side (oracle/differential.h). Every test uses one
// artifact cache directory for the whole test run (KIR_CACHE_DIR if set, else a directory under
// the build tree), so a re-run compiles nothing.
#pragma once
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "tests/interp/interp_test.h"
#include "interp/interpreter.h"
#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"

namespace kir::btest {

using itest::load;
using itest::values;
using itest::view;

// The suite's shared artifact cache.
inline cpu::ArtifactCache& cache() {
  static cpu::ArtifactCache c = [] {
    const char* env = std::getenv("KIR_CACHE_DIR");
    return cpu::ArtifactCache(env ? std::string(env) : std::string(KIR_BINARY_DIR) + "/kir-test-cache");
  }();
  return c;
}

inline cpu::CompileOptions options() {
  cpu::CompileOptions o;
  o.cache = &cache();
  return o;
}

// Runs on both and requires bitwise agreement; returns the backend's outputs.
inline std::map<std::string, interp::KernelArg> differential(const Module& m, const std::string& kernel,
                                                             const std::map<std::string, interp::KernelArg>& args) {
  std::map<std::string, interp::KernelArg> out;
  auto d = oracle::run_differential(m, kernel, args, &out, options());
  INFO(d.str());
  REQUIRE(d.backend_error.empty());
  REQUIRE(d.interp_error.empty());
  CHECK(d.ok());
  return out;
}

inline const interp::HostView& out_view(const std::map<std::string, interp::KernelArg>& args, const std::string& n) {
  return std::get<interp::HostView>(args.at(n));
}

}  // namespace kir::btest
