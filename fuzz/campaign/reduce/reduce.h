// KIR-level reduction of a failing program (issue 12 item 5), in the manner of C-Reduce: a
// greedy fixpoint over reduction passes on the program itself, for findings that RapidCheck's
// shrinks of a generated plan cannot make smaller (hand-written or manifest programs, or plans
// shrunk as far as they go). docs/fuzzing.md "Reduction".
//
// Every candidate is printed, parsed and verified (one that does not verify is skipped), must
// be smaller than the current program by the reducer's measure (calls, then ops that are not
// constants, then ops, helpers, parameters, extent values, attributes, constant magnitude, text
// length) and must keep `still_fails` true. Passes, in the order each round tries them:
//   extents    halve an extent symbol's value (or 0, 1, value-1); the arguments' views are
//              sliced to their leading elements on every axis
//   unwrap     an `if` by one branch; a `for` deleted (results = inits) or its body once with
//              the counter at the domain's begin; a `while` deleted, its before-region only, or
//              one iteration; a `parallel` deleted or its body at one point
//   delete     a store, atomic, scatter or call (any op whose results nothing uses)
//   inline     a `call` replaced by the helper's body (unused helpers go with dead code)
//   replace    an op's result by an operand of the same type, an earlier value of that type,
//              or a constant (const, and full for tensors: 0, 1, false/true, the canonical NaN)
//   params     a kernel parameter nothing uses (its argument goes too)
//   constants  a `const` value toward 0 and simple values (0, 1, -1, trunc, half)
//   attributes an attribute dropped (optional ones: fdiv options, ...)
// After each accepted step dead code is eliminated (ops whose results nothing uses and that
// write nothing; helpers no kernel reaches).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "kir/ir.h"

namespace kir::fuzz {

using KernelArgs = std::map<std::string, interp::KernelArg>;
// Called with a verified candidate and its own copy of the arguments (the predicate may let the
// interpreter write into them). Exceptions count as false.
using ReducePredicate = std::function<bool(const Module&, const KernelArgs&)>;

struct ReduceOptions {
  double time_limit = 0;         // seconds (<= 0: none); checked before each predicate call
  int64_t max_candidates = -1;   // predicate calls (-1: no limit)
  bool special_constants = true; // the canonical NaN among the replacement constants
  bool shrink_extents = true;
  std::function<void(const std::string&)> log;  // one line per accepted step
};

struct ReduceStep {
  std::string pass, what;
  int ops = 0;  // ops of the program after the step
};

struct PassStats {
  int64_t judged = 0, invalid = 0, accepted = 0;
};

struct ReduceResult {
  std::string kir;                       // the reduced program (canonical text; the input when nothing was accepted)
  KernelArgs args;                       // its arguments
  std::map<std::string, int64_t> dims;   // extent symbols of its kernel under args
  int ops_before = 0, ops_after = 0;     // ops in every function, terminators included
  std::vector<ReduceStep> steps;         // accepted steps, in order
  int64_t candidates = 0;                // predicate calls
  int64_t invalid = 0;                   // candidates that did not parse or verify (never judged)
  double seconds = 0;
  bool initial_fails = false;            // the predicate held for the input (else nothing was tried)
  bool exhausted = false;                // a budget ran out before the fixpoint
  std::map<std::string, PassStats> passes;  // per pass ("dce" for the first dead-code step)
  std::string summary() const;           // "reduced 31 -> 9 ops in 14 steps (212 candidates, 3.1 s)"
};

// Throws std::invalid_argument when kir_text does not parse and verify or has no such kernel.
ReduceResult reduce_program(const std::string& kir_text, const std::string& kernel, const KernelArgs& args,
                            const ReducePredicate& still_fails, const ReduceOptions& o = {});

// Ops of a module: every op of every function, nested and terminators included.
int count_ops(const Module& m);

// Arguments with storages of their own (the interpreter writes into the storages it is given).
KernelArgs copy_args(const KernelArgs& a);

// The arguments of `kernel` when its extent symbols take the values `dims` instead of the ones
// `args` binds: every view's data is sliced to its leading elements on every axis (laid out
// again for the new extents, declared strides and offset evaluated anew). False when an extent
// would grow or cannot be evaluated.
bool reshape_args(const Function& kernel, const KernelArgs& args, const std::map<std::string, int64_t>& dims,
                  KernelArgs& out);

}  // namespace kir::fuzz
