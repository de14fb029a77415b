// The KIR verifier: one check per statically checkable rule of the language (checklist L1–L19).
// Every diagnostic carries the rule's checklist ID and the op's location.
#pragma once
#include "kir/ir.h"

namespace kir {

struct VerifyOptions {
  bool allow_surface = false;  // accept surface shorthands (before normalization)
};

// Returns true if the module is valid canonical KIR; otherwise diagnostics explain why.
bool verify_module(const Module& m, Diagnostics& diags, const VerifyOptions& opts = {});

}  // namespace kir
