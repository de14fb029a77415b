// KIR_MUTANT=name for a scope (the backend reads it at every compile, and child processes
// inherit it); unset again when the scope ends, even when a check fails. Shared by the test
// suites that run the backend's seeded mutants.
#pragma once
#include <cstdlib>

namespace kir::test {

struct WithMutant {
  explicit WithMutant(const char* name) { setenv("KIR_MUTANT", name, 1); }
  ~WithMutant() { unsetenv("KIR_MUTANT"); }
  WithMutant(const WithMutant&) = delete;
  WithMutant& operator=(const WithMutant&) = delete;
};

}  // namespace kir::test
