// Shared by the generator tests: parse and verify a generated case, and the sizes the tests
// sample at.
#pragma once
#include <memory>
#include <string>

#include "fuzz/gen/gen.h"
#include "kir/ir.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

namespace kir::fuzz::test {

// The verified module of a case, or null with the diagnostics in `why`.
inline std::unique_ptr<Module> load_case(const GeneratedCase& c, std::string& why) {
  Diagnostics d;
  auto m = parse_module(c.kir, "generated.kir", d);
  if (m && verify_module(*m, d)) return m;
  why = d.render(c.kir);
  return nullptr;
}

// Sizes cycle through small and full programs.
inline int size_for(uint64_t seed) { return 10 + static_cast<int>(seed % 10) * 10; }

// Options generating only family `f` (what `kir fuzz --families f` runs).
inline GenOptions only_family(const std::string& f) {
  GenOptions o;
  for (const auto& n : family_names())
    if (n != f) o.family_weights[n] = 0;
  if (o.family_weights.count(f) == 0) o.family_weights[f] = 2;  // an opt-in family (weight 0) too
  return o;
}

}  // namespace kir::fuzz::test
