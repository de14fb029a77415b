// Every manifest example of the rule table is real: the validator rejects it with a message naming
// the check ([C41, M4] names C41 and M4), and its fixed form validates without errors or that check.
//
// An example is one family file, loaded as `<family>.yaml` (the family its first `family:` key
// names) beside the bundled specs/types.yaml. Two forms for the checks that need more:
//  - a first line `# NAME.yaml` loads the text under that file name instead (loader checks on the
//    file name, L4/L5); `# types.yaml` loads it as the ADT file in place of the bundled one, with
//    no family file (L7, S15);
//  - a non-empty `args` is the op's paired Intent kernel (KIR text, as `kernels/<Op>.kir`): every
//    op of the example is checked for parity with it (P1-P8, specs/src/parity.h), and so is the
//    fixed form, against the same kernel.
// Parity with kernel files on disk is off here, so no example depends on the working directory.
#include <catch2/catch.hpp>
#include <regex>

#include "kir/rules/rule.h"
#include "specs/src/parity.h"
#include "tests/specs/spec_test_util.h"

using kir::rules::Lang;

namespace {

// The file an example is loaded as: `# NAME.yaml` on its first line, else `<family>.yaml`.
std::string file_of(const std::string& yaml) {
  std::smatch m;
  static const std::regex named(R"(^# ([A-Za-z0-9_.-]+\.yaml)\n)");
  if (std::regex_search(yaml, m, named)) return m[1].str();
  static const std::regex family(R"(\n\s*family:\s*([A-Za-z0-9_]+))");
  return (std::regex_search(yaml, m, family) ? m[1].str() : std::string("example")) + ".yaml";
}

kir::specs::SpecDiags validate_example(const std::string& yaml, const std::string& kernel) {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  const std::string file = file_of(yaml);
  if (file == "types.yaml") {
    kir::specs::load_types_text(yaml, file, m, d);
  } else {
    kir::specs::load_types_text(spec_test::types_text(), "types.yaml", m, d);
    kir::specs::load_family_text(yaml, file, m, d);
  }
  kir::specs::ValidateOptions opts;
  opts.parity = false;
  kir::specs::validate(m, d, opts);
  if (!kernel.empty())
    for (const auto& op : m.ops)
      if (op.signature_ok) kir::specs::check_parity_text(op, m, kernel, "kernels/" + op.name + ".kir", d);
  return d;
}

bool names(const kir::specs::SpecDiags& d, const std::string& id) {
  for (const auto& diag : d.sorted()) {
    std::string s = diag.str();
    if (s.find("[" + id + "]") != std::string::npos || s.find("[" + id + ",") != std::string::npos ||
        s.find(", " + id + "]") != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every manifest example is rejected naming its check, and its fix validates", "[rules]") {
  size_t n = 0;
  for (const auto& r : kir::rules::all()) {
    if (r.lang != Lang::Yaml) continue;
    ++n;
    std::string yaml(r.example), kernel(r.args);
    INFO(r.id << " example (" << file_of(yaml) << "):\n" << yaml << (kernel.empty() ? "" : "paired kernel:\n" + kernel));
    auto d = validate_example(yaml, kernel);
    INFO(d.render());
    CHECK(names(d, std::string(r.id)));  // an error, or for advisory checks a warning
    if (!r.fixed.empty()) {
      std::string fixed(r.fixed);
      auto fd = validate_example(fixed, kernel);
      INFO("fixed:\n" << fixed << fd.render());
      CHECK(!fd.has_errors());
      CHECK(!names(fd, std::string(r.id)));
    }
  }
  CHECK(n > 0);
}

TEST_CASE("a manifest example names its file on its first line, or is checked with a paired kernel", "[rules]") {
  const std::string copy = "CopyFwdOp:\n  family: copy\n  status: spec-only\n  signature:\n    forall: {N: Dim}\n"
                           "    inputs:\n      x: {dtype: float32, shape: \"[N]\"}\n"
                           "    outputs:\n      y: {dtype: float32, shape: \"[N]\"}\n"
                           "  workloads:\n  - {N: 4, label: small}\n  roofline: {flops: \"N\"}\n";
  CHECK(file_of(copy) == "copy.yaml");
  CHECK(validate_example(copy, "").render().empty());
  CHECK(file_of("# conv.yaml\n" + copy) == "conv.yaml");
  CHECK(names(validate_example("# conv.yaml\n" + copy, ""), "L4"));
  CHECK(names(validate_example("# types.yaml\nadts: []\n", ""), "S15"));
  const std::string kernel = "kernel @CopyFwdOp(%x: In<f32[N]>, %y: Out<f32[N]>) {\n  %zero = const() {value = 0} : index\n}\n";
  CHECK(validate_example(copy, kernel).render().empty());
  CHECK(names(validate_example(copy, "kernel @CopyFwdOp(%x: In<f32[N]>, %y: In<f32[N]>) {\n}\n"), "P3"));
}
