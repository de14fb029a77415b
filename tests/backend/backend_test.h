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
#include "interp/interpreter.h"
#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"
#include "oracle/backend_run.h"
#include "oracle/differential.h"

namespace kir::btest {

inline std::unique_ptr<Module> load(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  INFO(d.render(text));
  REQUIRE(m);
  bool ok = verify_module(*m, d);
  INFO(d.render(text));
  REQUIRE(ok);
  return m;
}

inline interp::HostView view(DType d, const interp::Shape& shape, const std::vector<double>& vals = {}) {
  std::vector<uint64_t> bits;
  for (double v : vals) {
    if (is_any_float(d)) bits.push_back(num::from_double(v, d));
    else bits.push_back(num::make_int(d, static_cast<uint64_t>(static_cast<int64_t>(v))).bits);
  }
  return interp::make_host_view(d, shape, std::move(bits));
}

inline std::vector<double> values(const interp::HostView& h) {
  std::vector<double> out;
  for (uint64_t b : h.storage->bits) {
    DType d = h.storage->dtype;
    if (is_any_float(d)) out.push_back(num::to_double(b, d));
    else if (is_signed_integer(d)) out.push_back(static_cast<double>(num::as_signed(num::Scalar{d, b})));
    else out.push_back(static_cast<double>(b));
  }
  return out;
}

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
