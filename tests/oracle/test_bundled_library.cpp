// The bundled op library (issue 6): every manifest under specs/ops has a paired kernel and an
// independent reference, at least two rows, every optional input passed by one row and omitted by
// another; together the kernels use every op family the issue names; and `kir spec run specs`
// passes every case.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "kir/load.h"
#include "oracle/spec_run.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/parity.h"
#include "tests/run_tool.h"

namespace {

std::string root() { return KIR_SOURCE_DIR; }

const kir::specs::Manifest& library() {
  static kir::specs::Manifest m = [] {
    kir::specs::Manifest x;
    kir::specs::SpecDiags d;
    kir::specs::load_paths({root() + "/specs"}, x, d);
    return x;
  }();
  return m;
}

}  // namespace

TEST_CASE("every bundled op has a kernel, a reference and at least two rows", "[oracle][M19]") {
  const auto& m = library();
  CHECK(m.ops.size() >= 24);
  for (const auto& op : m.ops) {
    INFO(op.name);
    const std::string kp = kir::specs::paired_kernel_path(op);
    REQUIRE(!kp.empty());
    CHECK(std::filesystem::exists(kir::oracle::reference_path(kp)));
    kir::specs::SpecDiags d;
    auto calls = kir::specs::instantiate_op(op, m, d);
    std::set<std::string> labels;
    for (const auto& c : calls) labels.insert(c.label);
    CHECK(labels.size() >= 2);
  }
}

TEST_CASE("every optional input is passed by one row and omitted by another", "[oracle][M2]") {
  const auto& m = library();
  int optionals = 0;
  for (const auto& op : m.ops) {
    kir::specs::SpecDiags d;
    auto calls = kir::specs::instantiate_op(op, m, d);
    for (const auto& t : op.inputs) {
      if (t.optional == kir::specs::TensorDecl::Opt::No) continue;
      ++optionals;
      bool passed = false, omitted = false;
      for (const auto& c : calls)
        if (const auto* tc = c.tensor(t.name)) (tc->present ? passed : omitted) = true;
      INFO(op.name << " input " << t.name);
      CHECK(passed);
      CHECK(omitted);
    }
  }
  CHECK(optionals >= 5);
}

TEST_CASE("the bundled kernels use every op family issue 6 names", "[oracle][L9.7]") {
  std::set<std::string> used;
  for (const auto& e : std::filesystem::directory_iterator(root() + "/specs/kernels")) {
    if (e.path().extension() != ".kir") continue;
    kir::Diagnostics diags;
    std::string source;
    auto mod = kir::load_canonical(e.path().string(), diags, source);
    INFO(e.path().string() << "\n" << diags.render(source));
    REQUIRE(mod);
    for (const auto& f : mod->functions)
      kir::walk(static_cast<const kir::Region&>(f->body), [&](const kir::Operation& op) { used.insert(op.name); });
  }
  for (const char* family : {"region_fold", "region_scan", "for", "contract", "scaled_contract", "sparse_contract", "quantize",
                             "quantized_dot", "histogram", "scatter_reduce", "atomic.rmw", "random.uniform", "gather",
                             "subregion", "scan", "reduce", "parallel", "unique_store", "view.load", "view.store"}) {
    INFO(family);
    CHECK(used.count(family));
  }
}

TEST_CASE("kir spec run passes every case of the bundled library", "[oracle]") {
  auto r = kir::test::run_kir("spec run " + root() + "/specs");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find(" 0 failed, 0 skipped") != std::string::npos);
}
