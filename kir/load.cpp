// See load.h.
#include "kir/load.h"

#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

namespace kir {
namespace {

// Normalize (when any surface form is present) and verify a parsed module.
std::unique_ptr<Module> canonicalize(std::unique_ptr<Module> m, Diagnostics& diags, bool* normalized, size_t* ops) {
  if (!m) return nullptr;
  size_t n = 0;
  for (const auto& f : m->functions) walk(static_cast<const Region&>(f->body), [&](const Operation&) { ++n; });
  // Any surface form (normalize.h: shorthands, implicit broadcast, region ops without segments)
  // sends the module through the normalizer, which validates it; the verifier then checks the
  // canonical result.
  bool surface = needs_normalization(*m);
  if (normalized) *normalized = surface;
  if (ops) *ops = n;
  if (surface && !normalize_module(*m, diags)) return nullptr;
  if (!verify_module(*m, diags)) return nullptr;
  return m;
}

}  // namespace

std::unique_ptr<Module> load_canonical(const std::string& path, Diagnostics& diags, std::string& source,
                                       bool* normalized, size_t* ops) {
  return canonicalize(parse_file(path, diags, &source), diags, normalized, ops);
}

std::unique_ptr<Module> load_canonical_text(std::string_view text, const std::string& file, Diagnostics& diags,
                                            bool* normalized, size_t* ops) {
  return canonicalize(parse_module(text, file, diags), diags, normalized, ops);
}

}  // namespace kir
