// See load.h.
#include "kir/load.h"

#include "kir/normalize/normalize.h"
#include "kir/op_registry.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

namespace kir {

std::unique_ptr<Module> load_canonical(const std::string& path, Diagnostics& diags, std::string& source,
                                       bool* normalized, size_t* ops) {
  auto m = parse_file(path, diags, &source);
  if (!m) return nullptr;
  bool surface = false;
  size_t n = 0;
  for (const auto& f : m->functions)
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) {
      ++n;
      const OpInfo* info = find_op(op.name);
      surface = surface || (info && info->status == OpStatus::Surface);
    });
  if (normalized) *normalized = surface;
  if (ops) *ops = n;
  // The normalizer validates every shorthand; the verifier then checks the canonical result.
  if (surface && !normalize_module(*m, diags)) return nullptr;
  if (!verify_module(*m, diags)) return nullptr;
  return m;
}

}  // namespace kir
