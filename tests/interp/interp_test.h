// Helpers for interpreter tests: parse + verify a KIR text, run a kernel on host views built from
// doubles/integers, read results back as doubles, and check run-time errors by kind and text.
#pragma once
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "numerics/format.h"

namespace kir::itest {

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

// A dense host view of dtype d filled from doubles (floats rounded once; integers exact).
inline interp::HostView view(DType d, const interp::Shape& shape, const std::vector<double>& vals = {}) {
  std::vector<uint64_t> bits;
  for (double v : vals) {
    if (is_any_float(d)) bits.push_back(num::from_double(v, d));
    else bits.push_back(num::make_int(d, static_cast<uint64_t>(static_cast<int64_t>(v))).bits);
  }
  return interp::make_host_view(d, shape, std::move(bits));
}

inline double as_double(DType d, uint64_t b) {
  if (is_any_float(d)) return num::to_double(b, d);
  if (is_signed_integer(d)) return static_cast<double>(num::as_signed(num::Scalar{d, b}));
  return static_cast<double>(b);
}

inline std::vector<double> values(const interp::HostView& h) {
  std::vector<double> out;
  for (uint64_t b : h.storage->bits) out.push_back(as_double(h.storage->dtype, b));
  return out;
}

inline interp::Scalar f32(double v) { return {DType::F32, num::from_double(v, DType::F32)}; }
inline interp::Scalar idx(int64_t v) { return {DType::Index, static_cast<uint64_t>(v)}; }

// Runs and expects a RuntimeError of `kind` whose text contains every fragment.
inline void expect_error(const Module& m, const std::string& kernel, const std::map<std::string, interp::KernelArg>& args,
                         interp::ErrorKind kind, const std::vector<std::string>& fragments) {
  interp::Interpreter it(m);
  try {
    it.run_kernel(kernel, args);
    FAIL("expected a run-time error");
  } catch (const interp::RuntimeError& e) {
    INFO(e.what());
    CHECK(e.kind() == kind);
    for (const auto& f : fragments) CHECK(std::string(e.what()).find(f) != std::string::npos);
  }
}

}  // namespace kir::itest
