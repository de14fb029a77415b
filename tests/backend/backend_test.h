// Helpers for backend tests: parse + verify KIR text, build dense host views, run a kernel on
// the CPU backend and the interpreter side by side (oracle/differential.h). Every test uses one
// artifact cache directory for the whole test run (KIR_CACHE_DIR if set, else a directory under
// the build tree), so a re-run compiles nothing.
#pragma once
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/impl/config.h"
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

// Runs on both (the backend built from config row `row`, or the default one) and requires
// bitwise agreement; returns the backend's outputs.
inline std::map<std::string, interp::KernelArg> differential(const Module& m, const std::string& kernel,
                                                             const std::map<std::string, interp::KernelArg>& args,
                                                             const std::string& row = "") {
  auto opt = options();
  opt.config_row = row;
  std::map<std::string, interp::KernelArg> out;
  auto d = oracle::run_differential(m, kernel, args, &out, opt);
  INFO("row " << (row.empty() ? "(default)" : row) << "\n" << d.str());
  REQUIRE(d.backend_error.empty());
  REQUIRE(d.interp_error.empty());
  CHECK(d.ok());
  return out;
}

// Replaces the active config rows for the scope of a test, restoring the built-in ones after.
struct WithRows {
  explicit WithRows(const std::string& text) { cpu::set_config_rows(cpu::parse_config_rows(text, "rows.yaml")); }
  ~WithRows() {
    cpu::set_config_rows(cpu::parse_config_rows(std::string(cpu::default_config_rows_text()), "<built-in>/config_rows.yaml"));
  }
  WithRows(const WithRows&) = delete;
  WithRows& operator=(const WithRows&) = delete;
};

// The CPU IR printed after `pass` when kernel `kernel` of `m` is compiled from config row `row`
// (the source is returned through `source` when given).
inline std::string ir_after(const Module& m, const std::string& kernel, const std::string& row, const std::string& pass,
                            std::string* source = nullptr) {
  auto opt = options();
  opt.config_row = row;
  std::ostringstream dump;
  opt.print_after_all = &dump;
  auto src = cpu::compile_to_source(m, kernel, opt);
  if (source) *source = src.source;
  const std::string text = dump.str();
  const auto from = text.find("// ----- CPU IR after " + pass);
  REQUIRE(from != std::string::npos);
  return text.substr(from, text.find("// ----- CPU IR after", from + 10) - from);
}

inline const interp::HostView& out_view(const std::map<std::string, interp::KernelArg>& args, const std::string& n) {
  return std::get<interp::HostView>(args.at(n));
}

// The number of NaN elements of a float result `h`; each must be its dtype's canonical NaN
// (the language's rule for every NaN a computation produces: only bitcast and select move a
// payload), which a float comparison of results cannot see.
inline size_t require_canonical_nans(const interp::HostView& h) {
  const DType d = h.storage->dtype;
  const uint64_t canon = num::float_format(d).canonical_nan;
  size_t nans = 0;
  for (size_t i = 0; i < h.storage->bits.size(); ++i) {
    const uint64_t b = h.storage->bits[i];
    if (!num::is_nan(b, d)) continue;
    ++nans;
    INFO("element " << i << " bits 0x" << std::hex << b << ", canonical 0x" << canon);
    REQUIRE(b == canon);
  }
  return nans;
}

// A kernel @mm: %c = %a @ %b over one reduce pair, operands of dtype `dt` into an `acc`
// accumulator; with transpose_a, %a is K x M (reduce pair [0, 0]).
inline std::string matmul_kir(const std::string& dt, const std::string& acc, bool transpose_a) {
  const std::string ashape = transpose_a ? "[K, M]" : "[M, K]";
  const std::string am = transpose_a ? "1" : "0", ak = transpose_a ? "0" : "1";
  return "kernel @mm(%a: In<" + dt + ashape + ">, %b: In<" + dt + "[K, N]>, %c: Out<" + acc + R"([M, N]>) {
  %zero = const() {value = 0} : index
  %m = dim(%b) {axis = 0} : index
  %k = dim(%b) {axis = 0} : index
  %n = dim(%b) {axis = 1} : index
  %mm = dim(%a) {axis = )" + am + R"(} : index
  %dm = domain(%zero, %mm) : domain<M>
  %dk = domain(%zero, %k) : domain<K>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ik = indices(%dk) : index[K]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [)" + am + "]} : index" + ashape + R"(
  %ak = broadcast(%ik) {dims = [)" + ak + "]} : index" + ashape + R"(
  %arel = relation()" + std::string(transpose_a ? "%ak, %am" : "%am, %ak") + R"() : relation<2 -> )" + ashape + R"(>
  %bk = broadcast(%ik) {dims = [0]} : index[K, N]
  %bn = broadcast(%in) {dims = [1]} : index[K, N]
  %brel = relation(%bk, %bn) : relation<2 -> [K, N]>
  %av = view.load(%a, %arel) : )" + dt + ashape + R"(
  %bv = view.load(%b, %brel) : )" + dt + R"([K, N]
  %acc = contract(%av, %bv) {batch = [], reduce = [[)" + ak + R"(, 0]]} : )" + acc + R"([M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";
}

}  // namespace kir::btest
