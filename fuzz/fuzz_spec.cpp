// libFuzzer target for op-spec manifests: the first byte picks what the rest is fed to — a
// family file (loader, schema, validator, instantiation), an ADT file, or one expression
// (parser, kind checker, evaluator). Crashes, hangs, leaks and sanitizer reports are findings;
// diagnostics are the expected outcome for malformed input.
#include <cstdint>
#include <string>

#include "specs/src/expr_eval.h"
#include "specs/src/expr_parser.h"
#include "specs/src/kind_check.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"

namespace {

const char* kTypes = R"Y(adts:
  MGroupedLayout:
    sum:
      contiguous:
        python: a.Contiguous
        fields:
          packing: {type: "'tight' | 'aligned'", python: a.P}
          metadata_kind: {type: "'physical_psum' | 'per_row'", python: a.M}
          alignment: Dim
        invariant: "(packing == 'tight') == (alignment == 1) and alignment >= 1"
      masked:
        python: a.Masked
        fields: {max_m: Dim}
)Y";

void fuzz_family(const std::string& text) {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text(kTypes, "types.yaml", m, d);
  kir::specs::load_family_text(text, "fuzz.yaml", m, d);
  kir::specs::validate(m, d);
  (void)d.render();
}

void fuzz_types(const std::string& text) {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text(text, "types.yaml", m, d);
  kir::specs::validate(m, d);
}

void fuzz_expr(const std::string& text) {
  kir::specs::ParseError err;
  auto e = kir::specs::parse_expr(text, err);
  if (!e) return;
  (void)kir::specs::unparse(*e);
  kir::specs::KindScope scope;
  scope.names["M"] = kir::specs::Kind::dim();
  scope.names["S"] = kir::specs::Kind::shape();
  scope.names["p"] = kir::specs::Kind::maybe(kir::specs::Kind::integer());
  std::string kerr, id;
  (void)kir::specs::infer_kind(*e, scope, kerr, id);
  kir::specs::Env env;
  env.vars["M"] = kir::specs::Value::integer(7L);
  env.vars["S"] = kir::specs::Value::ints({2, 3});
  env.vars["p"] = kir::specs::Value::none();
  try {
    (void)kir::specs::eval(*e, env);
  } catch (const kir::specs::EvalError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: fuzz_family(text); break;
    case 1: fuzz_types(text); break;
    default: fuzz_expr(text); break;
  }
  return 0;
}
